"""Synthesised sound effects: start, collision, fall, dq, finish, crowd (16-bit mono WAV, 22050 Hz), each at the
level :data:`companion.voice.levels.EFFECT_LEVEL_DB` (6 dB under the voice before the duck).

The project makes its own sounds: ``python -m companion.voice.sfx`` writes ``sounds/effects/<name>.wav``; the files
are committed, and a test checks they are what this module makes. Deterministic (a fixed noise seed).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable, TypeAlias

import numpy as np
from numpy.typing import NDArray

from companion.voice import levels
from companion.voice.levels import EFFECT_LEVEL_DB, normalise

RATE = 22050
"""Sample rate in Hz (the same as espeak-ng's voice output, so the mixer does not resample)."""

Samples: TypeAlias = NDArray[np.float64]
"""Float samples at :data:`RATE`, shape ``(n,)``, nominally -1..1."""


def _t(seconds: float) -> Samples:
    return np.arange(int(RATE * seconds)) / RATE


def _tone(freq: float | Samples, seconds: float, shape: str = "sine") -> Samples:
    t = _t(seconds)
    phase = 2 * np.pi * (np.cumsum(np.broadcast_to(freq, t.shape)) / RATE)
    if shape == "square":
        return np.sign(np.sin(phase)) * 0.6
    if shape == "saw":
        return 2 * ((phase / (2 * np.pi)) % 1.0) - 1
    return np.sin(phase)


def _env(n: int, attack: float = 0.005, release: float = 0.05) -> Samples:
    e = np.ones(n)
    a, r = max(1, int(RATE * attack)), max(1, int(RATE * release))
    e[:a] = np.linspace(0, 1, a)
    e[-r:] *= np.linspace(1, 0, r)
    return e


def _silence(seconds: float) -> Samples:
    return np.zeros(int(RATE * seconds))


def _lowpass(x: Samples, k: int) -> Samples:
    return np.convolve(x, np.ones(k) / k, mode="same")


def start() -> Samples:
    """Three short beeps and a long high one: they're off."""
    def beep(f: float, s: float) -> Samples:
        return _tone(f, s) * _env(int(RATE * s), 0.005, 0.03)

    parts = []
    for _ in range(3):
        parts += [beep(660, 0.16), _silence(0.24)]
    parts.append(beep(1320, 0.6))
    return np.concatenate(parts) * 0.7


def collision(rng: np.random.Generator) -> Samples:
    """A thud and a crash."""
    n = int(RATE * 0.45)
    t = _t(0.45)
    thud = _tone(90 * np.exp(-t * 4), 0.45) * np.exp(-t * 12)
    crash = _lowpass(rng.standard_normal(n), 3) * np.exp(-t * 9) * 0.5
    return (thud + crash) * _env(n, 0.001, 0.05) * 0.7


def fall() -> Samples:
    """A slide whistle going down, then a bump."""
    t = _t(0.55)
    slide = _tone(900 * np.exp(-t * 2.6), 0.55) * _env(len(t), 0.01, 0.05) * 0.6
    tb = _t(0.15)
    bump = _tone(70, 0.15) * np.exp(-tb * 30)
    return np.concatenate([slide, bump])


def dq() -> Samples:
    """A buzzer: out of the race."""
    t = _t(0.7)
    buzz = (_tone(110, 0.7, "square") + 0.5 * _tone(116.5, 0.7, "square")) * 0.5
    return buzz * _env(len(t), 0.01, 0.08) * (0.8 + 0.2 * np.sin(2 * np.pi * 9 * t)) * 1.6


def finish() -> Samples:
    """A rising fanfare: C, E, G, high C."""
    notes = [(523.25, 0.14), (659.25, 0.14), (783.99, 0.14), (1046.5, 0.5)]
    parts = []
    for f, s in notes:
        n = int(RATE * s)
        parts.append((0.6 * _tone(f, s, "saw") * 0.3 + 0.7 * _tone(f, s)) * _env(n, 0.005, 0.04))
    return np.concatenate(parts) * 1.3


def crowd(rng: np.random.Generator) -> Samples:
    """A crowd cheering: shaped noise swelling up and fading."""
    seconds = 2.5
    t = _t(seconds)
    noise = _lowpass(rng.standard_normal(len(t)), 6) - _lowpass(rng.standard_normal(len(t)), 40) * 0.5
    swell = np.clip(np.sin(np.pi * t / seconds) * 1.3, 0, 1)
    flutter = 0.75 + 0.25 * _lowpass(rng.standard_normal(len(t)), 2000) * 10
    return noise * swell * np.clip(flutter, 0.3, 1.2) * 0.45


EFFECTS: dict[str, Callable[..., Samples]] = {"start": start, "collision": collision, "fall": fall, "dq": dq,
                                                 "finish": finish, "crowd": crowd}
"""Effect name -> synthesiser. Names are the WAV file stems in ``sounds/effects``."""


def wav_bytes(samples: Samples) -> bytes:
    """Float samples (-1..1) as a 16-bit mono WAV file at :data:`RATE`."""
    return levels.wav_bytes(samples, RATE)


def render(name: str, seed: int = 7) -> bytes:
    """One effect as WAV bytes at :data:`EFFECT_LEVEL_DB`; raises ValueError for an unknown name."""
    try:
        fn = EFFECTS[name]
    except KeyError:
        raise ValueError(f"unknown effect {name!r} (expected one of: {', '.join(EFFECTS)})") from None
    rng = np.random.default_rng(seed)
    samples = fn(rng) if fn in (collision, crowd) else fn()
    return wav_bytes(normalise(samples, RATE, EFFECT_LEVEL_DB))


def write_all(folder: str | Path) -> list[Path]:
    """Write every effect to ``folder/<name>.wav``; returns the paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in EFFECTS:
        path = folder / f"{name}.wav"
        path.write_bytes(render(name))
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.voice.sfx", description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "sounds" / "effects"),
                   help="folder to write the WAV files to (default: the repository's sounds/effects)")
    args = p.parse_args(argv)
    for path in write_all(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
