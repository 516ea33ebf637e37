"""The recorded demo game through every sink the kiosk wires (lights, console, screen, voice, odds, phone page):
no sink may fail on any event of a whole game. A failing sink is only logged by the controller (the race goes
on), so this is where such a bug shows: payouts once lacked a seat name and froze the phone page."""

from __future__ import annotations

import io
import logging
import shutil

import pytest

from companion.kiosk.config import DEFAULT_TOML, parse_config
from companion.kiosk.wiring import build
from companion.tools.demo import script_path


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_whole_game_through_every_sink_logs_no_error(tmp_path, language, caplog, monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    text = DEFAULT_TOML.replace('language = "en"', f'language = "{language}"', 1)
    text = text.replace('cache = ""', f'cache = "{tmp_path / "cache"}"', 1)
    cfg = parse_config(text)
    console = io.StringIO()
    with caplog.at_level(logging.WARNING):
        kiosk = build(cfg, mode="mock", db=tmp_path / "j.db", script=script_path(), sleep=lambda s: None,
                      console=console, display="dummy", audio="mock" if shutil.which("espeak-ng") else "none",
                      web="127.0.0.1:0")
        scanner = kiosk.hardware.scanner
        kiosk.run_forever(frame_interval=0.0,
                          until=lambda: scanner.done.is_set() and kiosk.controller.inputs.empty())
    failures = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert failures == []
    assert kiosk.controller.table.phase == "game-over"
    assert "Final standings" in console.getvalue()
