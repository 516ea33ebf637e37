"""The journal's SQLite schema (version 2, ``PRAGMA user_version``) and its migration from the first one.

See :mod:`companion.kiosk.journal` for what the tables hold.

>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> migrate(db, ":memory:", 0), db.execute("PRAGMA user_version").fetchone()[0]
(False, 2)
>>> check_schema(db, ":memory:")
"""

from __future__ import annotations

import sqlite3

from companion.kiosk.errors import JournalError
from companion.kiosk.journal_file import ASIDE

SCHEMA_VERSION = 2
UNDO = "HS-UNDO"
NEW = "HS-NEW"
COLUMNS = ("id", "at", "source", "text", "data")

V0 = """
CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    source TEXT NOT NULL,
    text TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}'
);
"""
V2 = """
ALTER TABLE inputs ADD COLUMN kind TEXT;
ALTER TABLE inputs ADD COLUMN undone_by INTEGER;
ALTER TABLE inputs ADD COLUMN skipped TEXT;
CREATE INDEX IF NOT EXISTS inputs_starts ON inputs(id) WHERE kind = 'new' AND undone_by IS NULL;
CREATE TABLE IF NOT EXISTS games (
    start_id INTEGER PRIMARY KEY,
    end_id INTEGER,
    at REAL NOT NULL,
    summary TEXT NOT NULL
);
"""
META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


def kind_of(text: str) -> str | None:
    """The ``kind`` column of an input: ``new`` for HS-NEW, ``undo`` for HS-UNDO, else None."""
    t = text.strip().upper()
    return "new" if t == NEW else "undo" if t == UNDO else None


def check_schema(db: sqlite3.Connection, path: str) -> None:
    """Raise JournalError naming ``path`` when ``db`` lacks the inputs table or one of its columns."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "inputs" not in tables:
        raise JournalError(path, "damaged", "has no inputs table", ASIDE)
    columns = {r[1] for r in db.execute("PRAGMA table_info(inputs)")}
    missing = [c for c in (*COLUMNS, "kind", "undone_by", "skipped") if c not in columns]
    if missing:
        raise JournalError(path, "damaged", f"the inputs table has no column {', '.join(missing)} "
                           "(renamed or edited by hand?)", ASIDE)


def migrate(db: sqlite3.Connection, path: str, version: int) -> bool:
    """Bring a version 0/1 file (or a new one) open as ``db`` to :data:`SCHEMA_VERSION` in one transaction.
    Returns whether there was anything to migrate (an older version, or inputs of the first schema). Raises
    JournalError naming ``path`` when its inputs table lacks a column."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(V0)
        columns = {r[1] for r in db.execute("PRAGMA table_info(inputs)")}
        missing = [c for c in COLUMNS if c not in columns]
        if missing:
            raise JournalError(path, "damaged", f"the inputs table has no column {', '.join(missing)} "
                               "(renamed or edited by hand?)", ASIDE)
        for statement in V2.split(";"):
            if statement.strip() and not (statement.strip().startswith("ALTER") and
                                          statement.split()[5] in columns):
                db.execute(statement)
        stack: list[int] = []
        undone: list[tuple[int, int]] = []
        kinds: list[tuple[str, int]] = []
        for entry_id, text in db.execute("SELECT id, text FROM inputs ORDER BY id").fetchall():
            kind = kind_of(text)
            if kind:
                kinds.append((kind, entry_id))
            if kind == "undo":
                if stack:
                    undone.append((entry_id, stack.pop()))
            else:
                stack.append(entry_id)
        db.executemany("UPDATE inputs SET kind = ? WHERE id = ?", kinds)
        db.execute("UPDATE inputs SET kind = 'v0' WHERE kind IS NULL")
        db.executemany("UPDATE inputs SET undone_by = ? WHERE id = ?", undone)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return bool(version or undone or kinds)
