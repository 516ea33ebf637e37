"""The event-sourced journal: every accepted input, in order, in SQLite (WAL, synchronous=FULL).

The state of the table is the replay of the journal from the latest game start still in effect (the last
``HS-NEW`` not taken back). A row is committed before anything is shown or said, so a power cut or kill -9 at
any moment loses no accepted input and applies none twice. Undo is an input like any other (``HS-UNDO``): its
row names the input it took back (``undone_by``), so finding what counts never reads older games.

Schema version 2 (``PRAGMA user_version``; versions 0 and 1 are the unversioned first schema and are migrated
on open, nothing lost):

- ``inputs(id, at, source, text, data, kind, undone_by, skipped)``: ``at`` epoch seconds, ``source``
  scan|button|key|script, ``data`` a JSON object of realised randomness (never a seed), ``kind`` ``new`` for
  ``HS-NEW``, ``undo`` for ``HS-UNDO``, ``v0`` for any other input migrated from the first schema, else NULL; ``undone_by`` the id of the undo that took it back;
  ``skipped`` why replay could not apply it last time (kept, never deleted; it comes back when it applies).
- ``games(start_id, end_id, at, summary)``: one JSON summary per game (companion.kiosk.history), keyed by
  the ``HS-NEW`` row that started it; ``end_id`` is the input that finished it (NULL: left unfinished). The
  input that ends a game is stored in the same transaction as its summary.
- ``meta(key, value)``: ``identity``, a random id made with the journal (:attr:`Journal.identity`); a file
  without one (an older program's) gets one the first time it is opened for writing.

A file shorter than its header says is checked with SQLite itself at open (``PRAGMA quick_check``, with its
write-ahead log if it has one, so SQLite recovers it), never judged by its size: a disk that filled up during
the last checkpoint leaves such a file and an intact journal. Before each write the journal checks that the file and
its write-ahead log at ``path`` are still the ones it has open (device and inode); when they were deleted or
replaced it raises :class:`JournalReplaced`, and :meth:`Journal.rebuild` writes the game again to a fresh file.

Errors: :class:`JournalError` (one line naming the file, what is wrong and what to do) when the file cannot
be used at start; :class:`JournalWriteError` when an input cannot be saved.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from companion.kiosk.errors import JournalError, JournalReplaced, JournalWriteError
from companion.kiosk.journal_file import (ASIDE, JOURNAL_SUFFIXES, MAGIC, check_file, classify, inode, inode_or_none,
                                          looks_like_journal, set_aside, short_file)
from companion.kiosk.journal_schema import META, NEW, SCHEMA_VERSION, UNDO, check_schema, kind_of, migrate

__all__ = ["ASIDE", "Entry", "JOURNAL_SUFFIXES", "Journal", "JournalError", "JournalReplaced", "JournalWriteError",
           "MAGIC", "NEW", "SCHEMA_VERSION", "UNDO", "check_file", "classify", "looks_like_journal", "set_aside"]

_T = TypeVar("_T")

_SELECT = "SELECT id, at, source, text, data, skipped, kind FROM inputs"
_COUNTS = "kind IS NOT 'undo' AND undone_by IS NULL"
WEB = "web"  # the source of a phone's inputs: an undo at the table never takes one of them back


@dataclass(frozen=True)
class Entry:
    """One journaled input: ``at`` in seconds since the epoch, ``source`` scan|button|key|script;
    ``skipped`` is why the last replay could not apply it (None when it applied); ``legacy`` marks an input
    written by the first schema (companion.kiosk.legacy reads it the way that program meant it)."""

    id: int
    at: float
    source: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    skipped: str | None = None
    legacy: bool = False


def _row(r: tuple[Any, ...]) -> Entry:
    return Entry(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6] == "v0")


class Journal:
    """An append-only input log in SQLite. ``path`` may be ":memory:" for tests; ``timeout`` is how long a
    write waits for another process's lock (s).

    Raises :class:`JournalError` when the file cannot be used (see ``kind``); the kiosk turns that into one
    line and, for ``damaged`` or ``unwritable``, into a moved-aside file or a table that refuses inputs until
    it can save (companion.kiosk.recovery).
    """

    def __init__(self, path: str | Path, *, timeout: float = 2.0, readonly: bool = False):
        self.path = str(path)
        self.timeout = timeout
        self.readonly = readonly
        self._db: sqlite3.Connection | None = None
        self.migrated_from: int | None = None
        self.problem: JournalError | None = None  # why it is open read-only (set by companion.kiosk.recovery)
        self.scratch = False
        self.identity: str | None = None  # made with the journal (None: an older file seen read-only)
        self._files: dict[str, tuple[int, int]] = {}  # path -> (device, inode) of the files opened for writing
        self._lost: str | None = None  # a rebuild that did not finish: why (the next write tries again)
        self._open()

    @classmethod
    def unavailable(cls, path: str | Path, problem: JournalError) -> "Journal":
        """A journal that could not even be read: every read and write raises ``problem``-like errors until
        :meth:`reopen` succeeds."""
        journal = cls.__new__(cls)
        journal.path, journal.timeout, journal.readonly = str(path), 2.0, True
        journal._db, journal.migrated_from, journal.problem, journal.scratch = None, None, problem, False
        journal.identity, journal._files, journal._lost = None, {}, None
        return journal

    def reopen(self) -> None:
        """Open the file again for writing (after a read-only start); raises :class:`JournalError`."""
        self.close()
        self.readonly, self.scratch = False, False
        try:
            self._open()
        except JournalError:
            self.readonly = True
            try:
                self._open()  # keep reading what it can
            except JournalError:
                pass
            raise
        self.problem = None

    # ----- opening ----------------------------------------------------------------------------------
    def _open(self) -> None:
        memory = self.path == ":memory:"
        if not memory:
            check_file(self.path)
            if not self.readonly:
                try:
                    Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise classify(self.path, exc) from None
        try:
            if self.readonly:
                uri = Path(self.path).absolute().as_uri()
                try:
                    db = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None,
                                         check_same_thread=False, timeout=self.timeout)
                    db.execute("SELECT count(*) FROM sqlite_master").fetchone()
                except sqlite3.OperationalError:
                    db = sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None,
                                         check_same_thread=False)
            else:
                db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=self.timeout)
            self._db = db
            if not memory and short_file(self.path):
                self._quick_check()  # the file alone looks cut short: SQLite decides, with the log it has
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                self.close()
                raise JournalError(self.path, "newer", f"written by a newer Hot Streak Companion (schema {version}; "
                                   f"this program reads up to {SCHEMA_VERSION})",
                                   "update the program, or start with another --db")
            self._refuse_foreign()   # before anything is written to it
            if not self.readonly:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                if version < SCHEMA_VERSION:
                    self._migrate(version)
            elif version < SCHEMA_VERSION:
                copy = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                db.backup(copy)  # an older file seen read-only: migrate a copy in memory, not the file
                db.close()
                self._db = copy
                self.scratch = True  # writes go to the copy (game summaries for history), never to the file
                self._migrate(version)
            check_schema(self._conn(), self.path)
            self.identity = self._identity()
            if not self.readonly and not memory:
                self._files = {f: inode(f) for f in (self.path, f"{self.path}-wal")}
        except JournalError:
            self.close()
            raise
        except (sqlite3.Error, OSError) as exc:
            self.close()
            raise classify(self.path, exc) from None

    def _quick_check(self) -> None:
        """SQLite's own check of the file (and of its write-ahead log, which opening recovers); it reads the
        whole file, so it runs only on a file shorter than its header says (:func:`~companion.kiosk.journal_file.short_file`)."""
        rows = self._conn().execute("PRAGMA quick_check").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            raise JournalError(self.path, "damaged", f"the file is damaged (quick_check: {rows[0][0]})", ASIDE)

    def _identity(self) -> str | None:
        """The journal's identity; one is made (and stored) for a file without one when it is writable."""
        db = self._conn()
        if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone():
            row = db.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
            if row or self.readonly:
                return row[0] if row else None
        elif self.readonly:
            return None
        made = uuid.uuid4().hex
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(META)
            db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('identity', ?)", (made,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return str(db.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()[0])

    def _refuse_foreign(self) -> None:
        """Raise JournalError (kind ``path``) for another program's SQLite database: tables, none of them a
        journal's. It is neither written (no migration, no WAL) nor moved aside."""
        tables = {r[0] for r in self._conn().execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        foreign = sorted(t for t in tables if not t.startswith("sqlite_") and t not in ("inputs", "meta", "games"))
        if foreign and "inputs" not in tables:
            self.close()
            raise JournalError(self.path, "path", "is another program's SQLite database (tables: "
                               f"{', '.join(foreign[:5])}), not a Hot Streak journal",
                               "give --db or paths.journal a new file (e.g. journal.db) or a journal "
                               "`hotstreak run` wrote; nothing was changed")

    def _migrate(self, version: int) -> None:
        if migrate(self._conn(), self.path, version):
            self.migrated_from = version

    def _rows(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """Run a read; sqlite3/OS errors become :class:`JournalError` naming the file."""
        try:
            return self._conn().execute(sql, args).fetchall()
        except (sqlite3.Error, OSError) as exc:
            raise classify(self.path, exc) from None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            p = self.problem
            raise JournalError(self.path, p.kind, p.what, p.fix) if p else JournalError(
                self.path, "unwritable", "is closed", "restart the kiosk")
        return self._db

    # ----- writing ----------------------------------------------------------------------------------
    def _write(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``fn(db)`` in one committed transaction; sqlite3/OS errors become :class:`JournalWriteError`."""
        self._check_files()
        if self.readonly and not self.scratch or self._db is None:
            p = self.problem
            raise JournalWriteError(self.path, "unwritable", p.what, p.fix) if p else JournalWriteError(
                self.path, "unwritable", "can't save (the journal is open read-only)", "see the line logged at start")
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                out = fn(db)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return out
        except (sqlite3.Error, OSError) as exc:
            raise classify(self.path, exc, writing=True) from None

    def _check_files(self) -> None:
        """Raise :class:`JournalReplaced` when the file or write-ahead log at ``path`` is not the one open."""
        if self._lost is not None:
            raise JournalReplaced(self.path, "replaced", self._lost, "the kiosk writes the game to a new journal there")
        for name, was in self._files.items():
            try:
                now = inode_or_none(name)
            except OSError as exc:
                raise classify(self.path, exc, writing=True) from None
            if now != was:
                what = "the file" if name == self.path else f"its write-ahead log ({Path(name).name})"
                raise JournalReplaced(self.path, "replaced", f"{what} was {'deleted' if now is None else 'replaced'}"
                                      " while the kiosk ran", "the kiosk writes the game to a new journal there")

    def append(self, text: str, source: str, at: float, data: dict[str, Any] | None = None, *,
               summary: Callable[[Entry], dict[str, Any]] | None = None) -> Entry:
        """Store one input durably (committed on return) and return it with its id. ``summary(entry)``, given
        for the input that ends a game, is that game's summary (companion.kiosk.history): it is stored in the
        same transaction, so the game is in the history as soon as its last input is saved.
        Raises :class:`JournalWriteError` (nothing stored) when it cannot be saved."""
        payload = json.dumps(data or {}, sort_keys=True)

        def insert(db: sqlite3.Connection) -> Entry:
            cur = db.execute("INSERT INTO inputs (at, source, text, data, kind) VALUES (?, ?, ?, ?, ?)",
                             (at, source, text, payload, kind_of(text)))
            entry = Entry(int(cur.lastrowid or 0), at, source, text, data or {})
            if summary is not None:
                game = summary(entry)
                db.execute("INSERT OR REPLACE INTO games (start_id, end_id, at, summary) VALUES (?, ?, ?, ?)",
                           (game["start_id"], game["end_id"], game["ended"] or at, json.dumps(game, sort_keys=True)))
            return entry
        return self._write(insert)

    def last_counting(self) -> Entry | None:
        """The newest input made at the table (any source but ``web``: a phone's rename or bet is never taken
        back by the table's undo) that still counts and applied on the last replay: what an undo takes back."""
        rows = self._rows(f"{_SELECT} WHERE {_COUNTS} AND skipped IS NULL AND source IS NOT ? "
                          "ORDER BY id DESC LIMIT 1", (WEB,))
        return _row(rows[0]) if rows else None

    def undo(self, source: str, at: float) -> Entry | None:
        """Store an ``HS-UNDO`` that takes back :meth:`last_counting`; returns the input taken back, or None
        (nothing stored) when there is nothing to undo. Raises :class:`JournalWriteError`."""
        target = self.last_counting()
        if target is None:
            return None

        def store(db: sqlite3.Connection) -> None:
            cur = db.execute("INSERT INTO inputs (at, source, text, data, kind) VALUES (?, ?, ?, '{}', 'undo')",
                             (at, source, UNDO))
            db.execute("UPDATE inputs SET undone_by = ? WHERE id = ?", (cur.lastrowid, target.id))
        self._write(store)
        return target

    def mark(self, skipped: dict[int, str], applied: Iterable[int]) -> None:
        """Record why inputs did not apply on replay (``skipped`` id -> reason) and clear the mark of those
        that apply again (``applied``). Best effort: a journal that cannot save keeps its old marks."""
        clear = [(i,) for i in applied]

        def update(db: sqlite3.Connection) -> None:
            db.executemany("UPDATE inputs SET skipped = NULL WHERE id = ? AND skipped IS NOT NULL", clear)
            db.executemany("UPDATE inputs SET skipped = ? WHERE id = ?", [(r, i) for i, r in skipped.items()])
        try:
            self._write(update)
        except JournalWriteError:
            pass

    def probe(self) -> None:
        """A tiny real write (the schema version in the file header); raises :class:`JournalWriteError`
        while the journal still cannot save."""
        self._write(lambda db: db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}"))

    # ----- reading ----------------------------------------------------------------------------------
    def start_id(self) -> int:
        """The id of the latest ``HS-NEW`` still in effect (0 when there is none)."""
        return int(self._rows("SELECT max(id) FROM inputs WHERE kind = 'new' AND undone_by IS NULL")[0][0] or 0)

    def current(self) -> list[Entry]:
        """The inputs that count since the latest game start still in effect: what replay needs."""
        return self.effective(self.start_id())

    def entries(self) -> list[Entry]:
        """Every row, undos and taken-back inputs included, oldest first."""
        return [_row(r) for r in self._rows(f"{_SELECT} ORDER BY id")]

    def effective(self, since: int = 0, until: int | None = None) -> list[Entry]:
        """Every input that counts (each ``HS-UNDO`` took back the last input still counting), with ids from
        ``since`` up to, not including, ``until``."""
        sql = f"{_SELECT} WHERE id >= ? AND id < ? AND {_COUNTS} ORDER BY id"
        return [_row(r) for r in self._rows(sql, (since, until if until is not None else 2 ** 62))]

    def starts(self) -> list[int]:
        """The ids of every ``HS-NEW`` still in effect, oldest first (one per game)."""
        return [r[0] for r in self._rows("SELECT id FROM inputs WHERE kind = 'new' AND undone_by IS NULL ORDER BY id")]

    # ----- games ------------------------------------------------------------------------------------
    def record_game(self, start_id: int, end_id: int | None, at: float, summary: dict[str, Any]) -> None:
        """Store (or replace) the summary of the game started by input ``start_id``. Raises JournalWriteError."""
        text = json.dumps(summary, sort_keys=True)
        self._write(lambda db: db.execute("INSERT OR REPLACE INTO games (start_id, end_id, at, summary) "
                                          "VALUES (?, ?, ?, ?)", (start_id, end_id, at, text)))

    def games(self, limit: int | None = None) -> list[dict[str, Any]]:
        """Summaries of the finished games whose start and finishing input both still count, newest first."""
        rows = self._rows(
            "SELECT g.summary FROM games g JOIN inputs s ON s.id = g.start_id JOIN inputs e ON e.id = g.end_id "
            "WHERE s.undone_by IS NULL AND e.undone_by IS NULL ORDER BY g.start_id DESC LIMIT ?",
            (-1 if limit is None else limit,))
        return [json.loads(r[0]) for r in rows]

    def summarised(self) -> set[int]:
        """Start ids that have a summary row (finished or not)."""
        return {r[0] for r in self._rows("SELECT start_id FROM games")}

    def rebuild(self, entries: Iterable[Entry], now: float | None = None) -> Path | None:
        """Start a fresh journal at ``path`` holding ``entries`` (the current game's inputs that count, with
        their ids), after :class:`JournalReplaced`. Whatever is at ``path`` now (a replacement file, a lone
        write-ahead log) is first moved aside as ``PATH.replaced-YYYYmmdd-HHMMSS[-N]`` (kept, never deleted);
        returns that path, or None when nothing was there. The fresh journal has a new :attr:`identity`.
        Raises :class:`JournalWriteError` when the fresh journal cannot be written (the entries stay with
        the caller; call again later)."""
        rows = [(e.id, e.at, e.source, e.text, json.dumps(e.data, sort_keys=True), "v0" if e.legacy else kind_of(e.text),
                 e.skipped) for e in entries]
        self._lost = self._lost or "the file was deleted or replaced while the kiosk ran"
        files, self._files = self._files, {}
        self.close()  # SQLite checkpoints into the file it has open, wherever that file now is
        wal = f"{self.path}-wal"
        try:
            if wal in files and inode_or_none(wal) == files[wal] and inode_or_none(self.path) != files[self.path]:
                # our log is still there but its file is gone: kept apart, so it is never laid over another file
                set_aside(self.path, "orphaned", now, suffixes=("-wal",))
            aside = set_aside(self.path, "replaced", now)
        except OSError as exc:
            raise classify(self.path, exc, writing=True) from None
        self.readonly, self.scratch = False, False
        try:
            self._open()
        except JournalError as exc:
            raise JournalWriteError(self.path, "unwritable", exc.what, exc.fix) from None
        lost, self._lost = self._lost, None
        try:
            self._write(lambda db: db.executemany(
                "INSERT INTO inputs (id, at, source, text, data, kind, skipped) VALUES (?, ?, ?, ?, ?, ?, ?)", rows))
        except JournalError:
            self._lost = lost  # the fresh file lacks the game: the next write starts again
            raise
        self.problem = None
        return aside

    def user_version(self) -> int:
        return int(self._rows("PRAGMA user_version")[0][0])

    def close(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()



