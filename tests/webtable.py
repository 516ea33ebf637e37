"""A live table with its phone page for the web tests: the :class:`tablekit.TableKit` kiosk (``wiring.build``, the
page served on 127.0.0.1 on a free port) stepped on its own thread, as the kiosk loop does."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from tablekit import TableKit


class LiveTable(TableKit):
    """``scan(text)`` queues an input like the scanner; ``wait_idle()`` waits until the kiosk thread took
    every queued input; ``url`` is the page. Use as a context manager."""

    def __init__(self, db: str | Path = ":memory:", *, language: str = "en", odds: Any = None,
                 limit: Any = None, extra_sinks: tuple[Any, ...] = ()):
        super().__init__(db, language, web="127.0.0.1:0", odds=odds, limit=limit, rng_seed=7,
                         extra_sinks=extra_sinks)
        self.stop = threading.Event()
        self.idle = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="kiosk", daemon=True)
        self.thread.start()

    def _settle(self) -> None:  # the kiosk thread steps the table
        self.controller.step()

    def _loop(self) -> None:
        while not self.stop.is_set():
            self.controller.step(timeout=0.01)
            if self.controller.inputs.empty():
                self.idle.set()

    def scan(self, *texts: str) -> None:  # type: ignore[override]
        for text in texts:
            self.idle.clear()
            self.controller.submit(text, "scan")

    def wait_idle(self, timeout: float = 5.0) -> None:
        self.idle.clear()
        if not self.idle.wait(timeout):
            raise TimeoutError("the kiosk thread did not take its inputs")

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        super().close()
