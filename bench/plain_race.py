"""A plain, straightforward implementation of the race rules (docs/rules.md sections 3-5), for comparison only.

One small object per mascot, the rules written out as directly as they read, no events and no undo: what
someone would write in an afternoon. ``bench/engine_bench.py`` plays the same races through it and through
:class:`companion.rules.race.Race`, checks that both give the same placings, and prints the engine's speed as
a ratio of this one's. The app never uses it.
"""

from __future__ import annotations

from companion.rules.cards import Act, Card
from companion.rules.mascots import MASCOTS
from companion.rules.track import Track

RACING, FINISHED, DQ = "racing", "finished", "dq"


class Runner:
    """One mascot on the track."""

    __slots__ = ("lane", "space", "fallen", "facing", "status", "place")

    def __init__(self, lane: int, space: int):
        self.lane, self.space, self.fallen, self.facing, self.status, self.place = lane, space, False, 1, RACING, 0


class PlainRace:
    """Push cards until ``over``; ``placings()`` gives the paid place per mascot value (``"hurley": 1``)."""

    def __init__(self, track: Track):
        self.track = track
        lanes = dict(track.start_lanes)
        self.runners = [Runner(lanes[m], track.start_space) for m in MASCOTS]
        self.open = list(range(1, len(MASCOTS) + 1))
        self.folds = 0
        self.edge = 1
        self.revealed = 0
        self.over = False

    def placings(self) -> dict[str, int]:
        return {m.value: r.place for m, r in zip(MASCOTS, self.runners) if r.place}

    def push(self, card: Card) -> None:
        self.revealed += 1
        if card.who is None:
            self.green(card)
        else:
            self.single(self.runners[MASCOTS.index(card.who)], card)
        if not self.over and self.revealed == self.track.reveals_per_pass:
            self.end_pass()

    # ----- one mascot -------------------------------------------------------------------------------
    def single(self, runner: Runner, card: Card) -> None:
        for act, amount in card.actions:
            if runner.status != RACING or self.over:
                return
            if act is Act.MOVE:
                direction = runner.facing if amount > 0 else -runner.facing
                self.walk(runner, direction, 1 if runner.fallen else abs(amount))
            elif act is Act.STAR:
                target = self.star_ahead(runner.space, runner.facing, self.track.spaces)
                if target is not None:
                    self.walk(runner, runner.facing, 1 if runner.fallen else abs(target - runner.space))
            elif act is Act.RECOVER:
                runner.fallen, runner.facing = False, 1
            elif act is Act.TURN:
                runner.facing = -runner.facing
            elif act is Act.FALL:
                if runner.fallen:
                    self.disqualify([runner])
                else:
                    runner.fallen = True
            else:
                lane = runner.lane + (1 if act is Act.SWERVE_RIGHT else -1) * runner.facing
                if lane < 1 or lane > self.track.lanes:
                    self.disqualify([runner])
                    return
                runner.lane = lane
                self.collide(runner)

    def walk(self, runner: Runner, direction: int, steps: int) -> None:
        for _ in range(steps):
            space = runner.space + direction
            if space < self.edge:
                self.disqualify([runner])
                return
            runner.space = space
            if space > self.track.finish_space:
                runner.status = FINISHED
                runner.place = self.open.pop(0)
                self.check_end()
                return
            self.collide(runner)
            if self.over:
                return

    def collide(self, mover: Runner) -> None:
        knocked = []
        for other in self.runners:
            if other is not mover and other.status == RACING and (other.lane, other.space) == (mover.lane, mover.space):
                if other.fallen:
                    knocked.append(other)
                else:
                    other.fallen = True
        if knocked:
            self.disqualify(knocked)

    def star_ahead(self, space: int, direction: int, limit: int) -> int | None:
        if direction > 0:
            ahead = [s for s in self.track.stars if space < s <= limit]
            return min(ahead) if ahead else None
        behind = [s for s in self.track.stars if self.edge <= s < space]
        return max(behind) if behind else None

    # ----- green multi cards ------------------------------------------------------------------------
    def green(self, card: Card) -> None:
        finish = self.track.finish_space
        for act, amount in card.actions:
            if self.over:
                return
            active = [r for r in self.runners if r.status == RACING]
            out = []
            for runner in active:
                if act is Act.RECOVER:
                    runner.fallen, runner.facing = False, 1
                elif act is Act.TURN:
                    runner.facing = -runner.facing
                elif act is Act.FALL:
                    if runner.fallen:
                        out.append(runner)
                    else:
                        runner.fallen = True
                elif act is Act.MOVE or act is Act.STAR:
                    direction = runner.facing if act is Act.STAR or amount > 0 else -runner.facing
                    if act is Act.STAR:
                        target = self.star_ahead(runner.space, direction, finish)
                        if target is None:
                            continue
                        steps = abs(target - runner.space)
                    else:
                        steps = abs(amount)
                    space = min(finish, runner.space + direction * (1 if runner.fallen else steps))
                    if space < self.edge:
                        out.append(runner)
                    else:
                        runner.space = space
                else:
                    lane = runner.lane + (1 if act is Act.SWERVE_RIGHT else -1) * runner.facing
                    if lane < 1 or lane > self.track.lanes:
                        out.append(runner)
                    else:
                        runner.lane = lane
            if out:
                self.disqualify(out)

    # ----- places, folds ----------------------------------------------------------------------------
    def disqualify(self, group: list[Runner]) -> None:
        paid = self.open[-1]
        del self.open[-len(group):]
        for runner in group:
            runner.status, runner.place = DQ, paid
        self.check_end()

    def check_end(self) -> None:
        racing = [r for r in self.runners if r.status == RACING]
        if racing and len(self.runners) - len(racing) < self.track.finishers_to_end:
            return
        for runner in sorted(racing, key=lambda r: -r.space):
            runner.status, runner.place = FINISHED, self.open.pop(0)
        self.over = True

    def end_pass(self) -> None:
        if self.folds < len(self.track.fold_lines):
            self.folds += 1
            self.edge = self.track.fold_lines[self.folds - 1]
            under = [r for r in self.runners if r.status == RACING and r.space < self.edge]
            if under:
                self.disqualify(under)
        self.revealed = 0
