"""Loading rule data files (TOML) with validation that lists every problem with its key path; reading any
data or config file the user names only when it is a regular file of a sensible size."""

from __future__ import annotations

import os
import stat
import tomllib
from importlib import resources
from pathlib import Path
from typing import AbstractSet as Set, Any, Iterator

from companion.rules.errors import DataFileError


def read_toml(path: str | Path | None, default_name: str) -> tuple[dict[str, Any], str]:
    """Read a TOML file, or the packaged default ``data/<default_name>`` when ``path`` is None.

    Returns (table, source name). Raises DataFileError for a missing or unparsable file.
    """
    if path is None:
        text = resources.files("companion.rules").joinpath("data", default_name).read_text("utf-8")
        source = f"default {default_name}"
    else:
        source = str(path)
        try:
            text = read_data_text(path)
        except NotADataFile as exc:
            raise DataFileError(source, [str(exc)]) from None
        except OSError as exc:
            raise DataFileError(source, [f"cannot read file: {exc.strerror or exc}"]) from None
        except UnicodeDecodeError as exc:
            raise DataFileError(source, [f"not UTF-8 text: byte {exc.object[exc.start]:#04x} at offset "
                                         f"{exc.start} (expected a TOML file saved as UTF-8)"]) from None
    try:
        return tomllib.loads(text), source
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(source, [f"not valid TOML: {exc}"]) from None


MAX_FILE_BYTES = 1_000_000  # 1 MB: the packaged data files are a few KB, a config under 10 KB
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class NotADataFile(ValueError):
    """A path that is not a regular file of at most :data:`MAX_FILE_BYTES` bytes; the message says what it is."""


def read_data_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the file at ``path``, which must be a regular file (a symlink to one is fine) of at
    most ``limit`` bytes. Looks before it opens (``os.stat``) and opens without blocking, so a FIFO never hangs
    and a device such as ``/dev/zero`` is never read. Raises :class:`NotADataFile` (a folder, a FIFO, a device,
    too large), OSError (missing, no permission), UnicodeDecodeError."""
    _check_stat(os.stat(path), limit)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        _check_stat(os.fstat(fd), limit)  # what was opened, should the path have changed since
        with os.fdopen(fd, "rb") as f:
            fd = -1
            data = f.read(limit + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise NotADataFile(f"too large: it grew past {_size(limit)} while being read (expected a TOML file of at "
                           f"most {_size(limit)})")
    return data.decode("utf-8")


def _check_stat(st: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
        raise NotADataFile(f"{kind}, not a regular file (expected a TOML file)")
    if st.st_size > limit:
        raise NotADataFile(f"too large: {_size(st.st_size)} (expected a TOML file of at most {_size(limit)})")


def _size(n: int) -> str:
    """``48 MB``, ``1 MB``, ``2.5 MB``; ``512 bytes`` below 100 KB."""
    return f"{n / 1e6:.1f}".rstrip("0").rstrip(".") + " MB" if n >= 100_000 else f"{n} bytes"


class Checker:
    """Collects problems found while validating a TOML table, each prefixed with its key path."""

    def __init__(self, source: str):
        self.source = source
        self.problems: list[str] = []

    def problem(self, key: str, message: str) -> None:
        self.problems.append(f"{key}: {message}")

    def integer(self, table: dict[str, Any], key: str, path: str, lo: int | None = None,
                hi: int | None = None, default: int | None = None) -> int:
        """table[key] as an int within [lo, hi]; records a problem and returns a fallback otherwise."""
        full = f"{path}{key}"
        if key not in table:
            if default is not None:
                return default
            self.problem(full, "missing (expected an integer)")
            return lo or 0
        value = table[key]
        if not isinstance(value, int) or isinstance(value, bool):
            self.problem(full, f"{value!r} is not an integer")
            return lo or 0
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.problem(full, f"{value} is out of range (expected {lo}..{hi})")
        return value

    def int_list(self, table: dict[str, Any], key: str, path: str, lo: int, hi: int) -> list[int]:
        full = f"{path}{key}"
        value = table.get(key)
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            self.problem(full, f"{value!r} is not a list of integers")
            return []
        for i, v in enumerate(value):
            if not lo <= v <= hi:
                self.problem(f"{full}[{i}]", f"{v} is out of range (expected {lo}..{hi})")
        return list(value)

    def unknown_keys(self, table: dict[str, Any], allowed: Set[str], path: str) -> None:
        for key in table:
            if key not in allowed:
                self.problem(f"{path}{key}", f"unknown key (expected one of: {', '.join(sorted(allowed))})")

    def tables(self, data: dict[str, Any], key: str, what: str) -> Iterator[tuple[int, str, dict[str, Any]]]:
        """Yield ``(i, "key[i].", entry)`` for each table of the array of tables ``key`` (``[[key]]``),
        recording a problem for a missing/empty array or an entry that is not a table."""
        entries = data.get(key)
        if not isinstance(entries, list) or not entries:
            self.problem(key, f"missing (expected one [[{key}]] table per {what})")
            return
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                self.problem(f"{key}[{i}]", "must be a table")
                continue
            yield i, f"{key}[{i}].", entry

    def finish(self) -> None:
        """Raise DataFileError listing every problem, if there are any."""
        if self.problems:
            raise DataFileError(self.source, self.problems)
