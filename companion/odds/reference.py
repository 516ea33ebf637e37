"""The odds by the pure rules engine, one race at a time: the slow reference for :mod:`companion.odds.estimate`.

Same knowledge model and deck handling as :func:`companion.odds.estimate` (unknown cards drawn from the cards
not known to be elsewhere, burn 3, 15 reveals per pass, reshuffle all 18), but every sampled race is played
by :class:`companion.rules.race.Race`. Used by the tests and the benchmark, not by the app.
"""

from __future__ import annotations

import random

import numpy as np

from companion.odds.batch import FloatArray, IntArray
from companion.odds.estimate import Odds, PLACES, Rng, _Tally, _combine, _generator, deck_knowledge
from companion.rules.events import Status
from companion.rules.mascots import MASCOTS
from companion.rules.race import Race, default_deck, default_track


def estimate_pure(known: list[str], players: int, race: Race | None = None, *, samples: int = 2000,
                  seed: int | None = None, rng: Rng | None = None, max_passes: int = 20) -> Odds:
    """Monte Carlo odds with the pure engine (see :func:`companion.odds.estimate` for the arguments)."""
    gen = random.Random(int(_generator(seed, rng).integers(0, 2**63)))
    race = race or Race(default_track(), default_deck())
    info = deck_knowledge(known, players, race)
    per_pass = race.track.reveals_per_pass
    place = np.zeros((samples, PLACES), dtype=int)
    status = np.zeros((samples, PLACES), dtype=int)
    group = np.ones((samples, PLACES), dtype=int)
    cut = 0
    for i in range(samples):
        r = race.copy()
        deck = list(info.known) + gen.sample(info.pool, info.unknown)
        if r.revealed:
            rest = deck[info.in_pass:]
            gen.shuffle(rest)
            _push(r, rest[:per_pass - r.revealed])
        for _ in range(max_passes):
            if r.is_over:
                break
            order = list(deck)
            gen.shuffle(order)
            _push(r, order[:per_pass])
        rows = r.state.mascots
        if not r.is_over:  # cut off: the racing mascots take the open places by how far ahead they are
            cut += 1
            racing = sorted((j for j, s in enumerate(rows) if s.status is Status.RACING), key=lambda j: -rows[j].space)
            lo = 1 + sum(s.status is Status.FINISHED for s in rows)
            place[i, racing] = range(lo, lo + len(racing))
        for j, s in enumerate(rows):
            place[i, j] = s.place or place[i, j]
            status[i, j] = 2 if s.status is Status.DQ else 1
            if s.status is Status.DQ:
                group[i, j] = sum(t.status is Status.DQ and t.place == s.place for t in rows)
    tally = _Tally(*_counts(place, status, group), samples, cut)
    return _combine([tally], None, info)


def _push(r: Race, codes: list[str]) -> None:
    for code in codes:
        if r.is_over:
            return
        r.push(r.deck.by_code(code).card, code)


def _counts(place: IntArray, status: IntArray, group: IntArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per mascot: places ``(4, 4)`` counts, DQ ``(4,)`` count, places taken ``(4, 4)`` (see :class:`_Tally`)."""
    places = np.stack([(place == q).sum(axis=0) for q in range(1, PLACES + 1)], axis=1).astype(float)
    dq = (status == 2).sum(axis=0).astype(float)
    taken = np.zeros((len(MASCOTS), PLACES))
    for j in range(PLACES):
        for q in range(1, PLACES + 1):
            taken[:, q - 1] += ((group > j) * (place - j == q) / group).sum(axis=0)
    return places, dq, taken
