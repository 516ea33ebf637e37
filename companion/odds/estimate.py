"""Live odds: the probability of each paid place per mascot, before and during a race (docs/rules.md 4, 5, 7).

What is known: the race deck's face-up cards, the player count (how many cards the players added face down,
docs/rules.md 7) and, during a race, the :class:`~companion.rules.race.Race` itself (its position and every card
revealed so far). Every race deck holds 18 cards; the cards not known to be in it are drawn uniformly from
the cards not known to be elsewhere (the rest of the 53). The estimator samples those unknown cards and the
card order (burn 3 face down, 15 reveals per pass, reshuffle all 18 each pass), plays the races in the
batched numpy core (:mod:`companion.odds.core`) and counts how each mascot was paid. What is known of the
deck is worked out in :mod:`companion.odds.knowledge`; the exact enumeration is :mod:`companion.odds.exact`.

Late in a pass, when the orderings of the cards left in the pass are few (at most ``exact_limit``), they are
enumerated with their exact probabilities instead; races still running after the pass go on by sampling, so
the result is exact (standard error 0) only when every ordering ends the race within the pass.

>>> from companion.rules import Mascot
>>> odds = estimate(["HS02", "HS13", "HS24", "HS35"], players=4, samples=2000, seed=1)
>>> odds.unknown, odds.samples, round(sum(odds.places[Mascot.HURLEY]), 6)
(14, 2000, 1.0)

Randomness comes only from the generator passed in (``seed`` or ``rng``); the same seed gives the same odds.
"""

from __future__ import annotations

import random
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Callable, TypeAlias

import numpy as np

from companion.odds.batch import BoolArray, FloatArray, IntArray
from companion.odds.core import DQ, Batch, CardTable, play, reveal
from companion.odds.exact import enumerate_pass
from companion.odds.knowledge import (  # noqa: F401 - re-exported: what callers of the odds need
    MAX_PLAYERS, MIN_PLAYERS, DeckKnowledge, deck_ids, deck_knowledge, hidden_cards)
from companion.rules.deck import Deck
from companion.rules.mascots import MASCOTS, Mascot
from companion.rules.race import Race, default_deck, default_track
from companion.rules.track import Track

__all__ = ["PLACES", "Cancelled", "Odds", "estimate", "MAX_PLAYERS", "MIN_PLAYERS", "DeckKnowledge", "deck_ids",
           "deck_knowledge", "hidden_cards"]

PLACES = len(MASCOTS)
Rng: TypeAlias = np.random.Generator | random.Random
"""A source of randomness for the odds: a numpy Generator or a random.Random."""


class Cancelled(Exception):
    """An estimate given up between two chunks of samples because its ``cancel()`` said so (a newer request
    is waiting)."""


@dataclass(frozen=True)
class Odds:
    """Place probabilities per mascot.

    ``places[m]`` = P(paid as 1st, 2nd, 3rd, 4th): sums to 1 per mascot. DQs at the same time share the worst
    open places and are each paid as the worst of them, so the sum over mascots of one place is the expected
    number of mascots paid as it (a shared DQ can leave 3rd unpaid and pay two as 4th). ``taken[m]`` counts a
    DQ group of k as taking its k places with 1/k each: sums to 1 per mascot and per place.
    ``dq[m]`` = P(disqualified). ``stderr[m]`` = standard errors of (p1, p2, p3, p4, dq): sqrt(p(1-p)/n) for
    sampled estimates, 0 when ``exact``. ``samples`` = races simulated (or orderings enumerated).
    ``unknown`` = cards of the race deck not known; ``cut`` = sampled races still running after ``max_passes``
    passes, ended there by the remaining-place rule (docs/rules.md 5).
    """

    samples: int
    places: dict[Mascot, tuple[float, float, float, float]]
    dq: dict[Mascot, float]
    stderr: dict[Mascot, tuple[float, ...]]
    exact: bool
    taken: dict[Mascot, tuple[float, float, float, float]]
    unknown: int = 0
    cut: int = 0

    def to_dict(self) -> dict[str, object]:
        """JSON form: ``{"samples": n, "places": {name: [p1, p2, p3, p4]}, "dq": {name: p}, "stderr": {name:
        [s1, s2, s3, s4, s_dq]}, "exact": bool, "unknown": u, "cut": k}``; mascot keys are lower-case names."""
        return {
            "samples": self.samples,
            "places": {m.value: list(p) for m, p in self.places.items()},
            "dq": {m.value: p for m, p in self.dq.items()},
            "stderr": {m.value: list(s) for m, s in self.stderr.items()},
            "exact": self.exact,
            "unknown": self.unknown,
            "cut": self.cut,
        }


