"""Test helper: a NOTIFY_SOCKET owned by the test, to watch what a real process tells systemd.

    with NotifyListener(tmp_path) as listener:
        proc = subprocess.Popen([...], env={**os.environ, **listener.env(watchdog_sec=2)})
        listener.wait_for("READY=1", timeout=10)
        assert listener.count("WATCHDOG=1", within=3) >= 2

Every received datagram is kept in ``messages`` (str, in order of arrival).
"""

from __future__ import annotations

import socket
import time
from pathlib import Path


class NotifyListener:
    """A bound AF_UNIX datagram socket at ``directory/notify.sock``; use as a context manager."""

    def __init__(self, directory: Path):
        self.path = str(Path(directory) / "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.messages: list[str] = []

    def __enter__(self) -> NotifyListener:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.sock.close()

    def env(self, watchdog_sec: float | None = None) -> dict[str, str]:
        """Environment for the child: NOTIFY_SOCKET, and WATCHDOG_USEC when ``watchdog_sec`` is given."""
        env = {"NOTIFY_SOCKET": self.path}
        if watchdog_sec is not None:
            env["WATCHDOG_USEC"] = str(int(watchdog_sec * 1_000_000))
        return env

    def receive(self, timeout: float) -> str | None:
        """The next message within ``timeout`` seconds (also kept in ``messages``), or None."""
        self.sock.settimeout(max(timeout, 0.0))
        try:
            message = self.sock.recv(65536).decode("utf-8", "replace")
        except (TimeoutError, BlockingIOError, socket.timeout):
            return None
        self.messages.append(message)
        return message

    def wait_for(self, prefix: str, timeout: float) -> str:
        """Receive until a message line starts with ``prefix``; that line. AssertionError after ``timeout``."""
        deadline = time.monotonic() + timeout
        for message in self.messages:
            for line in message.splitlines():
                if line.startswith(prefix):
                    return line
        while (left := deadline - time.monotonic()) > 0:
            message = self.receive(left)
            if message is None:
                break
            for line in message.splitlines():
                if line.startswith(prefix):
                    return line
        raise AssertionError(f"no {prefix!r} within {timeout} s; got {self.messages!r}")

    def count(self, line: str, within: float) -> int:
        """How many messages containing ``line`` arrive during the next ``within`` seconds."""
        deadline = time.monotonic() + within
        seen = 0
        while (left := deadline - time.monotonic()) > 0:
            message = self.receive(left)
            if message is not None and line in message.splitlines():
                seen += 1
        return seen
