"""Many races at once in numpy: the fast core behind the odds (docs/rules.md sections 3-5).

A :class:`Batch` holds ``n`` races in lockstep, one row per race and one column per mascot (``MASCOTS`` order):
arrays of shape ``(n, 4)`` for lane, space, fallen, facing, status, paid place, exit and DQ group size, plus
the open podium places ``lo..hi`` per race. All races of a batch share the pass number, the reveals made in
this pass and the folds (every race reshuffles after the same reveal). :func:`reveal` resolves one card per
race, each race its own card; the loop runs over reveals while every race advances together.

It must agree exactly with the pure engine :class:`companion.rules.race.Race`, which is the reference (the
tests replay random card sequences through both and compare final states). Cards are given as ids into a
:class:`CardTable`.

>>> from companion.rules import Race, Card
>>> table = CardTable.of([Card.parse("H+3"), Card.parse("A-2")])
>>> batch = Batch.from_race(Race(), 2)
>>> reveal(batch, table, np.array([0, 1]))
>>> batch.space.tolist()
[[3, 6, 3, 3], [1, 1, 1, 1]]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from companion.rules.cards import Act, Card
from companion.rules.events import Exit, Status
from companion.rules.mascots import MASCOTS
from companion.rules.race import Race
from companion.rules.track import Track

M = len(MASCOTS)
# action codes of a CardTable
NOP, RECOVER, MOVE, STAR, TURN, FALL, LEFT, RIGHT = range(8)
_ACT_CODE = {Act.RECOVER: RECOVER, Act.MOVE: MOVE, Act.STAR: STAR, Act.TURN: TURN, Act.FALL: FALL,
             Act.SWERVE_LEFT: LEFT, Act.SWERVE_RIGHT: RIGHT}
GREEN = M  # "who" of a green multi card
# status and exit codes of a Batch
RACING, FINISHED, DQ = 0, 1, 2
NO_EXIT, CROSSED, LAST_STANDING, KNOCKOUT, OUT_OF_BOUNDS = range(5)
STATUS_OF = {RACING: Status.RACING, FINISHED: Status.FINISHED, DQ: Status.DQ}
EXIT_OF = {NO_EXIT: None, CROSSED: Exit.CROSSED, LAST_STANDING: Exit.LAST_STANDING, KNOCKOUT: Exit.KNOCKOUT,
           OUT_OF_BOUNDS: Exit.OUT_OF_BOUNDS}
_STATUS_CODE = {v: k for k, v in STATUS_OF.items()}
_EXIT_CODE = {v: k for k, v in EXIT_OF.items()}
_INT = np.int16


@dataclass(frozen=True, eq=False)
class CardTable:
    """Cards as arrays: ``who[c]`` is the mascot index (0..3) or GREEN, ``act[c, k]``/``amt[c, k]`` the k-th
    action code and signed move amount (NOP pads shorter cards). Shapes ``(C,)`` and ``(C, A)``."""

    cards: tuple[Card, ...]
    who: np.ndarray
    act: np.ndarray
    amt: np.ndarray

    @classmethod
    def of(cls, cards: Sequence[Card]) -> "CardTable":
        """Encode ``cards``; card id ``i`` is ``cards[i]``. Raises ValueError for an empty list."""
        if not cards:
            raise ValueError("a card table needs at least one card")
        width = max(len(c.actions) for c in cards)
        who = np.array([GREEN if c.who is None else MASCOTS.index(c.who) for c in cards], dtype=_INT)
        act = np.zeros((len(cards), width), dtype=_INT)
        amt = np.zeros((len(cards), width), dtype=_INT)
        for i, c in enumerate(cards):
            for k, a in enumerate(c.actions):
                act[i, k] = _ACT_CODE[a.act]
                amt[i, k] = a.amount
        return cls(tuple(cards), who, act, amt)


@dataclass(frozen=True, eq=False)
class Geometry:
    """Track figures as lookup tables. ``star_fwd[s]`` is the nearest star above space ``s`` up to the last
    space (0: none), ``star_green[s]`` the same up to the finish-line space (green cards never finish), and
    ``star_back[f][s]`` the nearest star below ``s`` still on the track after ``f`` folds."""

    track: Track
    edges: tuple[int, ...]
    star_fwd: np.ndarray
    star_green: np.ndarray
    star_back: np.ndarray

    @property
    def per_pass(self) -> int:
        return self.track.reveals_per_pass

    @property
    def folds(self) -> int:
        return len(self.track.fold_lines)


@functools.lru_cache(maxsize=8)
def geometry(track: Track) -> Geometry:
    """The lookup tables of ``track`` (cached per track)."""
    size = track.spaces + 2
    stars = sorted(track.stars)
    edges = tuple(track.back_edge(f) for f in range(len(track.fold_lines) + 1))

    def fwd(limit: int) -> np.ndarray:
        return np.array([min([t for t in stars if s < t <= limit], default=0) for s in range(size)], dtype=_INT)

    back = np.array([[max([t for t in stars if e <= t < s], default=0) for s in range(size)] for e in edges],
                    dtype=_INT)
    return Geometry(track, edges, fwd(track.spaces), fwd(track.finish_space), back)


class Batch:
    """``n`` races in lockstep (see the module docstring). Arrays are public for reading; change them only
    through :func:`reveal` and :meth:`force_end`."""

    def __init__(self, geo: Geometry, lane, space, fallen, facing, status, place, exit_, group, lo, hi,
                 folds: int, pass_no: int, revealed: int):
        self.geo = geo
        self.lane, self.space, self.fallen, self.facing = lane, space, fallen, facing
        self.status, self.place, self.exit, self.group = status, place, exit_, group
        self.lo, self.hi = lo, hi
        self.folds, self.pass_no, self.revealed = folds, pass_no, revealed

    @classmethod
    def from_race(cls, race: Race, n: int) -> "Batch":
        """``n`` copies of the current state of ``race`` (its track, folds, pass and reveals so far)."""
        geo = geometry(race.track)
        st = race.state
        rows = st.mascots

        def col(values, dtype=_INT) -> np.ndarray:
            return np.tile(np.array(values, dtype=dtype), (n, 1))

        finished = sum(s.status is Status.FINISHED for s in rows)
        dq = [s for s in rows if s.status is Status.DQ]
        # a DQ group of k paid as p took places p-k+1..p: its size is how many DQs share that paid place
        group = [1 if s.status is not Status.DQ else sum(d.place == s.place for d in dq) for s in rows]
        return cls(geo, col([s.lane for s in rows]), col([s.space for s in rows]),
                   col([s.fallen for s in rows], bool), col([1 if s.facing.value == "forward" else -1 for s in rows]),
                   col([_STATUS_CODE[s.status] for s in rows]), col([s.place or 0 for s in rows]),
                   col([_EXIT_CODE[s.exit] for s in rows]), col(group),
                   np.full(n, 1 + finished, dtype=_INT), np.full(n, M - len(dq), dtype=_INT),
                   st.folds, st.pass_no, st.revealed)

    def __len__(self) -> int:
        return len(self.lo)

    @property
    def edge(self) -> int:
        """The first space still on the track (docs/rules.md 4)."""
        return self.geo.edges[self.folds]

    def running(self) -> np.ndarray:
        """Bool ``(n,)``: the races not yet over (some mascot still racing)."""
        return _any(self.status == RACING)

    def take(self, rows: np.ndarray) -> "Batch":
        """A new batch of the races ``rows`` (indices or a bool mask), in that order."""
        if rows.dtype == bool:
            rows = np.flatnonzero(rows)
        return Batch(self.geo, *(a.take(rows, axis=0) for a in (self.lane, self.space, self.fallen, self.facing,
                                                              self.status, self.place, self.exit, self.group,
                                                              self.lo, self.hi)),
                     self.folds, self.pass_no, self.revealed)

    def force_end(self) -> int:
        """End every race still running as if it had ended now: racing mascots take the open places by how
        far ahead they are (docs/rules.md 5). Used for races cut off after a pass limit; returns how many."""
        ix = np.flatnonzero(self.running())
        _check_end(self, ix, force=True)
        return len(ix)

    def row_state(self, i: int) -> list[tuple]:
        """Race ``i`` as one tuple per mascot ``(status, place, exit, lane, space, fallen, facing)`` with
        engine enums; lane/space/fallen/facing are None unless racing (for comparing with the pure engine)."""
        out = []
        for j in range(M):
            st = int(self.status[i, j])
            racing = st == RACING
            out.append((STATUS_OF[st], int(self.place[i, j]) or None, EXIT_OF[int(self.exit[i, j])],
                        int(self.lane[i, j]) if racing else None, int(self.space[i, j]) if racing else None,
                        bool(self.fallen[i, j]) if racing else None, int(self.facing[i, j]) if racing else None))
        return out


def race_row_state(race: Race) -> list[tuple]:
    """The pure engine's state in the form of :meth:`Batch.row_state`."""
    out = []
    for s in race.state.mascots:
        racing = s.status is Status.RACING
        out.append((s.status, s.place, s.exit, s.lane if racing else None, s.space if racing else None,
                    s.fallen if racing else None, (1 if s.facing.value == "forward" else -1) if racing else None))
    return out


