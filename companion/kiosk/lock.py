"""One kiosk per journal: an exclusive ``flock`` on ``PATH.lock`` beside the journal, held for the kiosk's life.

A second ``hotstreak run`` on the same journal stops at start with one line naming the journal (a
:class:`~companion.kiosk.errors.JournalError` of kind ``taken``). Commands that only read the journal
(``status``, ``history``, ``doctor``) do not take the lock and work beside a running kiosk. The lock file is
never deleted (deleting it would let a third kiosk lock a new file while the first still runs); the kernel lets
go of the lock when the kiosk's process ends, however it ends (kill -9 and power cuts included).
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path

from companion.kiosk.errors import JournalError

log = logging.getLogger(__name__)

UNIT = Path("/etc/systemd/system/hotstreak.service")  # where systemd/install.sh puts the kiosk service


def stop_hint(unit: Path | None = None) -> str:
    """What to do when another kiosk holds the journal: stop the service only where its unit is installed (a
    laptop has none), else close the other table's window or press Ctrl-C where it runs."""
    if (unit or UNIT).exists():
        return "stop that kiosk first (sudo systemctl stop hotstreak), or give this one another --db"
    return "stop that kiosk first (close its window, or Ctrl-C where it runs), or give this one another --db"


class KioskLock:
    """The held lock on ``path`` (``JOURNAL.lock``); :meth:`release` lets go of it (also at process end)."""

    def __init__(self, path: str, fd: int | None):
        self.path = path
        self._fd = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the only descriptor drops the flock
            self._fd = None


def take(journal: str | Path) -> KioskLock:
    """Lock the journal at ``journal`` for this kiosk. Raises :class:`JournalError` (kind ``taken``) when another
    kiosk holds it. A lock file that cannot be made (a read-only card, no permission) gives an unheld lock and
    one warning: such a kiosk cannot save anyway, and says so."""
    journal = str(journal)
    path = f"{journal}.lock"
    if journal == ":memory:":
        return KioskLock(path, None)  # a journal in memory (tests) is this process's alone
    try:
        if Path(journal).is_dir() or _not_a_journal(journal):
            return KioskLock(path, None)  # not a journal file: opening it says so in one line, nothing is made
        Path(journal).parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return KioskLock(path, None)  # no folder for it: opening the journal says so in one line
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        log.warning("journal %s: no lock file %s (%s); a second kiosk on this journal would not be stopped",
                    journal, path, exc.strerror or exc)
        return KioskLock(path, None)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _holder(fd)
        os.close(fd)
        raise JournalError(journal, "taken", f"another kiosk{holder} has it (lock {path})", stop_hint()) from None
    except OSError as exc:  # a file system without flock
        os.close(fd)
        log.warning("journal %s: cannot lock %s (%s); a second kiosk on this journal would not be stopped",
                    journal, path, exc.strerror or exc)
        return KioskLock(path, None)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
    except OSError:
        pass  # the pid is only for the message of a second kiosk
    return KioskLock(path, fd)


def _holder(fd: int) -> str:
    """`` (pid N)`` from the lock file, or nothing when it holds no pid."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (pid {text})" if text.isdigit() else ""


def _not_a_journal(journal: str) -> bool:
    """Whether ``journal`` is a file that was never a journal (``companion.kiosk.journal.check_file`` kind
    ``path``): no lock file is made beside it."""
    from companion.kiosk.journal import check_file
    try:
        check_file(journal)
    except JournalError as exc:
        return exc.kind == "path"
    return False
