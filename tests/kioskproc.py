"""Driving a real ``hotstreak run`` process in tests: start it quiet on mock hardware, read its journal, wait on
real time with a deadline, stop it with SIGTERM."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT

QUIET_CONFIG = '[audio]\nvoice = false\neffects = false\n'


def start_run(tmp_path: Path, *args: str, stdin=subprocess.DEVNULL, env: dict | None = None) -> subprocess.Popen:
    config = tmp_path / "config.toml"
    config.write_text(QUIET_CONFIG)
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    full_env.pop("HOTSTREAK_HARDWARE", None)
    return subprocess.Popen([sys.executable, "-m", "companion", "run", "--hardware", "mock", "--config", str(config),
                             "--db", str(tmp_path / "journal.db"), "--display", "none", "--audio", "none", "--quiet",
                             *args], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=full_env,
                            cwd=ROOT)


def journal_texts(db: Path) -> list[str]:
    if not db.exists():
        return []
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return [r[0] for r in con.execute("SELECT text FROM inputs ORDER BY id")]
    except sqlite3.OperationalError:  # the process is just creating the journal
        return []


def first_code_stored(proc: subprocess.Popen, master: int, port: str, db: Path) -> None:
    """Wait for ``run`` to open the pty ``port``, then send HS-NEW until the journal ``db`` has it (the reader
    may flush its input once just after opening)."""
    wait_until(lambda: port_is_open(proc.pid, port) or proc.poll() is not None, 15, "the scanner port to open")
    assert proc.poll() is None, proc.stderr.read().decode()
    deadline = time.monotonic() + 15
    while "HS-NEW" not in journal_texts(db):
        assert time.monotonic() < deadline, "HS-NEW never reached the journal"
        os.write(master, b"HS-NEW\r\n")
        time.sleep(1.0)  # past the repeat window, so a second copy is not dropped as a repeat


def wait_until(predicate, timeout: float, what: str, poll: float = 0.005) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(poll)
    raise AssertionError(f"timed out waiting for {what}")


def stop(proc: subprocess.Popen, timeout: float = 5.0) -> int:
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout)
    finally:
        if proc.poll() is None:
            proc.kill()


def port_is_open(pid: int, port: str) -> bool:
    fd_dir = Path(f"/proc/{pid}/fd")
    try:
        return any(os.readlink(fd) == port for fd in fd_dir.iterdir())
    except OSError:
        return False
