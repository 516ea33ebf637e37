"""The whole table as a pure state machine over barcode texts: new game, player count, then the game.

``Table.apply(text, data)`` parses a scanned text (companion.rules.codes), applies it and returns the events; it
raises a HotStreakError (one line: the bad input and what was expected) and changes nothing when the input
does not fit. ``HS-UNDO`` is not applied here: undo is resolved by the journal (companion.kiosk.journal) and the
table is rebuilt by replay. Realised randomness (the side bet order of a new game) arrives in ``data``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.rules.codes import CardCode, Control, SeatNameCode, parse_code
from companion.rules.deck import Deck
from companion.rules.errors import HotStreakError, RefusedError
from companion.rules.events import Event
from companion.rules.race import Race
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
class SeatNamed(Event):
    """``HS-NAME-<seat>:<name>``: seat ``seat`` (1-based) is called ``name`` from now on ("" = unnamed)."""

    seat: int
    name: str


NEW_GAME = "new-game"


def side_bet_count() -> int:
    from companion.rules.sidebets import load_side_bets
    return len(load_side_bets())


def realise(text: str, rng: random.Random) -> dict[str, Any]:
    """Draw the randomness an input needs, to be stored with it in the journal (never re-drawn on replay).

    A player-count code gets the shuffled order of the side bet cards for the new game.
    """
    try:
        code = parse_code(text)
    except HotStreakError:
        return {}
    if isinstance(code, Control) and code.action == "players":
        order = list(range(side_bet_count()))
        rng.shuffle(order)
        return {"side_bet_order": order}
    return {}


class Table:
    """A table of players, from ``HS-NEW`` through three races to the final standings."""

    def __init__(self, track: Track | None = None, deck: Deck | None = None):
        self.track = track
        self.deck = deck
        self.game: Game | None = None  # companion.rules.game.Game once the player count is known

    @property
    def phase(self) -> str:
        """``new-game`` until a player count is scanned, then the game's phase value."""
        return NEW_GAME if self.game is None else self.game.phase.value

    def apply(self, text: str, data: dict[str, Any] | None = None) -> list[Event]:
        code = parse_code(text)
        if isinstance(code, Control):
            if code.action == "undo":
                raise RefusedError("HS-UNDO is handled by the journal, not the table")
            if code.action == "new":
                self.game = None
                return [NewGame()]
            if code.action == "players":
                return self._start(code.players or 0, data or {})
        if self.game is None:
            what = "a card" if isinstance(code, CardCode) else repr(text)
            raise RefusedError(f"{what} before the player count: scan HS-PLAYERS-2..HS-PLAYERS-12 first")
        if isinstance(code, SeatNameCode):
            return self._name(code)
        return self.game.apply(code)

    def _name(self, code: SeatNameCode) -> list[Event]:
        assert self.game is not None
        if code.seat > self.game.players:
            raise RefusedError(f"seat {code.seat} is not at this table (expected a seat 1..{self.game.players})")
        if code.name:
            self.game.names[code.seat - 1] = code.name
        else:
            self.game.names.pop(code.seat - 1, None)
        return [SeatNamed(code.seat, code.name)]

    def seat_name(self, seat: int) -> str:
        """The name of 0-based ``seat``, or "Seat N" (1-based) when nobody named it."""
        names = self.game.names if self.game is not None else {}
        return names.get(seat) or f"Seat {seat + 1}"

    def _start(self, players: int, data: dict[str, Any]) -> list[Event]:
        from companion.rules.game import Game, Phase
        if self.game is not None and not (self.game.phase is Phase.SETUP and not self.game.known_cards):
            raise RefusedError(f"HS-PLAYERS-{players} during a game: scan HS-NEW to start a new game first")
        order = data.get("side_bet_order")
        ids = None
        if order is not None:
            from companion.rules.sidebets import load_side_bets
            cards = list(load_side_bets())
            ids = [cards[i].id for i in order]
        self.game = Game(players, track=self.track, deck=self.deck, side_bet_order=ids)
        return [PlayersSet(players, self.game.variant.value)]


def shown_race(table: Table) -> Race | None:
    """The race the lights and screen show: the current one, or the finished one during payouts."""
    game = table.game
    return getattr(game, "race", None) if game is not None else None

