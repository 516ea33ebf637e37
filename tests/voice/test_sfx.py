"""The synthesised sound effects: committed files are what companion.voice.sfx makes, in the mixer's format."""

from __future__ import annotations

import io
import wave

import numpy as np
import pytest

from companion.voice import sfx
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
    assert np.abs(fresh).max() > 8000  # audible, not silence
    assert np.abs(fresh).max() < 32767  # and not clipped flat


def test_unknown_effect_is_named():
    with pytest.raises(ValueError, match="'boing'"):
        sfx.render("boing")


def test_write_all_writes_every_effect(tmp_path):
    paths = sfx.write_all(tmp_path)
    assert sorted(p.stem for p in paths) == sorted(sfx.EFFECTS)
    assert all(p.stat().st_size > 1000 for p in paths)