def play(batch: Batch, table: CardTable, seq: np.ndarray) -> None:
    """Reveal ``seq[:, t]`` for t = 0, 1, ... (shape ``(n, k)`` card ids), one column per reveal."""
    for t in range(seq.shape[1]):
        reveal(batch, table, seq[:, t])


# The steps below work on index subsets ``ix`` of the races (and ``w``, the mover of each). numpy's general
# fancy indexing is slow on ``(n, 4)`` arrays, so rows are read with ``take``, written through a view that
# packs a race's 4 mascots into one word, single cells are read and written through the flat index
# ``ix * 4 + w``, and per-race reductions use the packed words too (measured 4-10x faster).
assert M == 4, "the packed-row helpers below assume 4 mascots"
_WIDE = {np.dtype(_INT): np.int64, np.dtype(bool): np.uint32}
_LOWER = np.tri(M, M, -1, dtype=bool).T  # _LOWER[i, j]: i < j


def _rows(a: np.ndarray, ix: np.ndarray) -> np.ndarray:
    return a.take(ix, axis=0)


def _set_rows(a: np.ndarray, ix: np.ndarray, values: np.ndarray) -> None:
    wide = _WIDE[a.dtype]
    a.view(wide).ravel()[ix] = np.ascontiguousarray(values, dtype=a.dtype).view(wide).ravel()


