"""The phone page's server: uvicorn on its own thread with its own event loop, started and stopped by the kiosk.

>>> server = WebServer.open("127.0.0.1", 0, submit=print, secret=b"k" * 32)   # doctest: +SKIP
>>> server.start(); server.url                                                 # doctest: +SKIP
'http://127.0.0.1:41234/'

The listening socket is opened by :meth:`WebServer.open` on the caller's thread, so a port in use or a bad
address is an ``OSError`` there (the kiosk logs one line and plays on without the page). The server thread
is a daemon: it never keeps the kiosk alive, and nothing on it can stall the kiosk's loop.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from pathlib import Path
from typing import Any, Callable, Iterable

from companion.web.gate import Gate, Limits, gated_protocols
from companion.web.guard import Origins, RateLimit, host_names, lan_address
from companion.web.hub import Hub
from companion.web.seats import keep_address

log = logging.getLogger(__name__)


def parse_listen(text: str, default_host: str) -> tuple[str, int]:
    """``"8080"`` or ``"HOST:8080"`` (``[::1]:8080`` for IPv6) -> (host, port). Raises ValueError with a
    one-line message naming the text and the expected form."""
    raw = str(text).strip()
    host, sep, port = raw.rpartition(":")
    if not sep:
        host, port = default_host, raw
    host = host.strip("[]") or default_host
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--web {text!r}: expected [HOST:]PORT with PORT 0..65535 (e.g. 8080 or 0.0.0.0:8080)")
    return host, int(port)


class WebServer:
    """The page's server on a bound socket. ``loop`` is the server's event loop once started; ``post(fn,
    *args)`` runs ``fn`` on it from any thread without waiting."""

    def __init__(self, sock: socket.socket, app: Any, hub: Hub, address: str, origins: Origins | None = None,
                 limits: Limits | None = None):
        self.sock = sock
        self.gate = Gate(limits or Limits())
        self.app = app
        self.hub = hub
        self.address = address
        self.origins = origins
        self.loop: asyncio.AbstractEventLoop | None = None
        self.kept: str | Path | None = None  # a journal path: the address is kept beside it (status reads it)
        self._kept_address: str | None = None
        self._server: Any = None
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def open(cls, host: str, port: int, *, submit: Callable[[str, str], int], secret: bytes,
             hosts: Iterable[str] = (), limit: RateLimit | None = None,
             limits: Limits | None = None) -> "WebServer":
        """Bind ``host:port`` (port 0 = any free port) and build the app. ``limits`` (sizes, times, connection
        caps: :class:`companion.web.gate.Limits`) default to the kiosk's. Raises OSError when it cannot bind."""
        from companion.web.app import create_app
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
            sock.listen(64)
        except OSError:
            sock.close()
            raise
        port = sock.getsockname()[1]
        shown = lan_address() if host in ("0.0.0.0", "::", "") else host
        shown = f"[{shown}]" if ":" in shown else shown
        names = host_names(host, hosts)
        hub = Hub()
        origins = Origins({*names, shown})
        limits = limits or Limits()
        app = create_app(hub, submit, secret, origins, limit, limits)
        return cls(sock, app, hub, f"http://{shown}:{port}/", origins, limits)

    def refresh(self) -> str:
        """The page address again, for a server on every interface whose LAN address may have changed (the
        Wi-Fi came up after the kiosk started, a new DHCP lease). Cheap: no packet is sent. A new address is
        kept beside the journal :attr:`kept` (``companion.web.seats.keep_address``)."""
        host, port = self.sock.getsockname()[:2]
        if host in ("0.0.0.0", "::"):
            shown = lan_address()
            url = f"http://{shown}:{port}/"
            if url != self.address and self.origins is not None:
                self.origins.names.add(shown)
                self.address = url
        if self.kept is not None and self.address != self._kept_address:
            self._kept_address = self.address
            try:
                keep_address(self.kept, self.address)
            except OSError as exc:
                log.warning("the page's address not kept beside the journal (%s); status shows the config's", exc)
        return self.address

    @property
    def url(self) -> str:
        """The page address for a phone (LAN address when bound to every interface)."""
        return self.address

    def start(self, timeout: float = 5.0) -> None:
        """Start serving on a daemon thread; returns once the server listens (or after ``timeout`` s). The
        connections go through ``self.gate`` (caps per address and in all, request-head deadline)."""
        import uvicorn
        from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol
        limits = self.gate.limits
        assert AutoWebSocketsProtocol is not None  # websockets is a dependency of the project
        http, ws = gated_protocols(self.gate, AutoWebSocketsProtocol)
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off",
                                http=http, ws=ws, ws_max_size=limits.max_message, ws_ping_interval=15,
                                ws_ping_timeout=20, timeout_keep_alive=limits.keep_alive_seconds,
                                h11_max_incomplete_event_size=limits.max_head,
                                limit_concurrency=limits.total + 16,  # a backstop: the gate refuses first
                                timeout_graceful_shutdown=1)
        self._server = _server_class(uvicorn.Server)(config)

        def serve() -> None:
            with asyncio.Runner() as runner:  # on leaving, the connections' tasks are cancelled and awaited
                self.loop = runner.get_loop()
                self._ready.set()
                try:
                    runner.run(self._server.serve(sockets=[self.sock]))
                except BaseException as exc:  # noqa: BLE001 - the page dies alone, the table plays on
                    log.warning("phone page stopped (%s); the table goes on without it", exc)

        self._thread = threading.Thread(target=serve, name="web", daemon=True)
        self._thread.start()
        self._ready.wait(timeout)

    def post(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` on the server's loop soon. Never blocks; RuntimeError once the loop is closed."""
        if self.loop is None:
            raise RuntimeError("the phone page is not started")
        self.loop.call_soon_threadsafe(fn, *args)

    def close(self, timeout: float = 3.0) -> None:
        """Stop serving and wait up to ``timeout`` s for the thread."""
        if self._server is not None:
            self._server.should_exit = True
            if self.loop is not None and not self.loop.is_closed():
                try:
                    self.loop.call_soon_threadsafe(self._server.wake)  # at once, not at uvicorn's next 0.1 s tick
                except RuntimeError:
                    pass  # the loop closed meanwhile: the server has stopped
        if self._thread is not None:
            self._thread.join(timeout)
        self.sock.close()


def _server_class(base: type) -> type:
    """uvicorn's ``Server`` whose main loop can be woken: uvicorn looks at ``should_exit`` every 0.1 s, so each
    stop of the page (the kiosk's close, every web test) waited up to that long; ``wake()`` (on the server's loop)
    ends the wait at once. The ticks are uvicorn's own (``on_tick``: the date header, the exit check). Its
    shutdown also gives open connections 0.1 s to finish before it waits for them; with none open, that pause
    is skipped (the listening sockets are still closed and awaited)."""

    class WakeableServer(base):  # type: ignore[misc]
        _woken: asyncio.Event | None = None

        async def main_loop(self) -> None:
            self._woken = asyncio.Event()
            counter = 0
            should_exit = await self.on_tick(counter)
            while not should_exit:
                counter = (counter + 1) % 864000
                try:
                    await asyncio.wait_for(self._woken.wait(), 0.1)
                except TimeoutError:
                    pass
                should_exit = await self.on_tick(counter)

        def wake(self) -> None:
            if self._woken is not None:
                self._woken.set()

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            if self.server_state.connections or self.server_state.tasks:
                await super().shutdown(sockets)  # uvicorn's grace for the open connections
                return
            for server in self.servers:
                server.close()
            for sock in sockets or []:
                sock.close()
            for server in self.servers:
                await server.wait_closed()
            if not self.force_exit:
                await self.lifespan.shutdown()

    return WakeableServer
