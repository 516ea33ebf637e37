"""The screen model of a whole table in any phase, built from a :class:`companion.view.table_view.TableView`.

Players are shown by their resolved name (typed at the table, else the config's); an unnamed seat is "Seat N"
in the screen's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence, TypedDict, Unpack

from companion.call.words import life_outcome
from companion.rules.phases import Phase
from companion.rules.betting import Bet
from companion.screen.open_bets import open_bet_views
from companion.screen.model import ScreenFields, ScreenModel, SeatView, StackView, StandingView, from_race
from companion.screen.words import say
from companion.view.table_view import Odds, TableView, build

if TYPE_CHECKING:
    from companion.rules.table import Table
    from companion.screen.moments import Moment

SCREEN_FOR_PHASE = {"new-game": "attract", "setup": "setup", "betting": "betting", "adding-cards": "betting",
                    "racing": "race", "payouts": "payouts", "game-over": "game-over"}
PHASE_TITLE = {phase: say("en", "phase_" + phase) for phase in SCREEN_FOR_PHASE}
"""The header's phase text in English (``companion.screen.words`` has it in each language)."""


class ViewOptions(TypedDict, total=False):
    """The options of :func:`from_view` by name, as :func:`from_table` passes them on."""

    log: tuple[str, ...]
    message: str | None
    message_at: float
    odds: Odds | None
    status: tuple[str, ...]
    money_before: Mapping[int, int] | None
    name_entry: tuple[int, int, str] | None
    language: str
    form: str | None
    join_url: str | None
    odds_stale: bool
    moments: tuple[Moment, ...]
    moment_at: float
    race_end: bool
    odds_card: int | None


def seat_name(seat: int, view: TableView | None = None, language: str = "en") -> str:
    """The screen's name of 0-based ``seat``: the view's resolved name when it has one, else "Seat N" in
    ``language``."""
    unnamed = say(language, "seat", n=seat + 1)
    return view.seat_name(seat, unnamed) if view is not None else unnamed


def ticket_text(bet: Bet, language: str = "en") -> str:
    """A drafted ticket for the screen: ``"Hurley top, risky"`` (`` x2`` when doubled), in ``language``."""
    stack, level = bet.ticket.id.split("-")
    name = say(language, stack).upper() if stack in ("yes", "no") else stack.capitalize()
    text = f"{name} {say(language, level).lower()}, {say(language, bet.side).lower()}"
    return text + (" x2" if bet.double else "")


def stack_views(view: TableView) -> tuple[StackView, ...]:
    """Each ticket stack as the view has it (``TableView.stacks``): tickets left, the top ticket and what it
    pays on each side (a mascot stack's first three places)."""
    return tuple(StackView(o.stack, o.left, o.top, o.safe if o.is_side else o.safe[:3],
                           o.risky if o.is_side else o.risky[:3]) for o in view.stacks)


def from_table(table: Table, *, names: Sequence[str] = (), **options: Unpack[ViewOptions]) -> ScreenModel:
    """The screen model of a ``companion.rules.table.Table`` (``names``: the config's player names by seat);
    ``options`` as for :func:`from_view`."""
    return from_view(build(table, names=names), **options)


