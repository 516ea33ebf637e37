"""The web thread's side of the table: the newest view, the claims, and the phones waiting for an answer.

Everything here runs on the web server's own event loop. The kiosk thread never waits for it: the
:class:`companion.web.sink.WebSink` hands over each new view with ``loop.call_soon_threadsafe`` (which only
appends to a queue), and each phone's connection sends the newest view when it is ready. A slow phone
skips views it had no time for; it never holds up the kiosk or the other phones.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict, deque
from typing import Any


class Hub:
    """Newest view (``version``, ``text`` as JSON), seat claims, and futures of phone inputs in flight."""

    def __init__(self) -> None:
        self.version = 0
        self.view: dict[str, Any] = {"phase": "new-game", "players": 0, "seats": []}
        self.text = json.dumps({"version": 0, **self.view})
        self.claims: dict[int, int] = {}
        self.pending_seats: set[int] = set()
        self._waiting: dict[str, deque[asyncio.Future[tuple[bool, str]]]] = defaultdict(deque)
        self._changed: set[asyncio.Event] = set()

    # ----- called on the loop, from the kiosk thread via call_soon_threadsafe ---------------------------
    def publish(self, view: dict[str, Any], claims: dict[int, int]) -> None:
        """A new view of the table: every connected phone is woken to send it."""
        self.version += 1
        self.view, self.claims = view, claims
        self.text = json.dumps({"version": self.version, **view}, separators=(",", ":"))
        for event in self._changed:
            event.set()

    def outcome(self, text: str, accepted: bool, message: str) -> None:
        """The table took (or refused) input ``text``: answer the oldest phone waiting for it, if any."""
        queue = self._waiting.get(text)
        while queue:
            future = queue.popleft()
            if not future.done():
                future.set_result((accepted, message))
                break
        if queue is not None and not queue:
            self._waiting.pop(text, None)

    # ----- used by the request handlers -----------------------------------------------------------------
    def expect(self, text: str) -> asyncio.Future[tuple[bool, str]]:
        """A future for the table's answer to ``text`` (call before submitting it)."""
        future: asyncio.Future[tuple[bool, str]] = asyncio.get_running_loop().create_future()
        self._waiting[text].append(future)
        return future

    def forget(self, text: str, future: asyncio.Future[tuple[bool, str]]) -> None:
        queue = self._waiting.get(text)
        if queue and future in queue:
            queue.remove(future)
        if queue is not None and not queue:
            self._waiting.pop(text, None)

    def watch(self) -> asyncio.Event:
        """An event set whenever a new view is published (for one connection; :meth:`unwatch` at the end)."""
        event = asyncio.Event()
        self._changed.add(event)
        return event

    def unwatch(self, event: asyncio.Event) -> None:
        self._changed.discard(event)

    @property
    def connections(self) -> int:
        return len(self._changed)
