"""The duck: the sound effects drop under the announcer's voice while a line plays, and come back after it.

One rule for the real mixer (:class:`hardware.audio.PygameAudio` sets its effect channels' volumes from it once
a frame) and for the stems of ``hotstreak simulate --stems`` (applied to every sample), so what the stems
measure is what the kiosk plays.

A voice line is a span ``(start, end)`` in seconds on one clock (``end`` None: still playing, no end known).
Over a span the effects' gain falls from 0 dB to :data:`DUCK_DB` in :data:`ATTACK` seconds, stays there until
the line ends, and rises back to 0 dB over :data:`RELEASE` seconds (both straight lines in dB). With several
lines, the deepest duck of any of them holds, so a line that starts while the last one's release is still
rising carries on down from where it is, without a jump.

>>> round(effects_gain(0.5, [(0.0, 1.0)]), 3)        # mid-line: -18 dB
0.126
>>> effects_gain(5.0, [(0.0, 1.0)])                   # long after: full volume
1.0
"""

from __future__ import annotations

from typing import Iterable, overload

import numpy as np
from numpy.typing import NDArray

DUCK_DB = -18.0
"""dB the effects drop by while the voice speaks (below 0): with the effects made 6 dB under the voice, 24 dB
under it while it speaks (a broadcast voice-over duck is 15-20 dB)."""
ATTACK = 0.03
"""Seconds the effects take to fall to :data:`DUCK_DB` once a line starts (one frame of the kiosk)."""
RELEASE = 0.35
"""Seconds the effects take to come back to full volume after a line ends."""

Span = tuple[float, float | None]
"""A voice line: ``(start, end)`` seconds; ``end`` None while it plays with no end known."""

def _span_db(t: NDArray[np.float64], start: float, end: float | None) -> NDArray[np.float64]:
    """The duck of one line at times ``t``, in dB (0 or below)."""
    down = DUCK_DB * np.clip((t - start) / ATTACK, 0.0, 1.0)
    if end is None:
        return np.where(t >= start, down, 0.0)
    at_end = DUCK_DB * min(1.0, max(0.0, (end - start) / ATTACK))
    up = at_end * np.clip(1.0 - (t - end) / RELEASE, 0.0, 1.0)
    return np.where(t < start, 0.0, np.where(t < end, down, up))


@overload
def effects_gain(t: float, spans: Iterable[Span]) -> float: ...


@overload
def effects_gain(t: NDArray[np.float64], spans: Iterable[Span]) -> NDArray[np.float64]: ...


def effects_gain(t: float | NDArray[np.float64], spans: Iterable[Span]) -> float | NDArray[np.float64]:
    """The effects' linear gain (:data:`DUCK_DB`..0 dB as 0.126..1.0) at time ``t`` (seconds, a float or an array
    of times) given the voice lines ``spans`` on the same clock."""
    times = np.asarray(t, dtype=np.float64)
    db = np.zeros_like(times)
    if times.ndim == 1 and len(times) > 1 and bool(np.all(np.diff(times) >= 0)):
        for start, end in spans:  # sorted times (a timeline): each line touches only its own stretch
            stop = len(times) if end is None else int(np.searchsorted(times, end + RELEASE, "right"))
            first = int(np.searchsorted(times, start, "left"))
            db[first:stop] = np.minimum(db[first:stop], _span_db(times[first:stop], start, end))
    else:
        for start, end in spans:
            db = np.minimum(db, _span_db(times, start, end))
    gain = np.power(10.0, db / 20.0)
    if np.ndim(t) == 0:
        return float(gain)
    return gain


def recent(spans: list[Span], now: float) -> list[Span]:
    """The spans that can still lower the effects at ``now`` or later (the others are over and released)."""
    return [(s, e) for s, e in spans if e is None or now < e + RELEASE]
