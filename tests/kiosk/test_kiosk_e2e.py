"""End to end: the real `hotstreak run` process on a real pseudo-terminal, kill -9 and resume, and the systemd
watchdog. These start real processes, so they wait on real time with deadlines."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import tty

import pytest

from conftest import ROOT, hotstreak
from companion.kiosk.controller import replay, status_dict
from companion.tools.demo import parse_script, script_path
from companion.kiosk.journal import Entry
from companion.rules.errors import HotStreakError
from companion.rules.table import Table
from notify_listener import NotifyListener

from kioskproc import first_code_stored, journal_texts, start_run, stop, wait_until


# A whole race as raw scanner bytes: CR, LF, CRLF and doubled suffixes, an AIM prefix, a duplicate read
# (the same code twice within the repeat window) and a garbage line.
RACE_BYTES = [
    b"HS-PLAYERS-4\r\n", b"HS-GO\n", b"HS-S03\r", b"HS-GO\r\r", b"\xff\xfe\x80garbage at the wrong baud\x81\r\n",
    b"HS-S03\r\n",  # refused while cards are added: harmless, and not the same code as the GO around it
    b"HS-GO\r\n",
    b"]C0HS17\r\n", b"HS15\r\n", b"HS15\r\n", b"HS14\n\n", b"HS22\r", b"HS06\r\n", b"HS04\r\n", b"HS03\r\n",
    b"]C0HS11\r\n", b"HS28\r\n", b"HS26\r\n", b"HS25\r\r\n", b"HS33\r\n",
]


@pytest.mark.slow
def test_whole_race_through_a_real_pty_gives_the_right_placings(tmp_path):
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    proc = start_run(tmp_path, "--scanner", port)
    db = tmp_path / "journal.db"
    try:
        first_code_stored(proc, master, port, db)
        for chunk in RACE_BYTES:
            os.write(master, chunk)
        wait_until(lambda: "HS33" in journal_texts(db), 20, "the last card to be stored")
        status = json.loads(hotstreak("status", "--json", "--db", str(db)).stdout)
        assert status["phase"] == "payouts"
        assert status["placings"] == {"hurley": 1, "gobbler": 2, "dangle": 3, "mum": 4}
        texts = journal_texts(db)
        assert texts.count("HS15") == 1  # the duplicate read was dropped
        assert "HS17" in texts and "HS11" in texts  # the AIM prefix was stripped
        assert not any("garbage" in t for t in texts)
        started = time.monotonic()
        assert stop(proc) == 0
        assert time.monotonic() - started < 3.0  # clean stop on SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)


def accepted_script_lines() -> list[str]:
    """The sample game's scans without the deliberately wrong ones (every line here is accepted)."""
    table = Table()
    lines = []
    for text, _ in parse_script(script_path().read_text()):
        try:
            table.apply(text, {"side_bet_order": list(range(12))} if text.startswith("HS-PLAYERS") else {})
        except HotStreakError:  # a refusal; any other error is a bug and fails the test
            continue
        lines.append(text)
    return lines


def expected_status(lines: list[str]) -> dict:
    entries = [Entry(i, 0.0, "scan", t, {"side_bet_order": list(range(12))} if t.startswith("HS-PLAYERS") else {})
               for i, t in enumerate(lines)]
    return status_dict(replay(entries))


@pytest.mark.slow
def test_kill_9_at_random_points_loses_nothing_and_applies_nothing_twice(tmp_path):
    lines = accepted_script_lines()
    db = tmp_path / "journal.db"
    rng = random.Random(4)
    kills = 0
    while True:
        done = len(journal_texts(db))
        assert journal_texts(db) == lines[:done]  # exactly the inputs fed, in order, each once
        if done:
            status = json.loads(hotstreak("status", "--json", "--db", str(db)).stdout)
            ours = expected_status(lines[:done])
            assert {k: status[k] for k in ("phase", "race", "pass", "revealed", "mascots", "placings")} == \
                {k: ours[k] for k in ("phase", "race", "pass", "revealed", "mascots", "placings")}
        if done >= len(lines) - 20 or kills == 6:
            break
        proc = start_run(tmp_path, stdin=subprocess.PIPE)
        try:
            proc.stdin.write(("\n".join(lines[done:]) + "\n").encode())
            proc.stdin.flush()
            # kill it at a random point of the stream, leaving room for the next kills
            target = done + rng.randint(1, max(1, (len(lines) - 20 - done) // 2))
            wait_until(lambda: len(journal_texts(db)) >= target or proc.poll() is not None, 20, f"input {target}")
        finally:
            proc.kill()
            proc.wait(5)
        kills += 1
    # the last run finishes the game (if anything is left) and is stopped cleanly once ready
    with NotifyListener(tmp_path) as listener:
        proc = start_run(tmp_path, stdin=subprocess.PIPE, env=listener.env())
        try:
            done = len(journal_texts(db))
            proc.stdin.write(("\n".join(lines[done:]) + "\n").encode())
            proc.stdin.close()
            listener.wait_for("READY=1", timeout=20)
            wait_until(lambda: len(journal_texts(db)) == len(lines), 30, "every input to be stored")
            assert stop(proc) == 0, proc.stderr.read().decode()[-3000:]
        finally:
            if proc.poll() is None:
                proc.kill()
    assert kills >= 3
    assert journal_texts(db) == lines
    status = json.loads(hotstreak("status", "--json", "--db", str(db)).stdout)
    assert status["phase"] == "game-over" and status["money"] == expected_status(lines)["money"]


@pytest.mark.slow
def test_systemd_notify_ready_watchdog_status_and_a_stuck_loop_stops_the_pings(tmp_path):
    stall = tmp_path / "stall"
    with NotifyListener(tmp_path) as listener:
        env = dict(listener.env(watchdog_sec=1.0), HOTSTREAK_MOCK_STALL_FILE=str(stall))
        proc = start_run(tmp_path, env=env)
        try:
            listener.wait_for("READY=1", timeout=20)
            listener.wait_for("STATUS=", timeout=5)
            assert listener.count("WATCHDOG=1", within=1.6) >= 2
            stall.write_text("stuck")  # the main loop now hangs in a device call
            time.sleep(0.3)
            listener.count("WATCHDOG=1", within=0.2)  # drain what was sent before the stall
            assert listener.count("WATCHDOG=1", within=1.5) == 0
            stall.unlink()
            assert listener.count("WATCHDOG=1", within=1.6) >= 1
        finally:
            stop(proc)


@pytest.mark.slow
def test_the_demo_stops_cleanly_on_sigterm(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "demo"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=ROOT)
    try:
        first = proc.stdout.readline()  # the demo is under way
        assert first
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
        assert time.monotonic() - started < 5
        assert b"no desktop display" in proc.stderr.read()  # one clear line instead of an invisible window
    finally:
        if proc.poll() is None:
            proc.kill()
