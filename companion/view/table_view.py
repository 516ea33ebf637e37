"""One frozen view of the table, computed once per input (and when the odds, the join URL or the mascot form
change) and handed to every sink.

:func:`build` reads a :class:`companion.rules.table.Table` and what the controller holds besides (the config's
player names, the latest odds, the phone page's address, the race call lines of the input just handled) and
decides once what every sink shows:

- the phase (:class:`companion.rules.phases.Phase`),
- each seat with its resolved name (the ONE place that resolves a seat's name: the name typed at the table,
  else the config's name for that seat, else ``seat_word`` such as "Seat 3"),
- the race to show (the race being run, or the race just run at payouts; None between races: then
  :attr:`TableView.shown` is a fresh race at the start) and the placings of the race being run or just run
  (at payouts and at game over too),
- the odds with the situation they were made for, the side bet, the phone page's address,
- the money (:mod:`companion.view.money`, worked out once per view): the ticket stacks and what each top
  ticket pays (``stacks``), what every seat's tickets would pay if the race ended now and what they paid
  (``tickets``), the open variant's pots as each bet shares them (``pots``), the paid places if the race
  ended now (``placings_now``),
- the words of the input's events, worded once: ``call`` (the printed race call, English), ``lines`` (the
  screen's race call in the table's language, words only) and ``announced`` (the announcer's varied phrasing
  in the table's language).

Seats are 0-based; money is whole dollars; odds are probabilities 0..1 per paid place. The race objects held
are snapshot copies: no sink may change them.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from companion.rules.betting import Bet, TicketTable
from companion.rules.deck import Deck
from companion.rules.game_events import Standing
from companion.rules.open_bets import SeatBet
from companion.rules.phases import Phase, Variant
from companion.rules.race import Race, default_track
from companion.rules.setup import SetupFigures
from companion.rules.sidebets import SideBetCard
from companion.rules.table import seat_name
from companion.rules.track import Track
from companion.view import money
from companion.view.money import PotShare, StackOffer, TicketMoney
from companion.view.settled_odds import settle

if TYPE_CHECKING:
    from companion.rules.game import Game
    from companion.rules.table import Table

Odds = Mapping[str, tuple[float, ...]]
"""Mascot name (``"hurley"``) -> the probabilities of being paid 1st..4th."""

RACE_PHASES = (Phase.RACING, Phase.PAYOUTS)
"""The phases in which a race is shown (the one being run, or the one just run)."""
ODDS_OFF = (Phase.PAYOUTS, Phase.GAME_OVER, Phase.NEW_GAME)
"""The phases without live odds."""
STALE_ODDS = (Phase.RACING, Phase.SETUP, Phase.BETTING)
"""The phases in which the last odds stay shown (as stale) while the next ones are computed."""


def _frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return types.MappingProxyType(dict(mapping))


@dataclass(frozen=True, slots=True)
class OddsView:
    """Live odds: ``places`` per mascot, made for the situation ``key`` (:func:`odds_situation`), when ``cards``
    cards were known (face-up cards of race 1 plus the cards revealed in the race) and ``card`` race cards had
    been revealed (0 before the start); ``samples`` races were sampled (0: not said)."""

    places: Odds
    key: str
    cards: int
    card: int = 0
    samples: int = 0


@dataclass(frozen=True, slots=True)
class OddsSituation:
    """What the odds are computed for: ``key`` names it (same situation, same key); ``known`` are the face-up
    card codes counted as known; ``race`` a snapshot of the race being run, or None before it."""

    key: str
    known: tuple[str, ...]
    players: int
    race: Race | None
    cards: int

    @property
    def card(self) -> int:
        """The race cards revealed so far (0 before the start)."""
        return len(self.race.cards) if self.race is not None else 0


@dataclass(frozen=True, slots=True)
class InputView:
    """The input just handled: its text, where it came from (scan, button, keyboard, web, script), the request
    id :meth:`companion.kiosk.controller.Controller.submit` gave it (None when handled directly), accepted or not."""

    text: str
    source: str = "scan"
    request: int | None = None
    accepted: bool = True


@dataclass(frozen=True, slots=True)
class Journaled:
    """One journaled input of the current game that counts (oldest first in :attr:`TableView.journaled`): its
    journal ``id``, ``source``, ``text``, and ``skipped`` when replay found it no longer applies."""

    id: int
    source: str
    text: str
    skipped: bool = False


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat: 0-based ``seat``; ``name`` resolved (typed > config > "Seat n"); ``named`` when it has a typed
    or configured name; money now; the tickets drafted this race; the open-variant bet (None when no bet is
    tracked this race)."""

    seat: int
    name: str
    named: bool
    money: int
    tickets: tuple[Bet, ...] = ()
    bet: SeatBet | None = None


