"""Many races at once in numpy: the fast core behind the odds (docs/rules.md sections 3-5).

:func:`reveal` resolves one card per race of a :class:`~companion.odds.batch.Batch`, each race its own card;
the loop runs over reveals while every race advances together. The arrays, the card table and the podium
steps are in :mod:`companion.odds.batch` (re-exported here).

It must agree exactly with the pure engine :class:`companion.rules.race.Race`, which is the reference (the
tests replay random card sequences through both and compare final states).

>>> from companion.rules import Race, Card
>>> table = CardTable.of([Card.parse("H+3"), Card.parse("A-2")])
>>> batch = Batch.from_race(Race(), 2)
>>> reveal(batch, table, np.array([0, 1]))
>>> batch.space.tolist()
[[3, 6, 3, 3], [1, 1, 1, 1]]
"""

from __future__ import annotations

from typing import Callable, TypeAlias

import numpy as np

from companion.odds.batch import (  # noqa: F401 - re-exported: the core's public names
    DQ, EXIT_OF, FINISHED, GREEN, LEFT, M, MOVE, NOP, RACING, RECOVER, RIGHT, STAR, STATUS_OF, TURN, FALL,
    CROSSED, KNOCKOUT, LAST_STANDING, NO_EXIT, OUT_OF_BOUNDS, Batch, BoolArray, CardTable, Geometry, IntArray,
    RowState, geometry, race_row_state,
    _INT, _any, _check_end, _count, _dq, _dq_one, _end_pass, _finish, _get, _put, _rows, _set_rows)

__all__ = [
    "play", "reveal",
    "DQ", "EXIT_OF", "FINISHED", "GREEN", "LEFT", "M", "MOVE", "NOP", "RACING", "RECOVER", "RIGHT", "STAR",
    "STATUS_OF", "TURN", "FALL", "CROSSED", "KNOCKOUT", "LAST_STANDING", "NO_EXIT", "OUT_OF_BOUNDS",
    "Batch", "BoolArray", "CardTable", "Geometry", "IntArray", "RowState", "geometry", "race_row_state",
]


def play(batch: Batch, table: CardTable, seq: IntArray) -> None:
    """Reveal ``seq[:, t]`` for t = 0, 1, ... (shape ``(n, k)`` card ids), one column per reveal."""
    for t in range(seq.shape[1]):
        reveal(batch, table, seq[:, t])

def reveal(b: Batch, table: CardTable, cards: IntArray) -> None:
    """Resolve one revealed card per race (``cards``: shape ``(n,)`` ids into ``table``), then the end of
    the pass after its last reveal: fold, DQ under the mat, reshuffle (docs/rules.md 3-4). Races already over
    are left unchanged."""
    b.revealed += 1
    who = table.who.take(cards)
    green = who == GREEN
    single_rows = np.flatnonzero(~green)
    green_rows = np.flatnonzero(green)
    for k in range(table.act.shape[1]):
        act = table.act[:, k].take(cards)
        amt = table.amt[:, k].take(cards)
        ix = single_rows.compress(act.take(single_rows) != NOP)
        if len(ix):
            w = who.take(ix)
            ok = _get(b.status, ix * M + w) == RACING  # the rest of a card is ignored once its mascot is out
            ix, w = ix.compress(ok), w.compress(ok)
            a, m = act.take(ix), amt.take(ix)
            for code in np.flatnonzero(np.bincount(a, minlength=8)):
                sel = a == code
                _SINGLE[int(code)](b, ix.compress(sel), w.compress(sel), m.compress(sel))
        ix = green_rows.compress(act.take(green_rows) != NOP)
        if len(ix):
            ix = ix.compress(_any(_rows(b.status, ix) == RACING))
            a, m = act.take(ix), amt.take(ix)
            for code in np.flatnonzero(np.bincount(a, minlength=8)):
                sel = a == code
                _GREEN[int(code)](b, ix.compress(sel), m.compress(sel))
    if b.revealed >= b.geo.per_pass:
        _end_pass(b)

SingleStep: TypeAlias = Callable[[Batch, IntArray, IntArray, IntArray], None]
"""One action code of a single-mascot card: ``(batch, races ix, mover w, amount)``."""
GreenStep: TypeAlias = Callable[[Batch, IntArray, IntArray], None]
"""One action code of a green multi card: ``(batch, races ix, amount)``."""


