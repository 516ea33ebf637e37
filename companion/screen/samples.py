"""Sample states for each screen (docs, screenshots, tests), taken from a real table where they can be.

The betting, payouts and game-over samples replay the demo's recorded game (``companion.tools.demo``) through a
``companion.rules.table.Table`` with four named players, so the stacks, tickets, money and standings are the
rules engine's own. The race sample is a ``Race`` after :data:`SAMPLE_CARDS` (or the cards given).
"""

from __future__ import annotations

import functools

from typing import TYPE_CHECKING, Mapping

from companion.screen.model import SCREENS, ScreenModel, SeatView, from_race

if TYPE_CHECKING:
    from companion.rules import Event, Race
    from companion.rules.table import Table
    from companion.rules.betting import TicketTable
    from companion.view.table_view import TableView

SAMPLE_CARDS: tuple[str, ...] = ("H+3", "G+2>", "DF", "M*", "A+1", "HT", "D+1<", "G+3", "M+2", "H+2", "A+2", "MF",
                                 "G*", "D+2", "H-2", "HS02", "DF")
"""The cards of the sample race: a fold, a finish, a knockout, a fallen and a turned-around mascot."""

SAMPLE_NAMES: tuple[str, ...] = ("Ann", "Bram", "Carmen", "Dev")
SAMPLE_ODDS = {"gobbler": (0.31, 0.27, 0.24, 0.18), "hurley": (0.22, 0.26, 0.27, 0.25),
               "dangle": (0.18, 0.22, 0.25, 0.35), "mum": (0.29, 0.25, 0.24, 0.22)}
SAMPLE_STATUS = ("scanner: ok", "leds: LEDs: mock strip, 112 pixels", "voice: en")

# where each screen's sample stops in the demo game: (phase, race, inputs to apply after reaching it)
_STOPS = {"setup": ("setup", 1, 9), "betting": ("betting", 3, 6), "payouts": ("payouts", 2, 0),
          "game-over": ("game-over", 3, 0)}


def sample_race(cards: tuple[str, ...] = SAMPLE_CARDS) -> tuple[Race, list[Event]]:
    """The sample race: a ``companion.rules.Race`` with ``cards`` pushed, and the events.

    Raises a ``companion.rules`` error (a ValueError) naming a card that is not a card or cannot be revealed.
    """
    from companion.rules import Race
    race = Race()
    events: list[Event] = []
    for text in cards:
        events.extend(race.push_text(text))
    return race, events


SAMPLE_FORM = "Mum has won 4 of the last 10"


SAMPLE_FORMS = {"en": SAMPLE_FORM, "nl": "Mum won 4 van de laatste 10", "es": "Mum ha ganado 4 de las últimas 10"}
"""The sample line of mascot form in each language (the kiosk's ``history.form_line`` words, for 4 of 10)."""


def sample_form(language: str = "en") -> str:
    """The sample line of mascot form in ``language`` (English for another one)."""
    return SAMPLE_FORMS.get(language, SAMPLE_FORM)


def sample_table(screen: str) -> Table:
    """A ``Table`` replaying the demo game with four named players up to the sample point of ``screen``."""
    from companion.rules.table import Table, realise
    from companion.tools.demo import parse_script, script_path
    import random
    phase, race_no, extra = _STOPS[screen]
    table = Table()
    rng = random.Random(2026)
    reached = None
    for text, _wait in parse_script(script_path().read_text("utf-8")):
        if reached is not None:
            if extra <= 0:
                break
            extra -= 1
        try:
            table.apply(text, realise(text, rng))
        except ValueError:
            continue  # the script's deliberate wrong scans
        if text.startswith("HS-PLAYERS-"):
            assert table.game is not None  # a players scan that was taken starts the game
            for seat, name in enumerate(SAMPLE_NAMES[:table.game.players], 1):
                table.apply(f"HS-NAME-{seat}:{name}")
        if reached is None and table.phase == phase and table.game is not None and table.game.race_no == race_no:
            reached = True
    return table


