"""The systemd STATUS= line's sink, and the mock-only stall used to test the watchdog."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from companion.kiosk.sdnotify import Notifier
from companion.view.sink import NullSink
from companion.view.status import status_line as view_status_line
from companion.view.table_view import TableView, build


class StatusSink(NullSink):
    """Keeps the systemd STATUS= line current: "race 2, card 7 of 15; scanner disconnected"."""

    def __init__(self, notifier: Notifier, hardware_status: Callable[[], dict[str, str]]):
        self.notifier = notifier
        self.hardware_status = hardware_status
        self._next = 0.0

    def render(self, view: TableView, now: float) -> None:
        if now < self._next:
            return
        self._next = now + 1.0
        self.notifier.status(view_status_line(view, self.hardware_status()))


def status_line(table: Any, hardware: dict[str, str]) -> str:
    """One line for systemd and logs from a ``Table`` or a ``TableView``
    (:func:`companion.view.status.status_line`)."""
    view = table if isinstance(table, TableView) else build(table, names=table.default_names)
    return view_status_line(view, hardware)


class StallSink(NullSink):
    """Mock-hardware fault injection for tests: while the file named by $HOTSTREAK_MOCK_STALL_FILE exists,
    rendering blocks, as a hung device driver would; the main loop stops and so do the watchdog pings."""

    def __init__(self, path: str):
        self.path = Path(path)

    def render(self, view: TableView, now: float) -> None:
        while self.path.exists():
            time.sleep(0.05)