@dataclass(frozen=True, slots=True)
class SideBetView:
    """This race's side bet: the card (scanned, or assumed from the kiosk's order; None before one is known),
    ``scanned`` when confirmed by a scan, ``answer`` as far as known (True once it happened, False once the
    race ended without it), ``happened`` the final answer after the race (None before)."""

    card: SideBetCard | None = None
    scanned: bool = False
    answer: bool | None = None
    happened: bool | None = None


@dataclass(frozen=True, slots=True)
class GameFacts:
    """The game's state as the sinks need it (names as on :class:`companion.rules.game.Game`)."""

    phase: Phase
    variant: Variant
    race_no: int
    races: int
    players: int
    money: tuple[int, ...]
    figures: SetupFigures
    ticket_table: TicketTable
    double_armed: bool
    current_drafter: int | None
    seats_without_double: tuple[int, ...]
    draft_complete: bool
    is_double_race: bool
    settled: bool
    side_bet: str | None
    results: tuple[Mapping[str, Any], ...]
    stacks_taken: Mapping[str, int]
    known_cards: tuple[str, ...]
    face_up: tuple[str, ...]
    standings: tuple[Standing, ...]
    open_bets: Mapping[int, SeatBet]
    deck: Deck
    track: Track


@dataclass(frozen=True)
class TableView:
    """Everything a sink may know of the table after one input (see the module docstring)."""

    phase: Phase
    track: Track
    deck: Deck | None = None
    game: GameFacts | None = None
    seats: tuple[SeatView, ...] = ()
    race: Race | None = None
    shown: Race = field(default_factory=Race)
    placings: Mapping[str, int] = field(default_factory=dict)
    variant: Variant | None = None
    side_bet: SideBetView = SideBetView()
    odds: OddsView | None = None
    join_url: str | None = None
    call: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()
    announced: tuple[str, ...] = ()
    input: InputView | None = None
    journaled: tuple[Journaled, ...] = ()
    form: str | None = None
    seat_word: str = field(default_factory=lambda: english_seat_word())
    journal_identity: str | None = None  # the journal's own random id (Journal.identity); None: none known
    seat_codes: Mapping[int, str] = field(default_factory=dict)  # 1-based seat -> the phone's consent code
    service: Any = None  # companion.service.page.ServicePage while the service mode is on, else None

    def seat_name(self, seat: int, unnamed: str | None = None) -> str:
        """The one name of 0-based ``seat``: typed, else the config's, else ``seat_word`` ("Seat 3"). A sink
        that words an unnamed seat in its own words passes them as ``unnamed`` (the text for this seat)."""
        if 0 <= seat < len(self.seats) and (unnamed is None or self.seats[seat].named):
            return self.seats[seat].name
        return self.seat_word.format(n=seat + 1) if unnamed is None else unnamed

    @property
    def players(self) -> int:
        return self.game.players if self.game is not None else 0

    @property
    def race_no(self) -> int:
        return self.game.race_no if self.game is not None else 0

    @functools.cached_property
    def situation(self) -> OddsSituation | None:
        """What live odds are wanted for now (:func:`odds_situation`), worked out once per view."""
        return odds_situation(self)

    @property
    def odds_current(self) -> Odds | None:
        """The odds when they were made for the table as it is now, else None (being computed)."""
        situation = self.situation
        if self.odds is None or situation is None or self.odds.key != situation.key:
            return None
        return self.odds.places

    @functools.cached_property
    def odds_shown(self) -> Odds | None:
        """The odds to show: the current ones, else (in :data:`STALE_ODDS` phases) the last ones of this phase
        while the next ones are computed (:attr:`odds_stale`), else None. Either way they never contradict the
        race shown: a mascot placed since (a finish, a knockout) has its place for certain, nobody else any
        chance of it (:func:`companion.view.settled_odds.settle`; docs/rules.md 5); during a race, stale odds are
        shown only when they were made for this race at an earlier card (never for cards an undo took back).
        Worked out once per view."""
        current = self.odds_current
        if current is None and self.odds is not None and self.phase in STALE_ODDS and _made_earlier(self, self.odds):
            current = self.odds.places
        return settle(current, self.race) if current is not None else None

    @property
    def odds_card(self) -> int | None:
        """The race cards revealed when the odds shown were made, or None when none are shown."""
        return self.odds.card if self.odds is not None and self.odds_shown is not None else None

    @property
    def odds_stale(self) -> bool:
        """True while the odds shown were made for an earlier situation and newer ones are being computed."""
        return self.odds_shown is not None and self.odds_current is None

    # ----- money (companion.view.money; docs/rules.md 5-7), worked out once per view -----------------------
    @functools.cached_property
    def stacks(self) -> tuple[StackOffer, ...]:
        """The standard variant's ticket stacks now and what each top ticket pays; () without a game or in the
        open variant."""
        game = self.game
        if game is None or game.variant is not Variant.STANDARD:
            return ()
        return money.stack_offers(game.stacks_taken, game.ticket_table, self.side_bet.answer)

    @functools.cached_property
    def tickets(self) -> Mapping[int, tuple[TicketMoney, ...]]:
        """0-based seat -> the money of each of its drafted tickets, in draft order: what it would pay if the
        race being run ended now, what it paid once the race is over (seats without tickets left out)."""
        game = self.game
        if game is None:
            return _frozen({})
        running = self.phase is Phase.RACING
        return _frozen({s.seat: money.ticket_money(s.tickets, game.ticket_table, game.race_no, self.race, running,
                                                   self.side_bet.answer) for s in self.seats if s.tickets})

    @functools.cached_property
    def pots(self) -> Mapping[int, PotShare]:
        """0-based seat -> its open-variant bet's share of the pots, with the bets as they stand, and what it would
        take if the race being run ended now."""
        game = self.game
        if game is None:
            return _frozen({})
        running = self.race if self.phase is Phase.RACING else None
        return _frozen(money.pot_shares(game.open_bets, game.ticket_table, self.side_bet.answer, running,
                                        game.race_no))

    @functools.cached_property
    def placings_now(self) -> Mapping[str, int]:
        """Mascot name -> its paid place if the race being run ended now ({} when none is run)."""
        if self.race is None or self.phase is not Phase.RACING:
            return _frozen({})
        return _frozen(money.placings_now(self.race))

    def with_odds(self, odds: OddsView | None) -> "TableView":
        return dataclasses.replace(self, odds=odds)


