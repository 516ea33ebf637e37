"""The journal's file on disk: what makes a path no journal, what an SQLite or OS error means for the table, and
moving a damaged or replaced file aside (never deleting it).

>>> classify("journal.db", OSError(28, "No space left on device")).fix
'free space on the SD card'
>>> looks_like_journal(Path("mine.pdf")), looks_like_journal(Path("table.db"))
(False, True)
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from companion.kiosk.errors import JournalError, JournalWriteError

MAGIC = b"SQLite format 3\x00"
ASIDE = "`hotstreak run` moves it aside (kept, never deleted) and starts a new journal"


def classify(path: str, exc: BaseException, writing: bool = False) -> JournalError:
    """A :class:`JournalError` (or :class:`JournalWriteError` when ``writing``) for an sqlite3 or OS error."""
    msg = str(exc) or type(exc).__name__
    low = msg.lower()
    cls = JournalWriteError if writing else JournalError
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError) and (
            "not a database" in low or "malformed" in low or "encrypted" in low) or "no such" in low:
        return cls(path, "damaged", f"the file is damaged ({msg})",
                   ASIDE)
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        return cls(path, "path", f"its folder cannot be made ({msg})",
                   "give the journal file with --db or paths.journal (e.g. FOLDER/journal.db)")
    if "full" in low or getattr(exc, "errno", None) == 28:
        return cls(path, "unwritable", f"can't save ({msg})", "free space on the SD card")
    if "readonly" in low or "read-only" in low or "permission" in low or isinstance(exc, PermissionError):
        return cls(path, "unwritable", f"can't save ({msg})",
                   "make the file and its folder writable by the service user (sudo chown -R hotstreak: FOLDER)")
    if "unable to open" in low:
        return cls(path, "unwritable", f"can't save ({msg})", "check that the SD card is mounted read-write and the "
                   "folder is writable by the service user (sudo chown -R hotstreak: FOLDER)")
    if "locked" in low or "busy" in low:
        return cls(path, "unwritable", f"can't save ({msg})",
                   "another program holds the journal; close it (an open sqlite3 shell, a copy in progress)")
    return cls(path, "unwritable", f"can't save ({msg})", "check the SD card (sudo dmesg shows I/O errors)")


def check_file(path: str) -> None:
    """Raise :class:`JournalError` when ``path`` is no journal file: a folder, a FIFO or a device, empty (0 bytes),
    not SQLite, or missing while its write-ahead log (``PATH-wal``) is there (SQLite would throw that log away).
    A missing file is fine (a new journal). Damage inside an SQLite file is found when it is opened (quick_check)."""
    p = Path(path)
    if p.is_dir():
        raise JournalError(path, "path", "is a folder, not a file",
                           "give the journal file with --db or paths.journal (e.g. FOLDER/journal.db)")
    if not p.exists():
        try:
            wal = os.stat(f"{path}-wal").st_size
        except OSError:
            wal = 0
        if wal:
            raise JournalError(path, "damaged", f"the file is missing but its write-ahead log is there "
                               f"({p.name}-wal, {wal} bytes)", ASIDE)
        return
    if not p.is_file():  # a FIFO would hang the read below, a device never ends: looked at, never opened
        raise JournalError(path, "path", "is not a regular file (a FIFO, a device or a socket)",
                           "give the journal file with --db or paths.journal (e.g. FOLDER/journal.db)")
    try:
        with open(p, "rb") as f:
            head = f.read(100)
        size = p.stat().st_size
    except OSError as exc:
        raise classify(path, exc) from None
    if size == 0:
        raise JournalError(path, "damaged", "the file is empty (0 bytes)", ASIDE)
    if not head.startswith(MAGIC):
        if not looks_like_journal(p):   # never a journal (/etc/passwd, a mistyped mine.pdf): not ours to move
            raise JournalError(path, "path", "is not a Hot Streak journal (not SQLite, and not named like one)",
                               "give --db or paths.journal a new file (e.g. journal.db) or a journal "
                               "`hotstreak run` wrote; nothing was changed")
        raise JournalError(path, "damaged", "the file is not an SQLite journal",
                           ASIDE)


JOURNAL_SUFFIXES = (".db", ".sqlite", ".sqlite3", ".journal")


def looks_like_journal(path: Path) -> bool:
    """Whether ``path`` is named like a journal (``*.db``, ``*.sqlite``, ``*.sqlite3``, ``*.journal``, or a name
    with "journal" in it): only such a file, when damaged, is moved aside by the kiosk; any other file that is
    not SQLite is refused untouched."""
    return path.suffix.lower() in JOURNAL_SUFFIXES or "journal" in path.name.lower()


def short_file(path: str) -> bool:
    """Whether the file at ``path`` is shorter than its header's page count says: truncated, or a checkpoint
    on a full disk that wrote page 1 but could not grow the file (the rest still in the write-ahead log)."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
            size = os.fstat(f.fileno()).st_size
    except OSError:
        return False
    if len(head) < 32:
        return bool(head)
    page = int.from_bytes(head[16:18], "big")
    return size < (65536 if page == 1 else page) * int.from_bytes(head[28:32], "big")


def inode(path: str) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


def inode_or_none(path: str) -> tuple[int, int] | None:
    """(device, inode) of ``path``, None when there is no such file; other OSErrors are raised."""
    try:
        return inode(path)
    except FileNotFoundError:
        return None


def set_aside(path: str | Path, why: str, now: float | None = None,
              suffixes: tuple[str, ...] = ("", "-wal", "-shm")) -> Path | None:
    """Rename ``path`` and its ``-wal``/``-shm`` files (those of ``suffixes`` that exist) to
    ``PATH.<why>-YYYYmmdd-HHMMSS[-N]`` plus the suffix, a name not in use (nothing is overwritten). Returns the
    new path, or None when none of them existed. Raises OSError when a rename fails."""
    p = Path(path)
    if not any(Path(f"{p}{s}").exists() for s in suffixes):
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    n = 1
    while True:
        aside = p.with_name(f"{p.name}.{why}-{stamp}" + (f"-{n}" if n > 1 else ""))
        if not any(Path(f"{aside}{s}").exists() for s in ("", "-wal", "-shm")):
            break
        n += 1
    for suffix in suffixes:
        src = Path(f"{p}{suffix}")
        if src.exists():
            os.rename(src, f"{aside}{suffix}")
    return aside
