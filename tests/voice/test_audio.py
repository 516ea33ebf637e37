"""The audio backends (hardware/audio.py): the mock records what it plays, "none" logs its reason once, the pygame
mixer on SDL's dummy driver plays voice and effects, and a mixer that cannot open gives "none"."""

from __future__ import annotations

import logging

import pytest

from hardware.audio import NullAudio, open_audio


def test_mock_audio_records_and_null_audio_logs_once(caplog):
    audio = open_audio("mock")
    audio.play_effect("crowd")
    audio.play_voice("/x.wav")
    assert audio.played == [("effect", "crowd"), ("voice", "/x.wav")]
    with caplog.at_level(logging.WARNING, "hotstreak.audio"):
        null = NullAudio("no sound card")
        for _ in range(3):
            null.play_effect("dq")
            null.play_voice("/x.wav")
    assert len(caplog.records) == 1 and "no sound card" in caplog.records[0].message
    assert null.voice_busy() is False
    with pytest.raises(ValueError, match="'loud'"):
        open_audio("loud")


def test_pygame_mixer_on_the_dummy_driver_plays_voice_and_effects(tmp_path, monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")  # restored after the test
    from companion.call.announcer import sounds_dir
    effects_dir = sounds_dir() / "effects"
    audio = open_audio("pygame", driver="dummy", effects=effects_dir)
    if audio.name != "pygame":
        pytest.skip("no mixer here")
    try:
        audio.play_effect("finish")
        audio.play_voice(effects_dir / "crowd.wav")
        assert audio.voice_busy()
        audio.stop_voice()
        assert not audio.voice_busy()
        with pytest.raises(ValueError, match="'boing'"):
            audio.play_effect("boing")
    finally:
        audio.close()


def test_no_audio_device_gives_null_audio(caplog, monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")  # restored after the test
    with caplog.at_level(logging.WARNING, "hotstreak.audio"):
        audio = open_audio("auto", driver="no-such-driver")
    assert audio.name == "none"
    assert "cannot open the mixer" in caplog.records[0].message


@pytest.mark.parametrize("config, volume", [("", 1.0), ("[audio]\nvolume = 40\n", 0.4), ("[audio]\nvolume = 0\n", 0.0)])
def test_the_tables_sound_opens_at_the_configured_volume(config, volume):
    from tablekit import TableKit
    with TableKit(config=config) as table:
        assert table.audio.volume == volume


@pytest.mark.parametrize("text", ["volume = 101", "volume = -1", "volume = 0.5", 'volume = "loud"'])
def test_a_volume_outside_0_to_100_per_cent_is_one_line_naming_it(text):
    from companion.kiosk.config import ConfigError, parse_config
    with pytest.raises(ConfigError) as caught:
        parse_config(f"[audio]\n{text}\n")
    message = str(caught.value)
    assert "audio.volume" in message and text.split(" = ")[1].strip('"') in message and "0..100" in message
    assert "\n" not in message
