"""The error classes of the kiosk: its journal and its configuration file.

A refused input is a :class:`companion.rules.errors.RefusedError` here too (the controller refuses an input
the journal cannot save with reason ``save``, an undo with nothing to take back with ``nothing-to-undo``).
"""

from __future__ import annotations

from companion.rules.errors import DataFileError, HotStreakError


class JournalError(HotStreakError):
    """The journal file cannot be used. ``kind``: ``path`` (not a file), ``damaged`` (not SQLite, empty,
    truncated, unknown schema, a write-ahead log without its journal), ``newer`` (a newer program's schema),
    ``unwritable`` (full, read-only, locked, no permission), ``replaced`` (deleted or replaced while open),
    ``taken`` (another kiosk holds it). The message is one line: the file, what is wrong, what to do."""

    def __init__(self, path: str, kind: str, what: str, fix: str):
        self.path, self.kind, self.what, self.fix = path, kind, what, fix
        super().__init__(f"journal {path}: {what} - {fix}")


class JournalWriteError(JournalError):
    """An input could not be saved (the table must refuse it)."""


class JournalReplaced(JournalWriteError):
    """The journal file or its write-ahead log was deleted or replaced since it was opened: what is written
    now would be lost (kind ``replaced``). Nothing was stored; ``Journal.rebuild`` starts a fresh file."""


class ConfigError(DataFileError):
    """A configuration file with problems (one line each, with its key path)."""
