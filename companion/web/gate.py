"""Who may hold a connection to the phone page: caps per client address and in all, and deadlines for the
request head, enforced where uvicorn accepts connections (its h11 protocol, subclassed).

uvicorn has no per-address cap and no deadline before the first request (its keep-alive timer starts only
after a response, and any byte received stops it), so a few hundred held or trickling connections from one
phone would take every place and lock the other phones out. Here:

- :class:`Gate` counts the open connections of each client address (HTTP ones and those upgraded to a
  WebSocket apart) and says whether one more may open. Past ``total - reserve`` connections in all, only an
  address holding fewer than ``newcomer`` connections may open one: the last ``reserve`` places are kept for
  phones that are new. When even those are taken, the longest-idle connection of the address holding the
  most gives way to an address holding fewer than ``newcomer`` (:meth:`Gate.admit`): whatever the other
  addresses hold, a new phone always loads the page.
- :func:`gated_protocols` makes the HTTP and WebSocket protocol classes for ``uvicorn.Config(http=...,
  ws=...)`` that ask the gate. A refused connection gets a ``503`` with a one-line reason and is closed; a
  connection whose request head is not complete ``head_seconds`` after it opened (or after its last
  response) is closed (slow headers, "slowloris").

Everything here runs on the server's event loop: no locks.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from uvicorn.protocols.http.h11_impl import H11Protocol

HTTP, WEBSOCKET = "http", "websocket"
_K = TypeVar("_K")


@dataclass
class Limits:
    """The page's limits. Counts are connections; times are seconds; sizes bytes."""

    http_per_address: int = 16       # a browser opens up to 6 at once; two phones behind one address fit
    websockets_per_address: int = 16  # one a phone; 12 phones of a bench on one loopback address fit
    total: int = 256                 # HTTP + WebSocket connections in all (file descriptors: 1024 by default)
    reserve: int = 64                # of ``total``, kept for addresses holding fewer than ``newcomer``
    newcomer: int = 4                # a new phone: the page, its script, its style and its WebSocket
    head_seconds: float = 10.0       # from connecting (or the last response) to a complete request head
    keep_alive_seconds: int = 5  # an idle connection between requests is closed after this
    body_seconds: float = 10.0       # from a request head to the end of its body
    max_head: int = 8192             # bytes in a request line plus headers
    max_body: int = 2048             # bytes in a request body
    max_json_depth: int = 4          # nesting of arrays/objects in a JSON body
    max_message: int = 4096          # bytes in a WebSocket message from a phone


