"""A card's moves in motion: the path each mascot really took, and the one clock the screen and the LED strip
share for it. Pure: no I/O, no clock of its own; imports only the rules engine.

The path comes from the race's typed events of one card (``companion.rules.events``): a move runs space by
space along its lane (forward, back, a crawl, a knock back), a swerve changes lane on its space, a step off the
track (out of bounds) ends one step past the edge. Every step counts the same, so a mascot covers its whole
path in :data:`SLIDE_SECONDS`, eased in and out (:func:`ease`). A mascot that falls on the card tips over
(:data:`TIP_SECONDS`) once it reaches the space where it fell; one hit in a collision tips over when the mover
reaches its space.

>>> from companion.rules import Race
>>> path = paths_for(Race().push_text("G+1>"))["gobbler"]
>>> path.steps
((1, 3), (1, 4), (2, 4))
>>> point(path.steps, 0.5)   # half way: on the space ahead, between the lanes
(1.0, 4.0)
>>> point(path.steps, 1.0)
(2.0, 4.0)

The screen (``companion.screen.motion``) slides a mascot along the path by :func:`slide`, the LED strip's move
pulse (``companion.lights.render``) runs the same path with the same :func:`slide`, so the two stay in step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from companion.rules.events import (Collided, Event, Fell, KnockedOut, Moved, OutOfBounds, OutOfBoundsWay,
                                    Recovered, Revealed, Swerved)

SLIDE_SECONDS = 0.6
"""How long a card's moves take to slide along their paths, in seconds (on the screen and the LED strip)."""

TIP_SECONDS = 0.3
"""How long a mascot takes to tip over when it falls, in seconds."""

Step = tuple[int, int]
"""One step of a path: ``(lane, space)``, 1-based; lane 0 or lanes + 1, space 0 or a space behind the folds for
a step off the track."""


@dataclass(frozen=True)
class Path:
    """Where one mascot went on one card: ``steps`` from the space it left to where it ended (one
    ``(lane, space)`` per step; empty when it fell where it stood); ``fall`` the share of the slide (0..1) at which it
    fell (tips over), or None; ``knocked_out`` it fell while fallen (DQ); ``off`` its last step left the track;
    ``stood_up`` it stood up (recovered from a fall) at the start of the card."""

    mascot: str
    steps: tuple[Step, ...]
    fall: float | None = None
    knocked_out: bool = False
    off: bool = False
    stood_up: bool = False

    @property
    def moved(self) -> bool:
        """True when the mascot changed space or lane."""
        return len(self.steps) > 1


def paths_for(events: Iterable[Event], stood: Mapping[str, Step] | None = None) -> dict[str, Path]:
    """The paths of the last card among ``events`` (the events after its ``Revealed``; all of them when there
    is none), keyed by lower-case mascot name: every mascot that moved, swerved, fell or was knocked out.

    ``stood`` maps a mascot to the ``(lane, space)`` it stood on before the card: a step off the back reports
    only the space off the track, so a mascot that ran several spaces back before it is known from there
    (without it, such a path is the last step only)."""
    events = list(events)
    last = max((k for k, e in enumerate(events) if isinstance(e, Revealed)), default=-1)
    steps: dict[str, list[Step]] = {}
    falls: dict[str, tuple[str, Step | None]] = {}   # who fell: (who made it fall, on which step of theirs)
    knocked: set[str] = set()
    off: set[str] = set()
    up: set[str] = set()

    def walk(name: str, start: Step, to: Iterable[Step]) -> None:
        path = steps.setdefault(name, [start])
        if path[-1] != start:
            path.append(start)
        path.extend(to)

    for e in events[last + 1:]:
        if isinstance(e, Recovered) and e.stood_up:
            up.add(e.mascot.value)
        elif isinstance(e, Moved) and e.start != e.end:
            d = 1 if e.end > e.start else -1
            walk(e.mascot.value, (e.lane, e.start), ((e.lane, s) for s in range(e.start + d, e.end + d, d)))
        elif isinstance(e, Swerved):
            walk(e.mascot.value, (e.from_lane, e.space), ((e.to_lane, e.space),))
        elif isinstance(e, OutOfBounds) and e.way is not OutOfBoundsWay.FOLD:
            name = e.mascot.value
            if name in steps:
                here = steps[name][-1]
            elif stood is not None and name in stood:
                here = stood[name]
            elif e.way is OutOfBoundsWay.SIDE:
                here = (e.lane - 1 if e.lane > 1 else 1, e.space)
            else:
                here = (e.lane, e.space + 1)
            lane, space = here
            d = 1 if e.space > space else -1
            walk(name, here, [*((lane, s) for s in range(space + d, e.space, d)), (e.lane, e.space)])
            off.add(name)
        elif isinstance(e, Collided):
            falls[e.mascot.value] = (e.mover.value, (e.lane, e.space))
        elif isinstance(e, (Fell, KnockedOut)):
            name = e.mascot.value
            if isinstance(e, KnockedOut):
                knocked.add(name)
            if name not in falls or falls[name][0] == name:
                own = steps.get(name)
                falls[name] = (name, own[-1] if own else None)
    out: dict[str, Path] = {}
    for name in dict.fromkeys([*up, *steps, *falls]):
        fall = None
        if name in falls:
            who, at = falls[name]
            fall = _share(steps.get(who, []), at)
        out[name] = Path(name, tuple(steps.get(name, ())), fall, name in knocked, name in off, name in up)
    return out