def estimate(known: list[str], players: int, race: Race | None = None, *, samples: int = 20000,
             seed: int | None = None, rng: Rng | None = None, max_passes: int = 20, exact_limit: int = 20000,
             chunks: int = 1, executor: Executor | None = None, hidden: int | None = None,
             track: Track | None = None, deck: Deck | None = None,
             cancel: Callable[[], bool] | None = None) -> Odds:
    """The odds of each paid place per mascot (see :class:`Odds`).

    ``known``: face-up cards of the race deck (label codes, or notation); ``players``: 2..12; ``race``: the
    race so far (None: before the start; its own track and deck are used, otherwise ``track``/``deck`` or
    the defaults). ``samples``: races to sample. Randomness only from ``rng`` (a numpy Generator or
    random.Random) or ``seed``. ``chunks``: split the samples into that many independently seeded parts,
    run on ``executor`` (e.g. a ProcessPoolExecutor to use more cores) if given; the result depends on the
    seed and ``chunks`` only. ``hidden`` overrides the count of face-down player cards. ``cancel()`` is asked
    before each chunk and each pass run here (not on ``executor``): when it returns True the estimate raises
    :class:`Cancelled`. Raises ValueError naming a bad argument or card.
    """
    if not isinstance(samples, int) or samples < 1:
        raise ValueError(f"samples {samples!r} must be a positive whole number")
    if not isinstance(chunks, int) or not 1 <= chunks <= samples:
        raise ValueError(f"chunks {chunks!r} must be 1..samples")
    if not isinstance(max_passes, int) or max_passes < 0:
        raise ValueError(f"max_passes {max_passes!r} must be a whole number >= 0")
    gen = _generator(seed, rng)
    if race is None:
        race = Race(track or default_track(), deck or default_deck())
    if race.is_over:
        hidden_cards(players)
        return _over_odds(race)
    info = deck_knowledge(known, players, race, hidden)
    table = _table(race.deck)
    leaves = enumerate_pass(race, info, exact_limit)
    if leaves is None:
        parts = _run_chunks(race, info, None, samples, gen, max_passes, chunks, executor, cancel)
        return _combine(parts, None, info)
    seq, weights, picked = leaves
    weights = weights / weights.sum()
    b = Batch.from_race(race, len(seq))
    play(b, table, seq)
    if max_passes == 0:  # cut off at the end of this pass: every ordering's outcome is known
        cut = b.force_end()
        return _combine([], (_Tally.of(b, weights, cut=cut), 1.0, len(seq)), info)
    going = b.running()
    exact_part = _Tally.of(b, weights, ~going)
    if not going.any():
        return _combine([], (exact_part, 1.0, len(seq)), info)
    w = weights[going] / weights[going].sum()
    pick_rows = gen.choice(len(w), size=samples, p=w)  # continue each ordering in proportion to its chance
    cont = (b.take(going).take(pick_rows), picked[going][pick_rows])
    parts = _run_chunks(race, info, cont, samples, gen, max_passes, chunks, executor, cancel)
    return _combine(parts, (exact_part, float(weights[~going].sum()), len(seq)), info)


# ----- sampling ------------------------------------------------------------------------------------------
def _generator(seed: int | None, rng: Rng | None) -> np.random.Generator:
    if rng is not None and seed is not None:
        raise ValueError("give a seed or a generator (rng), not both")
    if rng is None:
        return np.random.default_rng(seed)
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, random.Random):
        return np.random.default_rng(rng.getrandbits(128))
    raise TypeError(f"rng {rng!r} is not a numpy Generator or random.Random")


_TABLES: dict[int, tuple[Deck, CardTable]] = {}


def _table(deck: Deck) -> CardTable:
    """The card table of ``deck``: card id i is ``deck.cards[i]``."""
    hit = _TABLES.get(id(deck))
    if hit is None or hit[0] is not deck:
        hit = _TABLES[id(deck)] = (deck, CardTable.of([dc.card for dc in deck]))
    return hit[1]



