"""Many races at once in numpy: the fast core behind the odds (RULES.md sections 3-5).

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
        """The first space still on the track (RULES.md 4)."""
        return self.geo.edges[self.folds]

    def running(self) -> np.ndarray:
        """Bool ``(n,)``: the races not yet over (some mascot still racing)."""
        return (self.status == RACING).any(axis=1)

    def take(self, rows: np.ndarray) -> "Batch":
        """A new batch of the races ``rows`` (indices or a bool mask), in that order."""
        return Batch(self.geo, self.lane[rows], self.space[rows], self.fallen[rows], self.facing[rows],
                     self.status[rows], self.place[rows], self.exit[rows], self.group[rows], self.lo[rows],
                     self.hi[rows], self.folds, self.pass_no, self.revealed)

    def force_end(self) -> int:
        """End every race still running as if it had ended now: racing mascots take the open places by how
        far ahead they are (RULES.md 5). Used for races cut off after a pass limit; returns how many."""
        ix = np.nonzero(self.running())[0]
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


def reveal(b: Batch, table: CardTable, cards: np.ndarray) -> None:
    """Resolve one revealed card per race (``cards``: shape ``(n,)`` ids into ``table``), then the end of
    the pass after its last reveal: fold, DQ under the mat, reshuffle (RULES.md 3-4). Races already over
    are left unchanged."""
    b.revealed += 1
    who = table.who[cards]
    green = who == GREEN
    for k in range(table.act.shape[1]):
        act = table.act[cards, k]
        amt = table.amt[cards, k]
        live = act != NOP
        single = live & ~green
        if single.any():
            ix = np.nonzero(single)[0]
            w = who[ix]
            ok = b.status[ix, w] == RACING  # the rest of a card is ignored once its mascot is out
            ix, w = ix[ok], w[ok]
            a, m = act[ix], amt[ix]
            for code in np.nonzero(np.bincount(a, minlength=8))[0]:
                sel = a == code
                _SINGLE[code](b, ix[sel], w[sel], m[sel])
        multi = live & green
        if multi.any():
            ix = np.nonzero(multi)[0]
            ix = ix[(b.status[ix] == RACING).any(axis=1)]
            a, m = act[ix], amt[ix]
            for code in np.nonzero(np.bincount(a, minlength=8))[0]:
                sel = a == code
                _GREEN[code](b, ix[sel], m[sel])
    if b.revealed >= b.geo.per_pass:
        _end_pass(b)


# ----- podium (RULES.md 5) --------------------------------------------------------------------------------
_LOWER = np.tri(M, M, -1, dtype=bool).T  # _LOWER[i, j]: i < j


def _dq(b: Batch, ix: np.ndarray, mask: np.ndarray, exit_code: int) -> None:
    """DQ ``mask[r]`` (bool ``(len(ix), 4)``) of race ``ix[r]`` at the same time: they take the worst open
    places together, each paid as the worst."""
    k = mask.sum(axis=1)
    rows = k > 0
    if not rows.all():
        ix, mask, k = ix[rows], mask[rows], k[rows]
    if not len(ix):
        return
    paid = b.hi[ix]
    b.place[ix] = np.where(mask, paid[:, None], b.place[ix])
    b.status[ix] = np.where(mask, DQ, b.status[ix])
    b.exit[ix] = np.where(mask, exit_code, b.exit[ix])
    b.group[ix] = np.where(mask, k[:, None], b.group[ix])
    b.hi[ix] = paid - k
    _check_end(b, ix)


def _dq_one(b: Batch, ix: np.ndarray, w: np.ndarray, exit_code: int) -> None:
    if len(ix):
        mask = np.zeros((len(ix), M), dtype=bool)
        mask[np.arange(len(ix)), w] = True
        _dq(b, ix, mask, exit_code)


def _finish(b: Batch, ix: np.ndarray, w: np.ndarray) -> None:
    """Mascot ``w`` of race ``ix`` crossed the line: the best open place."""
    if not len(ix):
        return
    b.place[ix, w] = b.lo[ix]
    b.lo[ix] += 1
    b.status[ix, w] = FINISHED
    b.exit[ix, w] = CROSSED
    b.group[ix, w] = 1
    _check_end(b, ix)


def _check_end(b: Batch, ix: np.ndarray, force: bool = False) -> None:
    """End races with enough mascots finished or DQ; the rest take the open places by space, ties in
    mascot order (as the pure engine's stable sort)."""
    racing = b.status[ix] == RACING
    nr = racing.sum(axis=1)
    end = nr > 0
    if not force:
        end &= M - nr >= b.geo.track.finishers_to_end
    if not end.any():
        return
    ix, racing, nr = ix[end], racing[end], nr[end]
    sp = np.where(racing, b.space[ix], -1)
    ahead = (sp[:, :, None] > sp[:, None, :]) | ((sp[:, :, None] == sp[:, None, :]) & _LOWER)
    rank = (ahead & racing[:, :, None]).sum(axis=1)  # racing mascots ahead of each
    b.place[ix] = np.where(racing, b.lo[ix][:, None] + rank, b.place[ix])
    b.status[ix] = np.where(racing, FINISHED, b.status[ix])
    b.exit[ix] = np.where(racing, LAST_STANDING, b.exit[ix])
    b.group[ix] = np.where(racing, 1, b.group[ix])
    b.lo[ix] += nr


def _end_pass(b: Batch) -> None:
    """After the last reveal of a pass: fold, DQ racing mascots under the mat together, reshuffle."""
    if b.folds < b.geo.folds:
        b.folds += 1
        under = (b.status == RACING) & (b.space < b.edge)
        if under.any():
            ix = np.nonzero(under.any(axis=1))[0]
            _dq(b, ix, under[ix], OUT_OF_BOUNDS)
    b.pass_no += 1
    b.revealed = 0


# ----- one mascot (RULES.md 3) ----------------------------------------------------------------------------
def _collide(b: Batch, ix: np.ndarray, w: np.ndarray) -> None:
    """Mascot ``w`` entered its space in race ``ix``: every other racing mascot there falls or is knocked out."""
    lane = b.lane[ix, w]
    space = b.space[ix, w]
    hit = (b.status[ix] == RACING) & (b.lane[ix] == lane[:, None]) & (b.space[ix] == space[:, None])
    hit[np.arange(len(ix)), w] = False
    rows = hit.any(axis=1)
    if not rows.any():
        return
    ix, hit = ix[rows], hit[rows]
    fallen = b.fallen[ix]
    b.fallen[ix] = fallen | hit
    knocked = hit & fallen
    if knocked.any():
        _dq(b, ix, knocked, KNOCKOUT)


def _walk(b: Batch, ix: np.ndarray, w: np.ndarray, d: np.ndarray, steps: np.ndarray) -> None:
    """Step ``steps`` spaces in direction ``d`` one at a time: collisions on the way, then off the back or
    across the line (RULES.md 3). The other mascots do not move during a walk and the mover never enters a
    space twice, so the steps that collide are found up front and the walk jumps from one to the next."""
    keep = steps > 0
    ix, w, d, steps = ix[keep], w[keep], d[keep], steps[keep]
    if not len(ix):
        return
    rows = np.arange(len(ix))
    space = b.space[ix, w]
    lane = b.lane[ix]
    others = (b.status[ix] == RACING) & (lane == lane[rows, w][:, None])
    others[rows, w] = False
    reach = (b.space[ix] - space[:, None]) * d[:, None]  # steps to reach each other mascot's space
    pending = others & (reach >= 1) & (reach <= steps[:, None])
    walking = np.ones(len(ix), dtype=bool)
    while True:
        hit_rows = np.nonzero(pending.any(axis=1))[0]
        if not len(hit_rows):
            break
        nearest = np.where(pending[hit_rows], reach[hit_rows], 1 << 14).min(axis=1)
        hix, hw = ix[hit_rows], w[hit_rows]
        b.space[hix, hw] = space[hit_rows] + d[hit_rows] * nearest
        pending[hit_rows] &= reach[hit_rows] != nearest[:, None]
        _collide(b, hix, hw)
        ended = b.status[hix, hw] != RACING  # a collision ended the race: the walk stops there
        if ended.any():
            walking[hit_rows[ended]] = False
            pending[hit_rows[ended]] = False
    ix, w, d, steps, space = ix[walking], w[walking], d[walking], steps[walking], space[walking]
    end = space + d * steps
    edge, finish = b.edge, b.geo.track.finish_space
    b.space[ix, w] = np.clip(end, edge, finish + 1)
    out = end < edge
    _dq_one(b, ix[out], w[out], OUT_OF_BOUNDS)
    crossed = end > finish
    _finish(b, ix[crossed], w[crossed])


def _s_recover(b: Batch, ix, w, amt) -> None:
    b.fallen[ix, w] = False
    b.facing[ix, w] = 1


def _s_turn(b: Batch, ix, w, amt) -> None:
    b.facing[ix, w] = -b.facing[ix, w]


def _s_fall(b: Batch, ix, w, amt) -> None:
    was = b.fallen[ix, w]
    b.fallen[ix[~was], w[~was]] = True
    _dq_one(b, ix[was], w[was], KNOCKOUT)


def _s_move(b: Batch, ix, w, amt) -> None:
    d = b.facing[ix, w] * np.sign(amt).astype(_INT)
    _walk(b, ix, w, d, np.where(b.fallen[ix, w], 1, np.abs(amt)).astype(_INT))


def _s_star(b: Batch, ix, w, amt) -> None:
    space = b.space[ix, w]
    facing = b.facing[ix, w]
    target = np.where(facing > 0, b.geo.star_fwd[space], b.geo.star_back[b.folds][space])
    has = target > 0
    steps = np.where(b.fallen[ix, w], 1, np.abs(target - space)).astype(_INT)
    _walk(b, ix[has], w[has], facing[has], steps[has])


def _s_swerve(sign: int):
    def swerve(b: Batch, ix, w, amt) -> None:
        new = b.lane[ix, w] + sign * b.facing[ix, w]
        out = (new < 1) | (new > b.geo.track.lanes)
        _dq_one(b, ix[out], w[out], OUT_OF_BOUNDS)
        ok = ~out
        ix, w = ix[ok], w[ok]
        b.lane[ix, w] = new[ok]
        _collide(b, ix, w)
    return swerve


def _nop(*_args) -> None:
    pass


_SINGLE = {NOP: _nop, RECOVER: _s_recover, MOVE: _s_move, STAR: _s_star, TURN: _s_turn, FALL: _s_fall,
           LEFT: _s_swerve(-1), RIGHT: _s_swerve(1)}


# ----- green multi cards: everyone at once, no collisions, no finishing (RULES.md 3) ------------------------
def _g_recover(b: Batch, ix, amt) -> None:
    active = b.status[ix] == RACING
    b.fallen[ix] = b.fallen[ix] & ~active
    b.facing[ix] = np.where(active, 1, b.facing[ix])


def _g_turn(b: Batch, ix, amt) -> None:
    active = b.status[ix] == RACING
    facing = b.facing[ix]
    b.facing[ix] = np.where(active, -facing, facing)


def _g_fall(b: Batch, ix, amt) -> None:
    active = b.status[ix] == RACING
    fallen = b.fallen[ix]
    b.fallen[ix] = fallen | active
    _dq(b, ix, active & fallen, KNOCKOUT)


def _g_step(b: Batch, ix: np.ndarray, active: np.ndarray, new: np.ndarray) -> None:
    space = b.space[ix]
    new = np.minimum(new, b.geo.track.finish_space)  # green cards stop on the finish-line space
    out = active & (new < b.edge)
    b.space[ix] = np.where(active & ~out, new, space)
    _dq(b, ix, out, OUT_OF_BOUNDS)


def _g_move(b: Batch, ix, amt) -> None:
    active = b.status[ix] == RACING
    d = b.facing[ix] * np.sign(amt).astype(_INT)[:, None]
    steps = np.where(b.fallen[ix], 1, np.abs(amt)[:, None])
    _g_step(b, ix, active, b.space[ix] + d * steps)


def _g_star(b: Batch, ix, amt) -> None:
    space = b.space[ix]
    facing = b.facing[ix]
    target = np.where(facing > 0, b.geo.star_green[space], b.geo.star_back[b.folds][space])
    active = (b.status[ix] == RACING) & (target > 0)
    steps = np.where(b.fallen[ix], 1, np.abs(target - space))
    _g_step(b, ix, active, space + facing * steps)


def _g_swerve(sign: int):
    def swerve(b: Batch, ix, amt) -> None:
        active = b.status[ix] == RACING
        lane = b.lane[ix]
        new = lane + sign * b.facing[ix]
        out = active & ((new < 1) | (new > b.geo.track.lanes))
        b.lane[ix] = np.where(active & ~out, new, lane)
        _dq(b, ix, out, OUT_OF_BOUNDS)
    return swerve


_GREEN = {NOP: _nop, RECOVER: _g_recover, MOVE: _g_move, STAR: _g_star, TURN: _g_turn, FALL: _g_fall,
          LEFT: _g_swerve(-1), RIGHT: _g_swerve(1)}
