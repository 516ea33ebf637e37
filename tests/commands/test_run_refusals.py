"""`hotstreak run` refuses a bad argument, setting or journal folder in one line before it makes anything (no
journal, no lock file), with exit status 2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import ROOT, hotstreak_in_process

QUIET = ("--display", "none", "--audio", "none")


def test_a_bad_web_port_leaves_no_journal_and_no_lock(tmp_path):
    out = hotstreak_in_process("run", "--hardware", "mock", *QUIET, "--db", str(tmp_path / "j.db"), "--web", "99999")
    assert out.returncode == 2
    assert out.stderr == ("hotstreak run: --web '99999': expected [HOST:]PORT with PORT 0..65535 "
                          "(e.g. 8080 or 0.0.0.0:8080)\n")
    assert list(tmp_path.iterdir()) == []


def test_a_bad_hardware_setting_leaves_no_journal_and_no_lock(tmp_path, monkeypatch):
    monkeypatch.setenv("HOTSTREAK_HARDWARE", "bogus")
    out = hotstreak_in_process("run", *QUIET, "--db", str(tmp_path / "j.db"))
    assert out.returncode == 2
    assert out.stderr == "hotstreak run: HOTSTREAK_HARDWARE 'bogus' is not one of auto, pi, mock\n"
    assert list(tmp_path.iterdir()) == []


def unwritable_folder() -> tuple[Path, list[str]]:
    """A folder this test's child cannot write, and the child's user switch (root: run as nobody)."""
    top = Path(tempfile.mkdtemp(prefix="hotstreak-ro-"))
    os.chmod(top, 0o755)
    folder = top / "read-only"
    folder.mkdir(mode=0o555)
    os.chmod(folder, 0o555)
    return folder, (["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else [])


@pytest.mark.slow
def test_a_journal_folder_this_user_cannot_write_is_refused_at_start_in_one_line():
    folder, as_user = unwritable_folder()
    try:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("HOTSTREAK_HARDWARE", None)
        out = subprocess.run([*as_user, sys.executable, "-m", "companion", "run", "--hardware", "mock", *QUIET,
                              "--web", "off", "--db", str(folder / "journal.db")], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
        assert out.returncode == 2, out.stderr
        assert out.stderr == (f"hotstreak run: journal {folder / 'journal.db'}: the folder {folder} cannot be written "
                              "(Permission denied) - expected a folder this user can write: give --db in another "
                              "folder, or make it writable (e.g. chown)\n")
        assert "SD card" not in out.stderr and list(folder.iterdir()) == []
    finally:
        os.chmod(folder, 0o755)
        folder.rmdir()
        folder.parent.rmdir()


def test_a_full_disk_is_not_refused_at_start(tmp_path, monkeypatch):
    import errno

    from companion.kiosk import journal_folder

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(journal_folder.tempfile, "mkstemp", full)
    journal_folder.check_journal_folder(tmp_path / "journal.db")  # the kiosk starts and says "not saving"


@pytest.fixture
def read_only_fs(tmp_path):
    """A small tmpfs at tmp_path/card, mounted read-only (root only); skipped where it cannot be mounted."""
    card = tmp_path / "card"
    card.mkdir()
    if not shutil.which("mount") or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", str(card)],
                                                   capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield card
    finally:
        subprocess.run(["umount", "-l", str(card)], capture_output=True)


def test_a_read_only_file_system_is_refused_on_a_desktop_and_passes_on_a_pi(read_only_fs):
    from companion.kiosk.errors import JournalError
    from companion.kiosk.journal_folder import check_journal_folder
    with pytest.raises(JournalError) as err:
        check_journal_folder(read_only_fs / "journal.db")
    assert err.value.kind == "unwritable" and "Read-only file system" in str(err.value)
    check_journal_folder(read_only_fs / "journal.db", sd_card=True)  # the Pi starts and says "check the SD card"


def test_a_missing_default_folder_is_checked_where_it_would_be_made(tmp_path):
    from companion.kiosk.journal_folder import check_journal_folder
    check_journal_folder(tmp_path / "state" / "hotstreak" / "journal.db")
    assert list(tmp_path.iterdir()) == []  # the probe left nothing, and no folder was made


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_journal_that_is_a_fifo_or_a_device_is_refused_untouched_without_hanging(tmp_path, kind):
    db = tmp_path / "journal.db"
    if kind == "fifo":
        os.mkfifo(db)
    else:
        db.symlink_to("/dev/zero")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("HOTSTREAK_HARDWARE", None)
    out = subprocess.run([sys.executable, "-m", "companion", "run", "--hardware", "mock", *QUIET, "--web", "off",
                          "--db", str(db)], stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=60)
    assert (out.returncode, out.stderr) == (2, f"hotstreak run: journal {db}: is not a regular file (a FIFO, a "
                                               "device or a socket) - give the journal file with --db or "
                                               "paths.journal (e.g. FOLDER/journal.db)\n")
    assert [p.name for p in tmp_path.iterdir()] == ["journal.db"]  # nothing moved aside, no lock
