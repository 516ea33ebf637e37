"""How soon the live odds of a new card are shown: the CPU of the quick first estimate and of the full one,
and the wall time through the kiosk's odds sink (its child process) on a quiet or a busy machine.

    python bench/odds_latency.py [--cards 6] [--busy 2] [--nice 10] [--quick-nice 0]

Part 1 times, on this process's one core, the quick estimate (``QUICK`` samples) and the full one
(``SAMPLES`` in ``CHUNKS`` parts) for the race after each of the first ``--cards`` race cards of a 4-player
race 1. Part 2 feeds the same cards to the odds sink as the kiosk does (two child processes in their own sessions:
the quick estimates at ``--quick-nice``, the full ones at ``--nice``)
one every 2.5 s and prints, per card, the seconds from the card to its quick odds and to its full odds.
``--busy N`` starts N busy loops, each in its own session like a desktop's programs, for part 2 (stopped by
their PID at the end). Goals: the quick estimate within 0.15 s of CPU here; odds of each card shown on a busy
machine. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.kiosk.controller import Controller  # noqa: E402
from companion.kiosk.journal import Journal  # noqa: E402
from companion.odds.estimate import estimate  # noqa: E402
from companion.odds.sink import (  # noqa: E402
    CHUNKS, NICE, QUICK, QUICK_NICE, SAMPLES, OddsProcess, OddsSink, stable_seed)
from companion.view.table_view import odds_situation  # noqa: E402

START = ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO")
CARDS = ("HS15", "HS03", "HS22", "HS09", "HS31", "HS26", "HS04", "HS10", "HS20", "HS33")


def situations(cards: int) -> list:
    controller = Controller(Journal(":memory:"))
    for text in START:
        controller.handle(text)
    out = []
    for text in CARDS[:cards]:
        if controller.handle(text).accepted:
            out.append(odds_situation(controller.view))
    return out


def cpu_of(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def part1(cards: int) -> None:
    estimate([], 4, samples=500, seed=0)  # warm up (imports, tables)
    quick, full = [], []
    for s in situations(cards):
        args = (list(s.known), s.players, s.race)
        quick.append(cpu_of(lambda: estimate(*args, samples=QUICK, seed=stable_seed(s.key))))
        full.append(cpu_of(lambda: estimate(*args, samples=SAMPLES, seed=stable_seed(s.key), chunks=CHUNKS)))
    print(f"quick estimate ({QUICK} samples): CPU median {statistics.median(quick):.3f} s, max {max(quick):.3f} s "
          f"over {len(quick)} cards (goal: <= 0.15 s)")
    print(f"full estimate ({SAMPLES} samples in {CHUNKS} parts): CPU median {statistics.median(full):.3f} s, "
          f"max {max(full):.3f} s")


def part2(cards: int, nice: int, quick_nice: int, interval: float) -> None:
    shown: dict[tuple[int, int], float] = {}
    lock = threading.Lock()

    def on_odds(odds) -> None:
        with lock:
            shown.setdefault((odds.card, odds.samples), time.monotonic())

    sink = OddsSink(estimate=OddsProcess(nice), quick_estimate=OddsProcess(quick_nice), on_odds=on_odds)
    controller = Controller(Journal(":memory:"), sinks=[sink])
    try:
        for text in START:
            controller.handle(text)
        time.sleep(5.0)  # the child starts (imports numpy) and answers the start of the race
        asked = {}
        for i, text in enumerate(CARDS[:cards], start=1):
            with sink._cv:
                sink._cache.clear()
            asked[i] = time.monotonic()
            controller.handle(text)
            time.sleep(interval)
        time.sleep(max(0.0, 10.0 - interval))  # the last card's full estimate
        quick_lat, full_lat = [], []
        for i, t in asked.items():
            q = shown.get((i, QUICK))
            f = shown.get((i, SAMPLES))
            quick_lat.append(q - t if q else None)
            full_lat.append(f - t if f else None)
        fmt = lambda xs: " ".join("-" if x is None else f"{x:.2f}" for x in xs)  # noqa: E731
        print(f"  quick odds shown after (s), per card: {fmt(quick_lat)}")
        print(f"  full odds shown after (s), per card:  {fmt(full_lat)}  ('-': superseded by the next card)")
        got = [x for x in quick_lat if x is not None]
        print(f"  cards with odds: {len(got)}/{len(asked)}; quick odds median {statistics.median(got):.2f} s, "
              f"max {max(got):.2f} s" if got else f"  cards with odds: 0/{len(asked)}")
    finally:
        sink.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=6)
    parser.add_argument("--busy", type=int, default=0, help="busy loops to start for part 2")
    parser.add_argument("--nice", type=int, default=NICE, help="the full estimates' child's nice value")
    parser.add_argument("--quick-nice", type=int, default=QUICK_NICE, help="the quick estimates' child's nice")
    parser.add_argument("--interval", type=float, default=2.5, help="seconds from one card to the next")
    parser.add_argument("--skip-cpu", action="store_true", help="part 2 only")
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}, load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.skip_cpu:
        part1(args.cards)
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
             for _ in range(args.busy)]
    try:
        print(f"odds sink, quick child at nice {args.quick_nice}, full child at nice {args.nice}, a card every {args.interval:g} s, "
              f"{args.busy} busy loops (pids {' '.join(str(p.pid) for p in loops) or '-'}):")
        part2(args.cards, args.nice, args.quick_nice, args.interval)
    finally:
        for p in loops:
            os.kill(p.pid, signal.SIGTERM)
            p.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