def _game_facts(game: "Game") -> GameFacts:
    return GameFacts(
        phase=game.phase, variant=game.variant, race_no=game.race_no, races=game.rules.races,
        players=game.players, money=tuple(game.money), figures=game.figures, ticket_table=game.ticket_table,
        double_armed=game.double_armed, current_drafter=game.current_drafter,
        seats_without_double=tuple(game.seats_without_double), draft_complete=game.draft_complete,
        is_double_race=game.is_double_race, settled=game.settled, side_bet=game.side_bet,
        results=tuple(_frozen(r) for r in game.results), stacks_taken=_frozen(game.stacks.taken),
        known_cards=tuple(game.known_cards), face_up=tuple(game.face_up), standings=tuple(game.standings),
        open_bets=_frozen(game.book.bets), deck=game.deck, track=game.track)


def english_seat_word() -> str:
    """The English name of an unnamed seat (``{n}``: 1-based), from the phrase catalogue's ``[words] seat``."""
    from companion.catalogue import load_catalogue
    return str(load_catalogue("en").words["seat"])


def build(table: "Table", *, names: Sequence[str] = (), seat_word: str | None = None, odds: OddsView | None = None,
          join_url: str | None = None, call: Sequence[str] = (), lines: Sequence[str] | None = None,
          input: InputView | None = None, form: str | None = None,
          journaled: Sequence[Journaled] = ()) -> TableView:
    """The view of ``table`` now. ``names`` are the config's player names by 0-based seat; ``seat_word`` the
    name of an unnamed seat (``{n}``: 1-based; default the English one); ``odds`` the latest odds (dropped in the
    phases without odds); ``call`` the printed race call lines of the input just handled and ``lines`` the same in
    the table's language (default: ``call``); ``journaled`` the current game's journaled inputs."""
    phase = table.phase
    game = table.game
    seat_word = english_seat_word() if seat_word is None else seat_word
    track = (game.track if game is not None else table.track) or default_track()
    deck = game.deck if game is not None else table.deck
    common: dict[str, Any] = dict(
        track=track, deck=deck, odds=None if phase in ODDS_OFF else odds, join_url=join_url, call=tuple(call),
        lines=tuple(call if lines is None else lines), input=input, form=form, seat_word=seat_word,
        journaled=tuple(journaled))
    if game is None:
        choice = table.variant_choice
        return TableView(phase, shown=Race(table.track, table.deck), variant=choice, **common)
    run = game.race if game.race is not None and phase in (*RACE_PHASES, Phase.GAME_OVER) else None
    snapshot = run.copy() if run is not None else None
    race = snapshot if phase in RACE_PHASES else None
    placings = _frozen({m.value: p for m, p in snapshot.outcome.placings.items()}) if snapshot is not None else {}
    seats = []
    for s in range(game.players):
        name, named = seat_name(s, game.names, names, seat_word)
        bet = game.book.seat(s) if game.book.tracked else None
        seats.append(SeatView(s, name, named, game.money[s], tuple(game.tickets.get(s, ())), bet))
    side = SideBetView(game.stack.card(), game.stack.scanned, game.side_bet_answer, game.side_bet_happened)
    return TableView(phase, game=_game_facts(game), seats=tuple(seats), race=race,
                     shown=race if race is not None else Race(game.track, game.deck), placings=placings,
                     variant=game.variant, side_bet=side, **common)


