"""The lights renderer: a race state (and recent events) -> one full LED frame. Pure: no I/O, no clock.

>>> from companion.rules import Race
>>> from companion.lights.lanemap import LaneMap
>>> race = Race()
>>> lanes = LaneMap.default()
>>> frame = render_lanes(race.state, race.track, lanes, DEFAULT_COLOURS, now=0.0, star_marker=None)
>>> [i for i, p in enumerate(frame) if p != (0, 0, 0)]   # every mascot on space 3 of its lane
[2, 16, 30, 44]

What a frame shows (docs/rules.md sections 3-5 for the states). Every
state is a pattern as well as a colour, so it reads without telling colours apart:

- each racing mascot in its colour on the pixels of the space it must stand on (its current lane);
- fallen: the colour blinks (``FALLEN_ON`` s lit, then dark, every ``FALLEN_PERIOD`` s), at full brightness;
- turned around: a white marker pixel on the back end of its space (toward the start of the track); with one
  pixel a space, that pixel shows the marker for the last ``MARKER_SHARE`` of every ``MARKER_PERIOD`` s;
- two mascots on one space share its pixels (alternating pixels, or in turn when a space has one);
- finished and DQ mascots are not shown on the track;
- folded spaces (under the mat) are dark; a faint ``star_marker`` on star spaces still on the track.

:class:`Effects` adds short overlays triggered by engine events and expiring by time: the mascot that just
moved pulses along its path (a dim light, one pixel a space, running from the space it left toward the space it
must stand on, again and again, until the next card or ``DURATIONS["move"]`` s; the space left is never lit as
the mascot's), a white flash on a collision's space, a flash on a
fallen mascot's space, a red flash along the lane of a knockout or out of bounds, a sweep in the mascot's
colour up its lane on a finish, and a wipe of the spaces going under a fold. Each run of a move's light takes
``companion.motion.SLIDE_SECONDS`` with the screen's easing (``companion.motion.slide``), the first from the
card: the light is over the space where the screen's mascot is sliding, in step with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

from companion.lights.lanemap import LaneMap
from hardware.device import Pixel
from hardware.leds import scale
from companion.colours import COLOURS
from companion.motion import SLIDE_SECONDS, slide
from companion.rules.events import (Collided, Event, Fell, Finished, Folded, KnockedOut, Moved, OutOfBounds,
                                    Revealed, Status, Swerved)
from companion.rules.mascots import MASCOTS, Mascot
from companion.rules.race import RaceState
from companion.rules.track import Track

OFF: Pixel = (0, 0, 0)
DEFAULT_COLOURS: dict[Mascot, Pixel] = {m: COLOURS[m.value] for m in MASCOTS}  # shared with the screen
STAR_MARKER: Pixel = (10, 8, 0)
FALLEN_PERIOD = 0.8       # seconds: a fallen mascot blinks once per period ...
FALLEN_ON = 0.5           # ... lit for this long, then dark
MARKER: Pixel = (255, 255, 255)  # the turned-around marker pixel
MARKER_PERIOD = 1.0       # with one pixel a space: the marker takes the last MARKER_SHARE of each period
MARKER_SHARE = 0.3
SHARE_PERIOD = 0.5        # seconds each mascot gets when several share a one-pixel space
WHITE: Pixel = (255, 255, 255)
RED: Pixel = (255, 0, 0)
AMBER: Pixel = (255, 100, 0)


def render_lanes(race_state: RaceState, track: Track, lane_map: LaneMap, colours: Mapping[Mascot, Pixel], *,
                 now: float, effects: "Effects | None" = None, folds: int | None = None, count: int | None = None,
                 star_marker: Pixel | None = STAR_MARKER) -> list[Pixel]:
    """One full frame (``count`` pixels, default ``lane_map.count``) of ``(r, g, b)`` tuples for the state.

    ``now`` (seconds, any monotonic origin) drives the blinks, the marker and the effects; ``folds`` defaults to
    ``race_state.folds`` (pass 0 to show the whole track, e.g. between races). Raises ValueError when the
    lane map does not cover the track, a mascot has no colour, or ``count`` is below the map's need.
    """
    _check(track, lane_map, colours, count)
    frame = [OFF] * (lane_map.count if count is None else count)
    edge = track.back_edge(race_state.folds if folds is None else folds)
    if star_marker is not None:
        for lane in range(1, track.lanes + 1):
            for space in track.stars:
                if edge <= space <= lane_map.spaces:
                    for p in lane_map.pixels_for(lane, space):
                        frame[p] = star_marker
    spots: dict[tuple[int, int], list[list[Pixel]]] = {}
    for ms in race_state.mascots:
        if ms.status is not Status.RACING or ms.space < edge:
            continue
        pixels = lane_map.pixels_for(ms.lane, ms.space)
        look = _look(colours[ms.mascot], len(pixels), ms.fallen, ms.facing.value == "backward", now)
        spots.setdefault((ms.lane, ms.space), []).append(look)
    for (lane, space), looks in spots.items():
        pixels = lane_map.pixels_for(lane, space)
        n = len(looks)
        for k, p in enumerate(pixels):
            if n == 1:
                who = 0
            elif len(pixels) >= n:
                who = k % n
            else:
                who = int(math.floor(now / SHARE_PERIOD)) % n
            frame[p] = looks[who][k]
    if effects is not None:
        effects.apply(frame, race_state, track, lane_map, colours, now)
    return frame


def _look(colour: Pixel, n: int, fallen: bool, backward: bool, now: float) -> list[Pixel]:
    """The ``n`` pixels of one mascot's space (ordered back to front): its colour, blinking when ``fallen``,
    with the white marker on the back pixel when ``backward`` (turned around)."""
    lit = colour if not fallen or (now % FALLEN_PERIOD) < FALLEN_ON else OFF
    look = [lit] * n
    if backward:
        if n > 1:
            look[0] = MARKER
        elif (now % MARKER_PERIOD) >= MARKER_PERIOD * (1 - MARKER_SHARE):
            look[0] = MARKER
    return look


def _check(track: Track, lane_map: LaneMap, colours: Mapping[Mascot, Pixel], count: int | None) -> None:
    missing_lanes = [n for n in range(1, track.lanes + 1) if n not in lane_map.lanes]
    if missing_lanes:
        raise ValueError(f"lane map has no lane(s) {missing_lanes} (the track has {track.lanes} lanes)")
    if lane_map.spaces < track.spaces:
        raise ValueError(f"lane map has {lane_map.spaces} spaces per lane; the track needs {track.spaces}")
    missing = [m.value for m in MASCOTS if m not in colours]
    if missing:
        raise ValueError(f"no lane colour for {', '.join(missing)} (expected an (r, g, b) per mascot)")
    if count is not None and count < lane_map.count:
        raise ValueError(f"LED count {count} is below the lane map's {lane_map.count} pixels")


# ----- effects -----------------------------------------------------------------------------------------------
DURATIONS: dict[str, float] = {"collision": 0.6, "fell": 0.6, "dq": 1.5, "finish": 1.2, "fold": 1.2,
                               "move": 6.0}
BLINK = 0.1  # seconds on, then off, for flashes
PULSE_PERIOD = 1.0  # seconds between runs of a move's light: each runs in SLIDE_SECONDS (as the screen's slide)
PULSE_LEVEL = 0.3   # the running light's brightness (share of the mascot's colour): never the mascot itself
TAIL_SHARE = 0.4    # its tail, as a share of PULSE_LEVEL


@dataclass(frozen=True)
class Effect:
    """One running effect: ``kind`` (a key of DURATIONS) started at ``start`` for ``duration`` seconds.

    ``mascot``/``lane``/``space`` say where (a mascot's place is looked up at render time);
    ``first_space`` is the new back edge for a fold; ``path`` the ``(lane, space)`` steps of a move, from the
    space left to the space reached."""

    kind: str
    start: float
    duration: float
    mascot: Mascot | None = None
    lane: int | None = None
    space: int | None = None
    first_space: int | None = None
    path: tuple[tuple[int, int], ...] = ()

    def progress(self, now: float) -> float:
        return (now - self.start) / self.duration


class Effects:
    """Short light effects from engine events; each expires ``DURATIONS[kind]`` seconds after its trigger.

    ``trigger(events, now)`` starts the effects for the events (Moved, Swerved, Collided, Fell, KnockedOut,
    OutOfBounds, Finished, Folded; others are ignored; a Revealed ends the moves of the card before); ``active(now)`` drops expired ones and returns the rest;
    ``busy(now)`` says whether the controller should keep rendering frames; ``apply`` is called by
    :func:`render_lanes`. ``durations`` overrides the default seconds per kind.
    """

    def __init__(self, durations: Mapping[str, float] | None = None):
        self.durations = dict(DURATIONS)
        for kind, seconds in (durations or {}).items():
            if kind not in DURATIONS or not seconds > 0:
                raise ValueError(f"effect duration {kind}={seconds!r}: expected one of "
                                 f"{', '.join(DURATIONS)} with positive seconds")
            self.durations[kind] = seconds
        self._running: list[Effect] = []

    def trigger(self, events: Iterable[Event], now: float) -> None:
        for e in events:
            if isinstance(e, Revealed):  # a new card: only its own moves pulse
                self._running = [r for r in self._running if r.kind != "move"]
            effect = self._effect_for(e, now)
            if effect is None:
                continue
            last = next((r for r in reversed(self._running) if r.kind == "move" and r.mascot is effect.mascot
                         and r.start == now), None) if effect.kind == "move" else None
            if last is not None and last.path[-1] == effect.path[0]:  # one card, one path: move then swerve
                self._running.remove(last)
                effect = replace(last, path=last.path + effect.path[1:])
            self._running.append(effect)

    def _effect_for(self, e: Event, now: float) -> Effect | None:
        d = self.durations
        if isinstance(e, Moved) and e.start != e.end:
            step = 1 if e.end > e.start else -1
            path = tuple((e.lane, s) for s in range(e.start, e.end + step, step))
            return Effect("move", now, d["move"], e.mascot, path=path)
        if isinstance(e, Swerved):
            return Effect("move", now, d["move"], e.mascot, path=((e.from_lane, e.space), (e.to_lane, e.space)))
        if isinstance(e, Collided):
            return Effect("collision", now, d["collision"], e.mascot, e.lane, e.space)
        if isinstance(e, Fell):
            return Effect("fell", now, d["fell"], e.mascot)
        if isinstance(e, KnockedOut):
            return Effect("dq", now, d["dq"], e.mascot)
        if isinstance(e, OutOfBounds):
            return Effect("dq", now, d["dq"], e.mascot, e.lane)
        if isinstance(e, Finished):
            return Effect("finish", now, d["finish"], e.mascot)
        if isinstance(e, Folded):
            return Effect("fold", now, d["fold"], first_space=e.first_space)
        return None

    def clear(self) -> None:
        """Drop every effect (e.g. on undo or a new race)."""
        self._running.clear()

    def active(self, now: float) -> list[Effect]:
        self._running = [e for e in self._running if e.start <= now < e.start + e.duration]
        return list(self._running)

    def busy(self, now: float) -> bool:
        return bool(self.active(now))

    def apply(self, frame: list[Pixel], state: RaceState, track: Track, lane_map: LaneMap,
              colours: Mapping[Mascot, Pixel], now: float) -> None:
        """Draw the running effects over ``frame`` (in place), oldest first."""
        for e in self.active(now):
            t = now - e.start
            blink_on = int(t / BLINK) % 2 == 0
            if e.kind == "move":
                _pulse(frame, e, state, track, lane_map, colours, t)
            elif e.kind == "collision" and blink_on:
                assert e.lane is not None and e.space is not None, "a collision has a lane and a space"
                _paint(frame, lane_map.pixels_for(e.lane, e.space), WHITE)
            elif e.kind == "fell" and blink_on:
                assert e.mascot is not None, "a fall has a mascot"
                ms = state.of(e.mascot)
                if ms.status is Status.RACING:
                    _paint(frame, lane_map.pixels_for(ms.lane, ms.space), WHITE)
            elif e.kind == "dq" and blink_on:
                assert e.mascot is not None, "a DQ has a mascot"
                lane = e.lane if e.lane is not None else state.of(e.mascot).lane
                lane = min(max(lane, 1), track.lanes)  # off the side: flash the lane it left
                _paint(frame, lane_map.lane_pixels(lane), RED)
            elif e.kind == "finish":
                assert e.mascot is not None, "a finish has a mascot"
                ms = state.of(e.mascot)
                pixels = lane_map.lane_pixels(ms.lane)
                head = int(e.progress(now) * len(pixels) * 1.5)  # the head runs off the end before expiry
                for k in range(max(0, head - 4), min(head + 1, len(pixels))):
                    frame[pixels[k]] = scale(colours[e.mascot], 1.0 - (head - k) / 5)
            elif e.kind == "fold":
                first = e.first_space or 1
                wiped = int(e.progress(now) * (first - 1))  # spaces already gone under, from the back
                for lane in range(1, track.lanes + 1):
                    for space in range(wiped + 1, first):
                        _paint(frame, lane_map.pixels_for(lane, space), AMBER)


def _pulse(frame: list[Pixel], e: Effect, state: RaceState, track: Track, lane_map: LaneMap,
           colours: Mapping[Mascot, Pixel], t: float) -> None:
    """A dim light in the mover's colour running along ``e.path`` once per PULSE_PERIOD, with a fainter tail: each
    run takes :data:`companion.motion.SLIDE_SECONDS`, eased as the screen's slide (the light is on the step nearest
    to where the screen's mascot is), then the path is dark for the rest of the period.

    It lights one pixel of a space (the middle one) at :data:`PULSE_LEVEL` of the colour, never the whole space
    at full colour: a standing mascot is the whole space at full colour, so the space left never looks as if
    the mascot still stood there. It skips the space reached (the mascot stands there), spaces where another
    racing mascot stands and spaces off the track (under the mat, past the end)."""
    assert e.mascot is not None, "a move has a mascot"
    if state.of(e.mascot).status is not Status.RACING:
        return  # finished or out: the finish sweep or the red flash says so
    edge = track.back_edge(state.folds)
    taken = {(o.lane, o.space) for o in state.mascots if o.status is Status.RACING and o.mascot is not e.mascot}
    run = t % PULSE_PERIOD
    if len(e.path) < 2 or run >= SLIDE_SECONDS:
        return
    head = pulse_head(run, len(e.path))
    colour = colours[e.mascot]
    for back, level in ((0, PULSE_LEVEL), (1, PULSE_LEVEL * TAIL_SHARE)):
        k = head - back
        if not 0 <= k < len(e.path) - 1:
            continue   # the space reached is the mascot's own
        lane, space = e.path[k]
        if 1 <= lane <= track.lanes and edge <= space <= track.spaces and (lane, space) not in taken:
            pixels = lane_map.pixels_for(lane, space)
            frame[pixels[len(pixels) // 2]] = scale(colour, level)


def pulse_head(run: float, steps: int) -> int:
    """The step (0-based, of a path of ``steps`` steps) a move's light is on ``run`` seconds into its run: the
    step nearest to the screen's sliding mascot (``companion.motion.slide``)."""
    return min(steps - 1, int(slide(run) * (steps - 1) + 0.5))


def _paint(frame: list[Pixel], pixels: Sequence[int], colour: Pixel) -> None:
    for p in pixels:
        frame[p] = colour
