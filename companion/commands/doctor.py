"""Check this machine for the kiosk: scanner, SPI, groups, audio, display, voice, console blanking, config.

Prints one line per problem with its fix (``check: problem -> fix``), or "all good". Exit status 0 when all
is well, 1 when problems were found. Off a Raspberry Pi (or with hardware mock) the Pi-only checks are
skipped (one note) and a laptop table's needs are checked for the user running it (display, dialout, input).
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
from pathlib import Path

from companion.kiosk.config_path import config_location
from companion.tools import doctor
from companion.tools.doctor_laptop import is_a_pi


def _mock(config: str | None) -> bool:
    """Hardware mock chosen by $HOTSTREAK_HARDWARE, else by the config file's ``hardware``."""
    chosen = os.environ.get("HOTSTREAK_HARDWARE", "").strip().lower()
    if chosen in ("", "auto") and config is not None:
        try:
            from companion.kiosk.config import load_config
            chosen = load_config(config).hardware
        except Exception:  # noqa: BLE001 - a bad config is reported by its own check
            chosen = "auto"
    return chosen == "mock"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", default="/", help="check the filesystem tree under DIR instead of / (for tests)")
    p.add_argument("--user", help=f"the user to check: on a Pi the service user (default: {doctor.SERVICE_USER}), "
                                  "on a laptop the one who runs the table (default: you)")
    p.add_argument("--scanner", metavar="PORT", help=f"the scanner port (default: {doctor.SCANNER_LINK})")
    p.add_argument("--config", metavar="F", help="also check that this config file is valid (default: the one every "
                                                 "command reads, docs/config.md, when it exists)")
    p.add_argument("--db", metavar="F", help="also check this journal file (default: the config's journal, if it exists)")
    p.add_argument("--json", action="store_true",
                   help='print one JSON object: {"ok": bool, "problems": [{"check", "message", "fix"}], "notes": []}')


def run(args: argparse.Namespace) -> int:
    root = Path(args.root)
    if not root.is_dir():
        raise ValueError(f"--root {args.root!r} is not a directory")
    journal = args.db
    if journal is None and args.root == "/":
        try:
            from companion.kiosk.config import load_config
            journal = str(load_config(args.config).journal)
        except Exception:  # noqa: BLE001 - a bad config is reported by its own check
            journal = None
    read = config_location(args.config).to_read()
    config = str(read) if read is not None else None
    on_pi = False if _mock(config) else None
    user = args.user or (doctor.SERVICE_USER if on_pi is None and is_a_pi(root) else getpass.getuser())
    report = doctor.run_checks(root, user=user, scanner_port=args.scanner, config_path=config,
                               journal_path=journal, on_pi=on_pi)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        for problem in report.problems:
            print(problem.line())
        for note in report.notes:
            print(f"note: {note}")
        if report.ok:
            print("all good")
    return 0 if report.ok else 1