# ----- one mascot (docs/rules.md 3) ----------------------------------------------------------------------------
def _collide(b: Batch, ix: IntArray, w: IntArray) -> None:
    """Mascot ``w`` entered its space in race ``ix``: every other racing mascot there falls or is knocked out."""
    cell = ix * M + w
    lane = _get(b.lane, cell)
    space = _get(b.space, cell)
    hit = ((_rows(b.status, ix) == RACING) & (_rows(b.lane, ix) == lane[:, None])
           & (_rows(b.space, ix) == space[:, None]))
    _put(hit, np.arange(len(ix)) * M + w, False)
    rows = _any(hit)
    if not rows.any():
        return
    ix, hit = ix.compress(rows), hit.compress(rows, axis=0)
    fallen = _rows(b.fallen, ix)
    _set_rows(b.fallen, ix, fallen | hit)
    knocked = hit & fallen
    if knocked.any():
        _dq(b, ix, knocked, KNOCKOUT)


def _walk(b: Batch, ix: IntArray, w: IntArray, d: IntArray, steps: IntArray) -> None:
    """Step ``steps`` spaces in direction ``d`` one at a time: collisions on the way, then off the back or
    across the line (docs/rules.md 3). The other mascots do not move during a walk and the mover never enters a
    space twice, so the steps that collide are found up front and the walk jumps from one to the next."""
    keep = steps > 0
    if not keep.all():
        ix, w, d, steps = ix.compress(keep), w.compress(keep), d.compress(keep), steps.compress(keep)
    if not len(ix):
        return
    cell = ix * M + w
    own = np.arange(len(ix)) * M + w
    space = _get(b.space, cell)
    lanes = _rows(b.lane, ix)
    others = (_rows(b.status, ix) == RACING) & (lanes == _get(b.lane, cell)[:, None])
    _put(others, own, False)
    reach = (_rows(b.space, ix) - space[:, None]) * d[:, None]  # steps to reach each other mascot's space
    pending = others & (reach >= 1) & (reach <= steps[:, None])
    walking = np.ones(len(ix), dtype=bool)
    while True:
        hit_rows = np.flatnonzero(_any(pending))
        if not len(hit_rows):
            break
        near = np.where(pending.take(hit_rows, axis=0), reach.take(hit_rows, axis=0), 1 << 14)
        nearest = np.minimum(np.minimum(near[:, 0], near[:, 1]), np.minimum(near[:, 2], near[:, 3]))
        hix, hw = ix.take(hit_rows), w.take(hit_rows)
        _put(b.space, cell.take(hit_rows), space.take(hit_rows) + d.take(hit_rows) * nearest)
        pending[hit_rows] &= reach.take(hit_rows, axis=0) != nearest[:, None]
        _collide(b, hix, hw)
        ended = _get(b.status, cell.take(hit_rows)) != RACING  # a collision ended the race: stop there
        if ended.any():
            stop = hit_rows.compress(ended)
            walking[stop] = False
            pending[stop] = False
    if not walking.all():
        ix, w, d, steps, space, cell = (x.compress(walking) for x in (ix, w, d, steps, space, cell))
    end = space + d * steps
    edge, finish = b.edge, b.geo.track.finish_space
    _put(b.space, cell, np.clip(end, edge, finish + 1))
    out = end < edge
    if out.any():
        _dq_one(b, ix.compress(out), w.compress(out), OUT_OF_BOUNDS)
    crossed = end > finish
    if crossed.any():
        _finish(b, ix.compress(crossed), w.compress(crossed))


def _s_recover(b: Batch, ix: IntArray, w: IntArray, amt: IntArray) -> None:
    cell = ix * M + w
    _put(b.fallen, cell, False)
    _put(b.facing, cell, 1)


def _s_turn(b: Batch, ix: IntArray, w: IntArray, amt: IntArray) -> None:
    cell = ix * M + w
    _put(b.facing, cell, -_get(b.facing, cell))


def _s_fall(b: Batch, ix: IntArray, w: IntArray, amt: IntArray) -> None:
    cell = ix * M + w
    was = _get(b.fallen, cell)
    _put(b.fallen, cell, True)
    _dq_one(b, ix.compress(was), w.compress(was), KNOCKOUT)


def _s_move(b: Batch, ix: IntArray, w: IntArray, amt: IntArray) -> None:
    cell = ix * M + w
    d = _get(b.facing, cell) * np.sign(amt).astype(_INT)
    _walk(b, ix, w, d, np.where(_get(b.fallen, cell), 1, np.abs(amt)).astype(_INT))


