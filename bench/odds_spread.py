"""How far a shown whole % of the odds moves with the seed, per sample count.

For a few table situations (race 1 before the start with its face-up cards; the same race after 5 reveals;
race 2 before the start with an unknown deck) this computes a reference with many samples, then the odds
with ``--seeds`` different seeds at each sample count, and prints for each count the largest miss of a shown
whole % (``round(100 p)``) from the reference value (100 p_ref), over every mascot, place and seed, and the
share of shown values within 1 point. Goal: every shown value within 1 point; the odds sink's SAMPLES is
chosen from this table.

    PYTHONPATH=. python bench/odds_spread.py [--seeds 20] [--counts 10000 20000 40000 60000 80000] [--reference 600000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.odds_bench import race1_position  # noqa: E402
from companion.odds.estimate import estimate  # noqa: E402
from companion.rules import MASCOTS, Race  # noqa: E402


def places(odds) -> np.ndarray:
    return np.array([odds.places[m] for m in MASCOTS]) * 100


def situations():
    known = race1_position()
    race = Race()
    for code in known[:5]:
        race.push_text(code)
    return [("race 1, before the start (14 face-up cards)", known, None),
            ("race 1, after 5 reveals", known, race),
            ("race 2, before the start (deck unknown)", [], None)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--counts", type=int, nargs="+", default=[10000, 20000, 40000, 60000, 80000])
    parser.add_argument("--reference", type=int, default=600000)
    args = parser.parse_args()
    print(f"{args.seeds} seeds per count; reference: {args.reference} samples (its own standard error "
          f"<= {50 / np.sqrt(args.reference):.2f} points)")
    worst_by_count = {n: 0.0 for n in args.counts}
    for name, known, race in situations():
        t0 = time.perf_counter()
        ref = places(estimate(known, 4, race, samples=args.reference, seed=10**6, chunks=10))
        print(f"\n{name}: reference in {time.perf_counter() - t0:.1f} s")
        print(f"  {'samples':>8}  {'largest miss':>12}  {'within 1 pt':>11}  {'seed spread':>11}  {'time':>7}")
        for n in args.counts:
            shown, took = [], []
            for seed in range(args.seeds):
                t0 = time.perf_counter()
                shown.append(np.round(places(estimate(known, 4, race, samples=n, seed=seed))))
                took.append(time.perf_counter() - t0)
            shown_a = np.array(shown)
            miss = np.abs(shown_a - ref[None])
            spread = (shown_a.max(axis=0) - shown_a.min(axis=0)).max()
            worst_by_count[n] = max(worst_by_count[n], float(miss.max()))
            print(f"  {n:>8}  {miss.max():>9.2f} pt  {100 * (miss <= 1).mean():>10.1f}%  {spread:>8.0f} pt  "
                  f"{np.median(took):>6.2f}s")
    print("\nlargest miss over all situations: " + ", ".join(f"{n}: {w:.2f} pt" for n, w in worst_by_count.items()))
    ok = [n for n, w in worst_by_count.items() if w <= 1.0]
    print(f"smallest count with every shown % within 1 point: {min(ok) if ok else 'none of these'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
