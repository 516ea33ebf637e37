"""Scan-to-LED latency of the kiosk: bytes written to a pseudo-terminal -> LED frame shown.

The real pipeline runs in this process: the pyserial reader thread on the pty, the scan parser, the
controller's queue and main loop, the journal (SQLite, WAL, synchronous=FULL, in a temp folder), the table
and rules engine, the lights renderer (with its pulses and blinks) and a mock strip. With ``--screen`` the
race screen is drawn too (pygame, SDL dummy driver, 1920x1080) and the live odds run as in the kiosk (the
odds sink's children: a quick estimate at nice 0, then 80,000 samples at nice 10). Scans alternate a race card that moves a
mascot (a different card each time) and HS-UNDO, one every ``--interval`` seconds; the odds cache is
emptied before each scan, so every scan starts a fresh estimate (the worst case: the kiosk caches positions). The latency of a scan is from its bytes written to the strip's first frame rendered
after the controller handled it. Prints p50, p99 and max; goal: p99 under 50 ms.

    python bench/scan_bench.py [--scans 200] [--interval 0.5] [--screen] [--odds] [--busy 2]
    python bench/scan_bench.py --matrix        # screen + odds, a scan every 0.5 s and every 0.1 s
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.kiosk.config import parse_config  # noqa: E402
from companion.kiosk.wiring import build  # noqa: E402
from companion.lights.sink import LightsSink  # noqa: E402
from companion.odds.sink import OddsSink  # noqa: E402

# race cards that move one mascot forward from the start (each gives a new race position)
MOVERS = ["HS03", "HS04", "HS09", "HS10", "HS11", "HS14", "HS15", "HS20", "HS21", "HS22", "HS25", "HS26", "HS31",
          "HS32", "HS33", "HS36", "HS37", "HS42", "HS43", "HS44"]


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, max(0, int(round(q * len(sorted_values))) - 1))]


def measure(scans: int, interval: float, screen: bool, odds_on: bool = True, in_thread: bool = False) -> dict:
    """Run the kiosk on a pty and return ``{"latencies": [ms] sorted, "raw": [ms] in scan order, "odds":
    estimates done}``. ``odds_on`` False takes the odds sink out; True with no screen adds one; ``in_thread``
    runs the estimates in the sink's nice-10 thread instead of its child process (for comparison)."""
    if screen:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = parse_config("[audio]\nvoice = false\neffects = false\n[display]\nwidth = 1920\nheight = 1080\n")
        kiosk = build(cfg, mode="mock", db=Path(tmp) / "journal.db", scanner=port,
                      display="dummy" if screen else "none", audio="none")
        controller = kiosk.controller
        for text in ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO"):
            assert controller.handle(text).accepted
        lights = controller.lights
        assert isinstance(lights, LightsSink)
        odds = next((s for s in controller.sinks if isinstance(s, OddsSink)), None)
        if screen and odds is None:
            raise SystemExit("the screen did not open (no odds sink either): see the log above")
        if odds is not None and not odds_on:
            controller.sinks.remove(odds)
            odds.close()
            odds = None
        elif odds is None and odds_on:
            odds = OddsSink()
            controller.sinks.append(odds)
        if odds is not None and in_thread:
            from companion.odds.sink import in_process
            odds._close_estimators()
            odds.estimate = odds.quick_estimate = in_process
        done = [0]
        processes = (odds.estimate, odds.quick_estimate) if odds is not None else ()
        if odds is not None:  # count the estimates (quick and full); forget the cache so every scan asks anew
            def counted(estimate):
                def run(*args, **kwargs):
                    result = estimate(*args, **kwargs)
                    done[0] += 1
                    return result
                return run

            odds.estimate, odds.quick_estimate = counted(odds.estimate), counted(odds.quick_estimate)
        handled = threading.Event()
        shown: list[float] = []
        events, render = lights.events, lights.render

        def on_events(*args, **kwargs):
            handled.set()
            return events(*args, **kwargs)

        def on_render(*args, **kwargs):
            render(*args, **kwargs)
            if handled.is_set():
                handled.clear()
                shown.append(time.monotonic())

        lights.events, lights.render = on_events, on_render
        loop = threading.Thread(target=kiosk.run_forever, daemon=True)
        loop.start()
        while not kiosk.hardware.scanner.connected:
            time.sleep(0.01)
        time.sleep(1.0)  # let the reader settle and the odds process start
        latencies = []
        for i in range(scans):
            code = MOVERS[(i // 2) % len(MOVERS)].encode() if i % 2 == 0 else b"HS-UNDO"
            before = len(shown)
            if odds is not None:
                with odds._cv:
                    odds._cache.clear()
            t0 = time.monotonic()
            os.write(master, code + b"\r\n")
            deadline = t0 + 2.0
            while len(shown) == before and time.monotonic() < deadline:
                time.sleep(0.0002)
            if len(shown) == before:
                raise SystemExit(f"scan {i} ({code!r}) produced no frame within 2 s")
            latencies.append((shown[before] - t0) * 1000)
            rest = t0 + interval - time.monotonic()
            if rest > 0:
                time.sleep(rest)
        kiosk.stop.set()
        loop.join(5)
        for sink in controller.sinks:
            sink.close()
        for process in processes:
            close = getattr(process, "close", None)
            if close is not None:
                close()
    os.close(master)
    os.close(slave)
    return {"latencies": sorted(latencies), "odds": done[0], "raw": latencies}


def report(label: str, result: dict) -> str:
    lat = result["latencies"]
    return (f"{label}: {len(lat)} scans, p50 {statistics.median(lat):.2f} ms, p99 {percentile(lat, 0.99):.2f} ms, "
            f"max {lat[-1]:.2f} ms; odds estimates finished: {result['odds']} (quick and full)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scans", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.0, help="seconds from one scan to the next")
    parser.add_argument("--screen", action="store_true", help="draw the screen (SDL dummy, 1920x1080)")
    parser.add_argument("--odds", action="store_true", help="run the live odds (as the kiosk does)")
    parser.add_argument("--in-thread", action="store_true", help="odds in a nice-10 thread, not a process")
    parser.add_argument("--busy", type=int, default=0, help="busy loops to run meanwhile (each its own session)")
    parser.add_argument("--matrix", action="store_true",
                        help="screen + odds at 0.5 s and 0.1 s a scan, then screen only and odds only at 0.1 s")
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}, load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
             for _ in range(args.busy)]
    try:
        run_all(args)
    finally:
        for p in loops:  # stopped by their own PID
            os.kill(p.pid, signal.SIGTERM)
            p.wait()


def run_all(args: argparse.Namespace) -> None:
    runs = ([(0.5, True, True), (0.1, True, True), (0.1, True, False), (0.1, False, True)] if args.matrix
            else [(args.interval, args.screen, args.odds)])
    for interval, screen, odds in runs:
        what = " + ".join(w for w, on in (("screen", screen), ("odds", odds)) if on) or "no screen, no odds"
        if odds and args.in_thread:
            what += " (in a thread)"
        if args.busy:
            what += f", {args.busy} busy loops"
        result = measure(args.scans, interval, screen, odds, args.in_thread)
        print(report(f"scan -> LED frame, {what}, a scan every {interval:g} s", result) + " (goal: p99 < 50 ms)",
              flush=True)


if __name__ == "__main__":
    main()