def _made_earlier(view: TableView, odds: OddsView) -> bool:
    """True unless ``odds`` are for a race card the race shown no longer has: during a race, they must have been
    made for this race as it was after its first ``odds.card`` cards (an undo can take a finish back)."""
    race = view.race
    if view.phase is not Phase.RACING or race is None:
        return True
    cards = race.cards
    if odds.card > len(cards):
        return False
    earlier = Race(race.track, race.deck)
    for card, code in cards[:odds.card]:
        earlier.push(card, code)
    situation = odds_situation(dataclasses.replace(view, race=earlier))
    return situation is not None and situation.key == odds.key


def odds_situation(view: TableView) -> OddsSituation | None:
    """What live odds are wanted for now, or None when none are (no game, payouts, game over).

    Race 1: the face-up cards count as known, as they are scanned in setup and as confirmed by GO; before races
    2 and 3 cards were dealt out and added face down (an unknown deck); during a race the race itself tells every
    card revealed so far."""
    game = view.game
    if game is None or view.phase in ODDS_OFF:
        return None
    race = view.race if view.phase is Phase.RACING else None
    if game.race_no != 1:
        known: tuple[str, ...] = ()
    elif view.phase is Phase.SETUP:
        known = game.known_cards
    else:
        known = game.face_up
    key = f"{game.players}|{game.race_no}|{','.join(sorted(known))}|{race.position() if race else 'start'}"
    cards = len(known) + (len(race.cards) if race is not None else 0)
    return OddsSituation(key, known, game.players, race, cards)


__all__ = ["GameFacts", "InputView", "Journaled", "Odds", "OddsSituation", "OddsView", "PotShare", "SeatView",
           "SideBetView", "StackOffer", "TableView", "TicketMoney", "ODDS_OFF", "STALE_ODDS", "build",
           "english_seat_word", "odds_situation", "seat_name"]
