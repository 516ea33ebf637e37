"""Shared instances of the race's most frequent events, so resolving a card builds almost no new objects.

Events are frozen values compared by their fields, so two equal events may be one object: the race asks here
for ``moved(...)`` instead of building ``Moved(...)``, and gets the instance made the first time those fields
came up. Keys are plain ints, bools and strings (a mascot by its index in ``MASCOTS``, a card by ``id``, kept
alive by the event that holds it), so a look-up costs a tuple and one dict probe. The table is cleared when it
holds ``LIMIT`` events, which bounds its memory in a long-running kiosk.
"""

from __future__ import annotations

from typing import Any

from companion.rules.cards import Card
from companion.rules.events import (Cause, Collided, Event, Exit, Facing, Fell, Finished, Moved, NoEffect, Placed,
                                    Recovered, Revealed, Swerved, TurnedAround)
from companion.rules.mascots import MASCOTS

LIMIT = 50_000
SHARED: dict[tuple[Any, ...], Event] = {}  # key -> the one instance; the race reads it inline on its hottest paths
_table = SHARED


def _keep(key: tuple[Any, ...], event: Event) -> Event:
    if len(_table) >= LIMIT:
        _table.clear()
    _table[key] = event
    return event


def revealed(card: Card, code: str | None, pass_no: int, reveal: int) -> Event:
    key = (0, id(card), code, pass_no, reveal)
    found = _table.get(key)
    if found is not None and found.card is card:  # type: ignore[attr-defined]
        return found
    return _keep(key, Revealed(card, code, pass_no, reveal))


def moved(i: int, lane: int, start: int, end: int, crawled: bool, to_star: bool) -> Event:
    key = (1, i, lane, start, end, crawled, to_star)
    return _table.get(key) or _keep(key, Moved(MASCOTS[i], lane, start, end, crawled, to_star))


def fell(i: int, by_collision: bool) -> Event:
    key = (2, i, by_collision)
    return _table.get(key) or _keep(key, Fell(MASCOTS[i], Cause.COLLISION if by_collision else Cause.CARD))


def collided(mover: int, i: int, lane: int, space: int) -> Event:
    key = (3, mover, i, lane, space)
    return _table.get(key) or _keep(key, Collided(MASCOTS[mover], MASCOTS[i], lane, space))


def swerved(i: int, space: int, from_lane: int, to_lane: int) -> Event:
    key = (4, i, space, from_lane, to_lane)
    return _table.get(key) or _keep(key, Swerved(MASCOTS[i], space, from_lane, to_lane))


def turned(i: int, forward: bool) -> Event:
    key = (5, i, forward)
    return _table.get(key) or _keep(key, TurnedAround(MASCOTS[i], Facing.FORWARD if forward else Facing.BACKWARD))


def recovered(i: int, stood: bool, turned_forward: bool) -> Event:
    key = (6, i, stood, turned_forward)
    return _table.get(key) or _keep(key, Recovered(MASCOTS[i], stood, turned_forward))


def finished(i: int) -> Event:
    key = (7, i)
    return _table.get(key) or _keep(key, Finished(MASCOTS[i]))


def placed(i: int, place: int, exit_: Exit, shared: bool) -> Event:
    key = (8, i, place, id(exit_), shared)
    return _table.get(key) or _keep(key, Placed(MASCOTS[i], place, exit_, shared))


def no_effect(i: int, no_star: bool) -> Event:
    """The card did nothing for mascot ``i``: no star ahead, or (``no_star`` False) it is not racing."""
    key = (9, i, no_star)
    found = _table.get(key)
    if found is None:
        mascot = MASCOTS[i]
        found = _keep(key, NoEffect(mascot, "no star ahead" if no_star else f"{mascot.title} is not racing"))
    return found
