"""Shared instances of the race's most frequent events, so resolving a card builds almost no new objects.

Events are frozen values compared by their fields, so two equal events may be one object: the race asks here for
``moved(...)`` instead of building ``Moved(...)``, and gets the instance made the first time those fields came up.
Keys are plain ints, bools and strings (a mascot by its index in ``MASCOTS``, a card by ``id``, kept alive by the
event that holds it), so a look-up costs a tuple and one dict probe (on its hottest paths the race reads ``SHARED``
inline, a subscript inside ``try``: CPython 3.11 runs that faster than ``dict.get``). The table is cleared when it holds
``LIMIT`` events, which bounds its memory in a long-running kiosk. The Revealed events are kept per pass and reveal
number, by label code (:func:`revealed_slots`); the events with a few values each (a fall, a turn, a finish...) are
made once, in tuples indexed by the mascot (the end of this module).
"""

from __future__ import annotations

from typing import Any

from companion.rules.cards import Card
from companion.rules.events import (Cause, Collided, Event, Exit, Facing, Fell, Finished, Folded, KnockedOut, Moved,
                                    NoEffect, OutOfBounds, OutOfBoundsWay, Placed, RaceEnded, Recovered, Reshuffled,
                                    Revealed, Swerved, TurnedAround)
from companion.rules.mascots import MASCOTS

LIMIT = 50_000
SHARED: dict[tuple[Any, ...], Event] = {}  # key -> the one instance; the race reads it inline on its hottest paths
_REVEALED_AT: dict[int, dict[object, list[Event | None]]] = {}  # the Revealed events by pass: see revealed_slots()
_table = SHARED


def _keep(key: tuple[Any, ...], event: Event) -> Event:
    if len(_table) >= LIMIT:
        _table.clear()
    _table[key] = event
    return event


def revealed_slots(pass_no: int) -> dict[object, list[Event | None]]:
    """The shared Revealed events of pass ``pass_no``: by label code (or ``id(card)`` for a card given in
    notation), a list indexed by reveal number (None where none was made yet). The race keeps the dict of its
    pass and looks ``[code][reveal]`` up inline: one dict for a whole pass stays in the processor's cache from
    card to card, where a dict per reveal number did not. An entry serves only the very card it holds (another
    deck may give the code to another card)."""
    slots = _REVEALED_AT.get(pass_no)
    if slots is None:
        if len(_REVEALED_AT) >= 64:
            _REVEALED_AT.clear()
        slots = _REVEALED_AT[pass_no] = {}
    return slots


def revealed(card: Card, code: str | None, pass_no: int, reveal: int) -> Event:
    slots = revealed_slots(pass_no)
    key = code if code is not None else id(card)
    events = slots.get(key)
    if events is None:
        if len(slots) >= 1000:
            slots.clear()
        events = slots[key] = []
    if len(events) <= reveal:
        events.extend([None] * (reveal + 1 - len(events)))
    found = events[reveal]
    if found is not None and found.card is card:  # type: ignore[attr-defined]
        return found
    event = events[reveal] = Revealed(card, code, pass_no, reveal)
    return event


def moved(i: int, lane: int, start: int, end: int, crawled: bool, to_star: bool) -> Event:
    key = (1, i, lane, start, end, crawled, to_star)
    return _table.get(key) or _keep(key, Moved(MASCOTS[i], lane, start, end, crawled, to_star))


def fell(i: int, by_collision: bool) -> Event:
    return (FELL_IN_COLLISION if by_collision else FELL)[i]


def collided(mover: int, i: int, lane: int, space: int) -> Event:
    key = (3, mover, i, lane, space)
    return _table.get(key) or _keep(key, Collided(MASCOTS[mover], MASCOTS[i], lane, space))


def swerved(i: int, space: int, from_lane: int, to_lane: int) -> Event:
    key = (4, i, space, from_lane, to_lane)
    return _table.get(key) or _keep(key, Swerved(MASCOTS[i], space, from_lane, to_lane))


def turned(i: int, forward: bool) -> Event:
    return (TURNED_FORWARD if forward else TURNED_BACKWARD)[i]


def recovered(i: int, stood: bool, turned_forward: bool) -> Event:
    return RECOVERED[i][stood + 2 * turned_forward]


def finished(i: int) -> Event:
    return FINISHED[i]


def placed(i: int, place: int, exit_: Exit, shared: bool) -> Event:
    key = (8, i, place, id(exit_), shared)
    return _table.get(key) or _keep(key, Placed(MASCOTS[i], place, exit_, shared))


def no_effect(i: int, no_star: bool) -> Event:
    """The card did nothing for mascot ``i``: no star ahead, or (``no_star`` False) it is not racing."""
    return (NO_STAR if no_star else NOT_RACING)[i]


def knocked_out(i: int, cause: Cause) -> Event:
    return (KNOCKED_OUT_BY_CARD if cause is Cause.CARD else KNOCKED_OUT_IN_COLLISION)[i]


def out_of_bounds(i: int, way: OutOfBoundsWay, lane: int, space: int) -> Event:
    key = (11, i, id(way), lane, space)
    return _table.get(key) or _keep(key, OutOfBounds(MASCOTS[i], way, lane, space))


def folded(fold: int, first_space: int) -> Event:
    key = (12, fold, first_space)
    return _table.get(key) or _keep(key, Folded(fold, first_space))


def reshuffled(pass_no: int) -> Event:
    key = (13, pass_no)
    return _table.get(key) or _keep(key, Reshuffled(pass_no))


def race_ended(places: tuple[int, ...]) -> Event:
    """The race is over; ``places`` is each mascot's paid place in ``MASCOTS`` order."""
    key = (14, places)
    return _table.get(key) or _keep(key, RaceEnded(tuple(zip(MASCOTS, places))))


# Events of few values, made once; each tuple is indexed by the mascot's place in MASCOTS.
FELL = tuple(Fell(m, Cause.CARD) for m in MASCOTS)
FELL_IN_COLLISION = tuple(Fell(m, Cause.COLLISION) for m in MASCOTS)
TURNED_FORWARD = tuple(TurnedAround(m, Facing.FORWARD) for m in MASCOTS)
TURNED_BACKWARD = tuple(TurnedAround(m, Facing.BACKWARD) for m in MASCOTS)
RECOVERED = tuple(tuple(Recovered(m, stood, turned) for turned in (False, True) for stood in (False, True))
                  for m in MASCOTS)  # [i][stood + 2 * turned_forward]
FINISHED = tuple(Finished(m) for m in MASCOTS)
NOT_RACING = tuple(NoEffect(m, f"{m.title} is not racing") for m in MASCOTS)
NO_STAR = tuple(NoEffect(m, "no star ahead") for m in MASCOTS)
KNOCKED_OUT_BY_CARD = tuple(KnockedOut(m, Cause.CARD) for m in MASCOTS)
KNOCKED_OUT_IN_COLLISION = tuple(KnockedOut(m, Cause.COLLISION) for m in MASCOTS)