@dataclass
class _Tally:
    """Weighted counts of one set of finished races: ``places[m, q]``, ``dq[m]``, ``taken[m, q]`` (sums of
    weights), ``n`` races, ``cut`` races ended by the pass limit."""

    places: FloatArray
    dq: FloatArray
    taken: FloatArray
    n: int
    cut: int = 0

    @classmethod
    def of(cls, b: Batch, weights: FloatArray | None = None, rows: BoolArray | None = None,
           cut: int = 0) -> "_Tally":
        place, status, group = b.place, b.status, b.group
        w = np.ones(len(place)) if weights is None else weights
        if rows is not None:
            place, status, group, w = place[rows], status[rows], group[rows], w[rows]
        places = np.zeros((PLACES, PLACES))
        taken = np.zeros((PLACES, PLACES))
        for q in range(1, PLACES + 1):
            places[:, q - 1] = w @ (place == q)
        share = w[:, None] / np.maximum(group, 1)
        for j in range(PLACES):  # a DQ group of k paid as p takes p-j for j < k
            for q in range(1, PLACES + 1):
                taken[:, q - 1] += ((group > j) * (place - j == q) * share).sum(axis=0)
        return cls(places, w @ (status == DQ), taken, len(place), cut)

    def add(self, other: "_Tally") -> "_Tally":
        return _Tally(self.places + other.places, self.dq + other.dq, self.taken + other.taken,
                      self.n + other.n, self.cut + other.cut)


Continuation: TypeAlias = tuple[Batch, BoolArray]
"""Races to go on with after an enumerated pass: the batch, and per race the pool cards already revealed
(bool ``(n, len(pool))``)."""
Job: TypeAlias = tuple[str, Track, Deck, DeckKnowledge, Continuation | None, int, int, int]
"""One chunk of samples: ``(race position, track, deck, knowledge, continuation, samples, seed, max_passes)``."""


