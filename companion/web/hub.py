"""The web thread's side of the table: the newest view, the claims, and the phones waiting for an answer.

Everything here runs on the web server's own event loop. The kiosk thread never waits for it: the
:class:`companion.web.sink.WebSink` hands over each new view with ``loop.call_soon_threadsafe`` (which only
appends to a queue), and each phone's connection sends the newest view when it is ready. A slow phone
skips views it had no time for; it never holds up the kiosk or the other phones.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any


class Hub:
    """Newest view (``version``, ``text`` as JSON), seat claims, and futures of phone inputs in flight."""

    def __init__(self) -> None:
        self.version = 0
        self.view: dict[str, Any] = {"phase": "new-game", "players": 0, "seats": []}
        self.text = json.dumps({"version": 0, **self.view})
        self.claims: dict[int, int] = {}
        self.pending_seats: set[int] = set()
        self.codes: dict[int, str] = {}  # seat -> consent code, for the seats the table plays (never sent out)
        self.identity: str | None = None  # the journal's identity; tokens are bound to it
        self.earlier: list[str | None] = []  # identities this kiosk carried the same game from (newest last)
        self.join: str | None = None  # the table's join code (never sent out)
        self.earlier_joins: list[str] = []  # the same game's codes under the identities in ``earlier``
        self.renamed: dict[int, float] = {}  # seat -> when a phone last renamed it (loop time)
        self._waiting: dict[int, asyncio.Future[tuple[bool, str]]] = {}
        self._changed: set[asyncio.Event] = set()

    # ----- called on the loop, from the kiosk thread via call_soon_threadsafe ---------------------------
    def publish(self, view: dict[str, Any], claims: dict[int, int], codes: dict[int, str] | None = None,
                identity: str | None = None, join: str | None = None) -> None:
        """A new view of the table: every connected phone is woken to send it. ``codes`` are the consent codes
        of the seats that need one; ``identity`` the journal's (a new one within this process is the same
        game written to a fresh journal, so tokens and the join code of the one before still count); ``join``
        the join code every claim must carry (None: no claim is taken)."""
        if identity != self.identity and self.version:
            self.earlier = [*self.earlier, self.identity][-3:]
            self.earlier_joins = [*self.earlier_joins, *([self.join] if self.join else [])][-3:]
        elif join != self.join:
            self.earlier_joins = []  # a new game: its code alone
        self.identity = identity
        self.codes = dict(codes or {})
        self.join = join
        self.version += 1
        self.view, self.claims = view, claims
        self.text = json.dumps({"version": self.version, **view}, separators=(",", ":"))
        for event in self._changed:
            event.set()

    def outcome(self, request: int, accepted: bool, message: str) -> None:
        """The table took (or refused) the input of request id ``request`` (``Controller.submit``'s answer):
        answer the phone waiting for it, if any."""
        future = self._waiting.pop(request, None)
        if future is not None and not future.done():
            future.set_result((accepted, message))

    # ----- used by the request handlers -----------------------------------------------------------------
    def expect(self, request: int) -> asyncio.Future[tuple[bool, str]]:
        """A future for the table's answer to request ``request`` (call it before the loop runs anything else
        after submitting: the answer comes through this loop)."""
        future: asyncio.Future[tuple[bool, str]] = asyncio.get_running_loop().create_future()
        self._waiting[request] = future
        return future

    def forget(self, request: int) -> None:
        self._waiting.pop(request, None)

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
