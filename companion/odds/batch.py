"""Many races at once as numpy arrays, and their podium (docs/rules.md 5): the data of the odds' fast core.

A :class:`Batch` holds ``n`` races in lockstep, one row per race and one column per mascot (``MASCOTS`` order):
arrays of shape ``(n, 4)`` for lane, space, fallen, facing, status, paid place, exit and DQ group size, plus
the open podium places ``lo..hi`` per race. All races of a batch share the pass number, the reveals made in
this pass and the folds (every race reshuffles after the same reveal). Cards are given as ids into a
:class:`CardTable`; :class:`Geometry` holds the track's lookup tables. The podium steps (finish, DQ, the end
of a race and of a pass) live here beside the arrays they fill; :mod:`companion.odds.core` resolves the cards.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Sequence, TypeAlias, TypeVar

import numpy as np
from numpy.typing import ArrayLike, DTypeLike, NDArray

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

IntArray: TypeAlias = NDArray[np.integer[Any]]
"""Integer array: race indices, mascot indices, card ids, codes, lanes, spaces, places."""
BoolArray: TypeAlias = NDArray[np.bool_]
"""Bool array: masks over races or over (race, mascot) cells."""
FloatArray: TypeAlias = NDArray[np.floating[Any]]
"""Float array: weights, counts and probabilities."""
_S = TypeVar("_S", bound=np.generic)
RowState: TypeAlias = tuple[Status, int | None, Exit | None, int | None, int | None, bool | None, int | None]
"""One mascot of :meth:`Batch.row_state`: ``(status, place, exit, lane, space, fallen, facing)``."""


@dataclass(frozen=True, eq=False)
class CardTable:
    """Cards as arrays: ``who[c]`` is the mascot index (0..3) or GREEN, ``act[c, k]``/``amt[c, k]`` the k-th
    action code and signed move amount (NOP pads shorter cards). Shapes ``(C,)`` and ``(C, A)``."""

    cards: tuple[Card, ...]
    who: IntArray
    act: IntArray
    amt: IntArray

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
    star_fwd: IntArray
    star_green: IntArray
    star_back: IntArray

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

    def fwd(limit: int) -> IntArray:
        return np.array([min([t for t in stars if s < t <= limit], default=0) for s in range(size)], dtype=_INT)

    back = np.array([[max([t for t in stars if e <= t < s], default=0) for s in range(size)] for e in edges],
                    dtype=_INT)
    return Geometry(track, edges, fwd(track.spaces), fwd(track.finish_space), back)


class Batch:
    """``n`` races in lockstep (see the module docstring). Arrays are public for reading; change them only
    through :func:`reveal` and :meth:`force_end`."""

    def __init__(self, geo: Geometry, lane: IntArray, space: IntArray, fallen: BoolArray, facing: IntArray,
                 status: IntArray, place: IntArray, exit_: IntArray, group: IntArray, lo: IntArray, hi: IntArray,
                 folds: int, pass_no: int, revealed: int) -> None:
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

        def col(values: Sequence[int | bool], dtype: DTypeLike = _INT) -> NDArray[Any]:
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

    def running(self) -> BoolArray:
        """Bool ``(n,)``: the races not yet over (some mascot still racing)."""
        return _any(self.status == RACING)

    def take(self, rows: IntArray | BoolArray) -> "Batch":
        """A new batch of the races ``rows`` (indices or a bool mask), in that order."""
        if rows.dtype == bool:
            rows = np.flatnonzero(rows)
        return Batch(self.geo, _rows(self.lane, rows), _rows(self.space, rows), _rows(self.fallen, rows),
                     _rows(self.facing, rows), _rows(self.status, rows), _rows(self.place, rows),
                     _rows(self.exit, rows), _rows(self.group, rows), _rows(self.lo, rows), _rows(self.hi, rows),
                     self.folds, self.pass_no, self.revealed)

    def force_end(self) -> int:
        """End every race still running as if it had ended now: racing mascots take the open places by how
        far ahead they are (docs/rules.md 5). Used for races cut off after a pass limit; returns how many."""
        ix = np.flatnonzero(self.running())
        _check_end(self, ix, force=True)
        return len(ix)

    def row_state(self, i: int) -> list[RowState]:
        """Race ``i`` as one tuple per mascot ``(status, place, exit, lane, space, fallen, facing)`` with
        engine enums; lane/space/fallen/facing are None unless racing (for comparing with the pure engine)."""
        out: list[RowState] = []
        for j in range(M):
            st = int(self.status[i, j])
            racing = st == RACING
            out.append((STATUS_OF[st], int(self.place[i, j]) or None, EXIT_OF[int(self.exit[i, j])],
                        int(self.lane[i, j]) if racing else None, int(self.space[i, j]) if racing else None,
                        bool(self.fallen[i, j]) if racing else None, int(self.facing[i, j]) if racing else None))
        return out


def race_row_state(race: Race) -> list[RowState]:
    """The pure engine's state in the form of :meth:`Batch.row_state`."""
    out: list[RowState] = []
    for s in race.state.mascots:
        racing = s.status is Status.RACING
        out.append((s.status, s.place, s.exit, s.lane if racing else None, s.space if racing else None,
                    s.fallen if racing else None, (1 if s.facing.value == "forward" else -1) if racing else None))
    return out



