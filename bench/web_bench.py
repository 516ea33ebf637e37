"""Scan-to-page latency of the phone page with 12 phones connected, and the kiosk's scan-to-LED
latency with and without them.

The real kiosk runs in this process as ``hotstreak run`` wires it (pty scanner, controller, SQLite journal
in a temp folder, lights, live odds in their thread, the phone page on 127.0.0.1 only; both runs have the
odds, so the difference is the page). A second process
plays the phones: N WebSocket clients (loopback only) that note when each view arrives (CLOCK_MONOTONIC is
shared by both processes), plus ``--stuck`` clients that connect and never read (a phone asleep or broken). Scans alternate a race card and HS-UNDO, one every ``--gap`` seconds; a scan's
page latency is from the bytes written to the pty to the first view showing it, per phone. A first run
without the page gives the scan-to-LED baseline (compare bench/scan_bench.py).

    python bench/web_bench.py [--phones 12] [--stuck 2] [--scans 150] [--gap 0.15]
"""

from __future__ import annotations

import argparse
import json
import os
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
from companion.odds.sink import OddsSink  # noqa: E402

PHONES = r"""
import asyncio, json, sys, time
from websockets.asyncio.client import connect
url, n, stuck = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
origin = url.rstrip("/")
seen = [[] for _ in range(n)]
async def phone(i, ready):
    async with connect(url.replace("http://", "ws://") + "ws", origin=origin, max_size=None) as ws:
        first = True
        async for text in ws:
            now = time.monotonic()
            view = json.loads(text)
            seen[i].append((now, view.get("revealed")))
            if first:
                ready.release(); first = False
async def frozen():  # a phone that connects and then never reads (asleep, broken): its buffers fill up
    async with connect(url.replace("http://", "ws://") + "ws", origin=origin, max_queue=1) as ws:
        await asyncio.Event().wait()
async def main():
    ready = asyncio.Semaphore(0)
    tasks = [asyncio.create_task(frozen()) for _ in range(stuck)]
    tasks += [asyncio.create_task(phone(i, ready)) for i in range(n)]
    for _ in range(n):
        await ready.acquire()
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    for t in tasks:
        t.cancel()
    print(json.dumps(seen), flush=True)
asyncio.run(main())
"""


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(q * len(values))) - 1))]


def run(phones: int, scans: int, gap: float, web: bool, stuck: int = 0) -> tuple[list[float], list[float]]:
    master, slave = os.openpty()
    tty.setraw(slave)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = parse_config("[audio]\nvoice = false\neffects = false\n")
        # without the page, the live odds are added by hand: the page turns them on (as a screen does)
        kiosk = build(cfg, mode="mock", db=Path(tmp) / "journal.db", scanner=os.ttyname(slave), display="none",
                      audio="none", web="127.0.0.1:0" if web else "off", extra_sinks=None if web else [OddsSink()])
        controller = kiosk.controller
        for text in ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO"):
            assert controller.handle(text).accepted
        strip = kiosk.hardware.leds
        loop = threading.Thread(target=kiosk.run_forever, daemon=True)
        loop.start()
        client = None
        if web:
            url = controller.join_url_source()
            client = subprocess.Popen([sys.executable, "-c", PHONES, url, str(phones), str(stuck)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)
            assert client.stdout is not None and client.stdout.readline().strip() == "ready"
        while not kiosk.hardware.scanner.connected:
            time.sleep(0.01)
        time.sleep(0.3)
        led, sent = [], []
        for i in range(scans):
            code, revealed = (b"HS15\r\n", 1) if i % 2 == 0 else (b"HS-UNDO\r\n", 0)
            frames = len(strip.frames)
            t0 = time.monotonic()
            os.write(master, code)
            while len(strip.frames) == frames and time.monotonic() < t0 + 2.0:
                time.sleep(0.0002)
            if len(strip.frames) == frames:
                raise SystemExit(f"scan {i} ({code!r}) produced no LED frame within 2 s")
            led.append((strip.frames[frames].time - t0) * 1000)
            sent.append((t0, revealed))
            time.sleep(max(0.0, t0 + gap - time.monotonic()))
        page: list[float] = []
        if client is not None:
            time.sleep(0.5)
            out, _ = client.communicate("stop\n", timeout=30)
            seen = json.loads(out.strip().splitlines()[-1])
            for views in seen:
                for k, (t0, revealed) in enumerate(sent):
                    end = sent[k + 1][0] if k + 1 < len(sent) else float("inf")
                    hit = next((t for t, r in views if t0 <= t < end and r == revealed), None)
                    if hit is None:
                        raise SystemExit(f"a phone never saw scan {k} before the next one")
                    page.append((hit - t0) * 1000)
        kiosk.stop.set()
        loop.join(5)
    os.close(master)
    os.close(slave)
    return led, page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=12)
    parser.add_argument("--scans", type=int, default=150)
    parser.add_argument("--gap", type=float, default=0.15, help="seconds between scans")
    parser.add_argument("--stuck", type=int, default=2, help="extra phones that connect and never read")
    args = parser.parse_args()
    base, _ = run(0, args.scans, args.gap, web=False)
    led, page = run(args.phones, args.scans, args.gap, web=True, stuck=args.stuck)
    phones = f"{args.phones} phones (+{args.stuck} stuck)"
    for name, values in (("scan -> LED, no page", base), (f"scan -> LED, page + {phones}", led),
                         (f"scan -> page, {phones}", page)):
        print(f"{name:45s} {len(values):5d} samples: median {statistics.median(values):6.2f} ms, "
              f"p99 {pct(values, 0.99):6.2f} ms, max {max(values):6.2f} ms")
    print("goals: scan -> page p99 < 300 ms; scan -> LED p99 unchanged with the page (< 20 ms)")


if __name__ == "__main__":
    main()