def _s_star(b: Batch, ix: IntArray, w: IntArray, amt: IntArray) -> None:
    cell = ix * M + w
    space = _get(b.space, cell)
    facing = _get(b.facing, cell)
    target = np.where(facing > 0, b.geo.star_fwd.take(space), b.geo.star_back[b.folds].take(space))
    # no star ahead: no move (0 steps); a fallen mascot crawls 1 toward it
    steps = np.where(target > 0, np.where(_get(b.fallen, cell), 1, np.abs(target - space)), 0).astype(_INT)
    _walk(b, ix, w, facing, steps)


def _s_swerve(sign: int) -> SingleStep:
    def swerve(b: Batch, ix: IntArray, w: IntArray, amt: IntArray) -> None:
        cell = ix * M + w
        new = _get(b.lane, cell) + sign * _get(b.facing, cell)
        out = (new < 1) | (new > b.geo.track.lanes)
        if out.any():
            _dq_one(b, ix.compress(out), w.compress(out), OUT_OF_BOUNDS)
            ok = ~out
            ix, w, cell, new = ix.compress(ok), w.compress(ok), cell.compress(ok), new.compress(ok)
        _put(b.lane, cell, new)
        _collide(b, ix, w)
    return swerve


def _nop(*_args: object) -> None:
    pass


_SINGLE: dict[int, SingleStep] = {
    NOP: _nop, RECOVER: _s_recover, MOVE: _s_move, STAR: _s_star, TURN: _s_turn, FALL: _s_fall,
    LEFT: _s_swerve(-1), RIGHT: _s_swerve(1)}


# ----- green multi cards: everyone at once, no collisions, no finishing (docs/rules.md 3) ------------------------
def _g_recover(b: Batch, ix: IntArray, amt: IntArray) -> None:
    active = _rows(b.status, ix) == RACING
    _set_rows(b.fallen, ix, _rows(b.fallen, ix) & ~active)
    _set_rows(b.facing, ix, np.where(active, 1, _rows(b.facing, ix)))


def _g_turn(b: Batch, ix: IntArray, amt: IntArray) -> None:
    active = _rows(b.status, ix) == RACING
    facing = _rows(b.facing, ix)
    _set_rows(b.facing, ix, np.where(active, -facing, facing))


def _g_fall(b: Batch, ix: IntArray, amt: IntArray) -> None:
    active = _rows(b.status, ix) == RACING
    fallen = _rows(b.fallen, ix)
    _set_rows(b.fallen, ix, fallen | active)
    _dq(b, ix, active & fallen, KNOCKOUT)


def _g_step(b: Batch, ix: IntArray, space: IntArray, active: BoolArray, new: IntArray) -> None:
    new = np.minimum(new, b.geo.track.finish_space)  # green cards stop on the finish-line space
    out = active & (new < b.edge)
    _set_rows(b.space, ix, np.where(active & ~out, new, space))
    if out.any():
        _dq(b, ix, out, OUT_OF_BOUNDS)


def _g_move(b: Batch, ix: IntArray, amt: IntArray) -> None:
    active = _rows(b.status, ix) == RACING
    space = _rows(b.space, ix)
    d = _rows(b.facing, ix) * np.sign(amt).astype(_INT)[:, None]
    steps = np.where(_rows(b.fallen, ix), 1, np.abs(amt)[:, None])
    _g_step(b, ix, space, active, space + d * steps)


def _g_star(b: Batch, ix: IntArray, amt: IntArray) -> None:
    space = _rows(b.space, ix)
    facing = _rows(b.facing, ix)
    target = np.where(facing > 0, b.geo.star_green.take(space), b.geo.star_back[b.folds].take(space))
    active = (_rows(b.status, ix) == RACING) & (target > 0)
    steps = np.where(_rows(b.fallen, ix), 1, np.abs(target - space))
    _g_step(b, ix, space, active, space + facing * steps)


def _g_swerve(sign: int) -> GreenStep:
    def swerve(b: Batch, ix: IntArray, amt: IntArray) -> None:
        active = _rows(b.status, ix) == RACING
        lane = _rows(b.lane, ix)
        new = lane + sign * _rows(b.facing, ix)
        out = active & ((new < 1) | (new > b.geo.track.lanes))
        _set_rows(b.lane, ix, np.where(active & ~out, new, lane))
        if out.any():
            _dq(b, ix, out, OUT_OF_BOUNDS)
    return swerve


_GREEN: dict[int, GreenStep] = {
    NOP: _nop, RECOVER: _g_recover, MOVE: _g_move, STAR: _g_star, TURN: _g_turn, FALL: _g_fall,
    LEFT: _g_swerve(-1), RIGHT: _g_swerve(1)}
