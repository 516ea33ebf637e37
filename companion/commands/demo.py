"""The whole table on a desktop: mock hardware and a scripted scanner replaying a sample game.

With a screen: the table in a window (keys: u undo, g go, n to type a player's name), at table pace; the final
standings stay up until the window is closed. `--headless`: no window, no pauses; prints the race call and exits
0 at the end of the game. Without a screen (Linux with no $DISPLAY or $WAYLAND_DISPLAY) it says so in one line
at its start. The demo keeps its journal in memory, so it never touches a real game's journal.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import random
import signal
import sys
import threading
from pathlib import Path

from companion.interrupt import INTERRUPTED
from companion.kiosk.config import load_config
from companion.kiosk.config_path import HELP
from companion.tools.demo import script_path
from companion.kiosk.wiring import build, install_signal_handlers

HANDLES_INTERRUPT = True  # as `run`: a quiet 130 during start-up, then the main loop stops cleanly

DEMO_SEED = 2026  # the demo's realised randomness (side bet order, announcer phrasing) is the same every run


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--headless", action="store_true", help="no window and no pauses; print the race call")
    p.add_argument("--speed", type=float, default=1.0, help="table pace multiplier (2 = twice as fast)")
    p.add_argument("--script", help="scan script to replay (default: the bundled sample game)")
    p.add_argument("--config", help=HELP)
    p.add_argument("--web", metavar="[HOST:]PORT",
                   help="serve the phone page (default: 127.0.0.1:8080 with a window, off with --headless; "
                        "0.0.0.0:8080 lets phones on the same Wi-Fi watch)")


def no_screen() -> bool:
    """True where the demo's window cannot open: Linux without a desktop session (as hardware.display finds)."""
    return sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if not 0 < args.speed < math.inf:
        raise ValueError(f"--speed {args.speed}: expected a positive number (2 = twice as fast)")
    cfg = load_config(args.config)
    script = Path(args.script) if args.script else script_path()
    if script.is_dir():
        raise ValueError(f"--script {str(script)!r} is a folder (expected a scan script file, one code per line)")
    if not script.is_file():
        raise ValueError(f"--script {str(script)!r}: no such file (expected a scan script, one code per line)")
    if not args.headless and no_screen():
        print("demo: no screen here ($DISPLAY and $WAYLAND_DISPLAY are unset), so the game plays unseen at table "
              "pace for minutes; hotstreak demo --headless prints the race call in a second",
              file=sys.stderr, flush=True)
    speed = args.speed
    stopping = threading.Event()  # set with the kiosk's stop: a scripted wait ends at once on SIGTERM
    sleep = (lambda s: None) if args.headless else (lambda s: stopping.wait(s / speed))
    web = args.web or ("off" if args.headless else "8080")
    kiosk = build(cfg, mode="mock", db=":memory:", script=script, sleep=sleep, rng=random.Random(DEMO_SEED),
                  window=False, console=sys.stdout, display="none" if args.headless else "window",
                  audio="none" if args.headless else "auto", web=web)
    stopping = kiosk.stop
    install_signal_handlers(kiosk)
    address = kiosk.controller.join_url_source
    if address is not None:  # after the handlers: a Ctrl-C or SIGTERM from here on ends the demo cleanly
        print(f"Phone page: {address()}", flush=True)
    scanner = kiosk.hardware.scanner
    controller = kiosk.controller
    from companion.screen.sink import ScreenSink
    screen = next((s for s in controller.sinks if isinstance(s, ScreenSink)), None)
    told: list[bool] = []

    def finished() -> bool:  # with a window: hold the final screen until the window is closed (kiosk.stop)
        done = scanner.done.is_set() and controller.inputs.empty()
        if done and screen is not None and not told:
            told.append(True)
            print("demo: the game is over; close the window to end", flush=True)
        return done and screen is None

    kiosk.run_forever(until=finished)
    phase = controller.table.phase
    if kiosk.stopped_by == signal.SIGINT:
        return INTERRUPTED
    if kiosk.stop.is_set():  # the window closed or SIGTERM: a normal end of a demo
        return 0
    if phase != "game-over":
        print(f"demo ended in phase {phase}, expected game-over", file=sys.stderr)
        return 1
    return 0
