"""Ctrl-C (SIGINT) at any moment of a command: exit status 130 and no traceback (docs/cli.md).

The start-up cases are deterministic: ``HOTSTREAK_HOLD_AT`` holds the program at a named point and says so on
stderr; the test sends SIGINT only once it has read that line, so no timing decides which window is hit.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest

from conftest import ROOT
from kioskproc import QUIET_CONFIG, journal_texts, wait_until

INTERRUPTED = 130


def start(*args: str, hold: str | None = None, stdin=subprocess.DEVNULL) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("HOTSTREAK_HARDWARE", None)
    if hold:
        env["HOTSTREAK_HOLD_AT"] = hold
    command = [sys.executable, "-m", "companion", *args]
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        command = [sys.executable, "-S", "-c", AS_AT_A_TERMINAL, *command]
    return subprocess.Popen(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                            cwd=ROOT, text=True)


# SIGINT as a program started at a terminal has it, then the command. A program inherits an ignored SIGINT (a
# shell ignores it for the commands it starts in the background, so a test run started with `&` passed that on),
# and Python then never raises KeyboardInterrupt: the test would wait on nothing. Not a `preexec_fn`: that runs
# Python in the forked child of a test process with threads (servers, journal writers), where a lock another
# thread held at the fork is never released (the likely cause of two busy runs in which one of these tests failed
# after a stall of about 20 s; it did not come back in the runs since).
AS_AT_A_TERMINAL = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                    "os.execv(sys.argv[1], sys.argv[1:])")


def interrupt_when_held(proc: subprocess.Popen, point: str) -> tuple[int, str]:
    """Read stderr up to the held line, send SIGINT, return (exit status, the rest of stderr)."""
    assert proc.stderr is not None
    watchdog = threading.Timer(60, proc.kill)  # a program that is never held must not hang the test run
    watchdog.start()
    before = []  # log lines of the start-up, if any, then the held line
    try:
        while (line := proc.stderr.readline()) != f"hotstreak: held at {point}\n":
            assert line, "".join(before) + "(ended before it was held)"  # blocks until held, or the end
            before.append(line)
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
    return code, "".join(before) + proc.stderr.read()


def run_args(tmp_path) -> list[str]:
    (tmp_path / "config.toml").write_text(QUIET_CONFIG)
    return ["run", "--hardware", "mock", "--config", str(tmp_path / "config.toml"), "--db",
            str(tmp_path / "journal.db"), "--display", "none", "--audio", "none", "--web", "off", "--quiet"]


@pytest.mark.parametrize("command", [["simulate", "H+3"], ["odds", "--json", "H+3"], ["labels", "--codes"],
                                     ["config"], ["status", "--json"], ["demo", "--headless"], ["run"]],
                         ids=lambda c: c[0])  # 0.1-0.2 s each, measured: not slow (tests/conftest.py)
def test_ctrl_c_before_a_commands_imports_exits_130_without_a_traceback(command, tmp_path):
    args = run_args(tmp_path) if command == ["run"] else command
    code, err = interrupt_when_held(start(*args, hold="cli"), "cli")
    assert (code, err) == (INTERRUPTED, "")
    assert not (tmp_path / "journal.db").exists()  # stopped before anything was made


@pytest.mark.slow
def test_ctrl_c_while_run_starts_its_devices_exits_130_without_a_traceback(tmp_path):
    code, err = interrupt_when_held(start(*run_args(tmp_path), hold="run"), "run")
    assert code == INTERRUPTED and "Traceback" not in err and "KeyboardInterrupt" not in err, err


@pytest.mark.slow
def test_ctrl_c_in_runs_main_loop_stops_it_cleanly_with_130(tmp_path):
    proc = start(*run_args(tmp_path), stdin=subprocess.PIPE)
    assert proc.stdin is not None and proc.stderr is not None
    try:
        proc.stdin.write("HS-NEW\n")  # the keyboard scanner of mock hardware
        proc.stdin.flush()
        wait_until(lambda: "HS-NEW" in journal_texts(tmp_path / "journal.db") or proc.poll() is not None, 30,
                   "HS-NEW in the journal")
        assert proc.poll() is None  # the main loop took an input: its handlers are in
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read()
    assert code == INTERRUPTED and "Traceback" not in err, err


def test_ctrl_c_during_a_command_is_130(monkeypatch, capsys):
    from companion.cli import main
    from companion.commands import simulate

    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(simulate, "run", interrupted)
    assert main(["simulate", "H+3"]) == INTERRUPTED
    assert capsys.readouterr().err == ""


def test_main_in_process_gives_the_callers_sigint_handler_back():
    from companion.cli import main
    before = signal.getsignal(signal.SIGINT)
    main(["simulate", "H+3"])
    assert signal.getsignal(signal.SIGINT) is before
