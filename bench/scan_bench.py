"""Scan-to-LED latency of the kiosk (issue 4): bytes written to a pseudo-terminal -> LED frame recorded.

The real pipeline runs in this process: the pyserial reader thread on the pty, the scan parser, the
controller's queue and main loop, the journal (SQLite, WAL, synchronous=FULL, in a temp folder), the table
and rules engine, the lights renderer and a mock strip that records each frame with its time. Each scan
alternates a race card (Hurley +3) and HS-UNDO, so every scan changes the frame. Prints the median and
p99 over the scans; goal: p99 under 20 ms.

    python bench/scan_bench.py [--scans 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scans", type=int, default=200)
    args = parser.parse_args()
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = parse_config("[audio]\nvoice = false\neffects = false\n")
        kiosk = build(cfg, mode="mock", db=Path(tmp) / "journal.db", scanner=port, display="none", audio="none")
        controller = kiosk.controller
        for text in ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO"):
            assert controller.handle(text).accepted
        strip = kiosk.hardware.leds
        loop = threading.Thread(target=kiosk.run_forever, daemon=True)
        loop.start()
        while not kiosk.hardware.scanner.connected:
            time.sleep(0.01)
        time.sleep(0.3)  # let the reader settle after opening the port
        latencies = []
        for i in range(args.scans):
            code = b"HS15\r\n" if i % 2 == 0 else b"HS-UNDO\r\n"
            frames = len(strip.frames)
            t0 = time.monotonic()
            os.write(master, code)
            deadline = t0 + 2.0
            while len(strip.frames) == frames and time.monotonic() < deadline:
                time.sleep(0.0002)
            if len(strip.frames) == frames:
                raise SystemExit(f"scan {i} ({code!r}) produced no frame within 2 s")
            latencies.append((strip.frames[frames].time - t0) * 1000)
            time.sleep(0.005)
        kiosk.stop.set()
        loop.join(5)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(round(0.99 * len(latencies))) - 1)]
    print(f"scan -> LED frame over a pty, {len(latencies)} scans: median {statistics.median(latencies):.2f} ms, "
          f"p99 {p99:.2f} ms, max {latencies[-1]:.2f} ms (goal: p99 < 20 ms)")
    os.close(master)
    os.close(slave)


if __name__ == "__main__":
    main()
