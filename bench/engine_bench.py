"""Benchmark of the pure rules engine.

Plays the same 3,000 random races (a table's deck: the 4 starting cards and 14 random ones; each pass
shuffled, 3 burned, 15 revealed) through the engine (:class:`companion.rules.race.Race`, with its events and
undo) and through a plain, straightforward implementation of the same rules (``bench/plain_race.py``, no
events, no undo); checks that every race gives the same placings; prints races per second of each on one
core (CPU time of this process, best of ``--rounds``, so other load on the machine matters less) and the
engine's ratio to the plain one (goal >= 0.8), with the median and range of the rounds' own ratios: on a shared
machine one round's ratio can be 30 % off, so read the median. Then what building the engine's events alone costs
(each event the races gave made again from its fields, best of the rounds) and the wall time of `hotstreak
simulate` from process start to the race call (import + first race), best of 5.

    python bench/engine_bench.py [--races 3000] [--rounds 7]

``--by-card`` times each card instead (nanoseconds, best of the rounds, engine and plain interleaved race by
race) and prints a line per kind of card (``1R+2``: a one-mascot card, ``A+2``: a green one). ``--only engine``
or ``--only plain`` plays the races ``--rounds`` times through one of them and prints nothing: for counting with
``valgrind --tool=cachegrind`` (a warm round's counts are a run of 2 rounds less a run of 1).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from companion.rules import Race, load_deck  # noqa: E402
from companion.rules.cards import Card  # noqa: E402
from companion.rules.race import default_track  # noqa: E402
from plain_race import PlainRace  # noqa: E402

PASSES = 8  # passes dealt per race; a race that is not over by then stops there in both implementations

Reveal = tuple[Card, str]


def random_races(count: int, seed: int = 2026) -> list[list[Reveal]]:
    """``count`` races, each the cards revealed in order over ``PASSES`` passes (burned cards left out)."""
    deck = list(load_deck())
    starting = [c for c in deck if c.starting]
    others = [c for c in deck if not c.starting]
    track = default_track()
    rng = random.Random(seed)
    races = []
    for _ in range(count):
        cards = [(c.card, c.code) for c in starting + rng.sample(others, track.deck_size - len(starting))]
        reveals: list[Reveal] = []
        for _ in range(PASSES):
            rng.shuffle(cards)
            reveals.extend(cards[track.burn:])
        races.append(reveals)
    return races


def run_engine(races: list[list[Reveal]]) -> list[dict[str, int]]:
    placings = []
    for reveals in races:
        race = Race()
        for card, code in reveals:
            race.push(card, code)
            if race.is_over:
                break
        placings.append({m.value: p for m, p in race.outcome.placings.items()})
    return placings


def run_plain(races: list[list[Reveal]]) -> list[dict[str, int]]:
    track = default_track()
    placings = []
    for reveals in races:
        race = PlainRace(track)
        for card, _code in reveals:
            race.push(card)
            if race.over:
                break
        placings.append(race.placings())
    return placings


def events_cost(races: list[list[Reveal]], rounds: int) -> tuple[int, float]:
    """The events the engine gives for ``races`` and the CPU seconds it takes to make them all again from their
    fields (best of ``rounds``): what the events alone cost, whatever the engine does around them."""
    made = []
    for reveals in races:
        race = Race()
        for card, code in reveals:
            made.extend((type(e), tuple(getattr(e, f.name) for f in dataclasses.fields(e)))
                        for e in race.push(card, code))
            if race.is_over:
                break
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for kind, values in made:
            kind(*values)
        best = min(best, time.process_time() - start)
    return len(made), best


def timed(run, races) -> tuple[float, list[dict[str, int]]]:
    start = time.process_time()
    result = run(races)
    return time.process_time() - start, result


def by_card(races: list[list[Reveal]], rounds: int) -> None:
    """Print what each kind of card costs in each implementation (best of ``rounds``, ns) and the total ratio."""
    clock = time.perf_counter_ns
    track = default_track()
    best: dict[tuple[str, int, int], int] = {}  # (implementation, race, card) -> ns

    def play(which: str, k: int, push, is_over) -> None:
        for j, (card, code) in enumerate(races[k]):
            t0 = clock()
            push(card, code)
            spent = clock() - t0
            best[which, k, j] = min(best.get((which, k, j), spent), spent)
            if is_over():
                break

    for _ in range(rounds):
        for k in range(len(races)):
            race, plain = Race(), PlainRace(track)
            play("engine", k, race.push, lambda: race.is_over)
            play("plain", k, lambda card, _code: plain.push(card), lambda: plain.over)
    total: dict[tuple[str, str], int] = {}
    count: dict[str, int] = {}
    for (which, k, j), spent in best.items():
        card = races[k][j][0]
        kind = ("1" if card.who is not None else "A") + card.notation()[1:]
        total[which, kind] = total.get((which, kind), 0) + spent
        if which == "engine":
            count[kind] = count.get(kind, 0) + 1
    engine = sum(v for (which, _), v in total.items() if which == "engine")
    plain_ns = sum(v for (which, _), v in total.items() if which == "plain")
    print(f"card by card: engine {engine / 1e6:.1f} ms, plain {plain_ns / 1e6:.1f} ms, ratio {plain_ns / engine:.3f}")
    for kind, n in sorted(count.items(), key=lambda kn: -kn[1]):
        print(f"  {kind:6} {n:6,} cards  engine {total['engine', kind] / n:5.0f} ns  "
              f"plain {total['plain', kind] / n:5.0f} ns")


def simulate_startup(runs: int = 5) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "companion", "simulate", "H+3", "HS26", "AR+3"], env=env,
                       check=True, capture_output=True)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-startup", action="store_true", help="skip the `hotstreak simulate` timing")
    parser.add_argument("--by-card", action="store_true", help="time each card, by kind of card")
    parser.add_argument("--only", choices=("engine", "plain"), help="play the races through one, print nothing")
    args = parser.parse_args()
    races = random_races(args.races)
    if args.only:
        for _ in range(args.rounds):
            (run_engine if args.only == "engine" else run_plain)(races)
        return
    if args.by_card:
        by_card(races, args.rounds)
        return
    engine = plain = float("inf")
    ratios = []
    for _ in range(args.rounds):  # interleaved, so a burst of load elsewhere hits both alike
        engine_seconds, by_engine = timed(run_engine, races)
        plain_seconds, by_plain = timed(run_plain, races)
        engine, plain = min(engine, engine_seconds), min(plain, plain_seconds)
        ratios.append(plain_seconds / engine_seconds)
        if by_engine != by_plain:
            bad = next(i for i, (a, b) in enumerate(zip(by_engine, by_plain)) if a != b)
            sys.exit(f"race {bad}: the engine placed {by_engine[bad]}, the plain implementation {by_plain[bad]}")
    print(f"same placings in all {len(races):,} races")
    print(f"engine: {len(races) / engine:,.0f} full races/s on one core (with events and undo)")
    print(f"plain:  {len(races) / plain:,.0f} full races/s on one core (no events, no undo)")
    print(f"ratio engine/plain: {plain / engine:.2f} (goal >= 0.8); per round: median {statistics.median(ratios):.2f}, "
          f"{min(ratios):.2f}-{max(ratios):.2f}")
    count, seconds = events_cost(races, args.rounds)
    print(f"events: {count / len(races):.1f} a race; making them alone takes {seconds / len(races) * 1e6:.1f} us a race, "
          f"{seconds / plain:.0%} of the plain implementation's whole race")
    if not args.no_startup:
        print(f"hotstreak simulate: {simulate_startup() * 1000:.0f} ms import + first race (best of 5, wall time)")


if __name__ == "__main__":
    main()
