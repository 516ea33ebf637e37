"""Check this machine for the kiosk: scanner, SPI, groups, audio, display, voice, console blanking, config.

Prints one line per problem with its fix (``check: problem -> fix``), or "all good". Exit status 0 when all
is well, 1 when problems were found.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from companion.tools import doctor


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", default="/", help="check the filesystem tree under DIR instead of / (for tests)")
    p.add_argument("--user", default=doctor.SERVICE_USER, help="the service user (default: %(default)s)")
    p.add_argument("--scanner", metavar="PORT", help=f"the scanner port (default: {doctor.SCANNER_LINK})")
    p.add_argument("--config", metavar="F", default=os.environ.get("HOTSTREAK_CONFIG") or None,
                   help="also check that this config file is valid (default: $HOTSTREAK_CONFIG if set)")
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
    report = doctor.run_checks(root, user=args.user, scanner_port=args.scanner, config_path=args.config,
                               journal_path=journal)
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
