"""The LED calibration wizard: a running light the builder stops with GO, lane by lane. Pure: fed GO, UNDO
and the time, it says which pixel to light and what it has learnt; no I/O, no clock of its own.

Why a running light stopped with GO, then a slow one: the builder holds the scanner in one hand and has one
free for the buttons, eyes on the board. Stepping a light with the buttons would need a third button to say
"here" and many presses on a long strip; a light that runs by itself needs only GO. The first light runs at
``run_speed`` pixels a second (a lap of the strip in at most ``LAP_SECONDS``); GO stops it, a person's reaction
a few pixels late, and a slow light then walks the few pixels around that place, one a ``1/FINE_SPEED`` s,
again and again, until GO marks the one beside the space. UNDO always takes back the last GO.

Per lane: the first light of space 1 (the end toward the back of the board), then the last light of the last
space (the finish end); then the lane is lit as understood (space 1 white, the others in the mascot's colour,
every other space dimmer) for the builder to confirm with GO. After the last lane every lane is lit; GO asks
for the save (``wants_save``), and the caller reports back with :meth:`Wizard.saved` or :meth:`Wizard.failed`.

>>> w = Wizard(lanes=1, spaces=14, count=40, now=0.0)
>>> w.light(0.0), w.light(1.0)                 # the running light, 6 pixels a second
(0, 6)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from companion.service.calibrate import Lane, MarkError, calibration_problems, lane_from_marks, lane_pixels

__all__ = ["FINE_SPEED", "LAP_SECONDS", "Step", "Wizard"]

LAP_SECONDS = 20.0   # the running light's lap of the whole strip takes at most this long ...
MIN_SPEED = 6.0      # ... and it runs at least this many pixels a second
FINE_SPEED = 1.5     # the slow light: pixels a second
REACTION = 0.8       # seconds of reaction the slow light's window reaches back over
AHEAD = 2            # pixels the slow light's window reaches past the place GO stopped the light


@dataclass(frozen=True)
class Step:
    """Where the wizard is. ``stage``: ``run`` (the light runs), ``fine`` (the slow light near ``origin``),
    ``check`` (lane ``lane`` lit as understood), ``all`` (every lane lit), ``saving``, ``saved``,
    ``restored``, ``failed``. ``mark`` is ``start`` or ``end`` while marking; ``origin`` the pixel the light
    starts from (run) or was stopped at (fine); ``t0`` when this stage began; ``lanes`` the lanes done;
    ``start`` this lane's space-1 mark; ``problem`` why the last marks were refused."""

    stage: str
    lane: int = 1
    mark: str = "start"
    origin: int = 0
    t0: float = 0.0
    lanes: tuple[tuple[int, Lane], ...] = ()
    start: int | None = None
    problem: str | None = None
    detail: str = ""


