"""Who may drive the phone page: same-origin checks and a per-client rate limit (pure, clock passed in).

A phone at the table loads the page from the kiosk and sends its requests back to the same address. A page
from anywhere else (another site open on the phone, a DNS-rebinding trick) must not drive the table, so every
POST and every WebSocket must carry an ``Origin`` equal to ``http://<Host>`` and a ``Host`` the kiosk answers
to (:class:`Origins`). Each client address gets a token bucket (:class:`RateLimit`) and, for wrong join and
consent codes, an exponential back-off of its own (:class:`Backoff`): a guesser slows only itself.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from typing import Callable, Iterable


def lan_address() -> str:
    """This machine's address on the local network (the one a phone on the same Wi-Fi reaches), or
    ``127.0.0.1`` when there is none. Sends nothing: a UDP socket is only pointed at a documentation address."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def host_names(bound: str, extra: Iterable[str] = ()) -> set[str]:
    """The host names the kiosk answers to when bound to ``bound``: loopback names, and for a LAN binding
    the LAN address, the machine name and ``<name>.local``; plus ``extra`` (config ``web.hosts``)."""
    names = {"localhost", "127.0.0.1", "[::1]"}
    if bound not in ("127.0.0.1", "localhost", "::1"):
        host = socket.gethostname().lower()
        names |= {bound, lan_address(), host, f"{host}.local"}
    names |= {e.lower() for e in extra}
    names.discard("0.0.0.0")
    names.discard("")
    return names


def split_host(host: str) -> str:
    """``"192.168.1.20:8080"`` -> ``"192.168.1.20"``; ``"[::1]:80"`` -> ``"[::1]"``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if ":" in host else host


@dataclass
class Origins:
    """Checks ``Host`` and ``Origin`` headers. ``check`` returns None when the request may act, else a
    one-line reason naming the bad value and what was expected."""

    names: set[str]

    def check_host(self, host: str | None) -> str | None:
        """None when ``host`` (the Host header) is a name of this kiosk (GET requests need only this)."""
        if not host or split_host(host) not in self.names:  # the kiosk's own names are never listed
            return f"host {host[:64] if host else host!r} is not this table (expected the address on the table's screen)"
        return None

    def check(self, host: str | None, origin: str | None) -> str | None:
        why = self.check_host(host)
        if why:
            return why
        assert host is not None  # check_host refuses a missing host
        if origin is None:
            return "no Origin header (expected a request from this table's own page)"
        if origin.strip().lower() != f"http://{host.strip().lower()}":
            return f"origin {origin!r} is not this table's page (expected 'http://{host}')"
        return None


@dataclass
class RateLimit:
    """A token bucket per client: ``burst`` requests at once, refilled at ``rate`` per second.
    ``allow(client)`` takes a token and says whether there was one. ``clock`` is monotonic seconds."""

    rate: float = 2.0
    burst: float = 8.0
    clock: Callable[[], float] = field(default=lambda: __import__("time").monotonic())
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def allow(self, client: str) -> bool:
        now = self.clock()
        tokens, at = self._buckets.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        ok = tokens >= 1.0
        self._buckets[client] = (tokens - 1.0 if ok else tokens, now)
        if len(self._buckets) > 1024:  # forget clients whose bucket is full again
            full = [c for c, (t, a) in self._buckets.items() if t + (now - a) * self.rate >= self.burst]
            for c in full:
                del self._buckets[c]
        return ok


@dataclass
class Backoff:
    """Wrong codes (join or consent) per client address: the first ``free`` wrong codes in a row cost nothing
    (a typo), then after its n-th wrong code an address waits ``first * 2 ** (n - free - 1)`` seconds, at most
    ``longest``, before another code of it is looked at. A right code clears its count; no other address is
    ever slowed (so a seat's owner is never locked out). ``clock`` is monotonic seconds. With the defaults
    an address has at most 16 codes looked at in 3 hours (docs/web-hardening.md)."""

    free: int = 2
    first: float = 1.0
    longest: float = 3600.0
    keep: int = 65536  # addresses remembered at most (those whose wait ended longest ago are forgotten first)
    clock: Callable[[], float] = field(default=lambda: __import__("time").monotonic())
    _misses: dict[str, tuple[int, float]] = field(default_factory=dict)  # address -> (misses, may try at)

    def wait(self, address: str) -> float:
        """Seconds ``address`` must still wait before its next code counts (0.0: it may try now)."""
        return max(0.0, self._misses.get(address, (0, 0.0))[1] - self.clock())

    def miss(self, address: str) -> float:
        """A wrong code from ``address``: returns how long it must now wait."""
        misses = self._misses.pop(address, (0, 0.0))[0] + 1
        delay = 0.0 if misses <= self.free else min(self.longest, self.first * 2.0 ** min(misses - self.free - 1, 60))
        self._misses[address] = (misses, self.clock() + delay)
        if len(self._misses) > self.keep:
            now = self.clock()
            done = sorted((at, a) for a, (_, at) in self._misses.items() if at <= now)
            for _, a in done[: len(self._misses) - self.keep] or done[:1]:
                del self._misses[a]
        return delay

    def hit(self, address: str) -> None:
        """A right code from ``address``: its count starts again."""
        self._misses.pop(address, None)
