"""The journal in trouble, seen from the controller: a write that waits on a stalled SD card keeps the table
alive, a journal deleted or replaced while the kiosk runs is rescued (the game written again at its path), a
journal that cannot save is retried every RETRY_SECONDS and ``problem`` says what is wrong (a part of
:class:`companion.kiosk.controller.Controller`, kept here to keep that module small)."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor  # imported now: a kiosk may drop privileges later
from typing import TYPE_CHECKING, Any, Callable

from companion.kiosk.errors import JournalError, JournalReplaced
from companion.kiosk.journal import Entry, Journal
from companion.kiosk.notices import Notice
from companion.rules.table import Table

log = logging.getLogger("companion.kiosk.controller")
SAVE_FAILED = "can't save - check the SD card"
RETRY_SECONDS = 5.0     # how often a journal that cannot save is tried again (s)
STALL_TICK = 0.1        # while a write to the journal waits on the SD card, the sinks are drawn this often (s)
SAVING_AFTER = 0.5      # ... and after this long the screen says it is saving (s)
SAVING = Notice("Saving - the SD card is slow, one moment", "saving")


class JournalRescue:
    """Writes to ``journal`` on its own thread (:meth:`_saving`), says when it cannot save (``problem``) and
    tries it again (:meth:`_retry`). The rest of the controller supplies ``_load`` (the table from the journal,
    ``companion.kiosk.current_game``), ``_reset`` and ``_draw``. Logs as ``companion.kiosk.controller``."""

    journal: Journal
    entries: list[Entry]
    notices: list[str]
    problem: str | None
    table: Table
    clock: Callable[[], float]
    wall: Callable[[], float]
    _retry_at: float
    _rescued: str | None
    _writer: ThreadPoolExecutor | None

    if TYPE_CHECKING:  # the rest of the controller's
        def _load(self, report: bool = False) -> Table: ...

        def _reset(self, now: float) -> None: ...

        def _draw(self, now: float) -> None: ...

    def _trouble(self, exc: JournalError) -> None:
        line = str(exc)
        if line != self.problem:
            log.error("%s; the table refuses inputs until it can save, retrying every %.0f s", line, RETRY_SECONDS)
        self.problem = line
        self._retry_at = self.clock() + RETRY_SECONDS

    def _saving(self, write: Callable[[], Any]) -> Any:
        """``write()`` to the journal. When its file or write-ahead log was deleted or replaced while the kiosk
        ran, the game is written to a fresh journal at the same path from ``entries`` (every input accepted
        so far), that is said loudly, and ``write()`` is tried once more. Raises JournalError."""
        try:
            return self._written(write)
        except JournalReplaced as exc:
            try:
                aside = self.journal.rebuild(self.entries, self.wall())
            except JournalError as again:
                if self.problem is None:  # once; the retries are told by _trouble
                    log.error("journal %s: %s; the game is kept in memory until it can be written to a new "
                              "journal there (%s)", exc.path, exc.what, again.what)
                raise
            kept = f"; what was at its path is kept as {aside.name}" if aside is not None else ""
            self._rescued = (f"{exc.path}: {exc.what}; the game ({len(self.entries)} inputs) was written to a new "
                             f"journal there{kept}")
            log.error("journal %s, nothing lost", self._rescued)
            self.notices.append(Notice(f"The journal was {'deleted' if 'deleted' in exc.what else 'replaced'}: "
                                       "the game was saved again", "rescued"))
            return self._written(write)

    def _written(self, write: Callable[[], Any]) -> Any:
        """``write()`` run on the journal's own thread while this one keeps the table alive: a write that waits
        on a stalled SD card (a slow fsync, a frozen file system) does not freeze the screen, the lights or the
        systemd watchdog. Every ``STALL_TICK`` s of waiting the sinks are drawn and ``on_tick`` runs; after
        ``SAVING_AFTER`` s the screen says it is saving (once per write). No other input is taken meanwhile, so
        the journal's order is the table's. Returns what ``write`` returns; raises what it raises."""
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="journal")
        future = self._writer.submit(write)
        started = self.clock()
        said = False
        while True:
            try:
                return future.result(timeout=STALL_TICK)
            except TimeoutError:  # concurrent.futures.TimeoutError is this one since 3.11
                now = self.clock()
                if not said and now - started >= SAVING_AFTER:
                    said = True
                    log.warning("journal %s: a write has waited %.1f s on the SD card; the table keeps going",
                                self.journal.path, now - started)
                    self.notices.append(SAVING)
                self._draw(now)

    def _saved(self, now: float) -> None:
        if self._rescued is not None:  # on screen and in status until the next retry or save
            self.problem, self._rescued = self._rescued, None
            self._retry_at = now + RETRY_SECONDS
            return
        if self.problem is not None:
            log.warning("journal %s saves again; play goes on", self.journal.path)
            self.problem = None
            self.notices.append(Notice("Saving again - play on", "saved"))

    def _retry(self, now: float) -> None:
        """Try the journal again: reopen a read-only start for writing, else a tiny real write."""
        self._retry_at = now + RETRY_SECONDS
        try:
            if self.journal.readonly:
                self.journal.reopen()
                self.table = self._load(report=True)
                self._reset(now)
            else:
                self._saving(self.journal.probe)
        except JournalError as exc:
            self._trouble(exc)
            return
        self._saved(now)