def _get(a: np.ndarray, cell: np.ndarray) -> np.ndarray:
    return a.ravel().take(cell)


def _put(a: np.ndarray, cell: np.ndarray, values) -> None:
    a.ravel()[cell] = values


def _any(mask: np.ndarray) -> np.ndarray:
    """Row-wise any of a bool ``(k, 4)`` mask, shape ``(k,)``."""
    return np.ascontiguousarray(mask).view(np.uint32).ravel() != 0


def _count(mask: np.ndarray) -> np.ndarray:
    """Row-wise count of a bool ``(k, 4)`` mask: the byte sum of each packed 32-bit word."""
    return ((np.ascontiguousarray(mask).view(np.uint32).ravel() * np.uint32(0x01010101)) >> 24).astype(_INT)


def reveal(b: Batch, table: CardTable, cards: np.ndarray) -> None:
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
                _SINGLE[code](b, ix.compress(sel), w.compress(sel), m.compress(sel))
        ix = green_rows.compress(act.take(green_rows) != NOP)
        if len(ix):
            ix = ix.compress(_any(_rows(b.status, ix) == RACING))
            a, m = act.take(ix), amt.take(ix)
            for code in np.flatnonzero(np.bincount(a, minlength=8)):
                sel = a == code
                _GREEN[code](b, ix.compress(sel), m.compress(sel))
    if b.revealed >= b.geo.per_pass:
        _end_pass(b)


