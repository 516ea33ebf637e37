"""The field: every mascot on the track and the podium places still open (docs/rules.md sections 3 and 5).

A :class:`Field` resolves the actions of one card, step by step as the rules read, and places the mascots
that cross the finish line or are DQ; it appends what happens to ``events``. :class:`~companion.rules.race.Race`
owns one and adds what a field does not know: passes, folds, reveals and undo.

>>> from companion.rules.cards import Card
>>> field = Field(Track())
>>> field.resolve(Card.parse("H+3"))
>>> [e.type for e in field.events], field.runners[1].space
(['moved'], 6)
"""

from __future__ import annotations

from typing import Any

from companion.rules.cards import Act, Action, Card
from companion.rules.events import (Cause, Collided, Event, Exit, Facing, Fell, Finished, KnockedOut, Moved, NoEffect,
                                    OutOfBounds, OutOfBoundsWay, Placed, RaceEnded, Recovered, Swerved, TurnedAround)
from companion.rules.mascots import MASCOTS
from companion.rules.race_state import DQ, FINISHED, RACING, Runner
from companion.rules.track import Track

__all__ = ["Field"]


class Field:
    """The mascots of one race on ``track``: their :class:`Runner` records, the open places (best first), the
    first space still on the track (``edge``) and whether the race is ``over``.

    ``resolve(card)`` applies a card (docs/rules.md 3); ``fold(edge)`` moves the back edge after a pass (4).
    Every change is told by an event appended to ``events``, which the owner empties before each card.
    """

    __slots__ = ("track", "runners", "open", "edge", "over", "events", "stars")

    def __init__(self, track: Track):
        lanes = dict(track.start_lanes)
        self.track = track
        self.runners = [Runner(i, (lanes[m], track.start_space, False, 1, RACING, 0, None))
                        for i, m in enumerate(MASCOTS)]
        self.open = list(range(1, len(MASCOTS) + 1))
        self.edge = 1
        self.over = False
        self.events: list[Event] = []
        self.stars = tuple(sorted(set(track.stars)))

    # ----- state as plain values (undo snapshots, position strings) ------------------------------
    def rows(self) -> tuple[tuple[Any, ...], ...]:
        """Every runner as a row (the layout of :mod:`companion.rules.race_state`)."""
        return tuple(r.row() for r in self.runners)

    def set_rows(self, rows: Any, open_places: Any, edge: int, over: bool) -> None:
        """Put the field in the state given by ``rows``, the open places, the back edge and ``over``."""
        self.runners = [Runner(i, row) for i, row in enumerate(rows)]
        self.open = list(open_places)
        self.edge = edge
        self.over = over

    # ----- one card ------------------------------------------------------------------------------
    def resolve(self, card: Card) -> None:
        """Apply ``card``: one named mascot action by action, or a green multi card on every racing mascot."""
        if card.who is None:
            for action in card.actions:
                if self.over:
                    return
                self._green(action)
            return
        r = self.runners[MASCOTS.index(card.who)]
        if r.status is not RACING:
            self.events.append(NoEffect(card.who, f"{card.who.title} is not racing"))
            return
        for act, amount in card.actions:
            if act is Act.MOVE:
                self._walk(r, r.facing if amount > 0 else -r.facing, 1 if r.fallen else abs(amount), False)
            elif act is Act.STAR:
                target = self._star_ahead(r.space, r.facing, self.track.spaces)
                if target is None:
                    self.events.append(NoEffect(card.who, "no star ahead"))
                else:
                    self._walk(r, r.facing, 1 if r.fallen else abs(target - r.space), True)
            elif act is Act.RECOVER:
                self._recover(r)
            elif act is Act.TURN:
                self._turn(r)
            elif act is Act.FALL:
                self._fall(r, Cause.CARD)
            else:
                self._swerve(r, act)
            if r.status is not RACING:
                return  # placed (as every mascot still racing is when the race ends): the rest is ignored

    def fold(self, edge: int) -> None:
        """The track is folded: spaces before ``edge`` are under the mat; racing mascots there are out of bounds
        together (docs/rules.md 4)."""
        self.edge = edge
        under = [r for r in self.runners if r.status is RACING and r.space < edge]
        if under:
            self._dq(under, Exit.OUT_OF_BOUNDS, OutOfBoundsWay.FOLD)

    # ----- one mascot ----------------------------------------------------------------------------
    def _walk(self, r: Runner, d: int, steps: int, to_star: bool) -> None:
        """Step ``steps`` spaces in direction ``d`` (+1 toward the finish), entering each space in turn: a
        collision with whoever races there, out of bounds behind the track, finished over the finish line.
        One Moved event per stretch between collisions."""
        start = r.space
        for _ in range(steps):
            space = r.space + d
            if space < self.edge:
                if r.space != start:
                    self.events.append(Moved(r.mascot, r.lane, start, r.space, r.fallen, to_star))
                self._dq([r], Exit.OUT_OF_BOUNDS, OutOfBoundsWay.BACK, spaces={r: space})
                return
            r.space = space
            if space > self.track.finish_space:
                self.events.append(Moved(r.mascot, r.lane, start, space, r.fallen, to_star))
                self._finish(r)
                return
            if self._someone_at(r):
                self.events.append(Moved(r.mascot, r.lane, start, space, r.fallen, to_star))
                start = space
                self._collide(r)
                if self.over:
                    return
        if r.space != start:
            self.events.append(Moved(r.mascot, r.lane, start, r.space, r.fallen, to_star))

    def _swerve(self, r: Runner, act: Act) -> None:
        """``r`` swerves left or right as it sees it: out of bounds past the outer lanes, else it may collide."""
        lane = r.lane + (r.facing if act is Act.SWERVE_RIGHT else -r.facing)
        if not 1 <= lane <= self.track.lanes:
            self._dq([r], Exit.OUT_OF_BOUNDS, OutOfBoundsWay.SIDE, lanes={r: lane})
            return
        self.events.append(Swerved(r.mascot, r.space, r.lane, lane))
        r.lane = lane
        self._collide(r)

    def _someone_at(self, r: Runner) -> bool:
        """Whether another racing mascot stands on the space ``r`` has just entered."""
        for other in self.runners:
            if other.space == r.space and other.lane == r.lane and other is not r and other.status is RACING:
                return True
        return False

    def _collide(self, r: Runner) -> None:
        """``r`` entered its current space: every other racing mascot there falls or is knocked out."""
        knocked = []
        for other in self.runners:
            if other.space == r.space and other.lane == r.lane and other is not r and other.status is RACING:
                self.events.append(Collided(r.mascot, other.mascot, r.lane, r.space))
                if other.fallen:
                    knocked.append(other)
                else:
                    other.fallen = True
                    self.events.append(Fell(other.mascot, Cause.COLLISION))
        if knocked:
            self._dq(knocked, Exit.KNOCKOUT, Cause.COLLISION)

    def _star_ahead(self, space: int, direction: int, limit: int) -> int | None:
        """The nearest star from ``space`` in ``direction`` (forward: up to ``limit``; back: still on the track)."""
        if direction > 0:
            ahead = [star for star in self.stars if space < star <= limit]
            return ahead[0] if ahead else None
        behind = [star for star in self.stars if self.edge <= star < space]
        return behind[-1] if behind else None

    def _recover(self, r: Runner) -> None:
        stood, turned = r.fallen, r.facing < 0
        if stood or turned:
            r.fallen, r.facing = False, 1
            self.events.append(Recovered(r.mascot, stood, turned))

    def _turn(self, r: Runner) -> None:
        r.facing = -r.facing
        self.events.append(TurnedAround(r.mascot, Facing.FORWARD if r.facing > 0 else Facing.BACKWARD))

    def _fall(self, r: Runner, cause: Cause) -> None:
        if r.fallen:
            self._dq([r], Exit.KNOCKOUT, cause)
        else:
            r.fallen = True
            self.events.append(Fell(r.mascot, cause))

    # ----- a green multi card --------------------------------------------------------------------
    def _green(self, action: Action) -> None:
        """One action of a green multi card: every racing mascot at once, each by its own state; no collisions,
        no finishing (forward moves stop on the finish-line space) (docs/rules.md 3)."""
        act, amount = action
        racing = [r for r in self.runners if r.status is RACING]
        if act is Act.RECOVER:
            for r in racing:
                self._recover(r)
        elif act is Act.TURN:
            for r in racing:
                self._turn(r)
        elif act is Act.FALL:
            knocked = [r for r in racing if r.fallen]
            for r in racing:
                if not r.fallen:
                    r.fallen = True
                    self.events.append(Fell(r.mascot, Cause.CARD))
            if knocked:
                self._dq(knocked, Exit.KNOCKOUT, Cause.CARD)
        elif act is Act.MOVE or act is Act.STAR:
            self._green_move(racing, amount, act is Act.STAR)
        else:
            out: dict[Runner, int] = {}
            for r in racing:
                lane = r.lane + (r.facing if act is Act.SWERVE_RIGHT else -r.facing)
                if 1 <= lane <= self.track.lanes:
                    self.events.append(Swerved(r.mascot, r.space, r.lane, lane))
                    r.lane = lane
                else:
                    out[r] = lane
            if out:
                self._dq(list(out), Exit.OUT_OF_BOUNDS, OutOfBoundsWay.SIDE, lanes=out)

    def _green_move(self, racing: list[Runner], amount: int, to_star: bool) -> None:
        finish = self.track.finish_space
        out: dict[Runner, int] = {}
        for r in racing:
            if to_star:
                target = self._star_ahead(r.space, r.facing, finish)
                if target is None:
                    self.events.append(NoEffect(r.mascot, "no star ahead"))
                    continue
                new = r.space + r.facing if r.fallen else target
            elif r.fallen:  # crawls one space
                new = r.space + (r.facing if amount > 0 else -r.facing)
            else:
                new = r.space + r.facing * amount
            new = min(new, finish)
            if new < self.edge:
                out[r] = new
            elif new != r.space:
                self.events.append(Moved(r.mascot, r.lane, r.space, new, r.fallen, to_star))
                r.space = new
        if out:
            self._dq(list(out), Exit.OUT_OF_BOUNDS, OutOfBoundsWay.BACK, spaces=out)

    # ----- places (docs/rules.md 5) --------------------------------------------------------------
    def _dq(self, group: list[Runner], exit_: Exit, why: Cause | OutOfBoundsWay,
            spaces: dict[Runner, int] | None = None, lanes: dict[Runner, int] | None = None) -> None:
        """DQ ``group`` at the same time: they take the worst open places together, each paid as the worst of
        them. ``spaces``/``lanes``: where a mascot left the track, if not its own space or lane."""
        for r in group:
            r.status, r.exit = DQ, exit_
            m = r.mascot
            if isinstance(why, Cause):
                self.events.append(KnockedOut(m, why))
            else:
                self.events.append(OutOfBounds(m, why, (lanes or {}).get(r, r.lane), (spaces or {}).get(r, r.space)))
        paid = self.open[-1]
        del self.open[-len(group):]
        for r in group:
            r.place = paid
            self.events.append(Placed(r.mascot, paid, exit_, len(group) > 1))
        self._check_end()

    def _finish(self, r: Runner) -> None:
        r.status, r.exit = FINISHED, Exit.CROSSED
        r.place = self.open.pop(0)
        self.events.append(Finished(r.mascot))
        self.events.append(Placed(r.mascot, r.place, Exit.CROSSED, False))
        self._check_end()

    def _check_end(self) -> None:
        """End the race once enough mascots are finished or DQ; the rest take the remaining places by how far
        ahead they are."""
        racing = [r for r in self.runners if r.status is RACING]
        if racing and len(self.runners) - len(racing) < self.track.finishers_to_end:
            return
        for r in sorted(racing, key=behind):
            r.status, r.exit, r.place = FINISHED, Exit.LAST_STANDING, self.open.pop(0)
            self.events.append(Placed(r.mascot, r.place, Exit.LAST_STANDING, False))
        self.over = True
        self.events.append(RaceEnded(tuple((r.mascot, r.place) for r in self.runners)))


def behind(r: Runner) -> int:
    """Sort key: the mascot furthest ahead first."""
    return -r.space
