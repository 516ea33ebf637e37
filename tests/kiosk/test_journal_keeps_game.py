"""No fault drops the game: a full card then a clean stop, a journal or its write-ahead log deleted or replaced
while the kiosk runs, a second kiosk on the same journal, a start on a full card, a kill right after game over,
and a phone's input between a wrong card and HS-UNDO. Real SQLite files throughout; the full card runs on a
small tmpfs where this machine lets the tests mount one, and through a fake everywhere."""

from __future__ import annotations

import os
import shutil
import sqlite3
import struct
import subprocess
import sys

import pytest

from conftest import DATA, ROOT
from companion.kiosk import journal as journal_module
from companion.kiosk.controller import RETRY_SECONDS, SAVE_FAILED, Controller, status_dict
from companion.kiosk.errors import JournalError, JournalWriteError
from companion.view.sink import NullSink
from companion.kiosk.journal import Journal, classify
from companion.kiosk.lock import take
from companion.kiosk.recovery import open_journal
from tablekit import TableKit
from test_history import DEMO
from test_journal_faults import fill, small_disk  # noqa: F401 - a fixture


def playing(db) -> TableKit:
    table = TableKit(db)
    table.start_race()
    assert table.scan("HS15").accepted
    return table


def texts(path) -> list[str]:
    with Journal(path, readonly=True) as journal:
        return [e.text for e in journal.current()]


# ----- a full card, then a clean stop or reboot --------------------------------------------------------
def test_a_full_card_then_a_clean_stop_keeps_the_game(small_disk, caplog):
    path = small_disk / "journal.db"
    table = playing(path)
    before, kept = table.status(), texts(path)
    filler = fill(small_disk)
    table.close()  # the clean stop: its checkpoint cannot grow the file
    journal, notices = open_journal(path)  # the restart, the card still full
    assert not list(small_disk.glob("*.damaged-*")) and [e.text for e in journal.current()] == kept
    assert status_dict(Controller(journal).table) == before
    assert notices == ["Can't save - check the SD card"] and "full" in str(journal.problem)
    journal.close()
    filler.unlink()
    journal, notices = open_journal(path)  # room again: the same game, saving
    assert notices == [] and [e.text for e in journal.current()] == kept
    assert journal.append("HS26", "scan", 0.0).id > 0


def checkpoint_cut_short(path) -> None:
    """Leave ``path`` as a checkpoint on a full disk does: page 1 (saying N pages) written over the file's first
    page, the file not grown, every page still in the write-ahead log (the portable stand-in for a full card)."""
    wal = open(f"{path}-wal", "rb").read()
    page = struct.unpack(">I", wal[8:12])[0]
    first = None
    for at in range(32, len(wal) - 24 - page + 1, 24 + page):
        if struct.unpack(">I", wal[at:at + 4])[0] == 1:
            first = wal[at + 24:at + 24 + page]
    assert first is not None
    with open(path, "r+b") as f:
        f.write(first)
        f.truncate(page)
    assert struct.unpack(">I", first[28:32])[0] > 1  # the header claims more pages than the file has


def test_a_journal_shorter_than_its_header_says_with_its_wal_is_intact_not_moved_aside(tmp_path):
    live, path = tmp_path / "live.db", tmp_path / "journal.db"
    table = playing(live)
    table.journal._db.execute("PRAGMA wal_autocheckpoint = 0")  # every page stays in the write-ahead log
    assert table.scan("HS26").accepted
    kept = [e.text for e in table.journal.current()]
    for suffix in ("", "-wal"):  # a copy of the files at this moment, as a reboot finds them
        shutil.copy(f"{live}{suffix}", f"{path}{suffix}")
    checkpoint_cut_short(path)
    journal, notices = open_journal(path)
    assert notices == [] and not list(tmp_path.glob("*.damaged-*"))
    assert [e.text for e in journal.current()] == kept


def test_a_journal_missing_beside_its_wal_keeps_the_wal_aside_never_resets_it(tmp_path, caplog):
    live, path = tmp_path / "live.db", tmp_path / "journal.db"
    table = playing(live)
    table.journal._db.execute("PRAGMA wal_autocheckpoint = 0")
    assert table.scan("HS26").accepted
    shutil.copy(f"{live}-wal", f"{path}-wal")  # the journal gone, its write-ahead log left behind
    wal = open(f"{path}-wal", "rb").read()
    journal, notices = open_journal(path, now=0.0)
    [aside] = tmp_path.glob("journal.db.damaged-*-wal")
    assert aside.read_bytes() == wal and len(notices) == 1 and "moved aside" in notices[0]
    assert any("write-ahead log" in r.getMessage() and str(path) in r.getMessage() for r in caplog.records)
    assert journal.current() == []