MOMENT_CARDS: dict[str, tuple[str, ...]] = {
    "moment-fall": SAMPLE_CARDS[:12], "moment-knockout": SAMPLE_CARDS, "moment-out": (*SAMPLE_CARDS[:12], "M>"),
    "moment-finish": SAMPLE_CARDS[:16], "moment-side-bet": (*SAMPLE_CARDS, "M+1"),
    "moment-winner": (*SAMPLE_CARDS, "M+1"), "race-end": (*SAMPLE_CARDS, "M+1")}
"""The sample race of each moment screen: its last card makes the moment (Mum falls; Dangle is knocked out; Mum
swerves off the side; Gobbler crosses first; Mum crawls over the line second and ends the race)."""
SAMPLE_SIDE_BET = "knockout"
"""The side bet of the race-end samples (a knockout happened: the answer is yes)."""


def sample_moment(screen: str, language: str = "en") -> ScreenModel:
    """The race screen just after the card of a moment screen (:data:`MOMENT_CARDS`), its moments starting at
    time 0: ``moment-<kind>`` shows only that moment, ``race-end`` the whole queue of the card that ended the
    race (``--now`` steps through it: the finish, the winner, the side bet's answer)."""
    from companion.rules import Race
    from companion.rules.game_events import SideBetAnswered
    from companion.screen.moments import moments_for
    cards = MOMENT_CARDS[screen]
    race, events = sample_race(cards[:-1])
    last = race.push_text(cards[-1])
    if race.is_over:
        last.append(SideBetAnswered(SAMPLE_SIDE_BET, True))
    moments = moments_for(last)
    if screen != "race-end":
        moments = tuple(m for m in moments if f"moment-{m.kind}" == screen)
    assert isinstance(race, Race) and moments, f"the sample cards of {screen} make its moment"
    model = sample_model("race", cards, language)
    from companion.screen.model import replace
    return replace(model, moments=moments, moment_at=0.0)


def _race_seats(race: Race, language: str) -> tuple[SeatView, ...]:
    """The demo game's seats with their race-2 tickets and what each would pay if ``race`` ended now."""
    from companion.screen.table_model import seat_name, ticket_text
    from companion.view.money import ticket_money
    view, ticket_table = _payouts_view()
    return tuple(SeatView(seat_name(s.seat, view, language), s.money, None,
                          tuple(ticket_text(b, language) for b in s.tickets), False,
                          tuple(b.ticket.stack for b in s.tickets),
                          tuple(t.if_ended or 0 for t in ticket_money(s.tickets, ticket_table, 2, race, True, None)))
                 for s in view.seats)


@functools.lru_cache(maxsize=1)
def _payouts_view() -> tuple[TableView, TicketTable]:
    """The view of the demo game at its payouts sample, and that game's ticket table (built once: the replay
    of the demo game through the rules is most of a sample race's cost)."""
    from companion.view.table_view import build
    table = sample_table("payouts")
    assert table.game is not None, "the payouts sample has a game"
    return build(table, names=SAMPLE_NAMES), table.game.ticket_table


def sample_model(screen: str, cards: tuple[str, ...] | None = None, language: str = "en") -> ScreenModel:
    """A sample state for ``screen`` (one of :data:`SCREENS`, of :data:`SAMPLE_SCREENS`, or of
    ``companion.screen.moments.MOMENT_SCREENS``: :func:`sample_moment`); ``cards`` replace the sample race's
    cards; ``language`` (en, nl, es) picks the screen's words.

    Raises ValueError for another screen name or a bad card. A model is frozen, so one built before is given
    again (a few dozen kept: each one replays the demo game through the rules, a test file asks for the same
    ones over and over).
    """
    return _sample_model(screen, None if cards is None else tuple(cards), language)


