"""A failing sink's errors, kept once per cause: logged once, counted, shown in the status.

The controller calls every sink on every loop pass (about 30 a second); a sink that raises each time would
write a traceback each time (some 108,000 an hour onto the SD card). :class:`SinkFaults` logs a cause (the
sink, the exception's type and message) with its traceback the first time only, then counts it and keeps the
wall time it last happened. :meth:`SinkFaults.status` gives the lines for the systemd status line;
the faults are also written (atomically, when a cause is new and at most every ``SAVE_SECONDS`` while one
recurs) to a small JSON file beside the journal, which ``hotstreak status`` reads (:func:`read_faults`).

>>> faults = SinkFaults(wall=lambda: 0.0)
>>> for _ in range(3):
...     faults.failed("ScreenSink", "render", RuntimeError("no display"))
>>> faults.status()
{'sink ScreenSink': 'ScreenSink failed in render: RuntimeError: no display (3 times, last 00:00:00 UTC)'}
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger(__name__)

SAVE_SECONDS = 60.0  # a recurring cause rewrites the file at most this often


@dataclass
class Fault:
    """One cause: ``sink`` (its class name) failed in ``call`` with ``error`` (``Type: message``), ``count``
    times, first and last at ``first``/``last`` (epoch seconds)."""

    sink: str
    call: str
    error: str
    count: int
    first: float
    last: float

    def line(self) -> str:
        when = time.strftime("%H:%M:%S UTC", time.gmtime(self.last))
        times = "once" if self.count == 1 else f"{self.count} times"
        return f"{self.sink} failed in {self.call}: {self.error} ({times}, last {when})"


class SinkFaults:
    """The sink errors of one kiosk run, by cause. ``wall`` gives epoch seconds; ``path`` (optional) is the
    JSON file ``hotstreak status`` reads: an earlier run's is removed when this one starts."""

    def __init__(self, path: str | Path | None = None, wall: Callable[[], float] = time.time):
        self.path = Path(path) if path is not None else None
        self.wall = wall
        self.faults: dict[tuple[str, str, str], Fault] = {}
        self._saved_at = float("-inf")
        self._unsaved = False
        if self.path is not None:  # the faults of an earlier run are not this one's
            try:
                self.path.unlink(missing_ok=True)
            except OSError as exc:
                log.warning("old sink faults in %s not removed (%s)", self.path, exc)

    def failed(self, sink: str, call: str, exc: BaseException) -> None:
        """Count one failure of ``sink``'s ``call``; log it with its traceback when its cause is new."""
        error = f"{type(exc).__name__}: {exc}"
        now = self.wall()
        fault = self.faults.get((sink, type(exc).__name__, str(exc)))
        if fault is None:
            self.faults[sink, type(exc).__name__, str(exc)] = Fault(sink, call, error, 1, now, now)
            log.error("%s.%s failed; it keeps running without it (logged once; the count is in the status)",
                      sink, call, exc_info=exc)
            self._save()
            return
        fault.count += 1
        fault.last = now
        self._unsaved = True
        if now - self._saved_at >= SAVE_SECONDS:
            self._save()

    def status(self) -> dict[str, str]:
        """One entry per failing sink for the status line (part -> text): its latest cause."""
        latest: dict[str, Fault] = {}
        for fault in self.faults.values():
            if fault.sink not in latest or fault.last >= latest[fault.sink].last:
                latest[fault.sink] = fault
        return {f"sink {sink}": fault.line() for sink, fault in latest.items()}

    def to_list(self) -> list[dict[str, Any]]:
        """Every cause as a plain dict (``sink``, ``call``, ``error``, ``count``, ``first``, ``last``)."""
        return [asdict(f) for f in self.faults.values()]

    def close(self) -> None:
        """Write the last counts (the kiosk stops)."""
        if self._unsaved:
            self._save()

    def _save(self) -> None:
        self._saved_at = self.wall()
        self._unsaved = False
        if self.path is None:
            return
        try:
            spare = self.path.with_name(self.path.name + ".new")
            spare.write_text(json.dumps(self.to_list()))
            os.replace(spare, self.path)
        except OSError as exc:
            log.warning("sink faults not written to %s (%s); they are in the status line", self.path, exc)
            self.path = None  # once is enough


def faults_path(journal: str | Path) -> Path | None:
    """The faults file beside a journal file (None for an in-memory journal)."""
    if str(journal) == ":memory:":
        return None
    journal = Path(journal)
    return journal.with_name(journal.name + ".faults.json")


def read_faults(journal: str | Path) -> list[Fault]:
    """The sink faults the kiosk on ``journal`` wrote ([] when none, no kiosk has run on it, or the file is
    not one this module wrote)."""
    path = faults_path(journal)
    try:
        found = json.loads(path.read_text()) if path is not None else []
    except (OSError, ValueError):
        return []
    faults = []
    for entry in found if isinstance(found, list) else []:
        try:
            fault = Fault(**entry)
        except TypeError:
            continue
        if isinstance(fault.count, int) and isinstance(fault.last, (int, float)):
            faults.append(fault)
    return faults
