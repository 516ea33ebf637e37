"""The check in tests/conftest.py that decides the `slow` marker by measured time (docs/bench.md), run on a small
suite of its own with a lower limit for unmarked tests (0.05 s instead of 1 s); a run of pytest with a real
process in it, so the test itself is slow (0.3-0.5 s)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "conftest.py").read_text("utf-8")

SUITE = '''
import subprocess
import sys
import time

import pytest


def test_quick_and_unmarked():
    pass


def test_busy_and_unmarked():
    start = time.thread_time()
    while time.thread_time() - start < 0.15:  # CPU, not a sleep: a wait for a core would not count
        pass


@pytest.mark.slow
def test_quick_but_marked():
    pass


@pytest.mark.slow
def test_marked_and_runs_a_real_process():
    subprocess.run([sys.executable, "-c", "pass"], check=True)  # a real process, however quick


@pytest.mark.slow
def test_marked_and_fails():
    assert False
'''


@pytest.mark.slow
def test_the_check_fails_a_slow_unmarked_test_and_a_quick_marked_one(pytester, monkeypatch):
    assert "UNMARKED_LIMIT = 1.0" in CONFTEST
    monkeypatch.setenv("HOTSTREAK_SLOW_CHECK", "1")  # on even in a run that turned it off for itself
    pytester.makeconftest(CONFTEST.replace("UNMARKED_LIMIT = 1.0", "UNMARKED_LIMIT = 0.05"))
    pytester.makeini("[pytest]\nmarkers =\n    slow: slow\n")
    pytester.makepyfile(test_suite=SUITE)
    result = pytester.runpytest("-p", "no:cacheprovider", "-q")
    text = result.stdout.str()
    assert "test_busy_and_unmarked took" in text and "mark it @pytest.mark.slow" in text
    assert "test_quick_but_marked is marked slow but took" in text and "take the mark off" in text
    assert "test_marked_and_runs_a_real_process is marked slow" not in text  # a real process's time varies
    assert "test_marked_and_fails is marked slow" not in text  # a failed test is not timed
    result.assert_outcomes(passed=3, failed=2, errors=1)  # the quick test and the real process pass
