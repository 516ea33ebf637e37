"""The whole table as a pure state machine over barcode texts: new game, player count, then the game.

``Table.apply(text, data)`` parses a scanned text (companion.rules.codes), applies it and returns the events; it
raises a HotStreakError (one line: the bad input and what was expected) and changes nothing when the input
does not fit. ``HS-UNDO`` is not applied here: undo is resolved by the journal (companion.kiosk.journal) and the
table is rebuilt by replay. Realised randomness (the side bet order of a new game) and the configured default
variant arrive in ``data`` (stored with the player count, so a replay never depends on today's config).

The variant (docs/rules.md 7) is chosen at new game: ``HS-OPEN`` or ``HS-STANDARD`` scanned before the player
count, or right after it (before the first face-up card); else the configured default (``data["variant"]``).
The standard game seats 2..8, so 9+ players always play open; ``HS-STANDARD`` with 9+ is refused.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from companion.rules.codes import CardCode, Control, SeatNameCode, parse_code
from companion.rules.phases import Phase, Variant
from companion.rules.race import default_deck
from companion.rules.deck import Deck
from companion.rules.errors import HotStreakError, Reason, RefusedError
from companion.rules.events import Event
from companion.rules.track import Track

if TYPE_CHECKING:
    from companion.rules.game import Game


@dataclass(frozen=True, slots=True)
class NewGame(Event):
    """``HS-NEW``: the table waits for a player count."""


@dataclass(frozen=True, slots=True)
class PlayersSet(Event):
    """A game begins (setup phase) for ``players`` seats in ``variant``."""

    players: int
    variant: str


@dataclass(frozen=True, slots=True)
class VariantChosen(Event):
    """``HS-OPEN`` / ``HS-STANDARD``: the next game (or the one just begun) plays ``variant``."""

    variant: str


@dataclass(frozen=True, slots=True)
class SeatNamed(Event):
    """``HS-NAME-<seat>:<name>``: seat ``seat`` (1-based) is called ``name`` from now on ("" = unnamed)."""

    seat: int
    name: str


NEW_GAME = Phase.NEW_GAME
STANDARD_MAX = 8  # the standard game's data seats 2..8; from 9 players the open variant is the only one


def side_bet_count() -> int:
    from companion.rules.sidebets import default_side_bets
    return len(default_side_bets())


def realise(text: str, rng: random.Random, variant: str = "standard", *, code: object = None) -> dict[str, Any]:
    """Draw the randomness an input needs, to be stored with it in the journal (never re-drawn on replay).

    A player-count code gets the shuffled order of the side bet cards for the new game and ``variant``: the
    variant chosen with HS-OPEN/HS-STANDARD before it, else the configured default ("standard" or "open"), so
    a replay that starts at the player count gives the same game. ``code`` is ``text`` already parsed
    (``companion.rules.codes.parse_code``), to parse a scan once.
    """
    if code is None:
        try:
            code = parse_code(text)
        except HotStreakError:
            return {}
    if isinstance(code, Control) and code.action == "players":
        order = list(range(side_bet_count()))
        rng.shuffle(order)
        return {"side_bet_order": order, "variant": variant}
    return {}


class Table:
    """A table of players, from ``HS-NEW`` through three races to the final standings."""

    def __init__(self, track: Track | None = None, deck: Deck | None = None):
        from companion.rules.game import Game
        self.track = track
        self.deck = deck
        self.game: Game | None = None  # once the player count is known
        self.default_names: tuple[str, ...] = ()  # names by 0-based seat until one is typed (the config's)
        self.variant_choice: Variant | None = None  # HS-OPEN / HS-STANDARD scanned since HS-NEW
        self._start_data: dict[str, Any] = {}

    @property
    def phase(self) -> Phase:
        """``Phase.NEW_GAME`` until a player count is scanned, then the game's phase."""
        return Phase.NEW_GAME if self.game is None else self.game.phase

    def apply(self, text: str, data: dict[str, Any] | None = None, *, code: object = None) -> list[Event]:
        """Apply one input (``code``: ``text`` already parsed by ``parse_code``, else it is parsed here) and
        return its events. Raises a HotStreakError naming the bad input; then nothing changed."""
        if code is None:
            code = parse_code(text)
        if isinstance(code, Control):
            if code.action == "undo":
                raise RefusedError("HS-UNDO is handled by the journal, not the table", Reason.WRONG_TIME,
                                   code="HS-UNDO")
            if code.action == "new":
                self.game, self.variant_choice = None, None
                return [NewGame()]
            if code.action == "players":
                return self._start(code.players or 0, data or {})
            if code.action in ("open", "standard"):
                return self._choose(Variant(code.action))
        if self.game is None:
            if isinstance(code, CardCode):
                (self.deck if self.deck is not None else default_deck()).by_code(code.code)   # no such card: say so
            what = "a card" if isinstance(code, CardCode) else repr(text)
            raise RefusedError(f"{what} before the player count: scan HS-PLAYERS-2..HS-PLAYERS-12 first",
                                Reason.PLAYERS_FIRST, code=text)
        if isinstance(code, SeatNameCode):
            return self._name(code)
        return self.game.apply(code)

    def _name(self, code: SeatNameCode) -> list[Event]:
        assert self.game is not None
        if code.seat > self.game.players:
            raise RefusedError(f"seat {code.seat} is not at this table (expected a seat 1..{self.game.players})",
                               Reason.SEAT, code=code.code(), seat=code.seat)
        if code.name:
            self.game.names[code.seat - 1] = code.name
        else:
            self.game.names.pop(code.seat - 1, None)
        return [SeatNamed(code.seat, code.name)]

    def seat_name(self, seat: int, seat_word: str) -> str:
        """The name of 0-based ``seat``: typed at the table, else ``default_names[seat]``, else ``seat_word`` with
        ``{n}`` the 1-based seat (the words' own, such as "Seat {n}": :func:`seat_name`)."""
        return seat_name(seat, self.game.names if self.game is not None else {}, self.default_names, seat_word)[0]

    def _just_begun(self) -> bool:
        game = self.game
        return game is not None and game.phase is Phase.SETUP and not game.known_cards and not game.stack.scanned

    def _choose(self, variant: Variant) -> list[Event]:
        game = self.game
        if game is None:
            self.variant_choice = variant
            return [VariantChosen(variant.value)]
        if not self._just_begun():
            raise RefusedError(f"HS-{variant.value.upper()} during a game: the variant is chosen at new game "
                               "(expected HS-NEW first, then the variant and the player count)", Reason.WRONG_TIME,
                               code=f"HS-{variant.value.upper()}")
        if game.variant is variant:
            raise RefusedError(f"HS-{variant.value.upper()}: this game already plays the {variant.value} variant",
                               Reason.ALREADY, code=f"HS-{variant.value.upper()}")
        new = self._game(game.players, variant, self._start_data)
        new.names = dict(game.names)
        self.game, self.variant_choice = new, variant
        return [VariantChosen(variant.value), PlayersSet(new.players, variant.value)]

    def _start(self, players: int, data: dict[str, Any]) -> list[Event]:
        if self.game is not None and not self._just_begun():
            raise RefusedError(f"HS-PLAYERS-{players} during a game: scan HS-NEW to start a new game first",
                               Reason.WRONG_TIME, code=f"HS-PLAYERS-{players}", players=players)
        variant = self.variant_choice
        if variant is None:
            default = Variant.OPEN if data.get("variant") == "open" else Variant.STANDARD
            variant = Variant.OPEN if default is Variant.OPEN or players > STANDARD_MAX else Variant.STANDARD
        self.game = self._game(players, variant, data)
        self._start_data = data
        return [PlayersSet(players, self.game.variant.value)]

    def _game(self, players: int, variant: Variant, data: dict[str, Any]) -> Game:
        from companion.rules.game import Game
        order = data.get("side_bet_order")
        ids = None
        if order is not None:
            from companion.rules.sidebets import default_side_bets
            cards = list(default_side_bets())
            ids = [cards[i].id for i in order]
        try:
            return Game(players, variant, track=self.track, deck=self.deck, side_bet_order=ids)
        except ValueError as exc:
            raise RefusedError(f"HS-PLAYERS-{players} with HS-{variant.value.upper()}: {exc}", Reason.PLAYERS,
                               code=f"HS-PLAYERS-{players}", players=players) from None


def seat_name(seat: int, typed: Mapping[int, str], names: Sequence[str], seat_word: str) -> tuple[str, bool]:
    """The one resolution of a seat's name: 0-based ``seat`` -> ``(name, named)``: ``typed[seat]`` (typed at the
    table), else ``names[seat]`` (the config's, stripped), else ``seat_word`` with ``{n}`` the 1-based seat
    (``named`` False)."""
    given = typed.get(seat) or (names[seat].strip() if seat < len(names) else "")
    if given:
        return given, True
    return seat_word.format(n=seat + 1), False
