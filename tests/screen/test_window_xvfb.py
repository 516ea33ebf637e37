"""The real kiosk window under Xvfb, typed into with xdotool: a keyboard scanner's burst (5 ms a key, then
Enter) is one scan, and a person's single key press is GO. Real processes and an X server: slow."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import hotstreak
from kioskproc import journal_texts, start_run, stop, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")),
                                                   reason="needs Xvfb and xdotool")]

TIMEOUT = 30.0  # s: a busy 2-core machine starts the kiosk and its window slowly


@pytest.fixture
def xvfb():
    """A private X server; yields its DISPLAY (":N", the number Xvfb chose itself)."""
    proc = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        number = proc.stdout.readline().strip()
        assert number, "Xvfb did not start"
        yield f":{number.decode()}"
    finally:
        proc.terminate()
        proc.wait(10)


def xdotool(display: str, *args: str) -> None:
    subprocess.run(["xdotool", *args], env=dict(os.environ, DISPLAY=display), check=True, timeout=TIMEOUT,
                   stdout=subprocess.DEVNULL)


def scan(display: str, code: str) -> None:
    """Type ``code`` as a keyboard scanner in keyboard mode does: 5 ms a key, ending with Enter (its CR suffix)."""
    xdotool(display, "type", "--delay", "5", code + "\r")


def status(db: Path) -> dict:
    return json.loads(hotstreak("status", "--json", "--db", str(db)).stdout)


def open_window(tmp_path: Path, display: str):
    proc = start_run(tmp_path, "--display", "window", env={"DISPLAY": display, "SDL_VIDEODRIVER": "x11"})
    # the window is there and has the keyboard (no window manager under Xvfb: focus it ourselves)
    xdotool(display, "search", "--sync", "--pid", str(proc.pid), "windowfocus")
    return proc


def test_scanner_bursts_typed_into_the_window_start_a_game_for_four(tmp_path, xvfb):
    db = tmp_path / "journal.db"
    proc = open_window(tmp_path, xvfb)
    try:
        scan(xvfb, "HS-NEW")
        wait_until(lambda: "HS-NEW" in journal_texts(db) or proc.poll() is not None, TIMEOUT, "HS-NEW scanned")
        scan(xvfb, "HS-PLAYERS-4")
        wait_until(lambda: "HS-PLAYERS-4" in journal_texts(db) or proc.poll() is not None, TIMEOUT,
                   "HS-PLAYERS-4 scanned")
        assert proc.poll() is None, proc.stderr.read().decode()
        state = status(db)
        assert state["players"] == 4 and state["phase"] == "setup"
        assert journal_texts(db) == ["HS-NEW", "HS-PLAYERS-4"]   # the codes' g, u and n pressed nothing
    finally:
        stop(proc)


def test_a_scanned_code_then_enter_from_a_second_xdotool_is_one_scan(tmp_path, xvfb):
    """``xdotool type --delay 5 CODE`` then ``xdotool key Return`` (a second process, a few ms later): still
    within the window of a scanner's burst."""
    db = tmp_path / "journal.db"
    proc = open_window(tmp_path, xvfb)
    try:
        xdotool(xvfb, "type", "--delay", "5", "HS-PLAYERS-4")
        xdotool(xvfb, "key", "Return")
        wait_until(lambda: journal_texts(db) or proc.poll() is not None, TIMEOUT, "a scan")
        assert journal_texts(db) == ["HS-PLAYERS-4"]
    finally:
        stop(proc)


def test_a_persons_g_in_the_window_is_go(tmp_path, xvfb):
    db = tmp_path / "journal.db"
    proc = open_window(tmp_path, xvfb)
    try:
        scan(xvfb, "HS-PLAYERS-4")
        wait_until(lambda: "HS-PLAYERS-4" in journal_texts(db) or proc.poll() is not None, TIMEOUT, "the scan")
        xdotool(xvfb, "key", "g")
        wait_until(lambda: "HS-GO" in journal_texts(db) or proc.poll() is not None, TIMEOUT, "GO from the g key")
        assert proc.poll() is None, proc.stderr.read().decode()
        assert status(db)["phase"] == "betting"
    finally:
        stop(proc)


def test_a_person_names_a_seat_in_the_window_n_a_name_and_enter(tmp_path, xvfb):
    """A person's keys, 150 ms apart (xdotool waits half its delay between a key's press and its release),
    still open the name entry and type a name; Enter submits it."""
    db = tmp_path / "journal.db"
    proc = open_window(tmp_path, xvfb)
    try:
        scan(xvfb, "HS-PLAYERS-4")
        wait_until(lambda: "HS-PLAYERS-4" in journal_texts(db) or proc.poll() is not None, TIMEOUT, "the scan")
        xdotool(xvfb, "type", "--delay", "300", "nAnn")
        xdotool(xvfb, "key", "--delay", "300", "Return")
        wait_until(lambda: len(journal_texts(db)) > 1 or proc.poll() is not None, TIMEOUT, "the name")
        assert journal_texts(db) == ["HS-PLAYERS-4", "HS-NAME-1:Ann"]
    finally:
        stop(proc)