# The steps below work on index subsets ``ix`` of the races (and ``w``, the mover of each). numpy's general
# fancy indexing is slow on ``(n, 4)`` arrays, so rows are read with ``take``, written through a view that
# packs a race's 4 mascots into one word, single cells are read and written through the flat index
# ``ix * 4 + w``, and per-race reductions use the packed words too (measured 4-10x faster).
assert M == 4, "the packed-row helpers below assume 4 mascots"
_WIDE = {np.dtype(_INT): np.int64, np.dtype(bool): np.uint32}
_LOWER = np.tri(M, M, -1, dtype=bool).T  # _LOWER[i, j]: i < j


def _rows(a: NDArray[_S], ix: IntArray | BoolArray) -> NDArray[_S]:
    return a.take(ix, axis=0)


def _set_rows(a: NDArray[Any], ix: IntArray, values: ArrayLike) -> None:
    wide = _WIDE[a.dtype]
    a.view(wide).ravel()[ix] = np.ascontiguousarray(values, dtype=a.dtype).view(wide).ravel()


def _get(a: NDArray[_S], cell: IntArray) -> NDArray[_S]:
    return a.ravel().take(cell)


def _put(a: NDArray[Any], cell: IntArray, values: ArrayLike) -> None:
    a.ravel()[cell] = values


def _any(mask: BoolArray) -> BoolArray:
    """Row-wise any of a bool ``(k, 4)`` mask, shape ``(k,)``."""
    out: BoolArray = np.ascontiguousarray(mask).view(np.uint32).ravel() != 0
    return out


def _count(mask: BoolArray) -> IntArray:
    """Row-wise count of a bool ``(k, 4)`` mask: the byte sum of each packed 32-bit word."""
    return ((np.ascontiguousarray(mask).view(np.uint32).ravel() * np.uint32(0x01010101)) >> 24).astype(_INT)



# ----- podium (docs/rules.md 5) --------------------------------------------------------------------------------
def _dq(b: Batch, ix: IntArray, mask: BoolArray, exit_code: int) -> None:
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


def _dq_one(b: Batch, ix: IntArray, w: IntArray, exit_code: int) -> None:
    if len(ix):
        mask = np.zeros((len(ix), M), dtype=bool)
        _put(mask, np.arange(len(ix)) * M + w, True)
        _dq(b, ix, mask, exit_code)


def _finish(b: Batch, ix: IntArray, w: IntArray) -> None:
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


def _check_end(b: Batch, ix: IntArray, force: bool = False) -> None:
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

