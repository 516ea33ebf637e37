"""sd_notify: messages reach a real AF_UNIX datagram socket; no socket means no-op; watchdog rate limit."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid

import pytest

from companion.kiosk.sdnotify import Notifier, WatchdogPinger
from conftest import ROOT
from notify_listener import NotifyListener


@pytest.fixture
def receiver(tmp_path):
    """A datagram socket owned by the test; yields (path, recv) where recv() returns one message or None."""
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)

    def recv(wait: bool = True) -> str | None:
        sock.settimeout(1.0 if wait else 0.0)
        try:
            return sock.recv(4096).decode()
        except (TimeoutError, socket.timeout, BlockingIOError):
            return None

    yield path, recv
    sock.close()


def drain(recv) -> list[str]:
    """All messages already queued (local datagrams are queued by the time send returns)."""
    out = []
    while (msg := recv(wait=False)) is not None:
        out.append(msg)
    return out


def test_ready_watchdog_status_stopping_reach_the_socket(receiver):
    path, recv = receiver
    n = Notifier(env={"NOTIFY_SOCKET": path})
    assert n.enabled
    assert n.ready()
    assert n.watchdog()
    assert n.status("race 2, card 7 of 15; scanner disconnected")
    assert n.stopping()
    assert recv() == "READY=1"
    assert recv() == "WATCHDOG=1"
    assert recv() == "STATUS=race 2, card 7 of 15; scanner disconnected"
    assert recv() == "STOPPING=1"


def test_ready_with_status_and_multiline_status_is_flattened(receiver):
    path, recv = receiver
    n = Notifier(env={"NOTIFY_SOCKET": path})
    n.ready("taking scans")
    n.status("line one\nline two")
    assert recv() == "READY=1\nSTATUS=taking scans"
    assert recv() == "STATUS=line one line two"


def test_unchanged_status_is_not_resent(receiver):
    path, recv = receiver
    n = Notifier(env={"NOTIFY_SOCKET": path})
    assert n.status("idle")
    assert not n.status("idle")
    assert n.status("idle", force=True)
    assert n.status("racing")
    assert [recv(), recv(), recv()] == ["STATUS=idle", "STATUS=idle", "STATUS=racing"]


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX") or os.uname().sysname != "Linux",
                    reason="abstract-namespace sockets are Linux only")
def test_abstract_namespace_socket():
    name = f"hotstreak-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(b"\0" + name.encode())
        sock.settimeout(1.0)
        assert Notifier(env={"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(100) == b"READY=1"


def test_without_variable_everything_is_a_quiet_no_op():
    n = Notifier(env={})
    assert not n.enabled
    assert n.ready() is False
    assert n.watchdog() is False
    assert n.status("x") is False
    assert n.stopping() is False
    assert n.watchdog_interval() is None


def test_missing_socket_file_logs_once_and_does_not_raise(tmp_path, caplog):
    n = Notifier(env={"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    assert n.ready() is False
    assert n.watchdog() is False
    assert sum("sd_notify" in r.message for r in caplog.records) == 1


@pytest.mark.parametrize("env, expected", [
    ({"WATCHDOG_USEC": "20000000"}, 20.0),
    ({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid())}, 20.0),
    ({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid() + 1)}, None),  # inherited, not ours
    ({"WATCHDOG_USEC": "abc"}, None),
    ({"WATCHDOG_USEC": "0"}, None),
    ({}, None),
])
def test_watchdog_interval(env, expected):
    assert Notifier(env=env).watchdog_interval() == expected


def test_pinger_sends_at_most_every_half_interval(receiver):
    path, recv = receiver
    n = Notifier(env={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"})  # 10 s -> ping every 5 s
    pinger = WatchdogPinger(n)
    assert pinger.period == 5.0
    sent_at = [t for t in (0.0, 0.1, 1.0, 4.9, 5.0, 5.1, 9.9, 10.0, 20.0) if pinger.tick(t)]
    assert sent_at == [0.0, 5.0, 10.0, 20.0]
    assert drain(recv) == ["WATCHDOG=1"] * 4


def test_pinger_uses_its_clock_and_stops_when_the_loop_stops(receiver):
    path, recv = receiver
    now = [100.0]
    n = Notifier(env={"NOTIFY_SOCKET": path})
    pinger = WatchdogPinger(n, clock=lambda: now[0], interval=2.0)
    for _ in range(10):             # a healthy loop: one pass every 0.5 s -> a ping each 1 s
        pinger.tick()
        now[0] += 0.5
    assert pinger.sent == 5
    now[0] += 60.0                  # the loop is stuck: no tick, so no ping however much time passes
    assert pinger.sent == 5
    assert len(drain(recv)) == 5


def test_pinger_without_watchdog_never_pings():
    pinger = WatchdogPinger(Notifier(env={}))
    assert pinger.period is None
    assert not any(pinger.tick(t) for t in range(10))


# A real process: a main loop that pings from each pass, then a fake device that blocks forever (it waits for
# stdin, which the test never writes). The pings must stop while the process is still alive.
STUCK_LOOP = """
import sys
from companion.kiosk.sdnotify import Notifier, WatchdogPinger
notifier = Notifier()
pinger = WatchdogPinger(notifier)
notifier.ready("taking scans")
now = 0.0
for card in range(1, 11):
    now += pinger.period            # fake time: each pass takes half the watchdog interval
    pinger.tick(now)
    notifier.status(f"race 1, card {card} of 15")
notifier.status("stuck on a fake device")
sys.stdin.read()                    # the stuck device: the main loop never comes back
"""


@pytest.mark.slow
def test_real_process_pings_until_its_main_loop_is_stuck(tmp_path):
    with NotifyListener(tmp_path) as listener:
        env = {**os.environ, "PYTHONPATH": str(ROOT), **listener.env(watchdog_sec=2)}
        proc = subprocess.Popen([sys.executable, "-c", STUCK_LOOP], env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL)
        try:
            assert listener.wait_for("READY=1", timeout=20) == "READY=1"
            assert listener.wait_for("STATUS=stuck", timeout=10) == "STATUS=stuck on a fake device"
            assert proc.poll() is None                      # alive, but stuck
            assert listener.count("WATCHDOG=1", within=0.3) == 0
        finally:
            proc.kill()
            proc.wait(timeout=10)
    flat = [line for message in listener.messages for line in message.splitlines()]
    assert flat.count("WATCHDOG=1") == 10
    assert "STATUS=race 1, card 7 of 15" in flat
    assert flat.index("READY=1") < flat.index("WATCHDOG=1")
