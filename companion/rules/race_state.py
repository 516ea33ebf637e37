"""The values a race hands out (docs/rules.md 3-5): one mascot's state, the whole race, the outcome so far.

Also the race's own mutable record of one mascot (:class:`Runner`) and its row layout (``LANE`` .. ``EXIT``),
the plain tuple form :mod:`companion.rules.position` and the undo snapshots use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from companion.rules.events import Exit, Facing, Status
from companion.rules.mascots import MASCOTS, Mascot

# Per-mascot row layout: a Runner's fields in this order (position strings and undo snapshots use rows).
LANE, SPACE, FALLEN, FACING, STATUS, PLACE, EXIT = range(7)
RACING, FINISHED, DQ = Status.RACING, Status.FINISHED, Status.DQ


class Runner:
    """One mascot inside a race: the race's own mutable record (what it hands out is :class:`MascotState`).

    ``mascot`` is the mascot, ``index`` its place in ``MASCOTS``; ``lane`` and ``space`` are 1-based; ``facing`` is +1
    (toward the finish) or -1; ``place`` is the paid place, 0 until placed; ``exit`` how it left, or None.
    Attributes rather than a list, because the race reads them on every step.
    """

    __slots__ = ("mascot", "index", "lane", "space", "fallen", "facing", "status", "place", "exit")
    mascot: Mascot
    index: int
    lane: int
    space: int
    fallen: bool
    facing: int
    status: Status
    place: int
    exit: Exit | None

    def __init__(self, index: int, row: Sequence[Any]):
        self.mascot = MASCOTS[index]
        self.index = index
        self.lane, self.space, self.fallen, self.facing, self.status, self.place, self.exit = row

    def row(self) -> tuple[Any, ...]:
        """The fields in the row layout above (``LANE`` .. ``EXIT``)."""
        return (self.lane, self.space, self.fallen, self.facing, self.status, self.place, self.exit)


@dataclass(frozen=True, slots=True)
class MascotState:
    """Where a mascot is and how it stands. ``lane``/``space`` are meaningful while ``status`` is RACING;
    ``place`` is the paid place (None until placed) and ``exit`` how it left the race."""

    mascot: Mascot
    lane: int
    space: int
    fallen: bool
    facing: Facing
    status: Status
    place: int | None
    exit: Exit | None

    def to_dict(self) -> dict[str, object]:
        """The ``simulate --json`` / ``status --json`` form: full for a racing mascot, just the status otherwise."""
        if self.status is not RACING:
            return {"status": self.status.value}
        return {"status": self.status.value, "lane": self.lane, "space": self.space, "fallen": self.fallen,
                "facing": self.facing.value}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result so far: paid place per placed mascot, how each placed mascot left, and whether it is over."""

    placings: dict[Mascot, int]
    exits: dict[Mascot, Exit]
    over: bool


@dataclass(frozen=True, slots=True)
class RaceState:
    """A snapshot of the whole race (docs/rules.md 4: folds made, pass number, reveals in this pass)."""

    mascots: tuple[MascotState, ...]
    folds: int
    pass_no: int
    revealed: int
    codes_in_pass: tuple[str, ...]
    over: bool

    def of(self, mascot: Mascot) -> MascotState:
        return self.mascots[MASCOTS.index(mascot)]


def mascot_state(mascot: Mascot, row: Sequence[Any]) -> MascotState:
    """The public value of one internal row (see the layout above)."""
    return MascotState(mascot, row[LANE], row[SPACE], row[FALLEN],
                       Facing.FORWARD if row[FACING] > 0 else Facing.BACKWARD, row[STATUS], row[PLACE] or None,
                       row[EXIT])
