"""Journal bench: start-up and one undo with many finished games in the file (goal: both under 30 ms with 1,000).

Builds a journal of N finished games (the sample game, 3 races with betting) plus a game in progress, the way
the kiosk leaves it (every game summarised), then times what the kiosk does at start (open the file, replay
the current game, read the form line, look for games without a summary) and one undo (store it, replay).

    python bench/journal_bench.py [--games 1000] [--repeat 7]

Prints the figures; docs/bench.md quotes them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.kiosk.controller import Controller  # noqa: E402
from companion.kiosk.history import backfill  # noqa: E402
from companion.kiosk.journal import Journal  # noqa: E402
from companion.rules.table import Table  # noqa: E402
from companion.tools.demo import parse_script, script_path  # noqa: E402

ORDER = {"side_bet_order": list(range(12))}


def sample_game() -> list[str]:
    """The sample game's accepted scans (its two deliberate mistakes left out)."""
    table, lines = Table(), []
    for text, _ in parse_script(script_path().read_text()):
        try:
            table.apply(text, ORDER if text.startswith("HS-PLAYERS") else {})
        except Exception:  # noqa: BLE001 - the sample's deliberate mistakes
            continue
        lines.append(text)
    assert table.phase == "game-over"
    return lines


def build(path: Path, games: int) -> tuple[int, float, float]:
    """Write ``games`` finished games and half a game in progress in the first (unversioned) schema, migrate
    it and summarise every game; returns (rows, seconds to migrate, seconds to summarise)."""
    import sqlite3
    lines = sample_game()
    rows = []
    at = 1.7e9
    for _ in range(games):
        for text in lines:
            at += 5
            rows.append((at, "scan", text, json.dumps(ORDER if text.startswith("HS-PLAYERS") else {})))
    for text in lines[: len(lines) // 2]:
        rows.append((at, "scan", text, json.dumps(ORDER if text.startswith("HS-PLAYERS") else {})))
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE inputs (id INTEGER PRIMARY KEY, at REAL NOT NULL, source TEXT NOT NULL, "
                   "text TEXT NOT NULL, data TEXT NOT NULL DEFAULT '{}')")
        db.executemany("INSERT INTO inputs (at, source, text, data) VALUES (?, ?, ?, ?)", [r[:4] for r in rows])
    db.close()
    started = time.perf_counter()
    journal = Journal(path)
    migrate = time.perf_counter() - started
    started = time.perf_counter()
    backfill(journal)  # what the kiosk's first start after a migration does, once
    took = time.perf_counter() - started
    journal.close()
    return len(rows), migrate, took


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.db"
        rows, migrate, summarise = build(path, args.games)
        size = path.stat().st_size
        starts, undos = [], []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            journal = Journal(path)
            controller = Controller(journal)
            t1 = time.perf_counter()
            result = controller.handle("HS-UNDO", "button")
            t2 = time.perf_counter()
            assert result.accepted, result.message
            starts.append((t1 - t0) * 1000)
            undos.append((t2 - t1) * 1000)
            journal.close()
        with Journal(path) as journal:
            finished = len(journal.games())
    print(f"journal: {args.games} finished games + 1 in progress, {rows} inputs, {size / 1e6:.1f} MB, "
          f"{finished} game summaries")
    print(f"one-time migration from the first schema (user_version 0 -> 2): {migrate * 1000:.0f} ms")
    print(f"one-time summaries of {args.games} games (after the first start on a migrated journal, one game per "
          f"idle loop pass): {summarise:.2f} s in all, {summarise / max(args.games, 1) * 1000:.1f} ms per game")
    print(f"start-up (open, replay the current game, form line): median {statistics.median(starts):.1f} ms, "
          f"max {max(starts):.1f} ms over {args.repeat}")
    print(f"one undo (store, replay the current game): median {statistics.median(undos):.1f} ms, "
          f"max {max(undos):.1f} ms over {args.repeat}")
    goal = max(statistics.median(starts), statistics.median(undos)) < 30
    print(f"goal (both under 30 ms): {'met' if goal else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
