"""A whole game as a pure state machine driven by scanned codes (docs/rules.md sections 6-7).

>>> from companion.rules.codes import parse_code
>>> game = Game(3, side_bet_order=["any-dq", "knockout", "two-fallen"])
>>> _ = game.apply(parse_code("HS-GO"))          # no face-up cards scanned: the deck is not tracked
>>> game.phase, game.side_bet, game.current_drafter
(<Phase.BETTING: 'betting'>, 'any-dq', 0)
>>> [e.type for e in game.apply(parse_code("HS-T-GOBBLER-1-R"))]
['ticket_drafted']

Phases, and what each accepts (anything else raises :class:`RefusedError`, state unchanged):

- SETUP: card codes of the face-up cards (starting + random ones; each once). GO when none was scanned (the
  deck is not tracked) or all of them were. The side bet card on top of the stack may be scanned already.
- BETTING: a side bet card (``HS-S01``..; the stack rules are in :mod:`companion.rules.sidebet_stack`);
  betting tickets, each given to the seat whose pick it is (snake order, :meth:`Game.draft_order`). In the
  double race (3) a seat that holds all its tickets marks one to pay double: ``HS-DOUBLE``, then that ticket
  (its drafted side); doing it again with another ticket moves the mark. GO when the draft is complete (and
  in race 3 every seat has marked a double) or when no ticket was scanned (bets are not tracked this race).
  Open variant: no tickets; bets ``HS-BET-<seat>-<choice>[-DOUBLE]`` (:mod:`companion.rules.open_bets`;
  ``HS-DOUBLE`` before a bet circles it too), GO when every seat has bet or nobody has; card codes of
  newly shown face-up cards are learned.
- ADDING_CARDS (standard only): GO starts the race.
- RACING: card codes are revealed on the race; when it ends, PAYOUTS follows at once (side bet answer, and
  settlement when tickets or open bets were tracked: the open variant's pots are split by the game).
- PAYOUTS: GO starts betting for the next race, or ends the game after the last.
- GAME_OVER: nothing (a new game is the controller's business).

The game holds no randomness and no clock: replaying the same codes gives the same state (undo = replay).
"""

from __future__ import annotations

import functools
from typing import Any

from companion.rules import draft, game_view
from companion.rules.codes import CardCode, Control, OpenBetCode, SideBetCode, TicketCode
from companion.rules.betting import Bet, Stacks, TicketTable, bet_amount, load_tickets, open_gains, settle
from companion.rules.deck import Deck, DeckCard
from companion.rules.errors import Reason, RefusedError
from companion.rules.events import Event
from companion.rules.mascots import Mascot
from companion.rules.game_events import (CardLearned, GameOver, PhaseChanged, Settled, SideBetAnswered,
                                         SideBetHappened, Standing)
from companion.rules.open_bets import OpenBook
from companion.rules.phases import Phase, Variant
from companion.rules.race import Race, default_deck, default_track
from companion.rules.setup import GameRules, SetupFigures, default_game_rules, load_game_rules, setup_figures
from companion.rules.sidebet_stack import SideBetStack
from companion.rules.sidebets import SideBets, SideBetTracker, default_side_bets
from companion.rules.track import Track

__all__ = ["Game", "Phase", "RefusedError", "SetupFigures", "Variant", "setup_figures"]

OPEN_FROM_PLAYERS = 9


@functools.cache
def _default_tickets() -> TicketTable:
    return load_tickets()


def _text(code: object) -> str:
    if isinstance(code, CardCode):
        return code.code
    if isinstance(code, (TicketCode, SideBetCode, Control, OpenBetCode)):
        return code.code()
    return repr(code)