class Wizard:
    """Calibrates ``lanes`` lanes of ``spaces`` spaces on a strip of ``count`` pixels, from time ``now``."""

    def __init__(self, lanes: int, spaces: int, count: int, now: float):
        self.lanes, self.spaces, self.count = lanes, spaces, count
        self.run_speed = max(MIN_SPEED, count / LAP_SECONDS)
        self.back = math.ceil(self.run_speed * REACTION) + 1
        self.step = Step("run", t0=now)
        self.history: list[Step] = []

    # ----- what it shows ------------------------------------------------------------------------------
    def window(self, step: Step | None = None) -> list[int]:
        """The pixels the slow light walks over (fine stage), around the pixel GO stopped the light at (round
        the end of the strip as the running light goes)."""
        s = step or self.step
        span = range(s.origin - self.back, s.origin + AHEAD + 1)
        return list(dict.fromkeys(p % self.count for p in span))

    def light(self, now: float) -> int | None:
        """The pixel the running (or slow) light is on at ``now``; None when no light runs."""
        s = self.step
        if s.stage == "run":
            return (s.origin + int(max(0.0, now - s.t0) * self.run_speed)) % self.count
        if s.stage == "fine":
            span = self.window()
            return span[int(max(0.0, now - s.t0) * FINE_SPEED) % len(span)]
        return None

    @property
    def result(self) -> dict[int, Lane]:
        """The lanes calibrated so far, by lane number."""
        return dict(self.step.lanes)

    @property
    def wants_save(self) -> bool:
        return self.step.stage == "saving"

    def lit_spaces(self) -> list[tuple[int, int, list[int]]]:
        """(lane, space, pixels) to light in the check stages: the lane being checked, or every lane."""
        s = self.step
        if s.stage not in ("check", "all", "saving", "saved"):
            return []
        chosen = [(n, lane) for n, lane in s.lanes if s.stage != "check" or n == s.lane]
        return [(n, k + 1, pixels) for n, lane in chosen for k, pixels in enumerate(lane_pixels(lane, self.spaces))]

    # ----- inputs -------------------------------------------------------------------------------------
    def go(self, now: float) -> None:
        """GO: stop the light, mark the pixel, confirm a lane, ask for the save (see the module)."""
        s = self.step
        if s.stage == "run":
            self._push(replace(s, stage="fine", origin=self.light(now) or 0, t0=now, problem=None))
        elif s.stage == "fine":
            pixel = self.light(now)
            assert pixel is not None
            if s.mark == "start":
                self._push(replace(s, stage="run", mark="end", start=pixel, t0=now,
                                   origin=(pixel + self.spaces - 1) % self.count))
            else:
                self._lane_marked(s, pixel, now)
        elif s.stage == "check":
            if s.lane < self.lanes:
                done = dict(s.lanes)[s.lane]
                after = max(p for space in lane_pixels(done, self.spaces) for p in space) + 1
                self._push(Step("run", s.lane + 1, "start", after % self.count, now, s.lanes))
            else:
                self._push(replace(s, stage="all", t0=now))
        elif s.stage == "all":
            self._push(replace(s, stage="saving", t0=now))

    def undo(self, now: float) -> bool:
        """UNDO: back one step (the last GO taken back; a light starts running again from where it was).
        False when there is nothing to go back to (the caller leaves the wizard)."""
        if self.step.stage in ("saving",):
            return True  # the save is under way; the caller answers it
        if not self.history:
            return False
        self.step = replace(self.history.pop(), t0=now, problem=None)
        return True

    def saved(self, detail: str, now: float) -> None:
        """The caller saved the calibration (``detail``: where)."""
        self.history = []  # a saved calibration is undone by restoring the backup, not by marking again
        self.step = replace(self.step, stage="saved", t0=now, detail=detail)

    def failed(self, why: str, now: float) -> None:
        """The caller could not save (``why``: one line); UNDO goes back to the lit lanes."""
        self.step = replace(self.step, stage="failed", t0=now, problem=why)
        self.history.append(replace(self.step, stage="all"))

    def restored(self, now: float) -> None:
        """The caller put the old calibration back."""
        self.step = replace(self.step, stage="restored", t0=now)

    def _lane_marked(self, s: Step, end: int, now: float) -> None:
        assert s.start is not None
        try:
            lane = lane_from_marks(s.start, end, self.spaces)
        except MarkError as exc:
            self._refuse(s, str(exc), now)
            return
        lanes = dict(s.lanes)
        lanes[s.lane] = lane
        problems = calibration_problems(lanes, self.spaces, self.count)
        if problems:
            self._refuse(s, problems[0], now)
            return
        self._push(replace(s, stage="check", t0=now, lanes=tuple(sorted(lanes.items())), problem=None))

    def _refuse(self, s: Step, why: str, now: float) -> None:
        """Marks that cannot be this lane: back to its space-1 mark, saying why (the history keeps the way)."""
        def first_of_lane(step: Step) -> bool:
            return step.stage == "run" and step.mark == "start"
        while self.history and self.history[-1].lane == s.lane and not first_of_lane(self.history[-1]):
            self.history.pop()
        back = self.history.pop() if self.history and self.history[-1].lane == s.lane else s
        self.step = replace(back, stage="run", mark="start", t0=now, problem=why, start=None)

    def _push(self, step: Step) -> None:
        self.history.append(self.step)
        self.step = step
