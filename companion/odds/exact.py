"""Exact odds late in a pass: every ordering of the reveals left in the pass with its probability (docs/rules.md 4).

Used by :func:`companion.odds.estimate.estimate` when the orderings are few (at most its ``exact_limit``).
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np

from companion.odds.batch import BoolArray, FloatArray, IntArray
from companion.odds.knowledge import DeckKnowledge, deck_ids
from companion.rules.race import Race


def count_orderings(known_left: int, pool: int, unknown: int, steps: int) -> int:
    """Orderings of ``steps`` reveals from ``known_left`` known cards and ``unknown`` slots filled from a pool."""
    memo: dict[tuple[int, int], int] = {}

    def count(k: int, p: int) -> int:
        if k + p == steps:
            return 1
        if (k, p) not in memo:
            total = (known_left - k) * count(k + 1, p) if k < known_left else 0
            if p < unknown and p < pool:
                total += (pool - p) * count(k, p + 1)
            memo[(k, p)] = total
        return memo[(k, p)]

    return count(0, 0)


Orderings: TypeAlias = tuple[IntArray, FloatArray, BoolArray]
"""Every ordering of the reveals left in a pass: ``(seq (L, steps) card ids, weights (L,), picked (L, pool))``."""


def enumerate_pass(race: Race, info: DeckKnowledge, limit: int) -> Orderings | None:
    """Every ordering of the reveals left in this pass with its probability, if there are at most ``limit``:
    ``(seq (L, steps) card ids, weights (L,), picked (L, len(pool)) bool: pool cards revealed)``; else None."""
    steps = race.track.reveals_per_pass - race.revealed
    known_left = len(info.known) - info.in_pass
    if race.revealed == 0 or count_orderings(known_left, len(info.pool), info.unknown, steps) > limit:
        return None
    known = [int(i) for i in deck_ids(race.deck, info.known[info.in_pass:])]
    pool = [int(i) for i in deck_ids(race.deck, info.pool)]
    seqs: list[list[int]] = []
    weights: list[float] = []
    picks: list[list[int]] = []

    def grow(seq: list[int], picked: list[int], weight: float, used: set[int]) -> None:
        if len(seq) == steps:
            seqs.append(list(seq))
            weights.append(weight)
            picks.append(list(picked))
            return
        left = race.track.deck_size - race.revealed - len(seq)
        for card in known:
            if card not in used:
                used.add(card)
                seq.append(card)
                grow(seq, picked, weight / left, used)
                seq.pop()
                used.discard(card)
        slots = info.unknown - len(picked)
        if slots > 0:
            p = weight * slots / left / (len(pool) - len(picked))
            for j, card in enumerate(pool):
                if j not in picked:
                    seq.append(card)
                    picked.append(j)
                    grow(seq, picked, p, used)
                    picked.pop()
                    seq.pop()

    grow([], [], 1.0, set())
    picked = np.zeros((len(seqs), len(pool)), dtype=bool)
    for i, row in enumerate(picks):
        picked[i, row] = True
    return np.array(seqs, dtype=np.int16).reshape(len(seqs), steps), np.array(weights), picked