@functools.lru_cache(maxsize=64)
def _sample_model(screen: str, cards: tuple[str, ...] | None, language: str) -> ScreenModel:
    if screen in MOMENT_CARDS and cards is None:
        return sample_moment(screen, language)
    if screen == "betting-open":   # the open variant's bets with twelve seats
        return sample_open_betting(12, language)
    if screen not in SCREENS:
        from companion.screen.moments import MOMENT_SCREENS
        names = SCREENS + MOMENT_SCREENS + SAMPLE_SCREENS
        raise ValueError(f"unknown screen {screen!r} (expected one of: {', '.join(names)})")
    from companion.call import screencall
    from companion.screen.table_model import from_table
    if screen == "service":   # the service mode's LED test (companion.service.samples for the other tests)
        from companion.service.samples import sample_page
        page = sample_page("leds", language)
        return ScreenModel(screen="service", service=page, language=language)
    if screen == "attract":
        return ScreenModel(screen="attract", phase="New game", status=SAMPLE_STATUS, language=language,
                           form=sample_form(language))
    if screen == "race":
        shown = tuple(cards) if cards is not None else SAMPLE_CARDS
        race, events = sample_race(shown)
        seats = _race_seats(race, language)
        return from_race(race, log=tuple(screencall.lines(events, language)), seats=seats, players=len(seats),
                         race_no=2, odds=None if race.is_over else race_odds(shown),
                         odds_card=None if race.is_over else len(race.cards), status=SAMPLE_STATUS,
                         language=language)
    table = sample_table(screen)
    model = from_table(table, odds=SAMPLE_ODDS, status=SAMPLE_STATUS, language=language,
                       form=sample_form(language) if screen == "setup" else None)
    return model


SAMPLE_SCREENS = ("betting-open",)
"""Sample states beyond the screens' own names: the open variant's betting (:func:`sample_open_betting`)."""
SAMPLE_OPEN_BETS = ("HS-BET-1-DANGLE", "HS-BET-1-YES", "HS-BET-2-MUM", "HS-BET-3-NO", "HS-BET-4-GOBBLER",
                    "HS-BET-4-NO", "HS-BET-6-HURLEY", "HS-BET-7-YES", "HS-BET-7-MUM")
"""The open variant's sample bets (seats 1, 4 and 7 complete; 2, 3 and 6 half; the rest none yet)."""


def sample_open_betting(players: int = 3, language: str = "en") -> ScreenModel:
    """The open variant's betting screen of race 1 with ``players`` seats (2-12; the first four named),
    after those of :data:`SAMPLE_OPEN_BETS` that name a seat at the table."""
    from companion.rules.table import Table, realise
    from companion.screen.table_model import from_table
    import random
    table, rng = Table(), random.Random(2026)
    for text in ("HS-NEW", f"HS-PLAYERS-{players}", "HS-OPEN", "HS-GO",
                 *(b for b in SAMPLE_OPEN_BETS if int(b.split("-")[2]) <= players)):
        if text == "HS-OPEN" and table.game is not None and table.game.variant.value == "open":
            continue   # 9 or more players play the open variant from the start
        table.apply(text, realise(text, rng))
        if text.startswith("HS-PLAYERS-"):
            for seat, name in enumerate(SAMPLE_NAMES[:players], 1):
                table.apply(f"HS-NAME-{seat}:{name}")
    return from_table(table, language=language)


@functools.lru_cache(maxsize=32)
def race_odds(cards: tuple[str, ...]) -> Mapping[str, tuple[float, ...]] | None:
    """The odds of each paid place for the sample race after ``cards`` (the real estimator, a few thousand
    sampled races, a fixed seed: the same picture every time, and odds that fit the race shown); None when
    the estimator cannot place the cards in a real deck (a race made up card by card, no odds shown)."""
    from companion.odds.estimate import estimate
    race, _events = sample_race(cards)
    try:
        return {m.value: p for m, p in estimate([], 4, race, samples=3000, seed=7).places.items()}
    except ValueError:
        return None


__all__ = ["MOMENT_CARDS", "SAMPLE_CARDS", "SAMPLE_NAMES", "SAMPLE_OPEN_BETS", "SAMPLE_SCREENS", "sample_model",
           "sample_moment", "sample_open_betting", "sample_race", "sample_table"]