# ----- deleted or replaced while the kiosk runs -----------------------------------------------------------
def delete_file(path, tmp_path):
    os.unlink(path)


def delete_wal(path, tmp_path):
    os.unlink(f"{path}-wal")


def replace_file(path, tmp_path):
    other = Journal(tmp_path / "other.db")
    other.append("HS-NEW", "scan", 0.0)
    other.close()
    os.replace(tmp_path / "other.db", path)


@pytest.mark.parametrize("fault", [delete_file, delete_wal, replace_file])
def test_a_journal_deleted_or_replaced_while_running_is_written_again_nothing_lost(tmp_path, fault, caplog):
    path = tmp_path / "journal.db"
    table = playing(path)
    identity = table.journal.identity
    fault(path, tmp_path)
    assert table.scan("HS26").accepted  # noticed at this write: the game is written to a fresh journal first
    assert table.status()["revealed"] == 2
    problem = table.controller.problem
    assert str(path) in problem and ("deleted" in problem or "replaced" in problem) and "new journal" in problem
    assert any(r.levelname == "ERROR" and "nothing lost" in r.getMessage() for r in caplog.records)
    assert texts(path) == ["HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO", "HS15", "HS26"]
    assert Journal(path, readonly=True).identity not in (None, identity)
    if fault is replace_file:  # what was put there is kept
        [aside] = [p for p in tmp_path.glob("journal.db.replaced-*") if not p.name.endswith(("-wal", "-shm"))]
        assert [e.text for e in Journal(aside, readonly=True).entries()] == ["HS-NEW"]
    assert table.press("undo").accepted and table.status()["revealed"] == 1  # undo works on the fresh journal
    table.advance(RETRY_SECONDS)
    assert table.controller.problem is None  # said until the next retry, which saves


def test_a_rebuild_that_fails_refuses_and_is_tried_again(tmp_path, monkeypatch):
    path = tmp_path / "journal.db"
    table = playing(path)
    os.unlink(path)
    calls = []

    def no_room(*args, **kwargs):
        calls.append(args)
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(journal_module, "set_aside", no_room)
    result = table.scan("HS26")
    assert (result.accepted, result.message) == (False, SAVE_FAILED) and "free space" in table.controller.problem
    assert table.status()["revealed"] == 1 and not path.exists()
    monkeypatch.undo()
    table.advance(RETRY_SECONDS)  # the retry writes the game again
    assert calls and texts(path)[-1] == "HS15" and table.scan("HS26").accepted
    assert texts(path)[-2:] == ["HS15", "HS26"]


@pytest.mark.slow
def test_a_power_cut_after_the_journal_was_deleted_loses_no_accepted_input(tmp_path):
    from kioskproc import journal_texts, start_run, wait_until
    db = tmp_path / "journal.db"
    proc = start_run(tmp_path, stdin=subprocess.PIPE)
    try:
        proc.stdin.write(b"HS-NEW\nHS-PLAYERS-4\n")
        proc.stdin.flush()
        wait_until(lambda: len(journal_texts(db)) == 2 or proc.poll() is not None, 30, "the first inputs")
        os.unlink(db)
        os.unlink(f"{db}-wal")
        proc.stdin.write(b"HS-GO\nHS-GO\nHS-GO\nHS15\n")
        proc.stdin.flush()
        wait_until(lambda: len(journal_texts(db)) == 6 or proc.poll() is not None, 30, "the inputs after")
    finally:
        proc.kill()  # the power cut
        proc.wait(5)
    assert journal_texts(db) == ["HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO", "HS15"]
    assert "was deleted while the kiosk ran" in proc.stderr.read().decode()


# ----- identity -------------------------------------------------------------------------------------
def test_each_journal_has_an_identity_made_with_it_and_kept(tmp_path):
    first, second = Journal(tmp_path / "a.db"), Journal(tmp_path / "b.db")
    assert len(first.identity) == 32 and first.identity != second.identity
    first.close()
    assert Journal(tmp_path / "a.db").identity == Journal(tmp_path / "a.db", readonly=True).identity == first.identity


def test_an_older_journal_gets_an_identity_on_its_first_open_for_writing(tmp_path):
    path = tmp_path / "journal.db"
    shutil.copy(DATA / "journal-v0.sqlite", path)
    assert Journal(path, readonly=True).identity is None  # looking changes nothing
    made = Journal(path)
    assert made.identity and made.entries()  # every input kept
    made.close()
    assert Journal(path).identity == made.identity


