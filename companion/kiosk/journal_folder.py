"""Can the kiosk keep its journal where it is told to? Checked once when ``hotstreak run`` starts, before the
journal, its lock or any device is made.

A folder this user cannot write (no permission, a read-only file system) or a journal file it cannot open for
writing is refused in one line naming it: the kiosk does not start (exit 2). A disk that is merely full is
not refused here: the kiosk starts, shows the game it can read and refuses inputs until there is room
(companion.kiosk.recovery), which is what a Pi whose SD card fills up needs. On a Pi, a read-only file
system is its SD card gone read-only (the kernel does that to a failing card): there too the kiosk starts
and shows the game with "check the SD card" rather than stopping with a blank screen.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from companion.kiosk.errors import JournalError

FULL = (errno.ENOSPC, errno.EDQUOT)  # room, not permission: the kiosk starts and says so
FIX = "expected a folder this user can write: give --db in another folder, or make it writable (e.g. chown)"


def check_journal_folder(path: str | Path, *, sd_card: bool = False) -> None:
    """Refuse a journal at ``path`` this user cannot write. The nearest existing folder on the way is tried
    with a probe file (made and removed at once; a missing folder is not made here), an existing journal
    file is opened for writing (nothing is written). ``":memory:"`` passes; with ``sd_card`` (a Pi) so does a
    read-only file system. Raises :class:`JournalError` of kind ``unwritable`` naming the folder or file."""
    if str(path) == ":memory:":
        return
    passes = FULL + ((errno.EROFS,) if sd_card else ())
    journal = Path(path).absolute()
    folder = journal.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return  # a file where a folder should be: the journal's own check names it (kind "path")
    try:
        fd, probe = tempfile.mkstemp(prefix=".hotstreak-probe-", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        if exc.errno not in passes:
            raise JournalError(str(journal), "unwritable",
                               f"the folder {folder} cannot be written ({exc.strerror or exc})", FIX) from None
    if journal.is_file():  # a regular file (a FIFO or a device is the journal's own check): opening cannot hang
        try:
            os.close(os.open(journal, os.O_WRONLY))
        except OSError as exc:
            if exc.errno not in passes:
                raise JournalError(str(journal), "unwritable",
                                   f"the file cannot be written ({exc.strerror or exc})", FIX) from None
