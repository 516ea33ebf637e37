"""Odds that never contradict the race: the places a race has settled, applied to any odds before they are shown.

An estimate takes time, so the odds shown are often older than the race (docs/rules.md 5): a mascot may have
crossed the line or been knocked out since. :func:`settle` makes any odds agree with the race as it is now:

- a mascot whose place is settled (it crossed the line, was DQ, or the race has ended; the engine's placings)
  is paid that place with probability 1 and no other;
- no other mascot has any chance of a place taken: the places the finishers took from the top and the places
  the DQ mascots took from the bottom (two DQs sharing 3rd and 4th take both);
- the chances of the mascots still racing are spread over the open places as the older estimate ranked them.

How the older chances are spread: the older chances of the mascots still racing for the open places are
scaled by mascot and by place in turn (Sinkhorn scaling, as a bookmaker rebalances a book) until every
mascot still racing has chances summing to 1 and every open place is shared out once. The scaling keeps the
older estimate's odds ratios: a mascot twice as likely as another to take 2nd rather than 3rd stays so. A
mascot the older estimate gave no chance of any open place gets what the others leave.

Odds that already say exactly what is settled (an estimate made for the race as it is) are returned as they
are. Odds that knew every settled place but not exactly (a chance of 0.9999995) are only trimmed: the settled
rows made exactly 1 and 0, the chances of taken places dropped and the rest rescaled.

Odds map a mascot's lower-case name to its probabilities of being paid 1st..4th (0..1).
"""

from __future__ import annotations

import itertools
import math
from typing import Mapping

from companion.rules.events import Exit, Status
from companion.rules.mascots import MASCOTS
from companion.rules.race import Race

PLACES = len(MASCOTS)
"""Paid places (1..4)."""
KNEW = 1e-6
"""A settled mascot whose older chance of its own place is within this of 1 was already known to be placed."""
FLOOR = 1e-9
"""Added to every older chance before the rescaling, so no mascot or open place is left with nothing."""
ROUNDS = 200
"""At most this many rounds of row and column scaling (a few dozen do when the older odds are not degenerate)."""


def settled_places(race: Race) -> tuple[dict[str, int], tuple[int, ...]]:
    """The places ``race`` has settled: ``({mascot name: paid place}, open places)``.

    The placed mascots are the engine's placings (a finish, a DQ, every mascot once the race has ended). The
    open places (1-based, best first) are the ones left for the mascots still racing: finishers take the best
    open places, DQ mascots the worst (docs/rules.md 5); empty once the race has ended."""
    outcome = race.outcome
    placed = {m.value: place for m, place in outcome.placings.items()}
    if race.is_over:
        return placed, ()
    crossed = sum(1 for e in outcome.exits.values() if e is Exit.CROSSED)
    dq = sum(1 for m in MASCOTS if race.mascot(m).status is Status.DQ)
    return placed, tuple(range(crossed + 1, PLACES - dq + 1))


def settle(odds: Mapping[str, tuple[float, ...]], race: Race | None) -> Mapping[str, tuple[float, ...]]:
    """``odds`` (mascot name -> chances of 1st..4th) made to agree with the places ``race`` has settled (see
    the module docstring); ``race`` None: no race, nothing settled.

    Returns ``odds`` itself (the same object) when nothing is settled or they already agree exactly, else a
    new dict with every mascot in race order; a mascot missing from ``odds`` counts as having no chance of any
    place, chances past 4th are ignored. Raises nothing."""
    if race is None:
        return odds
    placed, open_places = settled_places(race)
    if not placed:
        return odds
    rows = {m.value: _row(odds.get(m.value, ())) for m in MASCOTS}
    racing = [m.value for m in MASCOTS if m.value not in placed]
    if all(list(odds.get(name, ())) == row for name, row in rows.items()) and _agrees(rows, placed, open_places):
        return odds
    result = {name: tuple(1.0 if k == place else 0.0 for k in range(1, PLACES + 1)) for name, place in placed.items()}
    if all(rows[name][place - 1] >= 1.0 - KNEW for name, place in placed.items()):
        chances = {name: _trimmed(rows[name], open_places) for name in racing}
    else:
        chances = _balanced({name: [rows[name][k - 1] for k in open_places] for name in racing})
    for name in racing:
        got = dict(zip(open_places, chances[name]))
        result[name] = tuple(got.get(k, 0.0) for k in range(1, PLACES + 1))
    return {m.value: result[m.value] for m in MASCOTS}


def _row(row: tuple[float, ...]) -> list[float]:
    """The first :data:`PLACES` chances of ``row``; missing, negative or not finite ones as 0."""
    padded = [float(p) for p in (*row, *[0.0] * PLACES)[:PLACES]]
    return [p if math.isfinite(p) and p > 0 else 0.0 for p in padded]


def _agrees(rows: dict[str, list[float]], placed: Mapping[str, int], open_places: tuple[int, ...]) -> bool:
    """True when ``rows`` already say exactly what is settled: 1 for each placed mascot's place, 0 for its
    other places, and 0 for a racing mascot's taken places."""
    for name, row in rows.items():
        place = placed.get(name)
        allowed = (place,) if place is not None else open_places
        if any(p != 0.0 for k, p in enumerate(row, 1) if k not in allowed) or (place and row[place - 1] != 1.0):
            return False
    return True


def _trimmed(row: list[float], open_places: tuple[int, ...]) -> list[float]:
    """``row``'s chances of the open places, rescaled to sum to 1 (even when it has none)."""
    kept = [row[k - 1] for k in open_places]
    total = sum(kept)
    return [p / total for p in kept] if total > 0 else [1.0 / len(kept)] * len(kept)


def _balanced(weights: dict[str, list[float]]) -> dict[str, list[float]]:
    """Each racing mascot's chance of each open place (same order as its ``weights``): the weights scaled by
    rows and columns in turn (Sinkhorn scaling) until every mascot's chances sum to 1 and every open place is
    shared out once, then each mascot's row made to sum to 1 exactly. Every weight gets :data:`FLOOR` first, so
    a mascot (or a place) the older odds left empty is spread over what is left."""
    names = list(weights)
    grid = [[p + FLOOR for p in weights[name]] for name in names]
    for _ in range(ROUNDS):
        for row in grid:
            total = sum(row)
            row[:] = [p / total for p in row]
        columns = [sum(col) for col in zip(*grid)]
        if all(abs(c - 1.0) < 1e-12 for c in columns):
            break
        for row in grid:
            row[:] = [p / c for p, c in zip(row, columns)]
    return {name: [p / sum(row) for p in row] for name, row in zip(names, grid)}


__all__ = ["PLACES", "settle", "settled_places"]