# ----- podium (docs/rules.md 5) --------------------------------------------------------------------------------
def _dq(b: Batch, ix: np.ndarray, mask: np.ndarray, exit_code: int) -> None:
    """DQ ``mask[r]`` (bool ``(len(ix), 4)``) of race ``ix[r]`` at the same time: they take the worst open
    places together, each paid as the worst."""
    k = _count(mask)
    rows = k > 0
    if not rows.all():
        ix, mask, k = ix.compress(rows), mask.compress(rows, axis=0), k.compress(rows)
    if not len(ix):
        return
    paid = b.hi.take(ix)
    _set_rows(b.place, ix, np.where(mask, paid[:, None], _rows(b.place, ix)))
    _set_rows(b.status, ix, np.where(mask, DQ, _rows(b.status, ix)))
    _set_rows(b.exit, ix, np.where(mask, exit_code, _rows(b.exit, ix)))
    _set_rows(b.group, ix, np.where(mask, k[:, None], _rows(b.group, ix)))
    b.hi[ix] = paid - k
    _check_end(b, ix)


def _dq_one(b: Batch, ix: np.ndarray, w: np.ndarray, exit_code: int) -> None:
    if len(ix):
        mask = np.zeros((len(ix), M), dtype=bool)
        _put(mask, np.arange(len(ix)) * M + w, True)
        _dq(b, ix, mask, exit_code)


def _finish(b: Batch, ix: np.ndarray, w: np.ndarray) -> None:
    """Mascot ``w`` of race ``ix`` crossed the line: the best open place."""
    if not len(ix):
        return
    cell = ix * M + w
    lo = b.lo.take(ix)
    _put(b.place, cell, lo)
    b.lo[ix] = lo + 1
    _put(b.status, cell, FINISHED)
    _put(b.exit, cell, CROSSED)
    _put(b.group, cell, 1)
    _check_end(b, ix)


def _check_end(b: Batch, ix: np.ndarray, force: bool = False) -> None:
    """End races with enough mascots finished or DQ (every race of ``ix`` with ``force``); the racing
    mascots take the open places by space, ties in mascot order (as the pure engine's stable sort)."""
    nr = b.hi.take(ix) - b.lo.take(ix) + 1  # the open places: one per racing mascot
    end = nr > 0
    if not force:
        end &= M - nr >= b.geo.track.finishers_to_end
    if not end.any():
        return
    ix, nr = ix.compress(end), nr.compress(end)
    racing = _rows(b.status, ix) == RACING
    sp = np.where(racing, _rows(b.space, ix), -1)
    ahead = (sp[:, :, None] > sp[:, None, :]) | ((sp[:, :, None] == sp[:, None, :]) & _LOWER)
    rank = (ahead & racing[:, :, None]).sum(axis=1)  # racing mascots ahead of each
    lo = b.lo.take(ix)
    _set_rows(b.place, ix, np.where(racing, lo[:, None] + rank, _rows(b.place, ix)))
    _set_rows(b.status, ix, np.where(racing, FINISHED, _rows(b.status, ix)))
    _set_rows(b.exit, ix, np.where(racing, LAST_STANDING, _rows(b.exit, ix)))
    _set_rows(b.group, ix, np.where(racing, 1, _rows(b.group, ix)))
    b.lo[ix] = lo + nr


def _end_pass(b: Batch) -> None:
    """After the last reveal of a pass: fold, DQ racing mascots under the mat together, reshuffle."""
    if b.folds < b.geo.folds:
        b.folds += 1
        under = (b.status == RACING) & (b.space < b.edge)
        ix = np.flatnonzero(_any(under))
        if len(ix):
            _dq(b, ix, _rows(under, ix), OUT_OF_BOUNDS)
    b.pass_no += 1
    b.revealed = 0


# ----- one mascot (docs/rules.md 3) ----------------------------------------------------------------------------
def _collide(b: Batch, ix: np.ndarray, w: np.ndarray) -> None:
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


def _walk(b: Batch, ix: np.ndarray, w: np.ndarray, d: np.ndarray, steps: np.ndarray) -> None:
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


def _s_recover(b: Batch, ix, w, amt) -> None:
    cell = ix * M + w
    _put(b.fallen, cell, False)
    _put(b.facing, cell, 1)


def _s_turn(b: Batch, ix, w, amt) -> None:
    cell = ix * M + w
    _put(b.facing, cell, -_get(b.facing, cell))


def _s_fall(b: Batch, ix, w, amt) -> None:
    cell = ix * M + w
    was = _get(b.fallen, cell)
    _put(b.fallen, cell, True)
    _dq_one(b, ix.compress(was), w.compress(was), KNOCKOUT)


