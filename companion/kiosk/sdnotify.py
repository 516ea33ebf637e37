"""The systemd notify protocol (sd_notify) with the standard library only.

systemd starts a ``Type=notify`` service with ``NOTIFY_SOCKET`` set to a Unix datagram socket; the service
sends newline-separated ``KEY=value`` lines to it: ``READY=1`` once it takes scans, ``WATCHDOG=1`` from its
main loop (at least once per ``WATCHDOG_USEC``), ``STATUS=...`` for ``systemctl status`` and ``STOPPING=1``.
Without ``NOTIFY_SOCKET`` (a desktop run, a test) every call is a no-op.

Smallest use, in the controller::

    notifier = Notifier()
    pinger = WatchdogPinger(notifier)
    notifier.ready()
    while running:
        step()                      # one pass of the main loop
        pinger.tick(time.monotonic())
        notifier.status("race 2, card 7 of 15")

If the main loop stops progressing, ``tick`` is not called and the pings stop, so systemd restarts the
service after ``WatchdogSec``.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


def _socket_address(value: str) -> str | bytes:
    """The address to send to: a path, or an abstract-namespace name (``@name`` -> ``b"\\0name"``)."""
    if value.startswith("@"):
        return b"\0" + value[1:].encode()
    return value


class Notifier:
    """Sends sd_notify messages to ``env["NOTIFY_SOCKET"]``; a no-op when it is unset or empty.

    ``env`` is a mapping of environment variables (default ``os.environ``). Send errors (the socket went
    away) are logged once and otherwise ignored: a lost notification must never stop the race caller.
    """

    def __init__(self, env: Mapping[str, str] | None = None):
        self._env = os.environ if env is None else env
        self.address: str | bytes | None = None
        value = self._env.get("NOTIFY_SOCKET", "")
        if value:
            self.address = _socket_address(value)
        self._warned = False
        self._last_status: str | None = None

    @property
    def enabled(self) -> bool:
        """True when there is a socket to notify."""
        return self.address is not None

    def notify(self, message: str) -> bool:
        """Send one raw message (``KEY=value`` lines); True if it was sent, False when disabled or failed."""
        if self.address is None:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(self.address)
                sock.sendall(message.encode("utf-8", "replace"))
            return True
        except OSError as exc:
            if not self._warned:
                log.warning("sd_notify to %r failed: %s", self._env.get("NOTIFY_SOCKET"), exc)
                self._warned = True
            return False

    def ready(self, status: str | None = None) -> bool:
        """Tell systemd start-up is finished (``READY=1``), with an optional status line."""
        if status is None:
            return self.notify("READY=1")
        self._last_status = status
        return self.notify(f"READY=1\nSTATUS={_one_line(status)}")

    def watchdog(self) -> bool:
        """Keep-alive ping (``WATCHDOG=1``)."""
        return self.notify("WATCHDOG=1")

    def status(self, text: str, *, force: bool = False) -> bool:
        """Set the status line shown by ``systemctl status`` (``STATUS=text``, one line).

        An unchanged text is not resent unless ``force``; returns False then.
        """
        if text == self._last_status and not force:
            return False
        self._last_status = text
        return self.notify(f"STATUS={_one_line(text)}")

    def stopping(self) -> bool:
        """Tell systemd the service is shutting down (``STOPPING=1``)."""
        return self.notify("STOPPING=1")

    def watchdog_interval(self) -> float | None:
        """The watchdog timeout in seconds from ``WATCHDOG_USEC``, or None when no watchdog is asked for.

        None also when ``WATCHDOG_PID`` is set and is not this process (the variable was inherited), or the
        values are not positive integers.
        """
        usec = self._env.get("WATCHDOG_USEC", "")
        if not usec:
            return None
        pid = self._env.get("WATCHDOG_PID", "")
        if pid:
            try:
                if int(pid) != os.getpid():
                    return None
            except ValueError:
                return None
        try:
            value = int(usec)
        except ValueError:
            return None
        if value <= 0:
            return None
        return value / 1_000_000


def _one_line(text: str) -> str:
    return " ".join(text.split())


class WatchdogPinger:
    """Sends ``WATCHDOG=1`` at most once every half watchdog interval; call :meth:`tick` each loop pass.

    ``interval`` (seconds) defaults to ``notifier.watchdog_interval()``; with no interval every tick is a
    no-op. ``clock`` (seconds, monotonic) is used when ``tick`` gets no ``now``.
    """

    def __init__(self, notifier: Notifier, clock: Callable[[], float] = time.monotonic,
                 interval: float | None = None):
        self.notifier = notifier
        self.clock = clock
        self.interval = notifier.watchdog_interval() if interval is None else interval
        self._last: float | None = None
        self.sent = 0

    @property
    def period(self) -> float | None:
        """Seconds between pings (half the watchdog interval), or None when there is no watchdog."""
        if self.interval is None or self.interval <= 0:
            return None
        return self.interval / 2

    def tick(self, now: float | None = None) -> bool:
        """Ping if half an interval has passed since the last ping; True when a ping was sent."""
        period = self.period
        if period is None:
            return False
        if now is None:
            now = self.clock()
        if self._last is not None and now - self._last < period:
            return False
        self._last = now
        self.notifier.watchdog()
        self.sent += 1
        return True
