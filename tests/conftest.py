"""Test helpers: the rule cases in tests/data, and running the ``hotstreak`` command."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def read_cases(path: Path) -> list[dict]:
    """One rule case per non-blank line of a JSON Lines file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def rule_cases(name: str) -> list[dict]:
    """The rule cases of ``tests/data/NAME`` (e.g. ``race-cases.jsonl``): the only copy the tests read."""
    return read_cases(DATA / name)


def hotstreak(*args: str, stdin: str | None = None, env: dict | None = None,
              timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``python -m companion ARGS`` as a real process and capture its output."""
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=ROOT)


def hotstreak_in_process(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run ``hotstreak ARGS`` through ``companion.cli.main`` in this process (same parser, same command code, no
    interpreter start-up) and capture exit status, stdout and stderr like :func:`hotstreak`."""
    from companion.cli import main
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse usage errors
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved_stdin
    return subprocess.CompletedProcess(["hotstreak", *args], code, out.getvalue(), err.getvalue())


class FakeClock:
    """A clock that moves only when told: ``clock()`` -> seconds, ``clock.advance(dt)``."""

    def __init__(self, t: float = 100.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def run_cli():
    return hotstreak
