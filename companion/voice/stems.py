"""What the table hears at table pace, as sound: the voice, the effects and their mix on one timeline.

The timeline is the pace model's (:mod:`companion.voice.pace`): each line of the ``said`` list plays its mastered
WAV from the voice cache from ``start`` (cut lines stop at ``end``); each card's effects play on its reveal
(:func:`companion.voice.pace.effects_at`); the effects are ducked under the voice by the mixer's own rule
(:func:`hardware.ducking.effects_gain`), so the stems measure what the kiosk plays.
``hotstreak simulate --json --pace S --stems DIR`` writes them as ``DIR/voice.wav``, ``DIR/effects.wav`` and
``DIR/mix.wav``: 16-bit mono at :data:`companion.voice.sfx.RATE` Hz, all the same length.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from companion.rules import events as ev
from companion.voice.levels import Samples, read_wav, wav_bytes
from companion.voice.pace import Said, effects_at
from companion.voice.sfx import RATE
from hardware.ducking import effects_gain

STEMS = ("voice.wav", "effects.wav", "mix.wav")
"""The files :func:`write_stems` writes."""


@dataclass(frozen=True)
class Stems:
    """The sound of a race at table pace at ``rate`` Hz: ``voice`` and ``effects`` (already ducked) as float
    samples of one length; :attr:`mix` is their sum."""

    voice: Samples
    effects: Samples
    rate: int = RATE

    @property
    def mix(self) -> Samples:
        return self.voice + self.effects

    @property
    def seconds(self) -> float:
        return len(self.voice) / self.rate


def _resampled(samples: Samples, rate: int, to: int) -> Samples:
    if rate == to or not len(samples):
        return samples
    count = max(1, round(len(samples) * to / rate))
    return np.interp(np.arange(count) * rate / to, np.arange(len(samples)), samples)


def _load(path: str | Path, rate: int) -> Samples:
    samples, own = read_wav(path)
    return _resampled(samples, own, rate)


def _add(track: Samples, at: float, samples: Samples, rate: int) -> None:
    start = round(at * rate)
    part = samples[:max(0, len(track) - start)]
    track[start:start + len(part)] += part


def race_stems(cards: list[list[ev.Event]], said: list[Said], pace: float, voice_wav: Callable[[str], str | Path],
               effects_dir: str | Path, rate: int = RATE) -> Stems:
    """The stems of a race whose card n (events ``cards[n-1]``) is revealed at (n-1) * ``pace`` seconds and whose
    voice plays ``said`` (from :func:`companion.voice.pace.said_at_pace` with the same cards and pace).
    ``voice_wav``: a line's text -> its WAV (the voice cache); ``effects_dir``: the ``<name>.wav`` effects.
    Raises ValueError naming a WAV that is not 16-bit PCM, OSError when one cannot be read."""
    lines = [(s, _load(voice_wav(s.text), rate)) for s in said]
    effects = [(t, _load(Path(effects_dir) / f"{name}.wav", rate)) for t, name in effects_at(cards, pace)]
    seconds = max([s.start + len(x) / rate for s, x in lines] + [t + len(x) / rate for t, x in effects] + [0.0])
    count = int(np.ceil(seconds * rate))
    voice, fx = np.zeros(count), np.zeros(count)
    for s, samples in lines:
        if s.cut:
            samples = samples[:max(0, round((s.end - s.start) * rate))]
        _add(voice, s.start, samples, rate)
    for t, samples in effects:
        _add(fx, t, samples, rate)
    fx *= effects_gain(np.arange(count) / rate, [(s.start, s.end) for s in said])
    return Stems(voice, fx, rate)


def write_stems(folder: str | Path, stems: Stems) -> list[Path]:
    """Write ``folder/voice.wav``, ``effects.wav`` and ``mix.wav`` (the folder is made if missing); returns the
    paths. Raises OSError when one cannot be written."""
    folder = Path(folder)
    folder.mkdir(exist_ok=True)
    paths = []
    for name, samples in zip(STEMS, (stems.voice, stems.effects, stems.mix)):
        path = folder / name
        path.write_bytes(wav_bytes(samples, stems.rate))
        paths.append(path)
    return paths
