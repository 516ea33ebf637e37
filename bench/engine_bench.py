"""Benchmark of the pure rules engine.

Prints how many random full races per second the engine resolves on one core (CPU time of this process,
so other load on the machine matters less), and the wall time of `hotstreak simulate` from process start
to the race call (import + first race), best of several runs.

    python bench/engine_bench.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.rules import Race, load_deck  # noqa: E402


def random_race(rng: random.Random, deck: list) -> int:
    """One race as a table plays it: 18 cards (4 starting + 14 random), each pass shuffled, burn 3."""
    starting = [c for c in deck if c.starting]
    others = [c for c in deck if not c.starting]
    cards = starting + rng.sample(others, 18 - len(starting))
    race = Race()
    pushed = 0
    while not race.is_over:
        rng.shuffle(cards)
        for dc in cards[3:]:
            race.push(dc.card, dc.code)
            pushed += 1
            if race.is_over:
                break
    return pushed


def races_per_second(seconds: float) -> tuple[float, float]:
    deck = list(load_deck())
    rng = random.Random(2026)
    races = cards = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        cards += random_race(rng, deck)
        races += 1
    elapsed = time.process_time() - start
    return races / elapsed, cards / races


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
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    rate, per_race = races_per_second(args.seconds)
    print(f"engine: {rate:,.0f} random full races/s on one core ({per_race:.1f} cards per race; goal >= 5,000)")
    print(f"hotstreak simulate: {simulate_startup() * 1000:.0f} ms import + first race (best of 5, wall time)")


if __name__ == "__main__":
    main()
