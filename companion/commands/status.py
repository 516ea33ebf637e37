"""Print the current game, read from the journal (the same replay the kiosk does on start).

Safe to run while `hotstreak run` is running: the journal is SQLite in WAL mode.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

from companion.kiosk.config import load_config
from companion.kiosk.controller import replay, status_dict
from companion.kiosk.faults import read_faults
from companion.rules import load_deck, load_track


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object (default: a few lines of text)")
    p.add_argument("--db", help="journal file (default: from the config)")
    p.add_argument("--config", help="config file (TOML)")


def run(args: argparse.Namespace) -> int:
    cfg = load_config(args.config)
    from companion.kiosk.recovery import check, open_for_reading
    path = Path(args.db or cfg.journal)
    with open_for_reading(path) as journal:
        table = replay(journal.current(), load_track(cfg.track), load_deck(cfg.deck))
    table.default_names = tuple(cfg.names)
    for problem, fix in check(path):  # on stderr, so --json stays one object
        print(f"journal: {problem} -> {fix}", file=sys.stderr)
    status = status_dict(table)
    faults = read_faults(path)  # a failing sink of the kiosk on this journal, once per cause
    status["sink_errors"] = [asdict(f) for f in faults]
    if args.json:
        print(json.dumps(status))
    else:
        print(f"phase {status['phase']}, {status['variant'] or 'no'} game, race {status['race']}, "
              f"{status['players']} players, "
              f"pass {status['pass']}, card {status['revealed']}")
        for name, m in status["mascots"].items():
            if m["status"] == "racing":
                how = ", ".join(w for w, on in (("fallen", m["fallen"]), ("turned around", m["facing"] == "backward"))
                                if on)
                print(f"  {name}: lane {m['lane']}, space {m['space']}" + (f" ({how})" if how else ""))
            else:
                print(f"  {name}: {m['status']}")
        if status["placings"]:
            print("  placings: " + ", ".join(f"{k} {v}" for k, v in status["placings"].items()))
        side = status["side_bet"]
        if side["card"]:
            answer = {None: "not answered yet", True: "YES", False: "NO"}[side["answer"]]
            how = "scanned" if side["scanned"] else "assumed: the kiosk's next card, scan the real one if it differs"
            print(f"  side bet {side['code']} ({side['card']}, {how}): {side['question']} {answer}")
        for seat in status["seats"]:
            if seat["bet"]:
                bet = seat["bet"]
                held = f"{bet['mascot'] or '-'} and {bet['answer'] or '-'}"
            else:
                held = ", ".join(f"{t['ticket']} {t['side']}" for t in seat["tickets"]) or "no tickets"
            double = f", double: {seat['double']}" if seat["double"] else ""
            print(f"  {seat['name']}: ${seat['money']}, {held}{double}")
        for fault in faults:
            print(f"  {fault.line()}")
    return 0
