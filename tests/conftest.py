"""Shared test helpers: where the shared rule cases live, and running the ``hotstreak`` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def shared_cases(name: str) -> list[dict]:
    """Rule cases from ../shared/cases (the source of truth) or, without it, the copy in tests/data."""
    for folder in (ROOT.parent / "shared" / "cases", DATA):
        path = folder / name
        if path.exists():
            return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    raise FileNotFoundError(name)


def hotstreak(*args: str, stdin: str | None = None, env: dict | None = None,
              timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``python -m companion ARGS`` as a real process and capture its output."""
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=ROOT)


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
