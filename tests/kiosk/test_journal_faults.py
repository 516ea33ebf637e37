"""Journal faults: a write that fails is a refusal, nothing applied, the kiosk keeps ticking and
retries; a damaged journal is moved aside at start, never deleted; replay never deletes an input.

Disk full and read-only run on a real small tmpfs when this machine lets the tests mount one; the same sqlite3
errors are also raised by a fake connection so every case runs everywhere."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from conftest import DATA, ROOT, FakeClock
from companion.call.words import load_catalogue
from companion.kiosk.controller import RETRY_SECONDS, SAVE_FAILED, Controller, status_dict
from companion.kiosk.errors import JournalError
from companion.kiosk.journal import Journal
from companion.kiosk.recovery import check, move_aside, open_journal
from tablekit import TableKit


# ----- helpers -----------------------------------------------------------------------------------------
@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs mounted at tmp_path/sd (root only); skipped where it cannot be mounted."""
    mnt = tmp_path / "sd"
    mnt.mkdir()
    if not shutil.which("mount") or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)],
                                                   capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here; the fake-connection tests raise the same errors")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def fill(folder) -> object:
    """Fill the file system of ``folder`` to the last byte; returns the filler file."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


class FailingWrites:
    """Stands in for the journal's sqlite3 connection: reads pass, every write raises ``error`` while set."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self.error: Exception | None = None

    def execute(self, sql: str, *args):
        head = sql.split()[0].upper()
        if self.error is not None and (head in ("BEGIN", "INSERT", "UPDATE") or head == "PRAGMA" and "=" in sql):
            raise self.error
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def playing(db) -> TableKit:
    table = TableKit(db)
    table.start_race()
    table.scan("HS15")
    return table


