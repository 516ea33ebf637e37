"""The synthesised sound effects: committed files are what companion.voice.sfx makes, in the mixer's format, at
one level under the voice."""

from __future__ import annotations

import io
import wave

import numpy as np
import pytest

from companion.voice import levels, sfx
from companion.call.announcer import sounds_dir


def samples(data: bytes) -> tuple[np.ndarray, tuple[int, int, int]]:
    with wave.open(io.BytesIO(data)) as w:
        params = (w.getnchannels(), w.getsampwidth(), w.getframerate())
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(int), params


@pytest.mark.parametrize("name", ["start", "collision", "fall", "dq", "finish", "crowd"])
def test_committed_effect_is_the_synthesised_one(name):
    committed, params = samples((sounds_dir() / "effects" / f"{name}.wav").read_bytes())
    fresh, fresh_params = samples(sfx.render(name))
    assert params == fresh_params == (1, 2, sfx.RATE)
    assert committed.shape == fresh.shape
    assert np.abs(committed - fresh).max() <= 2  # the same up to last-bit float differences between machines
    seconds = len(fresh) / sfx.RATE
    assert 0.3 <= seconds <= 3.0
    level = levels.level_db(fresh / 32768.0, sfx.RATE)
    assert level == pytest.approx(levels.EFFECT_LEVEL_DB, abs=0.2)  # every effect at one level ...
    assert level <= levels.VOICE_LEVEL_DB - 5                         # ... well under the voice
    assert np.abs(fresh).max() < 32767  # and not clipped flat


def test_unknown_effect_is_named():
    with pytest.raises(ValueError, match="'boing'"):
        sfx.render("boing")


def test_write_all_writes_every_effect(tmp_path):
    paths = sfx.write_all(tmp_path)
    assert sorted(p.stem for p in paths) == sorted(sfx.EFFECTS)
    assert all(p.stat().st_size > 1000 for p in paths)


def test_the_race_start_line_waits_until_the_start_signal_is_over():
    from companion.voice.sounds import START_LEAD
    start, _ = samples(sfx.render("start"))
    assert len(start) / sfx.RATE <= START_LEAD <= len(start) / sfx.RATE + 0.25
