"""Speed of the odds: races simulated per second by the batched numpy core and by the pure engine, in the
same run, and the time to 20,000 samples for the race-1 position of a 4-player game.

    PYTHONPATH=. python bench/odds_bench.py [--samples 20000] [--repeat 5] [--pure-samples 1500]

Goals: the core at least 20x the pure engine; 20,000 samples in under 0.5 s. Figures depend on the
machine and on what else runs on it, so this prints them instead of asserting anything.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.odds.estimate import estimate  # noqa: E402
from companion.odds.reference import estimate_pure  # noqa: E402
from companion.rules import Race, load_deck  # noqa: E402


def race1_position(seed: int = 2026) -> list[str]:
    """Face-up cards of race 1 with 4 players (docs/rules.md 7): the 4 starting cards and 10 random cards."""
    deck = load_deck()
    others = [dc.code for dc in deck if not dc.starting]
    return [dc.code for dc in deck if dc.starting] + random.Random(seed).sample(others, 10)


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pure-samples", type=int, default=1500)
    args = parser.parse_args()
    known = race1_position()
    print(f"race-1 position, 4 players: face-up {' '.join(known)} (+4 unknown player cards)")
    print(f"cpus: {os.cpu_count()}, load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    estimate(known, 4, samples=2000, seed=0)  # warm up (imports, tables)
    core = timed(lambda: estimate(known, 4, samples=args.samples, seed=1), args.repeat)
    pure = timed(lambda: estimate_pure(known, 4, samples=args.pure_samples, seed=1), 2)
    core_rate = args.samples / min(core)
    pure_rate = args.pure_samples / min(pure)
    print(f"odds core:   {core_rate:10,.0f} races/s  (best of {args.repeat} runs of {args.samples})")
    print(f"pure engine: {pure_rate:10,.0f} races/s  (best of 2 runs of {args.pure_samples})")
    ratio = core_rate / pure_rate
    print(f"ratio:       {ratio:10.1f}x   goal >= 20x: {'met' if ratio >= 20 else 'NOT met'}")
    best, median = min(core), statistics.median(core)
    print(f"{args.samples} samples, 1 process: best {best:.3f} s, median {median:.3f} s   "
          f"goal < 0.5 s: {'met' if best < 0.5 else 'NOT met'}")

    with ProcessPoolExecutor(2) as pool:
        estimate(known, 4, samples=2000, seed=0, chunks=2, executor=pool)  # start and warm the workers
        two = timed(lambda: estimate(known, 4, samples=args.samples, seed=1, chunks=2, executor=pool), args.repeat)
    print(f"{args.samples} samples, 2 worker processes: best {min(two):.3f} s, median {statistics.median(two):.3f} s")

    race = Race()
    for code in known[:6]:
        race.push_text(code)
    mid = timed(lambda: estimate(known, 4, race, samples=args.samples, seed=1), args.repeat)
    print(f"{args.samples} samples after 6 reveals: best {min(mid):.3f} s, median {statistics.median(mid):.3f} s")
    for code in known[6:13]:
        race.push_text(code)
    late = timed(lambda: estimate(known, 4, race, samples=args.samples, seed=1), args.repeat)
    odds = estimate(known, 4, race, samples=args.samples, seed=1)
    print(f"after 13 reveals (last 2 of the pass enumerated, {odds.samples - args.samples} orderings, then "
          f"{args.samples} samples): best {min(late):.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
