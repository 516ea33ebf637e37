"""The kiosk controller: inputs in (scanner, buttons, keys, scripts), journal, table, sinks out.

One main loop (``Controller.run``) takes inputs from a thread-safe queue, stores each in the journal, applies
it to the table and hands the events to the sinks (LED lights, screen, voice, status). Devices feed the queue
from their own threads through ``submit``; nothing else touches the table.

Order for every input: store it in the journal (committed), apply it; if the table refuses it, remove it from
the journal again and tell the sinks (a one-line message, nothing changed). Only then do the sinks act on the
events. A crash between the two steps leaves a stored input that replay refuses again and discards, so no
input is lost or applied twice.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol

from companion.kiosk.journal import UNDO, Entry, Journal
from companion.rules.deck import Deck
from companion.rules.errors import HotStreakError
from companion.rules.events import Event
from companion.rules.race import Race
from companion.rules.track import Track
from companion.rules.table import Table, realise

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Undone(Event):
    """``HS-UNDO`` (or the undo button) took back the input ``text``."""

    text: str


@dataclass
class Result:
    """What became of one input: accepted with its events, or refused with a one-line message."""

    text: str
    accepted: bool
    events: list[Event] = field(default_factory=list)
    message: str | None = None


class Sink(Protocol):
    """Something that shows or says what happens at the table. Every method must return quickly."""

    def events(self, events: list[Event], table: Table, now: float) -> None: ...

    def refused(self, text: str, message: str, table: Table, now: float) -> None: ...

    def reset(self, table: Table, now: float) -> None: ...

    def render(self, table: Table, now: float) -> None: ...

    def close(self) -> None: ...


class BaseSink:
    """A sink that does nothing; subclass and override what you need."""

    def events(self, events: list[Event], table: Table, now: float) -> None:
        pass

    def refused(self, text: str, message: str, table: Table, now: float) -> None:
        pass

    def reset(self, table: Table, now: float) -> None:
        pass

    def render(self, table: Table, now: float) -> None:
        pass

    def close(self) -> None:
        pass


def replay(entries: Iterable[Entry], track: Track | None = None, deck: Deck | None = None,
           on_refused: Callable[[Entry], None] | None = None) -> Table:
    """Rebuild the table from journaled inputs; an input that is refused again is skipped (and reported)."""
    table = Table(track, deck)
    for entry in entries:
        try:
            table.apply(entry.text, entry.data)
        except HotStreakError:
            if on_refused:
                on_refused(entry)
    return table


class Controller:
    """Drives one table. ``clock`` is monotonic seconds (effects, animation); ``wall`` is epoch seconds
    (journal timestamps); ``rng`` draws the realised randomness that is stored with an input; ``variant`` is
    the configured default variant of a new game (config ``[game] variant``)."""

    def __init__(self, journal: Journal, *, track: Track | None = None, deck: Deck | None = None,
                 sinks: Iterable[Any] = (), clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, rng: random.Random | None = None,
                 on_tick: Callable[[float], None] | None = None, variant: str = "standard"):
        self.journal = journal
        self.track = track
        self.deck = deck
        self.sinks = list(sinks)
        self.clock = clock
        self.wall = wall
        self.rng = rng or random.Random()
        self.on_tick = on_tick
        self.variant = variant  # the configured default variant, stored with each new game's player count
        self.inputs: queue.Queue[tuple[str, str]] = queue.Queue()
        self.table = self._rebuild()
        self.last_result: Result | None = None

    # ----- inputs -------------------------------------------------------------------------------------
    def submit(self, text: str, source: str = "scan") -> None:
        """Queue an input from any thread (scanner, buttons, keyboard, script)."""
        self.inputs.put((source, text))

    def handle(self, text: str, source: str = "scan") -> Result:
        """Journal and apply one input now; returns what became of it. Never raises for bad input."""
        now = self.clock()
        text = text.strip()
        if text.upper() == UNDO:
            result = self._undo(source, now)
        else:
            result = self._apply(text, source, now)
        self.last_result = result
        if result.accepted:
            self._each("events", result.events, self.table, now)
        else:
            # debug only: the sinks show, say and print every refusal (ConsoleSink on stdout); an INFO line
            # here printed each one a second time on the terminal and in the systemd journal
            log.debug("refused %r: %s", text, result.message)
            self._each("refused", text, result.message or "", self.table, now)
        return result

    def _apply(self, text: str, source: str, now: float) -> Result:
        chosen = self.table.variant_choice  # HS-OPEN/HS-STANDARD scanned before the count, else the config's
        data = realise(text, self.rng, chosen.value if chosen is not None else self.variant)
        entry = self.journal.append(text, source, self.wall(), data)
        try:
            events = self.table.apply(text, data)
        except HotStreakError as exc:
            self.journal.discard(entry.id)
            return Result(text, False, message=str(exc))
        return Result(text, True, events)

    def _undo(self, source: str, now: float) -> Result:
        effective = self.journal.effective()
        if not effective:
            return Result(UNDO, False, message="nothing to undo")
        self.journal.append(UNDO, source, self.wall())
        self.table = self._rebuild()
        self._each("reset", self.table, now)
        return Result(UNDO, True, [Undone(effective[-1].text)])

    def _rebuild(self) -> Table:
        refused: list[Entry] = []
        table = replay(self.journal.effective(), self.track, self.deck, refused.append)
        if refused:  # stored just before a crash and refused: they never counted; drop them for good
            for entry in refused:
                log.warning("dropping journaled input %r that the table refuses on replay", entry.text)
                self.journal.discard(entry.id)
            table = replay(self.journal.effective(), self.track, self.deck)
        return table

    # ----- the loop -----------------------------------------------------------------------------------
    def step(self, timeout: float = 0.0) -> list[Result]:
        """Handle every queued input (waiting up to ``timeout`` s for the first), then render the sinks."""
        results = []
        try:
            source, text = self.inputs.get(timeout=timeout) if timeout > 0 else self.inputs.get_nowait()
            while True:
                results.append(self.handle(text, source))
                source, text = self.inputs.get_nowait()
        except queue.Empty:
            pass
        now = self.clock()
        self._each("render", self.table, now)
        if self.on_tick:
            self.on_tick(now)
        return results

    def run(self, stop: threading.Event, frame_interval: float = 1 / 30) -> None:
        """Loop until ``stop`` is set: inputs as they come, a render at least every ``frame_interval`` s."""
        while not stop.is_set():
            self.step(timeout=frame_interval)

    def resume(self) -> None:
        """Tell the sinks where the table is (after a start from the journal): they show it as after an undo."""
        self._each("reset", self.table, self.clock())

    def close(self) -> None:
        self._each("close")

    def _each(self, method: str, *args: Any) -> None:
        """Call a method on every sink; a failing sink is logged and the rest carry on (degrade, don't die)."""
        for sink in list(self.sinks):
            try:
                getattr(sink, method)(*args)
            except Exception:  # noqa: BLE001 - a broken display or voice must not stop the race
                log.exception("%s.%s failed; it keeps running without it", type(sink).__name__, method)


# ----- status --------------------------------------------------------------------------------------
def status_dict(table: Table) -> dict[str, Any]:
    """The ``hotstreak status --json`` object (DESIGN.md): phase, race, players, pass, revealed, mascots,
    placings, money; ``variant`` ("standard"/"open", or the one chosen for the next game, or None);
    ``side_bet`` {card id, code HS-Snn, question, answer None|bool, scanned: confirmed by a scan (False: the
    kiosk's assumed next card)}; ``seats`` [{name, money, tickets [{ticket, side, double}], double: the
    doubled ticket id (open variant: "mascot"/"side"), bet: the open-variant bet or None}]."""
    game = table.game
    race = getattr(game, "race", None) if game is not None else None
    shown = race or Race(table.track, table.deck)
    side_bet: dict[str, Any] = {"card": None, "code": None, "question": None, "answer": None, "scanned": False}
    seats: list[dict[str, Any]] = []
    variant = table.variant_choice.value if table.variant_choice is not None else None
    if game is not None:
        variant = game.variant.value
        card = game.stack.card()
        if card is not None:
            side_bet = {"card": card.id, "code": card.code, "question": card.question,
                        "answer": game.side_bet_answer, "scanned": game.stack.scanned}
        for s, money in enumerate(game.money):
            bets = game.tickets.get(s, [])
            open_bet = game.book.seat(s) if game.book.tracked else None
            double = next((b.ticket.id for b in bets if b.double), None)
            seats.append({"name": table.seat_name(s), "money": money, "tickets": [b.to_dict() for b in bets],
                          "double": open_bet.double if open_bet is not None else double,
                          "bet": open_bet.to_dict() if open_bet is not None else None})
    return {
        "phase": table.phase,
        "race": getattr(game, "race_no", 0) if game is not None else 0,
        "players": getattr(game, "players", 0) if game is not None else 0,
        "pass": race.pass_no if race else 0,
        "revealed": race.revealed if race else 0,
        "mascots": {s.mascot.value: s.to_dict() for s in shown.state.mascots},
        "placings": {m.value: p for m, p in shown.outcome.placings.items()},
        "money": list(getattr(game, "money", [])) if game is not None else [],
        "variant": variant,
        "side_bet": side_bet,
        "seats": seats,
    }
