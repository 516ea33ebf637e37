"""The systemd STATUS= line and its sink, and the mock-only stall used to test the watchdog."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from companion.kiosk.controller import BaseSink, status_dict
from companion.kiosk.sdnotify import Notifier
from companion.rules.table import Table, shown_race


class StatusSink(BaseSink):
    """Keeps the systemd STATUS= line current: "race 2, card 7 of 15; scanner disconnected"."""

    def __init__(self, notifier: Notifier, hardware_status: Callable[[], dict[str, str]]):
        self.notifier = notifier
        self.hardware_status = hardware_status
        self._next = 0.0

    def render(self, table: Table, now: float) -> None:
        if now < self._next:
            return
        self._next = now + 1.0
        self.notifier.status(status_line(table, self.hardware_status()))


def status_line(table: Table, hardware: dict[str, str]) -> str:
    """One line for systemd and logs: the game position and any device that is not well."""
    s = status_dict(table)
    if s["phase"] == "racing":
        race = shown_race(table)
        per = race.track.reveals_per_pass if race else 15
        where = f"race {s['race']}, pass {s['pass']}, card {s['revealed']} of {per}"
    elif s["phase"] == "new-game":
        where = "waiting for a new game"
    else:
        where = f"race {s['race']}, {s['phase']}"
    trouble = [v for k, v in hardware.items() if k != "hardware" and any(
        w in v.lower() for w in ("disconnected", "missing", "no-op", "failed", "error", "not "))]
    return "; ".join([where, *trouble])


class StallSink(BaseSink):
    """Mock-hardware fault injection for tests: while the file named by $HOTSTREAK_MOCK_STALL_FILE exists,
    rendering blocks, as a hung device driver would; the main loop stops and so do the watchdog pings."""

    def __init__(self, path: str):
        self.path = Path(path)

    def render(self, table: Table, now: float) -> None:
        while self.path.exists():
            time.sleep(0.05)
