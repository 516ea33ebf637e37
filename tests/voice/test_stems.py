"""What the table hears at table pace (simulate --stems, companion/voice/stems.py): the voice over the ducked
effects in the speech band, three files on one timeline, the mix their sum, and bad folders refused."""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest

from companion.call.words import sounds_dir
from companion.rules.race import play
from companion.voice.levels import read_wav, speech_band, wav_bytes
from companion.voice.pace import Said, cards_of
from companion.voice.stems import race_stems
from conftest import hotstreak, hotstreak_in_process
from hardware.ducking import DUCK_DB


espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")

RACE = ["H*", "H*", "H*", "GF", "GF", "DF", "DF"]
"""Hurley home first (fanfare), Gobbler falls then is knocked out, Dangle too, the race ends (crowd)."""


def test_the_speech_band_filter_keeps_speech_and_drops_rumble_and_hiss():
    t = np.arange(22050) / 22050
    speech, rumble, hiss = (np.sin(2 * np.pi * f * t) for f in (1000, 100, 6000))
    kept = speech_band(speech + rumble + hiss, 22050)
    middle = slice(2205, -2205)                                     # away from the edges of the whole
    assert np.abs(kept[middle] - speech[middle]).max() < 0.01


@pytest.mark.slow
@espeak
@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_stems_of_a_race_with_falls_and_a_finish_keep_the_voice_over_the_effects(tmp_path, lang):
    env = {"HOTSTREAK_VOICE_CACHE": str(tmp_path / "cache")}
    out = tmp_path / "stems"
    result = hotstreak("simulate", "--json", "--pace", "2.5", "--lang", lang, "--stems", str(out), *RACE, env=env)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["finished"]
    plain = json.loads(hotstreak("simulate", "--json", "--pace", "2.5", "--lang", lang, *RACE, env=env).stdout)
    assert data == plain                                    # --stems changes nothing in the JSON
    (voice, rate), (effects, rate_fx), (mix, rate_mix) = (read_wav(out / f) for f in
                                                          ("voice.wav", "effects.wav", "mix.wav"))
    assert rate == rate_fx == rate_mix
    assert len(voice) == len(effects) == len(mix)
    assert len(voice) / rate == pytest.approx(max(s["end"] for s in data["said"]), abs=0.05)
    assert np.abs(mix - (voice + effects)).max() <= 2 / 32768     # the mix is the sum, within rounding
    v, e = speech_band(voice, rate), speech_band(effects, rate)
    under = 0
    for s in data["said"]:
        a, b = round(s["start"] * rate), round(s["end"] * rate)
        assert np.abs(voice[a:b]).max() > 0.1                     # the line is in the voice stem where said
        effect_power = np.mean(e[a:b] ** 2)
        if effect_power > 1e-6:                                   # an effect sounds under the line (-60 dBFS)
            under += 1
            margin = 10 * np.log10(np.mean(v[a:b] ** 2) / effect_power)
            assert margin >= 10, (s["text"], margin)
    assert under >= 4                     # the finish, the falls, the knockouts and the podium over the crowd
    for name in ("fall", "finish", "dq", "crowd"):                # every effect of the race is in the stem
        card = {"fall": 4, "finish": 3, "dq": 5, "crowd": 7}[name]
        a = round((card - 1) * 2.5 * rate)
        assert np.abs(effects[a:a + round(0.2 * rate)]).max() > 0.01, name


def test_an_effect_before_its_line_is_at_full_level_and_ducked_under_it(tmp_path):
    cards = cards_of(play(["H+3", "MF"])[1])                        # card 2 (revealed at 2 s) plays "fall"
    line = tmp_path / "line.wav"
    line.write_bytes(wav_bytes(np.full(22050, 0.5), 22050))        # a 1 s "line"
    said = [Said(2, "Mum down!", 2.25, 3.25)]
    effects_dir = sounds_dir() / "effects"
    stems = race_stems(cards, said, 2.0, lambda text: line, effects_dir)
    fall, _ = read_wav(effects_dir / "fall.wav")
    at = round(2.0 * 22050)
    before = stems.effects[at:at + round(0.2 * 22050)]
    assert np.allclose(before, fall[:len(before)], atol=1e-6)       # before the line: the effect as it is
    start, count = round(2.4 * 22050), round(0.25 * 22050)
    during = stems.effects[start:start + count]
    original = fall[start - at:start - at + count]
    assert np.allclose(during, original * 10 ** (DUCK_DB / 20), atol=1e-6)   # under the line: ducked
    assert np.array_equal(stems.mix, stems.voice + stems.effects)


@pytest.mark.slow
def test_stems_need_pace_and_a_good_folder(tmp_path):
    result = hotstreak("simulate", "--json", "--stems", str(tmp_path), "H+3")
    assert result.returncode == 2 and "--stems needs --json --pace" in result.stderr
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    cases = {
        str(a_file): "is a file",
        str(tmp_path / "missing" / "stems"): "does not exist",
        "": "is empty",
    }
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "mix.wav").mkdir()
    cases[str(tmp_path / "taken")] = "mix.wav' is a folder"
    for folder, message in cases.items():
        result = hotstreak("simulate", "--json", "--pace", "2.5", "--stems", folder, "H+3")
        assert result.returncode == 2, (folder, result.stderr)
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert (repr(folder) in result.stderr or not folder) and "Traceback" not in result.stderr
        assert not result.stdout
    assert not (tmp_path / "missing").exists()


def test_a_folder_without_write_permission_is_refused(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if str(path) == str(locked)
                        else real_access(path, mode))
    result = hotstreak_in_process("simulate", "--json", "--pace", "2.5", "--stems", str(locked), "H+3")
    assert result.returncode == 2 and "no permission" in result.stderr and str(locked) in result.stderr
    result = hotstreak_in_process("simulate", "--json", "--pace", "2.5", "--stems", str(locked / "new"), "H+3")
    assert result.returncode == 2 and "no permission to make a folder" in result.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
@pytest.mark.slow
def test_a_read_only_folder_is_refused(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir(mode=0o500)
    result = hotstreak("simulate", "--json", "--pace", "2.5", "--stems", str(folder), "H+3")
    assert result.returncode == 2 and "no permission" in result.stderr
