"""How loud the sounds are: one level measure for the voice and the effects, normalising to it, and trimming the
silent tail espeak-ng leaves after a line.

The level is a gated RMS in dBFS (0 dB: a full-scale square wave): the RMS of the 20 ms frames within
:data:`GATE_DB` of the loudest frame, so pauses between words and an effect's fading tail do not count. Every
effect is made at :data:`EFFECT_LEVEL_DB` (``companion.voice.sfx``) and every rendered line is mastered to
:data:`VOICE_LEVEL_DB` (:func:`master_line`, called by the voice cache), so the voice sits above the effects
before the duck (``hardware.ducking``) takes them further down.

>>> import numpy as np
>>> tone = np.sin(2 * np.pi * 440 * np.arange(22050) / 22050)
>>> round(level_db(tone, 22050), 1)                    # a full-scale sine: -3 dBFS
-3.0
>>> round(level_db(normalise(tone, 22050, -20.0), 22050), 1)
-20.0
"""

from __future__ import annotations

import wave
from pathlib import Path
from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

Samples: TypeAlias = NDArray[np.float64]
"""Mono float samples, shape ``(n,)``, nominally -1..1."""

VOICE_LEVEL_DB = -18.0
"""The level every rendered voice line is mastered to (espeak-ng renders about -20 dBFS)."""
EFFECT_LEVEL_DB = -24.0
"""The level every sound effect is made at: 6 dB under the voice before any duck."""
PEAK_CEILING_DB = -1.0
"""No sample is normalised above this (dBFS): a level target never clips."""
GATE_DB = 20.0
"""Frames more than this many dB under the loudest frame do not count in :func:`level_db`."""
SILENCE_DB = -50.0
"""A tail quieter than this (dBFS, 5 ms frames) is silence for :func:`trim_tail`."""
TAIL_KEEP = 0.05
"""Seconds kept after the last sound of a line, faded out: its natural release, not a dead tail."""

_FRAME = 0.02


def level_db(samples: Samples, rate: int) -> float:
    """The gated RMS level of ``samples`` at ``rate`` Hz in dBFS (-inf for silence)."""
    frame = max(1, int(rate * _FRAME))
    count = max(1, len(samples) // frame)
    padded = np.zeros(count * frame)
    padded[:min(len(samples), count * frame)] = samples[:count * frame]
    power = (padded.reshape(count, frame) ** 2).mean(axis=1)
    loudest = power.max(initial=0.0)
    if loudest <= 0.0:
        return float("-inf")
    kept = power[power >= loudest * 10 ** (-GATE_DB / 10)]
    return float(10 * np.log10(kept.mean()))


def peak_db(samples: Samples) -> float:
    """The highest absolute sample in dBFS (-inf for silence)."""
    peak = float(np.abs(samples).max(initial=0.0))
    return 20 * np.log10(peak) if peak > 0 else float("-inf")


def normalise(samples: Samples, rate: int, target_db: float, ceiling_db: float = PEAK_CEILING_DB) -> Samples:
    """``samples`` scaled to the level ``target_db`` (dBFS, :func:`level_db`), or less if the peak would pass
    ``ceiling_db``. Silence comes back unchanged."""
    level = level_db(samples, rate)
    if level == float("-inf"):
        return samples
    gain_db = min(target_db - level, ceiling_db - peak_db(samples))
    return samples * 10 ** (gain_db / 20)


def trim_tail(samples: Samples, rate: int, keep: float = TAIL_KEEP) -> Samples:
    """``samples`` without the silence (:data:`SILENCE_DB`) at the end, but for ``keep`` seconds after the last
    sound, faded out to zero over those seconds."""
    frame = max(1, int(rate * 0.005))
    loud = 10 ** (SILENCE_DB / 20)
    count = -(-len(samples) // frame)
    padded = np.zeros(count * frame)
    padded[:len(samples)] = samples
    rms = np.sqrt((padded.reshape(count, frame) ** 2).mean(axis=1))
    sounding = np.nonzero(rms > loud)[0]
    if not len(sounding):
        return samples[:0]
    end = min(len(samples), (int(sounding[-1]) + 1) * frame)
    tail = min(len(samples) - end, int(rate * keep))
    out = samples[:end + tail].copy()
    if tail:
        out[end:] *= np.linspace(1.0, 0.0, tail)
    return out


def read_wav(path: str | Path) -> tuple[Samples, int]:
    """A 16-bit PCM WAV file as (mono samples -1..1, rate in Hz); channels are averaged. Raises ValueError naming
    the file when it is not 16-bit PCM WAV (and OSError when it cannot be read)."""
    try:
        with wave.open(str(path), "rb") as w:
            if w.getsampwidth() != 2:
                raise ValueError(f"{str(path)!r} is {8 * w.getsampwidth()}-bit audio (expected 16-bit PCM WAV)")
            channels, rate = w.getnchannels(), w.getframerate()
            data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768.0
    except (wave.Error, EOFError) as exc:
        raise ValueError(f"{str(path)!r} is not a WAV file ({exc}; expected 16-bit PCM WAV)") from None
    if channels > 1:
        data = data[:len(data) - len(data) % channels].reshape(-1, channels).mean(axis=1)
    return data, rate


def wav_bytes(samples: Samples, rate: int) -> bytes:
    """Float samples (-1..1, clipped) as a 16-bit mono PCM WAV file at ``rate`` Hz."""
    import io
    pcm = np.round(np.clip(samples, -1.0, 32767 / 32768) * 32768).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
    return buf.getvalue()


def master_line(path: str | Path) -> bool:
    """Master a rendered voice line in place: its silent tail trimmed (:func:`trim_tail`), its level set to
    :data:`VOICE_LEVEL_DB`. Returns False (the file left as it is) when it is not 16-bit PCM WAV."""
    try:
        samples, rate = read_wav(path)
    except ValueError:
        return False
    Path(path).write_bytes(wav_bytes(normalise(trim_tail(samples, rate), rate, VOICE_LEVEL_DB), rate))
    return True


SPEECH_BAND = (300.0, 3400.0)
"""The speech band in Hz (telephone speech): where the words are, and where an effect must stay under them."""


def speech_band(samples: Samples, rate: int, band: tuple[float, float] = SPEECH_BAND) -> Samples:
    """``samples`` with everything outside ``band`` (Hz) taken out (an FFT brick-wall filter over the whole,
    zero-padded to a power of two: an FFT of a length with large prime factors takes seconds)."""
    size = 1 << max(1, int(len(samples) - 1).bit_length())
    spectrum = np.fft.rfft(samples, size)
    freqs = np.fft.rfftfreq(size, 1.0 / rate)
    spectrum[(freqs < band[0]) | (freqs > band[1])] = 0.0
    return np.fft.irfft(spectrum, size)[:len(samples)]
