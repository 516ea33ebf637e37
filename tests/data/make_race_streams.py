"""Writes tests/data/race-streams.jsonl: whole random races and digests of what the engine made of them.

Each line is one race dealt from the packaged deck as a table deals it (the 4 starting cards and 14 others; each
pass shuffled, 3 burned, 15 revealed) until it is over: ``{"race": k, "cards": [label codes],
"events": sha256 of the JSON event stream, "positions": sha256 of the position string after each card,
"final": the last position}``. ``tests/rules/test_race_streams.py`` plays every race again and compares, so any
change in the events or the state the engine hands out shows there, race by race. Run once from the repository
root, then read the diff (a changed digest is a changed engine):

    python tests/data/make_race_streams.py > tests/data/race-streams.jsonl
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.rules import Race, load_deck  # noqa: E402

RACES = 120
SEED = 2026


def deal(rng: random.Random) -> list[str]:
    """The label codes of one race's reveals, pass after pass (more than any race needs)."""
    deck = list(load_deck())
    starting = [c.code for c in deck if c.starting]
    others = [c.code for c in deck if not c.starting]
    codes = starting + rng.sample(others, 18 - len(starting))
    reveals: list[str] = []
    for _ in range(10):
        rng.shuffle(codes)
        reveals.extend(codes[3:])
    return reveals


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def play(codes: list[str]) -> dict:
    """Push ``codes`` until the race is over: the cards used, the digests of its events and positions."""
    race = Race()
    events, positions, used = [], [], []
    for code in codes:
        if race.is_over:
            break
        events += [e.to_dict() for e in race.push_text(code)]
        positions.append(race.position())
        used.append(code)
    return {"cards": used, "events": digest(json.dumps(events, sort_keys=True)),
            "positions": digest("\n".join(positions)), "final": positions[-1]}


def main() -> None:
    rng = random.Random(SEED)
    for k in range(RACES):
        print(json.dumps({"race": k, **play(deal(rng))}))


if __name__ == "__main__":
    main()
