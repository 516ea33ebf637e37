"""The event-sourced journal: every accepted input, in order, in SQLite (WAL, synchronous=FULL).

The state of the table is the replay of the journal. A row is written and committed before the input is
acted on, so a power cut or kill -9 at any moment loses no accepted input and applies none twice. Undo is an
input like any other (``HS-UNDO``); ``effective()`` resolves it by taking back the last effective input.

Schema: ``inputs(id INTEGER PRIMARY KEY, at REAL, source TEXT, text TEXT, data TEXT)`` where ``data`` is a
JSON object with realised randomness (e.g. the shuffled side bet order of a new game), never a seed.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    source TEXT NOT NULL,
    text TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}'
);
"""
UNDO = "HS-UNDO"


@dataclass(frozen=True)
class Entry:
    """One journaled input: ``at`` in seconds since the epoch, ``source`` scan|button|key|script."""

    id: int
    at: float
    source: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


class Journal:
    """An append-only input log in SQLite. ``path`` may be ":memory:" for tests.

    Raises sqlite3.Error if the file cannot be opened or written (the caller shows it: without a journal the
    table must not play on as if it were safe).
    """

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def append(self, text: str, source: str, at: float, data: dict[str, Any] | None = None) -> Entry:
        """Store one input durably (committed on return) and return it with its id."""
        payload = json.dumps(data or {}, sort_keys=True)
        cur = self._db.execute("INSERT INTO inputs (at, source, text, data) VALUES (?, ?, ?, ?)",
                               (at, source, text, payload))
        return Entry(int(cur.lastrowid), at, source, text, data or {})

    def discard(self, entry_id: int) -> None:
        """Remove an input that was stored and then refused (it changed nothing)."""
        self._db.execute("DELETE FROM inputs WHERE id = ?", (entry_id,))

    def entries(self) -> list[Entry]:
        rows = self._db.execute("SELECT id, at, source, text, data FROM inputs ORDER BY id").fetchall()
        return [Entry(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    def effective(self) -> list[Entry]:
        """The inputs that count: each ``HS-UNDO`` takes back the last input still counting."""
        stack: list[Entry] = []
        for entry in self.entries():
            if entry.text == UNDO:
                if stack:
                    stack.pop()
            else:
                stack.append(entry)
        return stack

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
