"""Display backend choice and the event -> sound effect table."""

from __future__ import annotations

import logging

import pytest

from companion.voice.sounds import effects_for
from companion.rules.race import play
from companion.screen.model import sample_model
from hardware.display import NullDisplay, auto_kind, open_display


def test_dummy_display_draws(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    screen = open_display("dummy", size=(800, 480))
    try:
        assert screen.name == "dummy" and screen.size == (800, 480)
        assert screen.draw(sample_model("race"), 0.0).get_size() == (800, 480)
        screen.present()
    finally:
        screen.close()


def test_no_display_is_a_null_display_with_one_log_line(monkeypatch, caplog):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # restored after; Screen sets the driver it is given
    with caplog.at_level(logging.WARNING, "hotstreak.display"):
        d = open_display("kmsdrm")  # no KMS device in a test run
        d.draw(sample_model("race"), 0.0)
        d.present()
        assert d.poll() == []
    if not isinstance(d, NullDisplay):
        d.close()
        pytest.skip("this machine has a KMS display")
    assert len(caplog.records) == 1 and "kmsdrm" in caplog.records[0].message
    assert isinstance(open_display("none"), NullDisplay)
    with pytest.raises(ValueError, match="'hologram'"):
        open_display("hologram")


def test_auto_picks_a_window_on_a_desktop_and_kmsdrm_on_a_console(monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")
    assert auto_kind() == "window"
    monkeypatch.delenv("DISPLAY")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert auto_kind() == "kmsdrm"


def test_effects_follow_the_events():
    _, events = play(["H+3", "G+2>", "G+1>"])    # Gobbler swerves into Hurley's lane, then crashes into him
    assert effects_for(events) == ["collision", "fall"]
    _, events = play(["MF", "MF"])
    assert effects_for(events) == ["fall", "dq"]
    _, events = play(["M*", "M*", "M+1"])
    assert effects_for(events) == ["finish"]
