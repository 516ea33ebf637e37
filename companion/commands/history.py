"""Every evening at this table, from the journal: recent games, standings across evenings, each mascot's form.

Reads the same journal as `hotstreak run` (safe while it runs). Games are the finished ones, newest first;
standings count named seats (HS-NAME-<seat>:<name>) only.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from companion.kiosk.config import load_config, rule_data
from companion.kiosk.config_path import HELP
from companion.kiosk.history import backfill, history_dict, seat_label
from companion.kiosk.recovery import open_for_reading


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object (default: lines of text)")
    p.add_argument("--db", help="journal file (default: from the config)")
    p.add_argument("--config", help=HELP)
    p.add_argument("--limit", type=int, default=10, help="recent games to list (default: %(default)s)")


def run(args: argparse.Namespace) -> int:
    cfg = load_config(args.config)
    if args.limit < 1:
        raise ValueError(f"--limit {args.limit} is not valid (expected 1 or more games)")
    path = Path(args.db or cfg.journal)
    with open_for_reading(path) as journal:
        backfill(journal, *rule_data(cfg))
        info = history_dict(journal, args.limit)
    if args.json:
        print(json.dumps(info))
        return 0
    for line in text_lines(info):
        print(line)
    return 0


def _count(n: int, word: str) -> str:
    """``1 win``, ``2 wins``."""
    return f"{n} {word}{'s' * (n != 1)}"


def text_lines(info: dict[str, Any]) -> list[str]:
    """The text form of :func:`companion.kiosk.history.history_dict`."""
    games = info["games"]
    out = [f"Finished games: {info['count']}" + (f" (the last {len(games)})" if len(games) < info["count"] else "")]
    for g in games:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g["started"])) if g.get("started") else "?"
        seats = sorted(g["seats"], key=lambda s: (s.get("place") or 99, s["seat"]))
        money = ", ".join(f"{seat_label(s)} ${s['money']}" for s in seats)
        winners = ", ".join(next((m.capitalize() for m, p in r["placings"].items() if p == 1), "-") for r in g["races"])
        out.append(f"  {when}  {g['players']} players  {money}  (race winners: {winners})")
    out.append("Standings across evenings:" if info["standings"] else "Standings: no named players yet "
               "(name seats on the phone page, or press n in the desktop window)")
    for i, p in enumerate(info["standings"], 1):
        out.append(f"  {i}. {p['name']}: {p['wins']} win{'s' * (p['wins'] != 1)} in {p['games']} "
                   f"game{'s' * (p['games'] != 1)} over {p['evenings']} evening{'s' * (p['evenings'] != 1)}, "
                   f"${p['money']} in all (best ${p['best']})")
    races = next(iter(info["mascots"].values()))["races"] if info["mascots"] else 0
    out.append(f"Mascot form over {races} race{'s' * (races != 1)}:")
    for m, f in info["mascots"].items():
        avg = f"{f['average_place']:.2f}" if f["average_place"] is not None else "-"
        out.append(f"  {m.capitalize():8} {_count(f['wins'], 'win')}, {_count(f['podiums'], 'podium')}, "
                   f"{_count(f['dqs'], 'DQ')} "
                   f"({f['knocked_out']} knocked out, {f['out_of_bounds']} out of bounds), average place {avg}")
    if info["form"]:
        out.append(f"Form: {info['form']}")
    return out
