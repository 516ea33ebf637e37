"""Typed events emitted by the race (``Race.push``): the only thing the rest of the app sees of a race.

Every event is a frozen dataclass; ``to_dict()`` gives a JSON-ready dict with a ``type`` key (the
snake-case name, e.g. ``knocked_out``). Spaces and lanes are 1-based ints.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, fields
from typing import Any

from companion.rules.cards import Card
from companion.rules.mascots import Mascot


class Facing(enum.Enum):
    FORWARD = "forward"
    BACKWARD = "backward"


class Status(enum.Enum):
    RACING = "racing"
    FINISHED = "finished"
    DQ = "dq"


class Exit(enum.Enum):
    """How a mascot left the race."""

    CROSSED = "crossed"          # crossed the finish line
    LAST_STANDING = "remaining"  # still racing when the race ended; took the remaining place
    KNOCKOUT = "knockout"        # fell while already fallen
    OUT_OF_BOUNDS = "out_of_bounds"


class OutOfBoundsWay(enum.Enum):
    BACK = "back"   # stepped behind the last space still on the track
    SIDE = "side"   # swerved past lane 1 or the last lane
    FOLD = "fold"   # was on a space folded under the mat


class Cause(enum.Enum):
    CARD = "card"
    COLLISION = "collision"


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Card):
        return value.notation()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all race events."""

    @property
    def type(self) -> str:
        return _snake(type(self).__name__)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """A card was revealed: ``reveal`` is 1..15 within ``pass_no`` (1-based); ``code`` is its label or None."""

    card: Card
    code: str | None
    pass_no: int
    reveal: int


@dataclass(frozen=True, slots=True)
class NoEffect(Event):
    """The card did nothing for ``mascot``: it is not racing, or it has no star ahead (``reason``)."""

    mascot: Mascot
    reason: str


@dataclass(frozen=True, slots=True)
class Recovered(Event):
    """The mascot stood up and/or turned to face the finish."""

    mascot: Mascot
    stood_up: bool
    turned_forward: bool


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """The mascot moved along its lane from ``start`` to ``end`` (spaces); ``crawled`` if it was fallen."""

    mascot: Mascot
    lane: int
    start: int
    end: int
    crawled: bool
    to_star: bool


@dataclass(frozen=True, slots=True)
class Swerved(Event):
    """The mascot changed lane on ``space``."""

    mascot: Mascot
    space: int
    from_lane: int
    to_lane: int


@dataclass(frozen=True, slots=True)
class TurnedAround(Event):
    mascot: Mascot
    facing: Facing


@dataclass(frozen=True, slots=True)
class Collided(Event):
    """``mover`` entered the space of ``mascot`` (which then falls or is knocked out)."""

    mover: Mascot
    mascot: Mascot
    lane: int
    space: int


@dataclass(frozen=True, slots=True)
class Fell(Event):
    mascot: Mascot
    cause: Cause


@dataclass(frozen=True, slots=True)
class KnockedOut(Event):
    """A fallen mascot had to fall again: DQ (docs/rules.md 3)."""

    mascot: Mascot
    cause: Cause


@dataclass(frozen=True, slots=True)
class OutOfBounds(Event):
    """DQ off the back, off the side, or under a fold (docs/rules.md 3, 4)."""

    mascot: Mascot
    way: OutOfBoundsWay
    lane: int
    space: int


@dataclass(frozen=True, slots=True)
class Finished(Event):
    """The mascot crossed the finish line."""

    mascot: Mascot


@dataclass(frozen=True, slots=True)
class Placed(Event):
    """The mascot took a podium place; ``place`` is the paid place, ``shared`` for a simultaneous-DQ tie."""

    mascot: Mascot
    place: int
    exit: Exit
    shared: bool


@dataclass(frozen=True, slots=True)
class Folded(Event):
    """The deck ran out: fold number ``fold`` (1-based); spaces below ``first_space`` are under the mat."""

    fold: int
    first_space: int


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """A new pass begins (``pass_no``, 1-based): reshuffle the whole deck and burn again."""

    pass_no: int


@dataclass(frozen=True, slots=True)
class RaceEnded(Event):
    """The race is over; ``placings`` maps each mascot to its paid place."""

    placings: tuple[tuple[Mascot, int], ...]


EVENT_TYPES: tuple[type[Event], ...] = (Revealed, NoEffect, Recovered, Moved, Swerved, TurnedAround, Collided,
                                        Fell, KnockedOut, OutOfBounds, Finished, Placed, Folded, Reshuffled,
                                        RaceEnded)
