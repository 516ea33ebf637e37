"""A live table with its phone page for the web tests and the bench: a real Controller (journal in a file or
in memory) stepped on its own thread, as the kiosk loop does, and the page served on 127.0.0.1."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

from companion.kiosk.controller import Controller
from companion.kiosk.journal import Journal
from companion.web.seats import load_secret
from companion.web.server import WebServer
from companion.view.sink import NullSink
from companion.view.table_view import OddsView, odds_situation
from companion.web.sink import WebSink


class FixedOdds(NullSink):
    """Odds that are always ``odds()``, handed to the controller for each situation as the odds sink does."""

    def __init__(self, odds: Any, ready: Any):
        self.odds, self.ready = odds, ready

    def _give(self, view: Any) -> None:
        situation = odds_situation(view)
        if situation is not None:
            self.ready(OddsView(self.odds(), situation.key, situation.cards))

    def events(self, events: Any, view: Any, now: float) -> None:
        self._give(view)

    def reset(self, view: Any, now: float) -> None:
        self._give(view)


class LiveTable:
    """``scan(text)`` queues an input like the scanner; ``wait_idle()`` waits until the kiosk thread took
    every queued input; ``url`` is the page. Use as a context manager."""

    def __init__(self, db: str | Path = ":memory:", *, language: str = "en", odds: Any = None,
                 extra_sinks: tuple[Any, ...] = (), limit: Any = None):
        self.journal = Journal(db)
        self.controller = Controller(self.journal, rng=random.Random(7))
        secret = load_secret(db)
        self.server = WebServer.open("127.0.0.1", 0, submit=self.controller.submit, secret=secret, limit=limit)
        self.server.start()
        self.url = self.server.url
        self.sink = WebSink(self.server.post, self.server.hub, language=language, on_close=self.server.close,
                            secret=secret)
        self.controller.seat_codes = self.sink.codes
        self.controller.join_url_source = lambda: self.url
        if odds is not None:
            self.controller.sinks.append(FixedOdds(odds, self.controller.odds_ready))
        self.controller.sinks.extend([self.sink, *extra_sinks])
        self.stop = threading.Event()
        self.idle = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="kiosk", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        self.controller.resume()
        while not self.stop.is_set():
            self.controller.step(timeout=0.01)
            if self.controller.inputs.empty():
                self.idle.set()

    def scan(self, *texts: str) -> None:
        for text in texts:
            self.idle.clear()
            self.controller.submit(text, "scan")

    def wait_idle(self, timeout: float = 5.0) -> None:
        self.idle.clear()
        if not self.idle.wait(timeout):
            raise TimeoutError("the kiosk thread did not take its inputs")

    def __enter__(self) -> "LiveTable":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)
        self.controller.close()
        self.journal.close()
