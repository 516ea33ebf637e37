"""Money in the race: the paid places if the race ended now, what each drafted ticket would pay then, and the
words of the race screen's money and odds (en, nl, es).

"If the race ended now" (docs/rules.md 5): the mascots already placed keep their paid places; the ones still
racing take the open places by how far ahead they are (furthest first; level mascots in mascot order, as the
engine places the remaining mascot). The open places are always a run: crossings take the best ones, DQs the
worst. A YES/NO ticket counts the side bet as answered so far: YES once it happened, else NO.

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

WORDS: dict[str, dict[str, str]] = {
    "en": {"after_card": "After card {n}", "after_pass_card": "After pass {p} card {n}",
           "before_start": "Before the start", "if_ended_now": "If it ended now", "now": "Now"},
    "nl": {"after_card": "Na kaart {n}", "after_pass_card": "Na ronde {p} kaart {n}",
           "before_start": "Voor de start", "if_ended_now": "Als het nu eindigde", "now": "Nu"},
    "es": {"after_card": "Tras la carta {n}", "after_pass_card": "Tras ronda {p} carta {n}",
           "before_start": "Antes de salir", "if_ended_now": "Si acabara ahora", "now": "Ahora"},
}
"""The money panel's and the odds header's own words (the rest are ``companion.screen.words``)."""


def word(lang: str, key: str, **values: object) -> str:
    """The text for ``key`` in ``lang`` (English when the language is not known), values filled in."""
    return WORDS.get(lang, WORDS["en"])[key].format(**values)


def odds_label(lang: str, odds_card: int | None, pass_no: int, reveals_per_pass: int) -> str:
    """Which card the odds belong to: ``"After card 5"`` (of this pass), ``"After pass 1 card 15"`` (an
    earlier pass), ``"Before the start"`` (0), or ``""`` when not known. ``odds_card`` counts the race's
    revealed cards over all passes."""
    if odds_card is None:
        return ""
    if odds_card <= 0:
        return word(lang, "before_start")
    p, n = (odds_card - 1) // reveals_per_pass + 1, (odds_card - 1) % reveals_per_pass + 1
    return word(lang, "after_card", n=n) if p == pass_no else word(lang, "after_pass_card", p=p, n=n)


def placings_now(race: Race) -> dict[str, int]:
    """Each mascot's paid place (1-4) if the race ended after the cards revealed so far, by mascot name."""
    from companion.rules.mascots import MASCOTS
    state = race.state
    placed = dict(race.outcome.placings)
    crossed = sum(1 for m in state.mascots if m.status.value == "finished")
    out = sum(1 for m in state.mascots if m.status.value == "dq")
    open_places = list(range(crossed + 1, len(MASCOTS) - out + 1))
    racing = sorted((i for i, m in enumerate(state.mascots) if m.status.value == "racing"),
                    key=lambda i: -state.mascots[i].space)
    result = {m.value: p for m, p in placed.items()}
    for i, place in zip(racing, open_places):
        result[state.mascots[i].mascot.value] = place
    return result


def pays_now(bets: Iterable[Bet], race: Race, side_answer: bool | None, table: TicketTable,
             race_no: int) -> tuple[int, ...]:
    """What each of ``bets`` would pay (dollars, negative for a lost risky ticket, doubled if marked) if the
    race ended now; ``side_answer`` is the side bet's answer so far (True once it happened)."""
    from companion.rules.betting import bet_amount
    from companion.rules.mascots import Mascot
    placings = {Mascot(k): v for k, v in placings_now(race).items()}
    return tuple(bet_amount(b, placings, bool(side_answer), table, race_no) for b in bets)


__all__ = ["WORDS", "odds_label", "pays_now", "placings_now", "word"]