# ----- one kiosk per journal ---------------------------------------------------------------------------
def test_the_lock_is_held_until_released(tmp_path):
    path = tmp_path / "journal.db"
    lock = take(path)
    with pytest.raises(JournalError) as err:
        take(path)
    assert err.value.kind == "taken" and str(path) in str(err.value) and f"pid {os.getpid()}" in str(err.value)
    lock.release()
    take(path).release()


@pytest.mark.slow
def test_a_second_kiosk_on_the_same_journal_stops_with_one_line_and_readers_still_work(tmp_path):
    from notify_listener import NotifyListener
    from kioskproc import start_run, stop
    db = tmp_path / "journal.db"
    with NotifyListener(tmp_path) as listener:
        first = start_run(tmp_path, stdin=subprocess.PIPE, env=listener.env())
        try:
            first.stdin.write(b"HS-NEW\n")
            first.stdin.flush()
            listener.wait_for("READY=1", timeout=30)
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            env.pop("HOTSTREAK_HARDWARE", None)
            second = subprocess.run([sys.executable, "-m", "companion", "run", "--hardware", "mock", "--config",
                                     str(tmp_path / "config.toml"), "--db", str(db), "--display", "none",
                                     "--audio", "none", "--quiet"], stdin=subprocess.DEVNULL, capture_output=True,
                                    text=True, env=env, cwd=ROOT, timeout=60)
            assert second.returncode == 2 and second.stderr.count("\n") == 1, second.stderr
            assert str(db) in second.stderr and "another kiosk (pid " in second.stderr and "has it" in second.stderr
            for command in ("status", "history"):
                reader = subprocess.run([sys.executable, "-m", "companion", command, "--db", str(db)],
                                        capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
                assert reader.returncode == 0, reader.stderr
            assert first.poll() is None
        finally:
            assert stop(first) == 0


# ----- a start on a full card says so at once -------------------------------------------------------------
def test_a_start_on_a_full_card_says_not_saving_from_the_first_render(small_disk):
    path = small_disk / "journal.db"
    playing(path).journal.close()
    fill(small_disk)
    journal, notices = open_journal(path)
    shown = []

    class Screen(NullSink):
        def notice(self, message, view, now):
            shown.append(message)
    controller = Controller(journal, notices=notices, sinks=[Screen()])
    controller.step()  # the first render, no scan yet
    assert controller.problem and "full" in controller.problem and str(path) in controller.problem
    assert shown == ["Can't save - check the SD card"]


def test_a_start_on_a_journal_that_cannot_save_says_so_at_once_through_a_fake(tmp_path, monkeypatch):
    path = tmp_path / "journal.db"
    playing(path).journal.close()

    def full(self):
        raise classify(self.path, sqlite3.OperationalError("database or disk is full"), writing=True)
    monkeypatch.setattr(Journal, "probe", full)
    journal, notices = open_journal(path)
    controller = Controller(journal, notices=notices)
    assert "free space on the SD card" in controller.problem and notices == ["Can't save - check the SD card"]
    assert isinstance(journal.problem, JournalWriteError)


# ----- a kill right after game over ----------------------------------------------------------------------
class Killed(BaseException):
    pass


def test_a_game_is_in_the_history_as_soon_as_its_last_input_is_saved(tmp_path, monkeypatch):
    path = tmp_path / "journal.db"
    table = TableKit(path)
    for text in DEMO[:-1]:
        table.scan(text)

    def kill(self, now):
        raise Killed  # the kill -9 right after the input was committed
    monkeypatch.setattr(Controller, "_saved", kill)
    with pytest.raises(Killed):
        table.controller.handle(DEMO[-1])
    with Journal(path, readonly=True) as journal:
        [game] = journal.games()
        assert game["finished"] and game["end_id"] == journal.entries()[-1].id


# ----- undo takes back the table's input, never a phone's --------------------------------------------------
def test_undo_after_a_phones_rename_takes_back_the_wrong_card_not_the_rename(tmp_path):
    table = playing(tmp_path / "journal.db")
    assert table.scan("HS26").accepted  # the wrong card
    assert table.controller.handle("HS-NAME-2:Bram", "web").accepted  # a phone renames its seat meanwhile
    result = table.press("undo")
    assert result.accepted and result.events[0].text == "HS26"
    assert table.status()["revealed"] == 1 and table.status()["seats"][1]["name"] == "Bram"