def _share(steps: list[Step], at: Step | None) -> float:
    """The share of a path (0..1) at which it first reaches ``at`` after its start (0 when never)."""
    if at is None or len(steps) < 2:
        return 0.0
    for k in range(1, len(steps)):
        if steps[k] == at:
            return k / (len(steps) - 1)
    return 0.0


def ease(x: float) -> float:
    """Ease in and out (cubic): 0 at 0, 1 at 1, slow at both ends; ``x`` is clamped to 0..1."""
    x = min(max(x, 0.0), 1.0)
    return 4 * x * x * x if x < 0.5 else 1 - (-2 * x + 2) ** 3 / 2


def slide(elapsed: float, seconds: float = SLIDE_SECONDS) -> float:
    """How far along its path a mascot is (0..1, eased) ``elapsed`` seconds after its card."""
    return ease(elapsed / seconds) if seconds > 0 else 1.0


def reached(share: float, seconds: float = SLIDE_SECONDS) -> float:
    """The seconds after the card at which the slide reaches ``share`` (0..1) of the path (inverse of
    :func:`slide`)."""
    lo, hi = 0.0, 1.0
    for _ in range(30):
        mid = (lo + hi) / 2
        if ease(mid) < share:
            lo = mid
        else:
            hi = mid
    return hi * seconds


def point(steps: tuple[Step, ...], share: float) -> tuple[float, float]:
    """The ``(lane, space)`` (floats) ``share`` (0..1) of the way along ``steps``; every step counts the same.

    Raises ValueError for an empty path."""
    if not steps:
        raise ValueError("a path has at least one step (the space it started on)")
    if len(steps) == 1:
        return float(steps[0][0]), float(steps[0][1])
    pos = min(max(share, 0.0), 1.0) * (len(steps) - 1)
    k = min(int(pos), len(steps) - 2)
    f = pos - k
    (l0, s0), (l1, s1) = steps[k], steps[k + 1]
    return l0 + (l1 - l0) * f, s0 + (s1 - s0) * f


def fall_time(path: Path, seconds: float = SLIDE_SECONDS) -> float | None:
    """The seconds after the card at which ``path``'s mascot starts to tip over, or None when it did not fall."""
    return None if path.fall is None else reached(path.fall, seconds)


def settled(paths: Iterable[Path], seconds: float = SLIDE_SECONDS) -> float:
    """The seconds after the card when every path has played: standing up, the slide, then the last fall's tip."""
    end = 0.0
    for p in paths:
        if p.moved:
            end = max(end, seconds)
        if p.stood_up:
            end = max(end, TIP_SECONDS)
        t = fall_time(p, seconds)
        if t is not None:
            end = max(end, t + TIP_SECONDS)
    return end


__all__ = ["Path", "SLIDE_SECONDS", "Step", "TIP_SECONDS", "ease", "fall_time", "paths_for", "point", "reached",
           "settled", "slide"]