def _s_move(b: Batch, ix, w, amt) -> None:
    cell = ix * M + w
    d = _get(b.facing, cell) * np.sign(amt).astype(_INT)
    _walk(b, ix, w, d, np.where(_get(b.fallen, cell), 1, np.abs(amt)).astype(_INT))


def _s_star(b: Batch, ix, w, amt) -> None:
    cell = ix * M + w
    space = _get(b.space, cell)
    facing = _get(b.facing, cell)
    target = np.where(facing > 0, b.geo.star_fwd.take(space), b.geo.star_back[b.folds].take(space))
    # no star ahead: no move (0 steps); a fallen mascot crawls 1 toward it
    steps = np.where(target > 0, np.where(_get(b.fallen, cell), 1, np.abs(target - space)), 0).astype(_INT)
    _walk(b, ix, w, facing, steps)


def _s_swerve(sign: int):
    def swerve(b: Batch, ix, w, amt) -> None:
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


def _nop(*_args) -> None:
    pass


_SINGLE = {NOP: _nop, RECOVER: _s_recover, MOVE: _s_move, STAR: _s_star, TURN: _s_turn, FALL: _s_fall,
           LEFT: _s_swerve(-1), RIGHT: _s_swerve(1)}


# ----- green multi cards: everyone at once, no collisions, no finishing (docs/rules.md 3) ------------------------
def _g_recover(b: Batch, ix, amt) -> None:
    active = _rows(b.status, ix) == RACING
    _set_rows(b.fallen, ix, _rows(b.fallen, ix) & ~active)
    _set_rows(b.facing, ix, np.where(active, 1, _rows(b.facing, ix)))


def _g_turn(b: Batch, ix, amt) -> None:
    active = _rows(b.status, ix) == RACING
    facing = _rows(b.facing, ix)
    _set_rows(b.facing, ix, np.where(active, -facing, facing))


def _g_fall(b: Batch, ix, amt) -> None:
    active = _rows(b.status, ix) == RACING
    fallen = _rows(b.fallen, ix)
    _set_rows(b.fallen, ix, fallen | active)
    _dq(b, ix, active & fallen, KNOCKOUT)


def _g_step(b: Batch, ix: np.ndarray, space: np.ndarray, active: np.ndarray, new: np.ndarray) -> None:
    new = np.minimum(new, b.geo.track.finish_space)  # green cards stop on the finish-line space
    out = active & (new < b.edge)
    _set_rows(b.space, ix, np.where(active & ~out, new, space))
    if out.any():
        _dq(b, ix, out, OUT_OF_BOUNDS)


def _g_move(b: Batch, ix, amt) -> None:
    active = _rows(b.status, ix) == RACING
    space = _rows(b.space, ix)
    d = _rows(b.facing, ix) * np.sign(amt).astype(_INT)[:, None]
    steps = np.where(_rows(b.fallen, ix), 1, np.abs(amt)[:, None])
    _g_step(b, ix, space, active, space + d * steps)


def _g_star(b: Batch, ix, amt) -> None:
    space = _rows(b.space, ix)
    facing = _rows(b.facing, ix)
    target = np.where(facing > 0, b.geo.star_green.take(space), b.geo.star_back[b.folds].take(space))
    active = (_rows(b.status, ix) == RACING) & (target > 0)
    steps = np.where(_rows(b.fallen, ix), 1, np.abs(target - space))
    _g_step(b, ix, space, active, space + facing * steps)


def _g_swerve(sign: int):
    def swerve(b: Batch, ix, amt) -> None:
        active = _rows(b.status, ix) == RACING
        lane = _rows(b.lane, ix)
        new = lane + sign * _rows(b.facing, ix)
        out = active & ((new < 1) | (new > b.geo.track.lanes))
        _set_rows(b.lane, ix, np.where(active & ~out, new, lane))
        if out.any():
            _dq(b, ix, out, OUT_OF_BOUNDS)
    return swerve


_GREEN = {NOP: _nop, RECOVER: _g_recover, MOVE: _g_move, STAR: _g_star, TURN: _g_turn, FALL: _g_fall,
          LEFT: _g_swerve(-1), RIGHT: _g_swerve(1)}
