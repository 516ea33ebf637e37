"""What a laptop table is told: the demo without a screen says so at once, the lock names the service only
where it is installed."""

from __future__ import annotations

import sys

import pytest

from companion.kiosk import lock
from companion.kiosk.errors import JournalError
from conftest import hotstreak

NO_SCREEN = ("demo: no screen here ($DISPLAY and $WAYLAND_DISPLAY are unset), so the game plays unseen at table "
             "pace for minutes; hotstreak demo --headless prints the race call in a second")


@pytest.mark.slow  # the whole sample game at 10000x pace in its own process (its signal handlers): about 1.5 s
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a window needs $DISPLAY only on Linux")
def test_the_demo_without_a_screen_says_so_in_its_first_line():
    ran = hotstreak("demo", "--speed", "10000", "--web", "off", env={"DISPLAY": "", "WAYLAND_DISPLAY": ""})
    assert ran.returncode == 0, ran.stderr
    assert ran.stderr.splitlines()[0] == NO_SCREEN


def test_no_screen_is_linux_without_a_desktop_session(monkeypatch):
    from companion.commands.demo import no_screen
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert not no_screen()
    monkeypatch.delenv("WAYLAND_DISPLAY")
    assert no_screen()


@pytest.mark.slow  # the headless demo in its own process: about 1.5 s
def test_the_headless_demo_needs_no_screen_and_says_nothing_of_it():
    ran = hotstreak("demo", "--headless", env={"DISPLAY": "", "WAYLAND_DISPLAY": ""})
    assert ran.returncode == 0 and "no screen" not in ran.stderr and "Game over" in ran.stdout


@pytest.mark.parametrize("installed", [True, False], ids=["pi-service", "laptop"])
def test_a_taken_journal_suggests_systemctl_only_where_the_unit_is_installed(tmp_path, monkeypatch, installed):
    unit = tmp_path / "hotstreak.service"
    if installed:
        unit.write_text("[Service]\n")
    monkeypatch.setattr(lock, "UNIT", unit)
    held = lock.take(tmp_path / "journal.db")
    try:
        with pytest.raises(JournalError) as err:
            lock.take(tmp_path / "journal.db")
    finally:
        held.release()
    assert ("sudo systemctl stop hotstreak" in str(err.value)) is installed
    assert installed or "close its window, or Ctrl-C where it runs" in str(err.value)