@dataclass
class Gate:
    """Open connections per client address and kind (``"http"``, ``"websocket"``). A connection taken with a
    ``conn`` (its transport: anything with ``abort()``) can be made to give way to a new address
    (:meth:`admit`); ``clock`` (monotonic seconds) tells how long each has been idle."""

    limits: Limits = field(default_factory=Limits)
    open: Counter[tuple[str, str]] = field(default_factory=Counter)
    per_address: Counter[str] = field(default_factory=Counter)
    clock: Callable[[], float] = field(default=lambda: __import__("time").monotonic())
    held: dict[Any, tuple[str, str, float]] = field(default_factory=dict)  # conn -> (address, kind, last active)
    evicted: int = 0  # connections closed to make room for a new address

    @property
    def total(self) -> int:
        return sum(self.per_address.values())

    def refusal(self, address: str, kind: str) -> str | None:
        """None when ``address`` may open one more connection of ``kind``, else a one-line reason."""
        lim = self.limits
        cap = self._cap(kind)
        if self.open[address, kind] >= cap:
            return f"too many {kind} connections from {address} (expected at most {cap} at once)"
        total, held = self.total, self.per_address[address]
        if total >= lim.total or (total >= lim.total - lim.reserve and held >= lim.newcomer):
            return f"the table's page is full ({total} connections); try again in a minute"
        return None

    def _cap(self, kind: str) -> int:
        return self.limits.http_per_address if kind == HTTP else self.limits.websockets_per_address

    def admit(self, address: str, kind: str, conn: Any) -> str | None:
        """Take a place for ``conn`` of ``address``, or say why not. When every place is taken and ``address``
        holds fewer than ``newcomer``, the longest-idle connection of the address holding the most gives way
        (closed at once), if that address holds more than ``address`` would: a new phone always gets in."""
        why = self.refusal(address, kind)
        full = why is not None and self.open[address, kind] < self._cap(kind)  # the page's cap, not the address's
        if full and self.per_address[address] < self.limits.newcomer and self._make_room(address):
            why = self.refusal(address, kind)
        if why is None:
            self.take(address, kind, conn)
        return why

    def _make_room(self, address: str) -> bool:
        """Close the longest-idle evictable connection of the heaviest address (not ``address``)."""
        heaviest = max((a for a in self.per_address if a != address), key=lambda a: self.per_address[a], default=None)
        if heaviest is None or self.per_address[heaviest] <= self.per_address[address] + 1:
            return False
        idle = [(at, id(c), c) for c, (a, _, at) in self.held.items() if a == heaviest]
        if not idle:
            return False
        conn = min(idle, key=lambda t: (t[0], t[1]))[2]
        self.give_back(heaviest, self.held[conn][1], conn)
        self.evicted += 1
        try:
            conn.abort()
        except Exception:  # noqa: BLE001 - already closing: its place is free all the same
            pass
        return True

    def take(self, address: str, kind: str, conn: Any = None) -> None:
        self.open[address, kind] += 1
        self.per_address[address] += 1
        if conn is not None:
            self.held[conn] = (address, kind, self.clock())

    def touch(self, conn: Any) -> None:
        """``conn`` did something (a request, a response): it is not idle."""
        if conn in self.held:
            address, kind, _ = self.held[conn]
            self.held[conn] = (address, kind, self.clock())

    def give_back(self, address: str, kind: str, conn: Any = None) -> None:
        """The place of a closed connection (once: a connection that gave way was given back already)."""
        if conn is not None:
            if self.held.pop(conn, None) is None:
                return
        _drop(self.open, (address, kind))
        _drop(self.per_address, address)

    def upgrade(self, address: str, conn: Any = None) -> str | None:
        """An HTTP connection asks to become a WebSocket: None (and it is counted as one) or a reason."""
        self.give_back(address, HTTP, conn)
        why = self.refusal(address, WEBSOCKET)
        self.take(address, HTTP if why else WEBSOCKET, conn)
        return why


def _refuse(transport: Any, reason: str) -> None:
    body = (reason + "\n").encode("utf-8", "replace")
    transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                    b"Connection: close\r\nRetry-After: 10\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
    transport.close()


def _drop(counter: Counter[_K], key: _K) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


def gated_protocols(gate: Gate, ws_base: Callable[..., asyncio.Protocol]) -> tuple[type, type]:
    """(HTTP protocol class, WebSocket protocol class) for ``uvicorn.Config(http=..., ws=...)``, both counted
    by ``gate``; ``ws_base`` is the WebSocket protocol class uvicorn would use."""

    class GatedHttp(H11Protocol):
        kind: str | None = None      # what the gate counts this connection as, None when refused
        gate_key: Any = None             # its transport, the gate's key for it
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.address = self.client[0] if self.client else "?"
            self.gate_key = transport
            if why := gate.admit(self.address, HTTP, transport):
                _refuse(transport, why)
                return
            self.kind = HTTP
            self._head_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            if self.deadline is not None:
                self.deadline.cancel()
            if self.kind == HTTP:
                gate.give_back(self.address, HTTP, self.gate_key)
                self.kind = None

        def _head_deadline(self) -> None:
            """Close the connection unless a new request head is complete within ``head_seconds``."""
            scope = self.scope

            def check() -> None:
                if self.scope is scope and not self.transport.is_closing():
                    self.transport.close()
            if self.deadline is not None:
                self.deadline.cancel()
            self.deadline = self.loop.call_later(gate.limits.head_seconds, check)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            gate.touch(self.gate_key)
            if not self.transport.is_closing():
                self._head_deadline()

        def handle_websocket_upgrade(self, event: Any) -> None:
            why = gate.upgrade(self.address, self.gate_key)
            if why:
                _refuse(self.transport, why)
                return
            self.kind = WEBSOCKET        # from now on the WebSocket protocol gives the place back
            super().handle_websocket_upgrade(event)

    class GatedWebSocket(ws_base):  # type: ignore[misc, valid-type]
        gate_key: Any = None  # the transport the gate counts (the same one the HTTP connection had)

        def connection_made(self, transport: asyncio.Transport) -> None:
            self.gate_key = transport
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            try:
                super().connection_lost(exc)
            finally:
                gate.give_back(self.client[0] if self.client else "?", WEBSOCKET, self.gate_key)

    return GatedHttp, GatedWebSocket
