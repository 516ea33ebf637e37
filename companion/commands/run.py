"""Run the kiosk controller: scanner in, rules engine, LED lanes, screen and voice out, journal.

On a Raspberry Pi this is what the systemd service starts. On a desktop (`--hardware mock`) scans come from
the keyboard (type a code, Enter) or from `--scanner PORT` (any serial port, e.g. a pty), and the LED strip is
recorded, not lit. A game in progress resumes from the journal after a restart, a kill or a power cut.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import signal
import sys
from pathlib import Path

from companion.interrupt import INTERRUPTED, hold
from companion.kiosk.config import load_config, rule_data
from companion.kiosk.config_path import HELP
from companion.kiosk.wiring import build, install_signal_handlers

# Until the main loop's handlers are in, Ctrl-C ends the start-up quietly (companion.interrupt); then it stops
# the loop cleanly (LEDs off, journal closed) and `run` exits 130.
HANDLES_INTERRUPT = True


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help=HELP)
    p.add_argument("--hardware", choices=["auto", "pi", "mock"],
                   help="device backends (default: $HOTSTREAK_HARDWARE, then the config's hardware, then auto)")
    p.add_argument("--scanner", metavar="PORT", help="scanner serial port (default: from the config)")
    p.add_argument("--db", help="journal file (default: from the config)")
    p.add_argument("--track", metavar="F", help="track data file (TOML); overrides the config's paths.track")
    p.add_argument("--deck", metavar="F", help="deck data file (TOML); overrides the config's paths.deck")
    p.add_argument("--display", default="auto", choices=["auto", "kmsdrm", "window", "dummy", "none"],
                   help="screen (default: full screen on a Pi, a window on a desktop)")
    p.add_argument("--audio", default="auto", choices=["auto", "mock", "none"], help="voice and sound effects")
    p.add_argument("--quiet", action="store_true", help="do not print the race call")
    p.add_argument("--web", metavar="[HOST:]PORT",
                   help="serve the table's phone page (default: config [web]; on a Pi 0.0.0.0:8080; 'off' = none)")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    cfg = load_config(args.config)
    cfg = dataclasses.replace(cfg, track=Path(args.track) if args.track else cfg.track,
                              deck=Path(args.deck) if args.deck else cfg.deck)
    rule_data(cfg)  # the same check as `hotstreak config`, before any device opens
    if args.db:
        check_db_folder(args.db)
    kiosk = build(cfg, mode=args.hardware, db=args.db or cfg.journal, scanner=args.scanner,
                  console=None if args.quiet else sys.stdout, display=args.display, audio=args.audio,
                  prerender=True, web=getattr(args, "web", None))
    hold("run")
    install_signal_handlers(kiosk)
    if not args.quiet and sys.stdout.isatty():
        print(waiting_line(kiosk.hardware.mode, args.scanner or (cfg.scanner_port if kiosk.hardware.mode == "pi"
                                                                 else None)), flush=True)
    kiosk.run_forever()
    return INTERRUPTED if kiosk.stopped_by == signal.SIGINT else 0


def check_db_folder(db: str) -> None:
    """Refuse a ``--db`` file whose folder does not exist (a typo must not create folders; only the default
    journal location is created). Raises ValueError naming the folder."""
    folder = Path(db).parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise ValueError(f"--db {db}: the folder {folder} {what} (expected a journal file in an existing folder)")


def waiting_line(mode: str, port: str | None) -> str:
    """What a terminal is told once the table takes input: where codes come from and how to stop."""
    if mode == "mock" and port is None:
        return ("Waiting for codes: type one per line and press Enter (HS-NEW starts a game, HS-UNDO takes the "
                "last one back); Ctrl-C stops.")
    return f"Waiting for codes from the scanner on {port}; Ctrl-C stops."
