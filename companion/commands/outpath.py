"""Checks for the files a command writes, so a bad ``--out`` is one line and exit status 2, never a traceback.

>>> output_file("/tmp/x.png", ".png", "--out")
PosixPath('/tmp/x.png')
"""

from __future__ import annotations

import os
from pathlib import Path


def output_file(text: str, suffix: str, option: str) -> Path:
    """The path ``text`` to write a ``suffix`` file (``.pdf``, ``.png``) to, checked before any work is done.

    Raises ValueError with one line naming the bad path and what was expected: an empty path, a directory, a
    missing or non-folder parent, a folder that cannot be written, or another suffix.
    """
    if not text or not text.strip():
        raise ValueError(f"{option} is empty (expected a file name ending in {suffix})")
    path = Path(text).expanduser()
    if path.is_dir():
        raise ValueError(f"{option} {text!r} is a folder (expected a file name ending in {suffix}, "
                         f"e.g. {str(path / ('out' + suffix))!r})")
    if path.suffix.lower() != suffix:
        raise ValueError(f"{option} {text!r} does not end in {suffix} (expected a {suffix[1:].upper()} file name)")
    parent = path.parent
    if not parent.exists():
        raise ValueError(f"{option} {text!r}: folder {str(parent)!r} does not exist (create it first)")
    if not parent.is_dir():
        raise ValueError(f"{option} {text!r}: {str(parent)!r} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ValueError(f"{option} {text!r}: no permission to write there (expected a writable file)")
    return path


def output_folder(text: str, option: str, names: tuple[str, ...]) -> Path:
    """The folder ``text`` to write the files ``names`` in, checked before any work is done; a missing folder
    whose parent exists is made when written (one level, never a chain of folders).

    Raises ValueError with one line naming the bad path and what was expected: an empty path, a file, a missing
    parent, a folder that cannot be written, or one of ``names`` there that is a folder or cannot be written.
    """
    expected = f"expected a folder to write {', '.join(names)} in"
    if not text or not text.strip():
        raise ValueError(f"{option} is empty ({expected})")
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {text!r} is a file ({expected})")
    if not path.exists():
        if not path.parent.is_dir():
            raise ValueError(f"{option} {text!r}: folder {str(path.parent)!r} does not exist (create it first)")
        if not os.access(path.parent, os.W_OK | os.X_OK):
            raise ValueError(f"{option} {text!r}: no permission to make a folder there ({expected})")
        return path
    if not os.access(path, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {text!r}: no permission to write there ({expected})")
    for name in names:
        inner = path / name
        if inner.is_dir():
            raise ValueError(f"{option} {text!r}: {str(inner)!r} is a folder ({expected})")
        if inner.exists() and not os.access(inner, os.W_OK):
            raise ValueError(f"{option} {text!r}: no permission to write {str(inner)!r} ({expected})")
    return path