def from_view(view: TableView, *, log: tuple[str, ...] = (), message: str | None = None, message_at: float = 0.0,
              odds: Odds | None = None, status: tuple[str, ...] = (), money_before: Mapping[int, int] | None = None,
              name_entry: tuple[int, int, str] | None = None, language: str = "en",
              form: str | None = None, join_url: str | None = None, odds_stale: bool = False,
              odds_card: int | None = None, moments: tuple[Moment, ...] = (), moment_at: float = 0.0,
              race_end: bool = False) -> ScreenModel:
    """The screen model for a table's view in any phase.

    ``money_before`` maps seats to their money before the last payout (shown on the payouts screen);
    ``language`` (en, nl, es) the screen's words; ``form`` a line of mascot form from past games (attract and
    setup screens); ``join_url`` the phone page's address (a QR code); ``odds_stale`` the ``odds`` were made
    for an earlier card; ``moments`` the big moments of the last card from ``moment_at``
    (``companion.screen.moments``); ``race_end`` keeps the race just ended on the race screen at payouts
    (with the money as it was before the payout). ``odds_card`` the race cards revealed when the
    odds were made.
    """
    if view.service is not None:  # the service mode: its own screen, nothing of the game
        return ScreenModel(screen="service", service=view.service, language=language, status=status,
                           message=message, message_at=message_at)
    phase = view.phase.value
    race_end = race_end and view.phase is Phase.PAYOUTS and view.race is not None
    screen = "race" if race_end else SCREEN_FOR_PHASE[phase]
    common: ScreenFields = dict(screen=screen, phase=say(language, "phase_" + phase), log=log,
                                  message=message, message_at=message_at, status=status, odds=odds,
                                  odds_stale=bool(odds) and odds_stale, odds_card=odds_card if odds else None,
                                  name_entry=name_entry, language=language, table_phase=phase, form=form,
                                  moments=moments, moment_at=moment_at)
    if join_url:
        common["join_url"] = join_url
    game = view.game
    if game is None:
        return ScreenModel(**common)
    def name(seat: int) -> str:
        return seat_name(seat, view, language)

    before = dict(money_before or {})
    if view.phase is Phase.PAYOUTS and game.settled and not before:
        earlier = game.results[-2]["money"] if len(game.results) > 1 else [game.figures.start_money] * game.players
        before = dict(enumerate(earlier))
    due = set(game.seats_without_double) if game.draft_complete else set()
    paid = ({seat: tuple(t.paid for t in money) for seat, money in view.tickets.items()}
            if view.phase is Phase.PAYOUTS and game.settled and view.race is not None else {})
    codes = view.seat_codes  # a phone claims these seats with the code shown beside them

    def shown(s: int) -> str:
        return name(s) + (f" · {codes[s + 1]}" if s + 1 in codes else "")
    now = ({seat: tuple(t.if_ended or 0 for t in money) for seat, money in view.tickets.items()}
           if view.phase is Phase.RACING and view.race is not None else {})  # if_ended is given while racing
    seats = tuple(SeatView(shown(s.seat), before.get(s.seat, s.money) if race_end else s.money,
                           before.get(s.seat), tuple(
        ticket_text(b, language) + (f": {paid[s.seat][k]:+d}" if s.seat in paid and paid[s.seat][k] is not None else "")
        for k, b in enumerate(s.tickets)), s.seat in due,
        tuple(b.ticket.stack for b in s.tickets), now.get(s.seat, ())) for s in view.seats)
    known: dict[str, list[str]] = {}
    for code in game.known_cards:
        card = game.deck.by_code(code).card
        known.setdefault("green" if card.who is None else card.who.value, []).append(card.notation())
    drafter = game.current_drafter
    double_prompt = double_short = None
    if due and view.phase is Phase.BETTING:
        who = ", ".join(name(s) for s in sorted(due))
        double_prompt = say(language, "double_due", race=game.race_no, names=who)
        double_short = say(language, "double_due_short", names=who)
    elif game.is_double_race and view.phase is Phase.BETTING and drafter is not None \
            and game.variant.value == "standard":
        double_prompt = say(language, "double_later", race=game.race_no)
        double_short = say(language, "double_later_short")
    standings = tuple(StandingView(name(s.seat), s.money, s.place, life_outcome(s.money, language))
                      for s in game.standings)
    stacks = stack_views(view)
    fields = ScreenFields(**common, race_no=game.race_no, players=game.players, seats=seats,
                          known_cards={k: tuple(v) for k, v in known.items()}, stacks=stacks,
                          face_up_total=game.figures.face_up,
                          stacks_left={s.stack: s.left for s in stacks},
                          whose_pick=name(drafter) if drafter is not None else None, double_prompt=double_prompt,
                          double_short=double_short,
                          side_bet=_question(view, language), side_bet_answer=view.side_bet.happened,
                          standings=standings, life_outcome=standings[0].line if standings else None,
                          open_bets=open_bet_views(view, shown))
    if view.race is not None:
        return from_race(view.race, **fields)
    return ScreenModel(**fields)


def _question(view: TableView, language: str = "en") -> str | None:
    """The side bet's question, in ``language`` where the phrase catalogue has it (else the data file's)."""
    game = view.game
    if game is None or not game.side_bet:
        return None
    if language != "en":
        from companion.call.words import load_catalogue
        translated = load_catalogue(language).sidebets.get(game.side_bet)
        if translated:
            return translated
    card = view.side_bet.card
    return card.question if card is not None else None


__all__ = ["PHASE_TITLE", "SCREEN_FOR_PHASE", "ViewOptions", "from_table", "from_view", "seat_name", "stack_views",
           "ticket_text"]