# ----- a write that fails is a refusal ----------------------------------------------------------------
ERRORS = {
    "full": (sqlite3.OperationalError("database or disk is full"), "free space on the SD card"),
    "read-only": (sqlite3.OperationalError("attempt to write a readonly database"), "writable"),
    "locked": (sqlite3.OperationalError("database is locked"), "another program holds the journal"),
    "i/o": (sqlite3.OperationalError("disk I/O error"), "check the SD card"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_a_failed_write_is_refused_said_nothing_applied_and_play_goes_on_after(tmp_path, name):
    error, fix = ERRORS[name]
    table = playing(tmp_path / "journal.db")
    fake = FailingWrites(table.journal._db)
    table.journal._db = fake
    ticks: list[float] = []
    table.controller.on_tick = ticks.append
    before, rows = table.status(), len(table.journal.entries())
    fake.error = error
    result = table.scan("HS26")
    assert not result.accepted and result.message == SAVE_FAILED
    assert table.status() == before and len(table.journal.entries()) == rows  # nothing applied, nothing stored
    # spoken as the fixed "can't save" line of the caller, and the console shows it too
    assert table.said()[-1] in load_catalogue("en").phrases["refused-save"]
    assert f"Refused 'HS26': Can't save, check the SD card. ({SAVE_FAILED})" in table.console.getvalue()
    problem = table.controller.problem
    assert str(tmp_path / "journal.db") in problem and fix in problem
    assert not table.press("undo").accepted and table.status() == before  # undo cannot save either
    table.advance(RETRY_SECONDS)
    assert table.controller.problem == problem and len(ticks) >= 3  # still failing, still ticking
    fake.error = None
    table.advance(RETRY_SECONDS)  # the retry writes again
    assert table.controller.problem is None
    assert table.scan("HS26").accepted and table.status()["revealed"] == 2


def test_a_full_sd_card_refuses_then_plays_on_when_there_is_room(small_disk):
    table = playing(small_disk / "journal.db")
    before, rows = table.status(), len(table.journal.entries())
    filler = fill(small_disk)
    result = table.scan("HS26")
    assert (result.accepted, result.message) == (False, SAVE_FAILED)
    assert table.status() == before and len(table.journal.entries()) == rows
    assert "full" in table.controller.problem
    assert any("disk is full" in problem for problem, _ in check(small_disk / "journal.db"))  # status, doctor
    filler.unlink()
    table.advance(RETRY_SECONDS)
    assert table.controller.problem is None
    assert table.scan("HS26").accepted
    table.close()
    assert [e.text for e in Journal(small_disk / "journal.db").current()][-2:] == ["HS15", "HS26"]


def test_a_journal_on_a_read_only_card_starts_refusing_and_plays_on_once_writable(small_disk):
    path = small_disk / "journal.db"
    table = playing(path)
    before = table.status()
    table.close()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    try:
        journal, notices = open_journal(path)
        controller = Controller(journal, notices=notices)
        assert status_dict(controller.table) == before  # what was played is read back
        assert "can't save" in controller.problem and str(path) in controller.problem
        assert controller.handle("HS26").message == SAVE_FAILED and controller.table.game.race.revealed == 1
        assert any("SD card" in n for n in notices)
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    controller.clock = lambda: 1e9  # the retry is due (a controller made on the real clock)
    controller.step()
    assert controller.problem is None and controller.handle("HS26").accepted


def test_a_journal_locked_by_another_program_is_a_refusal_not_a_crash(tmp_path):
    table = playing(tmp_path / "journal.db")
    table.journal._db.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(tmp_path / "journal.db", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    assert table.scan("HS26").message == SAVE_FAILED and "locked" in table.controller.problem
    assert any("locked" in p for p, _ in check(tmp_path / "journal.db"))  # status and doctor say so
    other.execute("ROLLBACK")
    table.advance(RETRY_SECONDS)
    assert table.scan("HS26").accepted


CHILD = """
import json, os, sys
from companion.kiosk.recovery import open_journal
from companion.kiosk.controller import Controller
from companion.rules.table import Table
Table().apply("HS-PLAYERS-2", {})  # loads every rule data file while still allowed to
if len(sys.argv) > 2:
    os.setuid(int(sys.argv[2]))  # imports done as root, the journal opened as the other user
journal, notices = open_journal(sys.argv[1])
c = Controller(journal, notices=notices)
r = c.handle("HS26")
print(json.dumps({"accepted": r.accepted, "message": r.message, "problem": c.problem,
                  "revealed": c.table.game.race.revealed}))
"""


@pytest.mark.slow
def test_a_root_owned_journal_under_the_service_user_refuses_with_a_clear_problem(tmp_path):
    folder = tmp_path / "state"
    folder.mkdir()
    playing(folder / "journal.db").journal.close()
    if os.getuid() == 0:  # a real other user: nobody
        top = Path(tempfile.gettempdir()).resolve()
        for folder_up in (tmp_path, *tmp_path.parents):  # nobody may walk down to it (pytest's folders are 0700)
            if folder_up == top or top not in folder_up.parents:
                break
            os.chmod(folder_up, 0o755)
        user = ["65534"]
    else:
        os.chmod(folder / "journal.db", 0o444)
        os.chmod(folder, 0o555)
        user = []
    try:
        out = subprocess.run([sys.executable, "-c", CHILD, str(folder / "journal.db"), *user], capture_output=True,
                             text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    finally:
        os.chmod(folder, 0o755)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["accepted"] is False and got["message"] == SAVE_FAILED and got["revealed"] == 1
    assert str(folder / "journal.db") in got["problem"] and "can't save" in got["problem"]
    assert "Traceback" not in out.stderr


def test_a_journal_that_cannot_even_be_opened_leaves_the_kiosk_up_and_refusing(small_disk, caplog):
    path = small_disk / "journal.db"  # not made yet, on a card that is read-only
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    journal, notices = open_journal(path)
    clock = FakeClock()
    controller = Controller(journal, notices=notices, clock=clock)
    ticks: list[float] = []
    controller.on_tick = ticks.append
    assert controller.table.phase == "new-game" and str(path) in controller.problem
    assert controller.handle("HS-NEW").message == SAVE_FAILED
    clock.advance(RETRY_SECONDS)
    controller.step()  # the retry fails again, quietly: still up, same problem
    assert str(path) in controller.problem and controller.handle("HS-NEW").message == SAVE_FAILED
    assert ticks == [clock.t] and controller._retry_at == clock.t + RETRY_SECONDS  # it did try again
    assert sum(r.levelname == "ERROR" for r in caplog.records) == 1
    subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    clock.advance(RETRY_SECONDS)
    controller.step()
    assert controller.problem is None and controller.handle("HS-NEW").accepted
    assert Journal(path).current()[0].text == "HS-NEW"


def test_a_journal_whose_folder_is_a_file_is_one_line(tmp_path):
    (tmp_path / "not-a-folder").write_text("x")
    with pytest.raises(JournalError) as err:
        open_journal(tmp_path / "not-a-folder" / "journal.db")
    assert err.value.kind == "path" and "not-a-folder" in str(err.value)


# ----- a journal damaged at start is moved aside ------------------------------------------------------
def damaged_files(tmp_path):
    """name -> a function writing that kind of damaged journal at a path."""
    def truncated(path):
        shutil.copy(DATA / "journal-v0.sqlite", path)
        with open(path, "r+b") as f:
            f.truncate(path.stat().st_size // 2)

    def renamed_column(path):
        shutil.copy(DATA / "journal-v0.sqlite", path)
        con = sqlite3.connect(path)  # closed here: an open connection may still write to the file later
        try:
            con.execute("ALTER TABLE inputs RENAME COLUMN text TO label")
            con.commit()
        finally:
            con.close()

    return {"zero bytes": lambda p: p.write_bytes(b""), "not SQLite": lambda p: p.write_bytes(b"hello " * 200),
            "truncated": truncated, "renamed column": renamed_column}


@pytest.mark.parametrize("kind", ["zero bytes", "not SQLite", "truncated", "renamed column"])
def test_a_damaged_journal_is_moved_aside_and_a_new_one_started(tmp_path, kind, caplog):
    path = tmp_path / "journal.db"
    damaged_files(tmp_path)[kind](path)
    content = path.read_bytes()
    journal, notices = open_journal(path, now=0.0)
    asides = sorted(tmp_path.glob("journal.db.damaged-*"))
    assert [a.read_bytes() for a in asides if not a.name.endswith(("-wal", "-shm"))] == [content]  # kept as is
    assert journal.current() == [] and journal.append("HS-NEW", "scan", 0.0).id == 1  # a new journal
    assert len(notices) == 1 and "moved aside" in notices[0] and asides[0].name in notices[0]
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and str(path) in errors[0] and asides[0].name in errors[0]


def test_moving_aside_never_overwrites_and_takes_the_wal_along(tmp_path):
    path = tmp_path / "journal.db"
    first = move_aside(_garbage(path), now=0.0)
    second = move_aside(_garbage(path, wal=True), now=0.0)
    assert first != second and first.read_bytes() == second.read_bytes() == b"x" * 100
    assert os.path.exists(f"{second}-wal") and not path.exists() and not os.path.exists(f"{path}-wal")


def _garbage(path, wal=False):
    path.write_bytes(b"x" * 100)
    if wal:
        open(f"{path}-wal", "wb").write(b"w")
    return path


def test_the_screen_says_once_that_the_journal_was_moved_aside(tmp_path):
    from companion.view.sink import NullSink

    class Screen(NullSink):
        def __init__(self):
            self.notices = []

        def notice(self, message, view, now):
            self.notices.append(message)

    path = tmp_path / "journal.db"
    path.write_bytes(b"")
    journal, notices = open_journal(path)
    screen = Screen()
    controller = Controller(journal, notices=notices, sinks=[screen])
    controller.step()
    controller.step()
    assert len(screen.notices) == 1 and "moved aside" in screen.notices[0]


@pytest.mark.slow
def test_a_folder_as_journal_is_one_line_not_a_traceback(tmp_path, run_cli):
    with pytest.raises(JournalError) as err:
        open_journal(tmp_path)
    assert err.value.kind == "path" and "folder" in str(err.value)
    result = run_cli("status", "--db", str(tmp_path))
    assert result.returncode == 2 and result.stderr.count("\n") == 1


@pytest.mark.slow
def test_status_and_doctor_name_a_damaged_journal(tmp_path, run_cli):
    path = tmp_path / "journal.db"
    path.write_bytes(b"not a journal")
    result = run_cli("status", "--db", str(path))
    assert result.returncode == 2 and str(path) in result.stderr and "not an SQLite journal" in result.stderr
    result = run_cli("doctor", "--json", "--db", str(path), "--root", str(tmp_path))
    problems = [p for p in json.loads(result.stdout)["problems"] if p["check"] == "journal"]
    assert problems and "not an SQLite journal" in problems[0]["message"]
    assert path.read_bytes() == b"not a journal"  # looking changes nothing


# ----- replay never deletes ---------------------------------------------------------------------------
def test_an_input_the_data_files_no_longer_know_is_kept_marked_and_comes_back(tmp_path, caplog):
    from companion.rules import load_deck
    path = tmp_path / "journal.db"
    table = playing(path)
    table.scan("HS26")
    table.close()
    edited = tmp_path / "deck.toml"
    deck_text = (ROOT / "companion" / "rules" / "data" / "deck.toml").read_text()
    edited.write_text(deck_text.replace('code = "HS15"', 'code = "HS99"'))
    controller = Controller(Journal(path), deck=load_deck(edited))
    assert controller.table.game.race.revealed == 1
    rows = Journal(path).entries()
    assert [e.text for e in rows][-2:] == ["HS15", "HS26"] and "HS15" in (rows[-2].skipped or "")
    assert any("HS15" in n and "kept" in n for n in controller.notices)
    assert any("HS15" in r.getMessage() and "kept" in r.getMessage() for r in caplog.records)
    assert controller.journal.last_counting().text == "HS26"  # undo skips what does not apply
    controller.journal.close()
    again = Controller(Journal(path))  # the normal deck is back
    assert again.table.game.race.revealed == 2 and all(e.skipped is None for e in again.journal.entries())


# ----- floods and the screen --------------------------------------------------------------------------
def test_a_flood_of_garbage_is_taken_in_bounded_batches_with_a_tick_after_each():
    controller = Controller(Journal(":memory:"), batch=32)
    ticks: list[float] = []
    controller.on_tick = ticks.append
    for i in range(5000):
        controller.submit(f"garbage-{i}")
    sizes = []
    while not controller.inputs.empty():
        sizes.append(len(controller.step()))
    assert sum(sizes) == 5000 and max(sizes) <= 32 and len(ticks) == len(sizes)
    assert controller.journal.entries() == []


def test_a_display_that_hangs_at_start_leaves_the_kiosk_headless(tmp_path, monkeypatch):
    import hardware.display
    from companion.kiosk.config import load_config
    from companion.kiosk.wiring import build
    from companion.screen.sink import ScreenSink
    release = threading.Event()
    monkeypatch.setattr(hardware.display, "PygameDisplay", lambda *a, **k: release.wait(30))  # a hung mode set
    (tmp_path / "script.txt").write_text("HS-NEW\n")
    try:
        kiosk = build(load_config(None), mode="mock", db=tmp_path / "journal.db", display="dummy", audio="none",
                      script=tmp_path / "script.txt", display_timeout=0.05)
        assert not any(isinstance(s, ScreenSink) for s in kiosk.controller.sinks)
        status = next(s for s in kiosk.controller.sinks if type(s).__name__ == "StatusSink").hardware_status()
        assert "headless" in status["screen"] and "did not start within" in status["screen"]
        kiosk.close()
    finally:
        release.set()


# ----- a file that was never a journal is refused untouched ---------------------------------------------
@pytest.mark.parametrize("name", ["passwd", "mine.pdf", "notes.txt"])
def test_a_file_that_is_not_named_like_a_journal_is_refused_and_left_alone(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b"root:x:0:0:root:/root:/bin/bash\n")
    with pytest.raises(JournalError) as err:
        open_journal(path, now=0.0)
    assert err.value.kind == "path" and "not a Hot Streak journal" in str(err.value) and str(path) in str(err.value)
    assert path.read_bytes() == b"root:x:0:0:root:/root:/bin/bash\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]   # nothing moved aside, no journal made


def test_another_programs_sqlite_database_is_refused_and_never_written(tmp_path):
    path = tmp_path / "places.sqlite"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE bookmarks (url TEXT)")
        con.execute("INSERT INTO bookmarks VALUES ('https://example.org')")
    con.close()
    before = path.read_bytes()
    with pytest.raises(JournalError) as err:
        open_journal(path, now=0.0)
    assert err.value.kind == "path" and "another program's SQLite database (tables: bookmarks)" in str(err.value)
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["places.sqlite"]


@pytest.mark.slow
def test_run_with_a_file_that_is_not_a_journal_exits_with_one_line(tmp_path, run_cli):
    path = tmp_path / "passwd"
    path.write_text("root:x:0:0\n")
    result = run_cli("run", "--hardware", "mock", "--display", "none", "--audio", "none", "--web", "off",
                     "--db", str(path))
    assert result.returncode == 2 and "not a Hot Streak journal" in result.stderr
    assert "Traceback" not in result.stderr and path.read_text() == "root:x:0:0\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["passwd"]
