"""The sink registry (``SINKS`` in companion/kiosk/wiring.py): a sink is its module plus one line that names it,
its factory and the settings it reads; ``build`` walks the lines. The "add a sink" recipe of docs/architecture.md
followed once, with real scans through the real wiring."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from companion.kiosk import wiring
from companion.kiosk.config import DEFAULT_TOML, parse_config
from companion.kiosk.settings import DeclaredSettings, UndeclaredSetting
from companion.kiosk.wiring import SINKS, SinkEntry, build
from companion.view.sink import NullSink
from tablekit import TableKit


class LanguageCounter(NullSink):
    """A sink of the recipe: it counts the accepted inputs and the refusals, and keeps the language it was given."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.inputs: list[tuple[str, ...]] = []
        self.refusals = 0

    def events(self, events, view, now):
        self.inputs.append(tuple(type(e).__name__ for e in events))

    def refused(self, error, view, now):
        self.refusals += 1


def run_scans(tmp_path, scans: list[str], config: str = "") -> wiring.Kiosk:
    script = tmp_path / "scans.txt"
    script.write_text("\n".join(scans) + "\n")
    kiosk = build(parse_config(config or DEFAULT_TOML), mode="mock", db=tmp_path / "j.db", script=script,
                  sleep=lambda s: None, display="none", audio="none", web="off")
    scanner = kiosk.hardware.scanner
    kiosk.run_forever(frame_interval=0.0, until=lambda: scanner.done.is_set() and kiosk.controller.inputs.empty())
    return kiosk


def test_a_sink_added_by_one_registry_line_gets_real_scans_and_its_declared_setting(tmp_path, monkeypatch):
    made: list[LanguageCounter] = []

    def make(p: wiring.Parts) -> LanguageCounter:
        made.append(LanguageCounter(p.cfg.language))
        return made[-1]
    monkeypatch.setattr(wiring, "SINKS", [*SINKS, SinkEntry("counter", make, ("language",))])  # the one line
    kiosk = run_scans(tmp_path, ["HS-NEW", "HS-PLAYERS-2", "HS-NOPE", "HS-GO"], config='language = "nl"\n')
    [counter] = made
    assert counter in kiosk.controller.sinks and counter.language == "nl"
    assert len(counter.inputs) == 3 and "NewGame" in counter.inputs[0] and "PlayersSet" in counter.inputs[1]
    assert counter.refusals == 1  # HS-NOPE


def test_a_sink_reading_a_setting_its_line_does_not_declare_is_stopped_naming_both(tmp_path, monkeypatch):
    entry = SinkEntry("sneaky", lambda p: LanguageCounter(p.cfg.brightness), ("language",))
    monkeypatch.setattr(wiring, "SINKS", [*SINKS, entry])
    with pytest.raises(UndeclaredSetting, match="sink sneaky reads the setting 'brightness'"):
        build(parse_config(DEFAULT_TOML), mode="mock", db=tmp_path / "j.db", display="none", audio="none",
              web="off")
    monkeypatch.setattr(wiring, "SINKS", SINKS)
    kiosk = build(parse_config(DEFAULT_TOML), mode="mock", db=tmp_path / "j.db", display="none", audio="none",
                  web="off")  # the journal's lock was let go
    kiosk.close()


def test_the_screen_reading_a_setting_its_line_leaves_out_is_stopped_not_taken_for_a_broken_display(
        tmp_path, monkeypatch):
    lines = [dataclasses.replace(e, reads=tuple(r for r in e.reads if r != "language")) if e.name == "screen"
             else e for e in SINKS]
    monkeypatch.setattr(wiring, "SINKS", lines)
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    with pytest.raises(UndeclaredSetting, match="sink screen reads the setting 'language'"):
        build(parse_config(DEFAULT_TOML), mode="mock", db=tmp_path / "j.db", display="dummy", audio="none",
              web="off")


def test_a_registry_line_naming_no_setting_is_refused_naming_it():
    with pytest.raises(ValueError, match=r"sink lamp: leds\.brightnes is not a setting"):
        DeclaredSettings(parse_config(DEFAULT_TOML), "lamp", ("language", "leds.brightnes"))


def test_a_sink_that_cannot_start_is_left_out_with_one_log_line(tmp_path, monkeypatch, caplog):
    def broken(p: wiring.Parts) -> None:
        raise RuntimeError("no printer on /dev/usb/lp0")
    monkeypatch.setattr(wiring, "SINKS", [*SINKS, SinkEntry("printer", broken)])
    with caplog.at_level(logging.WARNING, logger="companion.kiosk.wiring"):
        kiosk = run_scans(tmp_path, ["HS-NEW", "HS-PLAYERS-2"])
    assert [r.getMessage() for r in caplog.records if "printer" in r.getMessage()] == [
        "no printer (no printer on /dev/usb/lp0); the race goes on without it"]
    assert kiosk.controller.table.game is not None  # the race went on


def test_every_registry_line_names_real_settings_and_a_unique_name():
    cfg = parse_config(DEFAULT_TOML)
    for entry in SINKS:
        DeclaredSettings(cfg, entry.name, entry.reads)
    assert len({entry.name for entry in SINKS}) == len(SINKS)


def test_the_screen_voice_and_phone_page_start_with_only_the_settings_they_declare():
    with TableKit(screen=True, web="127.0.0.1:0") as kit:
        names = {type(s).__name__ for s in kit.controller.sinks}
        assert {"StatusSink", "ScreenSink", "VoiceSink", "WebSink"} <= names, names
        assert kit.url is not None


def test_every_sink_of_the_table_has_its_registry_line_the_led_strip_first():
    """The LED strip is wired by its line in SINKS like every sink: the line marked first, reading the lane
    colours it declares, becomes the controller's lights (drawn before the others)."""
    from companion.kiosk.wiring import SINKS
    from companion.lights.sink import LightsSink
    from companion.rules.mascots import MASCOTS
    from tablekit import TableKit

    assert [e.name for e in SINKS if e.first] == ["lights"] and SINKS[0].first
    assert set(SINKS[0].reads) == {f"colours.{m.value}" for m in MASCOTS}
    with TableKit() as kit:
        assert isinstance(kit.controller.lights, LightsSink)
        assert not any(isinstance(s, LightsSink) for s in kit.controller.sinks)
