"""Money in the race: the paid places if the race ended now, what each drafted ticket would pay then, and the
label saying which card the odds belong to.

"If the race ended now" (docs/rules.md 5): the mascots already placed keep their paid places; the ones still
racing take the open places by how far ahead they are, as the engine places them at the race's end. A YES/NO
ticket counts the side bet as answered so far: YES once it happened, else NO.

>>> from companion.rules import Race
>>> race = Race()
>>> _ = race.push_text("H+3")
>>> placings_now(race)["hurley"]
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from companion.rules import Race
    from companion.rules.betting import Bet, TicketTable

def odds_label(lang: str, odds_card: int | None, pass_no: int, reveals_per_pass: int) -> str:
    """Which card the odds belong to: ``"After card 5"`` (of this pass), ``"After pass 1 card 15"`` (an
    earlier pass), ``"Before the start"`` (0), or ``""`` when not known. ``odds_card`` counts the race's
    revealed cards over all passes."""
    from companion.screen.words import say
    if odds_card is None:
        return ""
    if odds_card <= 0:
        return say(lang, "before_start")
    p, n = (odds_card - 1) // reveals_per_pass + 1, (odds_card - 1) % reveals_per_pass + 1
    return say(lang, "after_card", n=n) if p == pass_no else say(lang, "after_pass_card", p=p, n=n)


def placings_now(race: Race) -> dict[str, int]:
    """Each mascot's paid place (1-4) if the race ended after the cards revealed so far, by mascot name
    (``companion.rules.race.Race.placings_if_ended``)."""
    return {m.value: p for m, p in race.placings_if_ended().items()}


def pays_now(bets: Iterable[Bet], race: Race, side_answer: bool | None, table: TicketTable,
             race_no: int) -> tuple[int, ...]:
    """What each of ``bets`` would pay (dollars, negative for a lost risky ticket, doubled if marked) if the
    race ended now; ``side_answer`` is the side bet's answer so far (True once it happened)."""
    from companion.rules.betting import bet_amount
    from companion.rules.mascots import Mascot
    placings = {Mascot(k): v for k, v in placings_now(race).items()}
    return tuple(bet_amount(b, placings, bool(side_answer), table, race_no) for b in bets)


__all__ = ["odds_label", "pays_now", "placings_now"]
