"""The values a race hands out (docs/rules.md 3-5): one mascot's state, the whole race, the outcome so far.

Also the row layout of the race's internal per-mascot lists (``LANE`` .. ``EXIT``), shared by
:mod:`companion.rules.race` and :mod:`companion.rules.position`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.events import Exit, Facing, Status
from companion.rules.mascots import MASCOTS, Mascot

# Per-mascot row layout of the race's internal state (lists for speed; snapshots are tuples of them).
LANE, SPACE, FALLEN, FACING, STATUS, PLACE, EXIT = range(7)
RACING, FINISHED, DQ = Status.RACING, Status.FINISHED, Status.DQ


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


def mascot_state(mascot: Mascot, row: list[Any]) -> MascotState:
    """The public value of one internal row (see the layout above)."""
    return MascotState(mascot, row[LANE], row[SPACE], row[FALLEN],
                       Facing.FORWARD if row[FACING] > 0 else Facing.BACKWARD, row[STATUS], row[PLACE] or None,
                       row[EXIT])
