"""Writes tests/data/race-events.jsonl: the expected event stream of every case of tests/data/race-cases.jsonl.

One line per case, in the same order: ``{"name": case name, "events": [...]}``, the ``"events"`` list that
``hotstreak simulate --json CARD...`` prints for the case's cards. Run once from the repository root:

    python tests/data/make_race_events.py > tests/data/race-events.jsonl

then read the diff against docs/rules.md before committing it: the file is the golden record that
tests/rules/test_race_cases.py compares the whole event stream with, so a change of the engine's events shows there.
"""

import contextlib
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.cli import main  # noqa: E402

for line in (Path(__file__).parent / "race-cases.jsonl").read_text().splitlines():
    if not line.strip():
        continue
    case = json.loads(line)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        if main(["simulate", "--json", *case["cards"]]) != 0:
            raise SystemExit(f"case {case['name']}: hotstreak simulate failed")
    print(json.dumps({"name": case["name"], "events": json.loads(out.getvalue())["events"]}))
