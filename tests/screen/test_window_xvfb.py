"""The real kiosk window under Xvfb, typed into with xdotool: a keyboard scanner's burst (5 ms a key, then
Enter) is one scan, and a person's single key press is GO. Real processes and an X server: slow."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
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


def wait_for(proc, db: Path, what: str, predicate) -> None:
    """Wait for ``predicate(journal texts)``; on a timeout or an exit, fail with the kiosk's own log."""
    try:
        wait_until(lambda: predicate(journal_texts(db)) or proc.poll() is not None, TIMEOUT, what)
    except AssertionError:
        stop(proc)
        raise AssertionError(f"{what}: journal {journal_texts(db)}, log:\n{proc.stderr.read().decode()[-3000:]}")
    assert proc.poll() is None, proc.stderr.read().decode()[-3000:]


def status(db: Path) -> dict:
    return json.loads(hotstreak("status", "--json", "--db", str(db)).stdout)


def open_window(tmp_path: Path, display: str):
    """Start the kiosk in a window and give that window the keyboard (no window manager under Xvfb: focus it
    ourselves, once it is shown, and check that it has the focus before anything is typed)."""
    proc = start_run(tmp_path, "--display", "window", env={"DISPLAY": display, "SDL_VIDEODRIVER": "x11"})
    env = dict(os.environ, DISPLAY=display)
    window = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--pid", str(proc.pid)], env=env,
                            check=True, timeout=TIMEOUT, capture_output=True, text=True).stdout.split()[0]

    def focused() -> bool:
        subprocess.run(["xdotool", "windowfocus", "--sync", window], env=env, timeout=TIMEOUT, capture_output=True)
        found = subprocess.run(["xdotool", "getwindowfocus"], env=env, timeout=TIMEOUT, capture_output=True, text=True)
        return found.stdout.strip() == window
    wait_until(focused, TIMEOUT, "the kiosk window to have the keyboard", poll=0.1)
    return proc


def test_scanner_bursts_typed_into_the_window_start_a_game_for_four(tmp_path, xvfb):
    db = tmp_path / "journal.db"
    proc = open_window(tmp_path, xvfb)
    try:
        scan(xvfb, "HS-NEW")
        wait_for(proc, db, "HS-NEW scanned", lambda texts: "HS-NEW" in texts)
        scan(xvfb, "HS-PLAYERS-4")
        wait_for(proc, db, "HS-PLAYERS-4 scanned", lambda texts: "HS-PLAYERS-4" in texts)
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
        wait_for(proc, db, "a scan", bool)
        assert journal_texts(db) == ["HS-PLAYERS-4"]
    finally:
        stop(proc)


def test_a_persons_g_in_the_window_is_go(tmp_path, xvfb):
    db = tmp_path / "journal.db"
    proc = open_window(tmp_path, xvfb)
    try:
        scan(xvfb, "HS-PLAYERS-4")
        wait_for(proc, db, "the scan", lambda texts: "HS-PLAYERS-4" in texts)
        xdotool(xvfb, "key", "g")
        wait_for(proc, db, "GO from the g key", lambda texts: "HS-GO" in texts)
        assert status(db)["phase"] == "betting"
    finally:
        stop(proc)


def test_a_person_names_a_seat_in_the_window_n_a_name_and_enter(tmp_path, xvfb):
    """A person's keys, 300 ms apart (xdotool waits half its delay between a key's press and its release),
    still open the name entry and type a name; Enter submits it. The person looks at the screen before typing
    (keys pressed while the kiosk is busy drawing reach the window together and cannot be timed)."""
    db = tmp_path / "journal.db"
    proc = open_window(tmp_path, xvfb)
    try:
        scan(xvfb, "HS-PLAYERS-4")
        wait_for(proc, db, "the scan", lambda texts: "HS-PLAYERS-4" in texts)
        time.sleep(1.5)  # the person reads the screen (the kiosk draws the new game meanwhile)
        xdotool(xvfb, "type", "--delay", "600", "nAnn")
        xdotool(xvfb, "key", "--delay", "600", "Return")
        wait_for(proc, db, "the name", lambda texts: len(texts) > 1)
        assert journal_texts(db) == ["HS-PLAYERS-4", "HS-NAME-1:Ann"]
    finally:
        stop(proc)


def test_doubled_characters_typed_at_1_ms_a_key_survive_an_11_player_game(tmp_path, xvfb):
    """At 1 ms a key, the second 1 of ``11`` is released and pressed again within 2 ms: SDL's X11 backend takes
    that for an auto-repeat and pygame drops the press (the trial's ``HS-PLAYERS-1``). The window counts its
    text input, so the code arrives whole; Enter comes from a second xdotool, as in the trial."""
    db = tmp_path / "journal.db"
    proc = open_window(tmp_path, xvfb)
    try:
        for code in ("HS-NEW", "HS-PLAYERS-11"):
            xdotool(xvfb, "type", "--delay", "1", code)
            xdotool(xvfb, "key", "Return")
            wait_for(proc, db, f"{code} scanned", lambda texts, code=code: code in texts or len(texts) > 1)
        state = status(db)
        assert journal_texts(db) == ["HS-NEW", "HS-PLAYERS-11"]
        assert state["players"] == 11 and state["phase"] == "setup"
    finally:
        stop(proc)