def _run_chunks(race: Race, info: DeckKnowledge, cont: Continuation | None, samples: int,
                gen: np.random.Generator, max_passes: int, chunks: int, executor: Executor | None,
                cancel: Callable[[], bool] | None = None) -> list[_Tally]:
    seeds = gen.integers(0, 2**63, size=chunks)
    sizes = [samples // chunks + (i < samples % chunks) for i in range(chunks)]
    jobs: list[Job] = []
    offset = 0
    for seed, size in zip(seeds, sizes):
        part: Continuation | None = None
        if cont is not None:
            rows = np.arange(offset, offset + size)
            part = (cont[0].take(rows), cont[1][rows])
        offset += size
        jobs.append((race.position(), race.track, race.deck, info, part, size, int(seed), max_passes))
    if executor is None or chunks == 1:
        parts = []
        for job in jobs:
            parts.append(_sample_job(job, cancel))
        return parts
    return list(executor.map(_sample_job, jobs))


def _sample_job(job: Job, cancel: Callable[[], bool] | None = None) -> _Tally:
    """One independently seeded chunk of samples (a top-level function so a process pool can run it); raises
    :class:`Cancelled` when ``cancel()`` turns True (asked before the chunk and before each pass)."""
    position, track, deck, info, cont, n, seed, max_passes = job
    if cancel is not None and cancel():
        raise Cancelled("a newer request is waiting")
    rng = np.random.default_rng(seed)
    known = deck_ids(deck, info.known)
    pool = deck_ids(deck, info.pool)
    if cont is None:
        b = Batch.from_race(Race.from_position(position, track, deck), n)
        picks = _subsets(rng, n, len(pool), info.unknown)
    else:
        b, forced = cont
        keys = rng.random((n, len(pool)))
        keys[forced] = -1.0  # pool cards already revealed in this race deck are in it for sure
        picks = np.argsort(keys, axis=1)[:, :info.unknown]
    decks = np.empty((n, track.deck_size), dtype=np.int16)
    decks[:, :len(known)] = known
    decks[:, len(known):] = pool[picks]
    run = _Run(b, decks, _table(deck))
    per_pass = track.reveals_per_pass
    if b.revealed:  # the rest of this pass: the cards not yet revealed in it, in random order
        run.play(rng.permuted(decks[:, info.in_pass:], axis=1)[:, :per_pass - b.revealed])
    for _ in range(max_passes):
        if not len(run.batch):
            break
        if cancel is not None and cancel():
            raise Cancelled("a newer request is waiting")
        run.play(rng.permuted(run.decks, axis=1)[:, :per_pass])
    return run.close()


def _subsets(rng: np.random.Generator, n: int, size: int, k: int) -> IntArray:
    """``n`` uniform random k-subsets of ``range(size)``, shape ``(n, k)`` (Floyd's algorithm, vectorised)."""
    out = np.empty((n, k), dtype=np.int64)
    for col, top in enumerate(range(size - k, size)):
        t = rng.integers(0, top + 1, size=n)
        taken = (out[:, :col] == t[:, None]).any(axis=1)
        out[:, col] = np.where(taken, top, t)
    return out


class _Run:
    """Sampled races being played; finished ones are counted and dropped as they end, so the batch shrinks."""

    def __init__(self, batch: Batch, decks: IntArray, table: CardTable) -> None:
        self.batch, self.decks, self.table = batch, decks, table
        self.total: _Tally | None = None

    def play(self, order: IntArray) -> None:
        for t in range(order.shape[1]):
            reveal(self.batch, self.table, order[:, t])
            going = self.batch.running()
            if going.sum() < 0.85 * len(going) or t == order.shape[1] - 1:
                self._drop(going)
                order = order[going]

    def _drop(self, going: BoolArray) -> None:
        if going.all():
            return
        self._count(_Tally.of(self.batch, rows=~going))
        self.batch, self.decks = self.batch.take(going), self.decks[going]

    def _count(self, tally: _Tally) -> None:
        self.total = tally if self.total is None else self.total.add(tally)

    def close(self) -> _Tally:
        """Cut off the races still running (remaining-place rule) and return the tally of all."""
        if len(self.batch):
            cut = self.batch.force_end()
            self._count(_Tally.of(self.batch, cut=cut))
        assert self.total is not None, "a chunk of samples holds at least one race"
        return self.total


# ----- results ---------------------------------------------------------------------------------------------
def _combine(parts: list[_Tally], exact: tuple[_Tally, float, int] | None, info: DeckKnowledge) -> Odds:
    """Odds from sampled tallies and, after an enumeration, the exact part: ``(tally of the orderings that
    end the race in this pass weighted by their probability, that total probability, orderings)``; the
    sampled part stands for the orderings still running."""
    places: FloatArray
    dq: FloatArray
    taken: FloatArray
    err: FloatArray
    if parts:
        total = parts[0]
        for part in parts[1:]:
            total = total.add(part)
        n = total.n
        places, dq, taken = total.places / n, total.dq / n, total.taken / n
        err = np.sqrt(np.concatenate([places, dq[:, None]], axis=1) * (1 - np.concatenate(
            [places, dq[:, None]], axis=1)) / n)
        cut = total.cut
    else:
        n = cut = 0  # only the exact part counts (below)
        places, dq, taken = np.zeros((PLACES, PLACES)), np.zeros(PLACES), np.zeros((PLACES, PLACES))
        err = np.zeros((PLACES, PLACES + 1))
    if exact is not None:
        tally, mass, leaves = exact  # weights are probabilities: the sampled rest stands for 1 - mass
        rest = 1.0 - mass if parts else 0.0
        places = tally.places + rest * places
        dq = tally.dq + rest * dq
        taken = tally.taken + rest * taken
        err = rest * err if parts else np.zeros((PLACES, PLACES + 1))
        n += leaves
        cut += tally.cut
    return Odds(samples=n,
                places={m: _four(places[i]) for i, m in enumerate(MASCOTS)},
                dq={m: float(dq[i]) for i, m in enumerate(MASCOTS)},
                stderr={m: _floats(err[i]) for i, m in enumerate(MASCOTS)},
                exact=not parts,
                taken={m: _four(taken[i]) for i, m in enumerate(MASCOTS)},
                unknown=info.unknown, cut=cut)


def _floats(row: FloatArray) -> tuple[float, ...]:
    return tuple(float(x) for x in row)


def _four(row: FloatArray) -> tuple[float, float, float, float]:
    """One mascot's row of 4 place figures as floats."""
    first, second, third, fourth = _floats(row)
    return first, second, third, fourth


def _over_odds(race: Race) -> Odds:
    """A race that is over: its placings, with certainty (the deck no longer matters: ``unknown`` is 0)."""
    return _combine([], (_Tally.of(Batch.from_race(race, 1)), 1.0, 1), DeckKnowledge((), 0, (), 0))
