"""Print the current game, read from the journal (the same replay the kiosk does on start).

Safe to run while `hotstreak run` is running: the journal is SQLite in WAL mode.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from companion.kiosk.config import Config, load_config
from companion.kiosk.config_path import HELP
from companion.kiosk.controller import replay, status_dict
from companion.kiosk.faults import read_faults
from companion.rules import load_deck, load_track


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object (default: a few lines of text)")
    p.add_argument("--db", help="journal file (default: from the config)")
    p.add_argument("--config", help=HELP)


def run(args: argparse.Namespace) -> int:
    cfg = load_config(args.config)
    from companion.kiosk.recovery import check, open_for_reading
    path = Path(args.db or cfg.journal)
    with open_for_reading(path) as journal:
        entries = journal.current()
        table = replay(entries, load_track(cfg.track), load_deck(cfg.deck))
        identity = journal.identity
    table.default_names = tuple(cfg.names)
    for problem, fix in check(path):  # on stderr, so --json stays one object
        print(f"journal: {problem} -> {fix}", file=sys.stderr)
    status = status_dict(table)
    _add_codes(status, cfg, path, identity, entries)
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
            code = f" (a phone takes it with code {seat['code']})" if seat["code"] else ""
            print(f"  {seat['name']}: ${seat['money']}, {held}{double}{code}")
        if status["join_url"]:
            print(f"  phones join at {status['join_url']}")
        for fault in faults:
            print(f"  {fault.line()}")
    return 0


def _add_codes(status: dict[str, Any], cfg: Config, path: Path, identity: str | None, entries: list[Any]) -> None:
    """The phone page's codes as the screen shows them: ``join_url`` (its QR code's URL, None when the page never
    ran here) and each seat's consent ``code`` (None where none)."""
    from companion.web.guard import lan_address
    from companion.web.seats import join_link, kept_address, table_codes
    join, codes = table_codes(path, identity, entries)
    address = kept_address(path)
    if address is None and join is not None:  # an older kiosk kept none: the config's address
        host = cfg.web_host or "127.0.0.1"
        address = f"http://{lan_address() if host in ('0.0.0.0', '::') else host}:{cfg.web_port}/"
    status["join_url"] = join_link(address, join) if join is not None and address else None
    for number, seat in enumerate(status["seats"], 1):
        seat["code"] = codes.get(number)