class Game:
    """One game of ``players`` seats (seat ``i`` is index ``i``, "seat i+1" in text).

    ``variant`` None picks OPEN for 9+ players, else STANDARD. ``track``/``deck``/``tickets``/``side_bets``
    default to the packaged data (``tickets`` is a :class:`TicketTable`, ``side_bets`` a :class:`SideBets`);
    ``side_bet_order`` is the realised shuffled order of side bet ids: with no card scanned, a race asks the
    first one not asked yet (:class:`SideBetStack`). Raises ValueError naming a player count the variant
    cannot seat or an unknown side bet id.
    """

    def __init__(self, players: int, variant: Variant | None = None, *, track: Track | None = None,
                 deck: Deck | None = None, tickets: TicketTable | None = None, side_bets: SideBets | None = None,
                 side_bet_order: list[str] | None = None, rules: GameRules | None = None):
        if variant is None:
            variant = Variant.OPEN if isinstance(players, int) and players >= OPEN_FROM_PLAYERS else Variant.STANDARD
        self.track = track or default_track()
        self.deck = deck or default_deck()
        self.ticket_table = tickets or _default_tickets()
        self.side_bets = side_bets or default_side_bets()
        if rules is None:
            custom = track is not None or deck is not None or tickets is not None
            rules = load_game_rules(None, self.track, self.deck, self.ticket_table) if custom else default_game_rules()
        self.rules = rules
        self.figures: SetupFigures = setup_figures(players, variant, rules)
        self.side_bet_order = list(side_bet_order or [])
        self.stack = SideBetStack(self.side_bets, self.side_bet_order)
        self.stack.begin_race()  # the top card of the face-up stack is race 1's question from setup on
        self.players = players
        self.variant = variant
        self.phase = Phase.SETUP
        self.race_no = 1
        self.race: Race | None = None
        self.money: list[int] = [self.figures.start_money] * players
        self.names: dict[int, str] = {}  # 0-based seat -> name typed at the table (companion.rules.table)
        self.known_cards: list[str] = []
        self.face_up: list[str] = []  # the face-up cards scanned in setup (empty when the deck is not tracked)
        self.race_codes: set[str] = set()  # every card revealed in the current race, all passes
        self.tickets: dict[int, list[Bet]] = {i: [] for i in range(players)}
        self.stacks = Stacks()
        self.picks = 0
        self.double_armed = False  # HS-DOUBLE scanned: the next ticket or open bet is the one doubled
        self.book = OpenBook(players)  # open variant: this race's bets
        self.tracker: SideBetTracker | None = None
        self.side_bet_happened: bool | None = None
        self.settled: bool = False
        self.results: list[dict[str, Any]] = []  # per finished race: placings, side bet, answer, money after
        self.standings: tuple[Standing, ...] = ()

    # ----- derived state ----------------------------------------------------------------------------
    @property
    def side_bet(self) -> str | None:
        """This race's side bet card id (scanned, or assumed from the kiosk's order), or None."""
        return self.stack.current

    def seat_text(self, seat: int) -> str:
        """``"seat 2 (Ann)"`` for a named 0-based seat, else ``"seat 2"`` (for messages)."""
        name = self.names.get(seat)
        return f"seat {seat + 1}" + (f" ({name})" if name else "")

    @property
    def prompt(self) -> str:
        """What the table should do now, one line for the screen and the voice (:mod:`companion.rules.game_view`)."""
        return game_view.prompt(self)

    def draft_order(self, race_no: int) -> list[int]:
        """Seat indexes in pick order for race ``race_no`` (docs/rules.md 6): a snake over ``tickets_per_player``
        rounds, forward then back, starting one seat further clockwise each race (2 players: 1-2-2-1-1-2,
        then 2-1-1-2-2-1). Empty in the open variant."""
        n = self.players
        first = (race_no - 1) % n
        seats = [(first + k) % n for k in range(n)]
        order: list[int] = []
        for rnd in range(self.figures.tickets_per_player):
            order.extend(seats if rnd % 2 == 0 else reversed(seats))
        return order

    @property
    def tickets_tracked(self) -> bool:
        """True once a ticket was drafted (or, open variant, a bet entered) this race: the game then settles."""
        return self.picks > 0 or self.book.tracked

    @property
    def draft_complete(self) -> bool:
        return self.picks >= len(self.draft_order(self.race_no))

    @property
    def current_drafter(self) -> int | None:
        """Whose pick it is in BETTING; None outside betting, in the open variant or once the draft is done."""
        order = self.draft_order(self.race_no)
        if self.phase is not Phase.BETTING or self.picks >= len(order):
            return None
        return order[self.picks]

    @property
    def is_double_race(self) -> bool:
        return self.race_no == self.ticket_table.double_race

    @property
    def seats_without_double(self) -> list[int]:
        """In the double race with tickets tracked: seats that have not marked a ticket to double yet."""
        if not (self.is_double_race and self.picks > 0):
            return []
        return [s for s in self.draft_seats() if not any(b.double for b in self.tickets[s])]

    def draft_seats(self) -> list[int]:
        """Seats in the order they first pick this race."""
        order = self.draft_order(self.race_no)
        return list(dict.fromkeys(order))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary of the game (seats are 0-based list indexes; :func:`game_view.game_dict`)."""
        return game_view.game_dict(self)

    @property
    def side_bet_answer(self) -> bool | None:
        """The side bet's answer as far as known: True once it happened, False once a race ended without it,
        None before (or with no side bet)."""
        if self.side_bet_happened is not None:
            return self.side_bet_happened
        return True if self.tracker is not None and self.tracker.happened else None

    # ----- input ------------------------------------------------------------------------------------
    def apply(self, code: object) -> list[Event]:
        """Apply one scanned code (a ``companion.rules.codes`` object) and return the events it caused.

        Raises RefusedError (state unchanged) with a one-line message naming the input and what is expected
        when it does not fit the phase or the rules.
        """
        if isinstance(code, Control):
            if code.action == "double":
                return draft.arm_double(self)
            if code.action != "go":
                raise RefusedError(f"{_text(code)} is handled by the table or the controller, not the game "
                                   "(expected HS-GO, HS-DOUBLE, a card, a ticket or a side bet card)",
                                   Reason.WRONG_TIME, code=_text(code))
            return self._go()
        if self.phase is Phase.GAME_OVER:
            raise RefusedError(f"{_text(code)}: the game is over (expected HS-NEW for a new game)", Reason.GAME_OVER,
                               code=_text(code))
        if isinstance(code, CardCode):
            return self._card(code)
        if isinstance(code, TicketCode):
            return draft.ticket(self, code)
        if isinstance(code, SideBetCode):
            return self._side_bet_card(code)
        if isinstance(code, OpenBetCode):
            return draft.open_bet(self, code)
        raise RefusedError(f"{code!r} is not a scanned code (expected a companion.rules.codes object)",
                           Reason.UNKNOWN)

    # ----- cards ------------------------------------------------------------------------------------
    def _lookup(self, code: CardCode) -> DeckCard:
        return self.deck.by_code(code.code)  # InvalidCardError: a refusal (reason unknown)

    def _card(self, code: CardCode) -> list[Event]:
        if self.phase is Phase.SETUP:
            return self._face_up(code)
        if self.phase is Phase.RACING:
            return self._reveal(code)
        if self.phase is Phase.BETTING and self.variant is Variant.OPEN and self.race_no > 1:
            dc = self._lookup(code)
            if dc.code in self.known_cards:
                raise RefusedError(f"card {dc.code} ({dc.card.notation()}) is already known "
                                   "(expected a newly shown face-up card)", Reason.ALREADY, code=dc.code,
                                   card=dc.card.notation())
            self.known_cards.append(dc.code)
            return [CardLearned(dc.code, dc.card)]
        self._lookup(code)   # a code that is no card is refused as unknown, whatever the phase
        where = {Phase.BETTING: "in betting", Phase.ADDING_CARDS: "while cards are added face down",
                 Phase.PAYOUTS: "during payouts"}[self.phase]
        raise RefusedError(f"card {code.code} cannot be scanned {where} "
                           f"(expected {self._expected()})", Reason.WRONG_TIME, code=code.code, phase=self.phase.value)

    def _face_up(self, code: CardCode) -> list[Event]:
        dc = self._lookup(code)
        if dc.code in self.known_cards:
            raise RefusedError(f"card {dc.code} ({dc.card.notation()}) was already scanned in setup "
                               "(expected each face-up card once)", Reason.ALREADY, code=dc.code,
                               card=dc.card.notation())
        f = self.figures
        starting = {c.code for c in self.deck.starting_cards}
        if not dc.starting:
            randoms = sum(c not in starting for c in self.known_cards)
            if randoms >= f.random_face_up:
                left = ", ".join(sorted(starting - set(self.known_cards)))
                raise RefusedError(f"card {dc.code} would be random face-up card {randoms + 1} of "
                                   f"{f.random_face_up} (expected the starting cards still missing: {left})",
                                   Reason.NOT_IN_DECK, code=dc.code, card=dc.card.notation())
        self.known_cards.append(dc.code)
        return [CardLearned(dc.code, dc.card)]

    def _check_in_race_deck(self, code: str, notation: str) -> None:
        """Refuse a card that cannot be in this race's deck (docs/rules.md 4, 7): the deck holds
        ``track.deck_size`` cards, and in race 1 with the face-up cards scanned, every other card is one of the
        ``players x added_per_race`` cards added face down."""
        if code in self.race_codes:
            return
        size = self.track.deck_size
        if len(self.race_codes) >= size:
            raise RefusedError(f"card {code} ({notation}) cannot be in this race's deck: its {size} cards were all "
                               "revealed already (expected one of them)", Reason.NOT_IN_DECK, code=code, card=notation)
        if self.race_no == 1 and self.face_up and code not in self.face_up:
            unknown = sorted(c for c in self.race_codes if c not in self.face_up)
            limit = self.players * self.figures.added_per_race
            if len(unknown) >= limit:
                raise RefusedError(f"card {code} ({notation}) cannot be in this race's deck: besides the face-up "
                                   f"cards it holds the {limit} added face down, and those were {', '.join(unknown)} "
                                   "(expected one of them or a face-up card; a wrong face-up scan? HS-UNDO)",
                                   Reason.NOT_IN_DECK, code=code, card=notation)

    def _reveal(self, code: CardCode) -> list[Event]:
        race = self.race
        assert race is not None
        dc = self._lookup(code)
        race.check(dc.card, dc.code)  # IllegalRevealError: a refusal (already, race-over)
        self._check_in_race_deck(dc.code, dc.card.notation())
        events: list[Event] = list(race.push(dc.card, dc.code))
        self.race_codes.add(dc.code)
        if dc.code not in self.known_cards:
            self.known_cards.append(dc.code)
            events.append(CardLearned(dc.code, dc.card))
        if self.tracker is not None and self.tracker.observe(events, race):
            events.append(SideBetHappened(self.tracker.card_id))
        if race.is_over:
            events.extend(self._payouts())
        return events

    # ----- betting ----------------------------------------------------------------------------------
    def _side_bet_card(self, code: SideBetCode) -> list[Event]:
        if self.phase not in (Phase.SETUP, Phase.BETTING):
            raise RefusedError(f"side bet card {code.code()} cannot be scanned in {self.phase.value} "
                               f"(expected it in setup or betting, before the first bet; now {self._expected()})",
                               Reason.WRONG_TIME, code=code.code(), phase=self.phase.value)
        locked = None
        if self.picks:
            locked = f"the first ticket of race {self.race_no} is drafted"
        elif self.book.tracked:
            locked = f"the first bet of race {self.race_no} is entered"
        events: list[Event] = list(self.stack.scan(code.number, self.race_no, locked))
        return events if self.phase is Phase.BETTING else []

    # ----- GO ---------------------------------------------------------------------------------------
    def _go(self) -> list[Event]:
        phase = self.phase
        if phase is Phase.SETUP:
            need = self.figures.face_up
            if self.known_cards and len(self.known_cards) != need:
                raise RefusedError(f"HS-GO: scanned {len(self.known_cards)} of {need} face-up cards "
                                   f"(expected all {need}, or none when the deck is not tracked)", Reason.FACE_UP,
                                   code="HS-GO")
            self.face_up = list(self.known_cards)
            return self._enter_betting()
        if phase is Phase.BETTING:
            if self.double_armed:
                raise RefusedError("HS-GO: HS-DOUBLE is waiting for the ticket or bet to double "
                                   "(expected that ticket or bet, or HS-UNDO to take back HS-DOUBLE)", Reason.DOUBLE,
                                   code="HS-GO")
            total = len(self.draft_order(self.race_no))
            if 0 < self.picks < total:
                raise RefusedError(f"HS-GO: the draft is not complete, {self.picks} of {total} tickets drafted "
                                   f"(expected a ticket from {self.seat_text(self.current_drafter or 0)})",
                                   Reason.DRAFT, code="HS-GO")
            missing = self.seats_without_double
            if missing:
                who = self.seat_text(missing[0])
                raise RefusedError(f"HS-GO: race {self.race_no} pays one ticket per player double and {who} has "
                                   f"not marked one (expected HS-DOUBLE, then one of {who}'s tickets)", Reason.DOUBLE,
                                   code="HS-GO", seat=missing[0] + 1)
            if self.variant is Variant.OPEN:
                why = self.book.missing(self.is_double_race, self.side_bet is not None) if self.book.tracked else None
                if why:
                    raise RefusedError(f"HS-GO: {why}", Reason.MISSING, code="HS-GO")
                return self._start_race()
            self.phase = Phase.ADDING_CARDS
            return [PhaseChanged(Phase.ADDING_CARDS, self.race_no)]
        if phase is Phase.ADDING_CARDS:
            return self._start_race()
        if phase is Phase.RACING:
            raise RefusedError("HS-GO: the race is not over (expected the next revealed card)", Reason.RACING,
                               code="HS-GO")
        if phase is Phase.PAYOUTS:
            if self.race_no < self.rules.races:
                self.race_no += 1
                return self._enter_betting()
            return self._game_over()
        raise RefusedError("HS-GO: the game is over (expected HS-NEW for a new game)", Reason.GAME_OVER, code="HS-GO")

    def _enter_betting(self) -> list[Event]:
        self.phase = Phase.BETTING
        self.tickets = {i: [] for i in range(self.players)}
        self.stacks = Stacks()
        self.picks = 0
        self.double_armed = False
        self.book = OpenBook(self.players)
        self.settled = False
        self.side_bet_happened = None
        self.tracker = None
        if self.race_no > 1:
            self.stack.begin_race()  # the previous card went to the bottom: the next one shows
        return [PhaseChanged(Phase.BETTING, self.race_no, self.variant is Variant.OPEN),
                *self.stack.shown(self.race_no)]

    def _start_race(self) -> list[Event]:
        self.phase = Phase.RACING
        self.race = Race(self.track, self.deck)
        self.race_codes = set()
        self.tracker = SideBetTracker(self.side_bet, self.track) if self.side_bet else None
        return [PhaseChanged(Phase.RACING, self.race_no)]

    def _payouts(self) -> list[Event]:
        race = self.race
        assert race is not None
        self.phase = Phase.PAYOUTS
        events: list[Event] = [PhaseChanged(Phase.PAYOUTS, self.race_no)]
        self.stack.end_race()
        if self.tracker is not None:
            self.side_bet_happened = self.tracker.happened
            events.append(SideBetAnswered(self.tracker.card_id, self.tracker.happened))
        placings = race.outcome.placings
        if self.variant is Variant.STANDARD and self.tickets_tracked:
            table = self.ticket_table
            for seat in self.draft_seats():
                bets = self.tickets[seat]
                before = self.money[seat]
                amounts = tuple(bet_amount(b, placings, self.side_bet_happened, table, self.race_no) for b in bets)
                after = settle(before, bets, placings, self.side_bet_happened, table, self.race_no)
                self.money[seat] = after
                events.append(Settled(seat, self.race_no, before, after, after - before, amounts))
            self.settled = True
        elif self.variant is Variant.OPEN and self.book.tracked:
            events.extend(self._settle_open(placings))
        self.results.append({"race": self.race_no, "placings": {m.value: p for m, p in placings.items()},
                             "side_bet": self.side_bet, "happened": self.side_bet_happened,
                             "settled": self.settled, "money": list(self.money)})
        return events

    def _settle_open(self, placings: dict[Mascot, int]) -> list[Event]:
        """Split the pots among this race's open bets (docs/rules.md 7); a seat without a bet gets nothing."""
        happened = bool(self.side_bet_happened)
        seats = [s for s in range(self.players) if self.book.seat(s).mascot is not None]
        bets = [self.book.seat(s).to_bet(no_answer=not happened) for s in seats]
        gains = open_gains(bets, placings, happened, self.ticket_table, self.race_no)
        events: list[Event] = []
        for seat, (mascot, side) in zip(seats, gains):
            before = self.money[seat]
            self.money[seat] = after = max(0, before + mascot + side)
            events.append(Settled(seat, self.race_no, before, after, after - before, (mascot, side)))
        self.settled = True
        return events

    def _game_over(self) -> list[Event]:
        self.phase = Phase.GAME_OVER
        order = sorted(range(self.players), key=lambda s: (-self.money[s], s))
        self.standings = tuple(
            Standing(s, 1 + sum(m > self.money[s] for m in self.money), self.money[s],
                     self.rules.life_outcome(self.money[s])) for s in order)
        return [PhaseChanged(Phase.GAME_OVER, self.race_no), GameOver(self.standings)]

    def _expected(self) -> str:
        """What the game expects now, for refusal messages."""
        return game_view.expected(self)
