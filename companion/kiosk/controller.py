"""The kiosk controller: inputs in (scanner, buttons, keys, scripts), journal, table, sinks out.

One main loop (``Kiosk.run_forever`` calling ``Controller.step``) takes inputs from a thread-safe queue in
bounded batches, stores each in the journal, applies it to the table and hands the events to the sinks (LED
lights, screen, voice, status). Devices feed the queue from their own threads through ``submit``; nothing else
touches the table.

Order for every input: the table tries it (a refused input changes nothing and is never stored); an accepted
one is stored in the journal (committed) and only then do the sinks act on its events. When the journal cannot
save (SD card full, read-only, locked), the input is taken back and refused like any other ("can't save -
check the SD card"), ``problem`` says what is wrong, and the controller retries every few seconds; play goes
on once it saves again. A crash between the two steps loses an input nobody saw accepted.

The table is the replay of the current game only (from the latest ``HS-NEW`` still in effect). An input that
no longer applies on replay (an edited data file) is kept in the journal, marked and reported, never deleted.

This module holds only that flow: take an input, journal it, apply it, build the view, hand it to the sinks.
Its parts live beside it, each named after what it holds: ``inputs`` (the Result of an input, replay),
``rescue`` (the journal's trouble, rescue and retry), ``current_game`` (the replayed game and its journaled
list), ``records`` (finished games and the form line), ``wording`` (the race call's words of an input),
``feeds`` (odds and the page's address taken in between inputs) and ``page_hooks`` (the page's seat codes).
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import queue
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor  # imported now: a kiosk may drop privileges later
from typing import Any, Callable, Iterable, Mapping, Sequence

from companion.kiosk.current_game import CurrentGame
from companion.kiosk.errors import JournalError
from companion.kiosk.faults import SinkFaults, faults_path
from companion.kiosk.feeds import ViewFeeds
from companion.kiosk.inputs import Result, refused as _refused, replay, status_dict
from companion.kiosk.journal import UNDO, Entry, Journal
from companion.kiosk.page_hooks import PageHooks
from companion.kiosk.records import GameRecords
from companion.kiosk.rescue import RETRY_SECONDS, SAVE_FAILED, SAVING, JournalRescue
from companion.kiosk.wording import CallWords
from companion.rules.codes import parse_code
from companion.rules.deck import Deck
from companion.rules.errors import HotStreakError, Reason, RefusalMessage, RefusedError
from companion.rules.events import Event
from companion.rules.game_events import PhaseChanged
from companion.rules.track import Track
from companion.rules.table import realise
from companion.view.sink import Sink, Undone
from companion.view.table_view import InputView, Journaled, OddsView, TableView, build

log = logging.getLogger(__name__)
BATCH = 32              # inputs handled per loop pass at most (the rest wait for the next pass)
BATCH_SECONDS = 0.2     # ... and no longer than this (s), so the watchdog keeps being pinged under a flood

__all__ = ["Controller", "Result", "RETRY_SECONDS", "SAVE_FAILED", "SAVING", "Undone", "replay", "status_dict"]


class Controller(CurrentGame, GameRecords, JournalRescue, PageHooks, ViewFeeds):
    """Drives one table. ``clock`` is monotonic seconds (effects, animation); ``wall`` is epoch seconds
    (journal timestamps); ``rng`` draws the realised randomness that is stored with an input; ``variant`` is
    the configured default variant of a new game (config ``[game] variant``); ``names`` the config's player
    names by seat; ``language`` (en, nl, es) of the race call lines and the form line.

    ``sinks`` are called in order; ``lights`` (the LED strip's sink) is called first and drawn at once after
    every accepted input, before the other sinks do their work. ``join_url()`` gives the phone page's address
    (looked at again every ADDRESS_SECONDS), shown in the view; odds arrive through :meth:`odds_ready`.
    ``service`` (the wiring's ``companion.service.runner.Service``) takes every input while the service mode is on."""

    def __init__(self, journal: Journal, *, track: Track | None = None, deck: Deck | None = None,
                 sinks: Iterable[Sink] = (), lights: Sink | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time, rng: random.Random | None = None,
                 on_tick: Callable[[float], object] | None = None, variant: str = "standard",
                 notices: Iterable[str] = (), batch: int = BATCH, names: Iterable[str] = (),
                 language: str = "en", join_url: Callable[[], str | None] | None = None):
        self.journal = journal
        self.names = tuple(names)  # the config's player names by seat, until names are typed
        self.language = language   # of the form line and the race call
        self.track = track
        self.deck = deck
        self.lights = lights
        self.sinks: list[Sink] = list(sinks)
        self.clock = clock
        self.wall = wall
        self.rng = rng or random.Random()
        self.on_tick = on_tick
        self.variant = variant  # the configured default variant, stored with each new game's player count
        self.inputs: queue.Queue[tuple[str, str, int]] = queue.Queue()
        self.batch = batch
        self.notices = list(notices)  # shown once on the screen at the next render
        self.problem: str | None = str(journal.problem) if journal.problem else None  # journal cannot save
        self._retry_at = clock() + RETRY_SECONDS
        self._rescued: str | None = None  # what the last rescue of a deleted or replaced journal did
        self.faults = SinkFaults(faults_path(journal.path), wall)  # the sinks' errors, once per cause
        self._writer: ThreadPoolExecutor | None = None  # the journal's writes (see _written)
        self._requests = itertools.count(1)
        self._request_lock = threading.Lock()
        self._odds: OddsView | None = None  # the newest odds known in this phase
        self._odds_in: queue.SimpleQueue[OddsView] = queue.SimpleQueue()
        self.join_url_source = join_url
        self.seat_codes: Callable[[TableView], Mapping[int, str]] | None = None  # the phone page's consent codes
        self.join_code: Callable[[TableView], str | None] | None = None  # the phone page's join code (in the QR)
        self._gates: dict[int, Callable[[], bool]] = {}
        self.join_url: str | None = None
        self._address_at = 0.0
        self.entries: list[Entry] = []   # the current game's inputs that count (the table's replay)
        self._recorded: int | None = None  # first input id of the game last summarised at its end
        self.skipped: dict[int, str] = {}  # of those, the ones that did not apply: id -> why
        self._made: tuple[list[Entry], dict[int, str], list[Journaled]] = ([], {}, [])  # see _journaled
        self.form: str | None = None  # a line of mascot form for the attract and setup screens
        self.words = CallWords(language)  # the race call's words of an input, for the console, screen, phone
        self.table = self._load(report=True)
        self._refresh_history()
        self.view = self._view()
        self.summarising = True  # older games without a summary are summarised one per idle loop pass
        self.service: Any = None  # companion.service.runner.Service: takes every input while it is on

    # ----- the view -----------------------------------------------------------------------------------
    def _view(self, events: Sequence[Event] = (), input: InputView | None = None) -> TableView:
        """The TableView of the table now, with the race call lines of ``events`` computed once here."""
        view = build(self.table, names=self.names, seat_word=self.words.seat_word, odds=self._odds,
                     join_url=self.join_url, input=input, form=self.form, journaled=self._journaled())
        view = self._joined(self._coded(dataclasses.replace(view, journal_identity=self.journal.identity)))
        return self.words.worded(view, events)

    def odds_ready(self, odds: OddsView) -> None:
        """New odds from the odds worker (any thread): in the view at the next loop pass."""
        self._odds_in.put(odds)

    # ----- inputs -------------------------------------------------------------------------------------
    def submit(self, text: str, source: str = "scan", gate: Callable[[], bool] | None = None) -> int:
        """Queue an input from any thread (scanner, buttons, keyboard, web, script); returns its request id,
        which the sinks see again in ``view.input.request`` when it is handled. ``gate()``, when given, is
        asked on the kiosk thread just before the input is handled: False drops it unhandled and unanswered
        (a phone that gave up waiting for its claim)."""
        with self._request_lock:
            request = next(self._requests)
            if gate is not None:
                self._gates[request] = gate
        self.inputs.put((source, text, request))
        return request

    def handle(self, text: str, source: str = "scan", request: int | None = None) -> Result:
        """Journal and apply one input now; returns what became of it. Never raises for bad input."""
        now = self.clock()
        text = text.strip()
        if self.service is not None and self.service.takes(text, source):  # never a game input, never journaled
            return self._serve(text, source, request, now)
        if text.upper() == UNDO:
            result, error = self._undo(source, now)
        else:
            result, error = self._apply(text, source, now)
        result.request = request
        seen = InputView(text, source, request, result.accepted)
        if result.accepted:
            if any(isinstance(e, PhaseChanged) for e in result.events):
                self._odds = None  # odds of the phase left behind are not shown in the next one
            self.view = self._view(result.events, seen)
            if self.lights is not None:  # the LED frame first: a player looks at the strip after a scan
                self._call(self.lights, "events", self.lights.events, result.events, self.view, now)
                self._call(self.lights, "render", self.lights.render, self.view, now)
            for sink in list(self.sinks):
                self._call(sink, "events", sink.events, result.events, self.view, now)
        else:
            # debug only: the sinks show, say and print every refusal (ConsoleSink on stdout); an INFO line
            # here printed each one a second time on the terminal and in the systemd journal
            log.debug("refused %r: %s", text, result.message)
            self.view = dataclasses.replace(self.view, input=seen, call=(), lines=(), announced=())
            assert error is not None
            for sink in self._all():
                self._call(sink, "refused", sink.refused, error, self.view, now)
        return result

    def _serve(self, text: str, source: str, request: int | None, now: float) -> Result:
        """An input of the service mode; leaving it redraws every sink from the unchanged table."""
        why = self.service.handle(text, source, now)
        if why is None:
            if not self.service.active:
                self._reset(now)
            return Result(text, True, request=request)
        error = RefusedError(why, Reason.BUSY, code=text)
        self.view = dataclasses.replace(self.view, input=InputView(text, source, request, False))
        for sink in self._all():
            self._call(sink, "refused", sink.refused, error, self.view, now)
        return Result(text, False, message=RefusalMessage(error), error=error, request=request)

    def _apply(self, text: str, source: str, now: float) -> tuple[Result, RefusedError | None]:
        chosen = self.table.variant_choice  # HS-OPEN/HS-STANDARD scanned before the count, else the config's
        try:
            code = parse_code(text)  # parsed once: the realised data and the table share it
            data = realise(text, self.rng, chosen.value if chosen is not None else self.variant, code=code)
            events = self.table.apply(text, data, code=code)
        except HotStreakError as exc:
            return _refused(text, exc)
        summary = self._summary(events)
        try:
            entry = self._saving(lambda: self.journal.append(text, source, self.wall(), data, summary=summary))
        except JournalError as exc:
            self._trouble(exc)
            self.table = self._replay(self.entries)  # take it back: nothing applied
            return _refused(text, RefusedError(SAVE_FAILED, Reason.SAVE, code=text))
        self._saved(now)
        self._kept(entry, events)
        return Result(text, True, events), None

    def _undo(self, source: str, now: float) -> tuple[Result, RefusedError | None]:
        try:
            target = self._saving(lambda: self.journal.undo(source, self.wall()))
        except JournalError as exc:
            self._trouble(exc)
            return _refused(UNDO, RefusedError(SAVE_FAILED, Reason.SAVE, code=UNDO))
        if target is None:
            return _refused(UNDO, RefusedError("nothing to undo", Reason.NOTHING_TO_UNDO, code=UNDO))
        self._saved(now)
        self.table = self._load()
        self._refresh_history()
        self._reset(now)
        return Result(UNDO, True, [Undone(target.text)]), None

    def _reset(self, now: float) -> None:
        self.view = self._view()
        for sink in self._all():
            self._call(sink, "reset", sink.reset, self.view, now)

    # ----- the loop -----------------------------------------------------------------------------------
    def step(self, timeout: float = 0.0) -> list[Result]:
        """Handle queued inputs (waiting up to ``timeout`` s for the first), at most ``batch`` of them and for at
        most BATCH_SECONDS, then retry a journal in trouble, take in new odds and the page's address, show
        notices and render the sinks."""
        results = []
        try:
            source, text, request = self.inputs.get(timeout=timeout) if timeout > 0 else self.inputs.get_nowait()
            budget = time.monotonic() + BATCH_SECONDS
            while True:
                gate = self._gates.pop(request, None) if self._gates else None
                if gate is None or gate():
                    results.append(self.handle(text, source, request))
                else:
                    log.info("input %r from %s dropped: its sender stopped waiting for the answer", text, source)
                if len(results) >= self.batch or time.monotonic() > budget:
                    break
                source, text, request = self.inputs.get_nowait()
        except queue.Empty:
            pass
        now = self.clock()
        if self.problem is not None and now >= self._retry_at:
            self._retry(now)
        elif not results and self.summarising:
            self._summarise_one()
        self._take_odds()
        self._look_up_address(now)
        self._draw(now)
        return results

    def _draw(self, now: float) -> None:
        """Show the notices waiting, draw every sink, ping the watchdog (``on_tick``)."""
        if self.service is not None:
            self.view = self.service.show(self.view, now)  # the service screen's data, its LED frame drawn
        while self.notices:
            notice = self.notices.pop(0)
            for sink in self._all():
                self._call(sink, "notice", sink.notice, notice, self.view, now)
        for sink in self._all():
            self._call(sink, "render", sink.render, self.view, now)
        if self.on_tick:
            self.on_tick(now)

    def resume(self) -> None:
        """Tell the sinks where the table is (after a start from the journal): they show it as after an undo."""
        self._reset(self.clock())

    def close(self) -> None:
        for sink in self._all():
            self._call(sink, "close", sink.close)
        self.faults.close()
        if self._writer is not None:
            self._writer.shutdown(wait=False)

    def _all(self) -> list[Sink]:
        """Every sink, the lights first."""
        lit = self.lights is not None and not (self.service is not None and self.service.active)
        return ([self.lights] if lit and self.lights is not None else []) + list(self.sinks)

    def _call(self, sink: Sink, what: str, method: Callable[..., None], *args: Any) -> None:
        """One call of one sink; a failure is logged once per cause and counted (``faults``); the rest carry on."""
        try:
            method(*args)
        except Exception as exc:  # noqa: BLE001 - a broken display or voice must not stop the race
            self.faults.failed(type(sink).__name__, what, exc)
