"""Opening the journal when the kiosk starts, whatever state the file is in; journal checks for status/doctor.

Every problem gets one log line naming the file, what is wrong and what to do:

- a folder instead of a file, or a journal written by a newer program: the kiosk does not start
  (:class:`~companion.kiosk.errors.JournalError`, exit 2);
- damaged (not SQLite, empty, failing SQLite's quick_check, an unknown schema, a write-ahead log without its
  journal): the file is moved aside as
  ``journal.db.damaged-YYYYmmdd-HHMMSS`` (with its ``-wal``/``-shm``; never deleted, never overwritten), a new
  journal is started, and the screen says so once;
- cannot be written (disk full, read-only, locked, another owner): the kiosk starts with what it can read,
  refuses every input with "can't save - check the SD card", and retries (companion.kiosk.controller). A
  journal that opens is written to once at start (a probe), so a full card says "not saving" from the first
  render, not from the first scan.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
from pathlib import Path

from companion.kiosk.errors import JournalError, JournalWriteError
from companion.kiosk.journal import SCHEMA_VERSION, Journal, check_file, set_aside
from companion.kiosk.notices import Notice

log = logging.getLogger(__name__)
LOW_SPACE = 1 << 20  # bytes free below which `status` and `doctor` call the disk full


def open_for_reading(path: str | Path) -> Journal:
    """An existing journal for a command that only reads it (``status``, ``history``): read-write when it can
    be, else read-only. Raises ValueError when there is no journal file at ``path``, JournalError when it
    cannot be read."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"journal {str(path)!r} is a folder (expected the journal file `hotstreak run` writes, "
                         "e.g. a journal.db inside it)")
    if not path.is_file():
        raise ValueError(f"no journal at {str(path)!r} (expected the file `hotstreak run` writes; "
                         "give it with --db or paths.journal)")
    try:
        return Journal(path)
    except JournalError as exc:
        if exc.kind != "unwritable":
            raise
        return Journal(path, readonly=True)


def open_journal(path: str | Path, *, now: float | None = None) -> tuple[Journal, list[str]]:
    """Open the kiosk's journal; returns it and the notices for the screen (shown once).

    Raises JournalError (kind ``path`` or ``newer``) when the kiosk must not start."""
    path = str(path)
    try:
        journal = Journal(path)
    except JournalError as exc:
        if exc.kind in ("path", "newer"):
            raise
        problem = exc
    else:
        if journal.migrated_from is not None:
            log.warning("journal %s: migrated from schema %d to %d (every input kept)", path, journal.migrated_from,
                        SCHEMA_VERSION)
        try:
            journal.probe()  # a full or read-only card says so now, not at the first scan
        except JournalWriteError as exc:
            log.error("%s; the kiosk starts but refuses inputs until it can save, retrying", exc)
            journal.problem = exc
            return journal, [Notice("Can't save - check the SD card", "cannot-save")]
        return journal, []
    if problem.kind == "damaged":
        try:
            aside = move_aside(path, now)
        except OSError as err:
            problem = JournalError(path, "unwritable", f"{problem.what}, and it cannot be moved aside ({err})",
                                   "move it away by hand (sudo mv FILE FILE.damaged), then restart")
        else:
            log.error("journal %s: %s; moved aside to %s (nothing deleted) and a new journal started - to get "
                      "that game back see docs/operations.md, 'The journal is damaged'", path, problem.what, aside)
            try:
                return Journal(path), [Notice(f"The journal was damaged and moved aside ({aside.name}): a new game "
                                              "starts", "moved-aside")]
            except JournalError as again:
                problem = again
    log.error("%s; the kiosk starts but refuses inputs until it can save, retrying", problem)
    try:
        journal = Journal(path, readonly=True)
    except JournalError:
        journal = Journal.unavailable(path, problem)
    journal.problem = problem
    return journal, [Notice("Can't save - check the SD card", "cannot-save")]


def move_aside(path: str | Path, now: float | None = None) -> Path:
    """Rename ``path`` (and its ``-wal``/``-shm`` files) to ``PATH.damaged-YYYYmmdd-HHMMSS[-N]``, a name not
    in use (nothing is overwritten); returns the new path. Raises OSError when it cannot (or there is nothing
    to move)."""
    aside = set_aside(path, "damaged", now)
    if aside is None:
        raise FileNotFoundError(f"no journal at {str(path)!r} to move aside")
    return aside


def check(path: str | Path) -> list[tuple[str, str]]:
    """What is wrong with the journal at ``path``, as (problem, fix) pairs; empty when it is fine or does not
    exist yet. Reads only: damaged, newer, not writable, disk (nearly) full, locked, inputs that no longer
    apply."""
    path = str(path)
    p = Path(path)
    try:
        check_file(path)
    except JournalError as exc:
        return [(f"{path}: {exc.what}", "the kiosk moves it aside at its next start; see docs/operations.md"
                 if exc.kind == "damaged" else exc.fix)]
    if not p.exists():
        return []
    out: list[tuple[str, str]] = []
    folder = p.parent
    for what, target in (("file", p), ("folder", folder)):
        if not os.access(target, os.W_OK):
            out.append((f"{path}: the {what} is not writable by this user",
                        "make it writable by the service user (sudo chown -R hotstreak: FOLDER)"))
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        free = None
    if free is not None and free < LOW_SPACE:
        out.append((f"{path}: the disk is full ({free // 1024} KiB free)", "free space on the SD card"))
    try:
        with Journal(path, readonly=True) as journal:
            skipped = [e for e in journal.current() if e.skipped]
    except JournalError as exc:
        return out + [(f"{path}: {exc.what}", exc.fix)]
    if skipped:
        out.append((f"{path}: {len(skipped)} saved input(s) no longer apply, e.g. #{skipped[0].id} "
                    f"{skipped[0].text!r}: {skipped[0].skipped}",
                    "they are kept; put back the data files they were scanned with, or undo past them"))
    if os.access(p, os.W_OK):
        try:
            con = sqlite3.connect(path, timeout=0.1)
            try:
                con.execute("BEGIN IMMEDIATE")
                con.execute("ROLLBACK")
            finally:
                con.close()
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                out.append((f"{path}: locked by another program ({exc})", "close the other program"))
    return out


__all__ = ["LOW_SPACE", "SCHEMA_VERSION", "check", "move_aside", "open_journal"]
