"""Journal schema versions and scaling: a journal written by the first (unversioned) schema is migrated, a
newer one is refused, replay reads only the current game, undo takes back one input however long the file."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from conftest import DATA
from companion.kiosk.controller import Controller, status_dict
from companion.kiosk.history import backfill
from companion.kiosk.errors import JournalError
from companion.kiosk.journal import SCHEMA_VERSION, Journal
from tablekit import TableKit

V0 = DATA / "journal-v0.sqlite"
V0_FACTS = json.loads((DATA / "journal-v0.json").read_text())


def same_status(table) -> bool:
    """The table's status agrees with the one saved when the fixture was written (its keys; newer keys aside)."""
    status = status_dict(table)
    return {k: status[k] for k in V0_FACTS["status"]} == V0_FACTS["status"]


@pytest.fixture
def old_journal(tmp_path):
    path = tmp_path / "journal.db"
    shutil.copy(V0, path)
    return path


def test_the_fixture_is_a_journal_of_the_first_schema(old_journal):
    con = sqlite3.connect(f"file:{old_journal}?mode=ro", uri=True)  # a copy: the fixture itself is never opened
    assert con.execute("PRAGMA user_version").fetchone()[0] == 0
    assert [r[1] for r in con.execute("PRAGMA table_info(inputs)")] == ["id", "at", "source", "text", "data"]


def test_an_old_journal_is_migrated_and_the_table_is_where_it_was(old_journal):
    journal = Journal(old_journal)
    assert journal.migrated_from == 0 and journal.user_version() == SCHEMA_VERSION
    assert len(journal.entries()) == V0_FACTS["rows"]  # every row kept
    assert len(journal.effective()) == V0_FACTS["effective"]  # its undo still takes back the same input
    assert same_status(Controller(journal).table)


def test_a_migrated_journal_gets_its_finished_games_into_history(old_journal):
    journal = Journal(old_journal)
    assert backfill(journal) == 2
    games = journal.games()
    assert len(games) == V0_FACTS["finished_games"] and all(g["finished"] for g in games)
    assert [{str(s["seat"]): s["name"] for s in g["seats"] if s["name"]} for g in reversed(games)] == V0_FACTS["names"]
    # that program marked the race 3 double by scanning the ticket again (today: HS-DOUBLE, then the ticket);
    # the migrated inputs are read its way, so both evenings end with the money it paid out
    assert all([s["money"] for s in g["seats"]] == [27, 45, 27, 53] for g in games)
    assert backfill(journal) == 0  # each older game is summarised once, ever


def test_the_kiosk_summarises_older_games_in_its_idle_loop_passes(old_journal):
    controller = Controller(Journal(old_journal))
    assert controller.journal.games() == [] and controller.form is None
    controller.step()
    controller.step()
    controller.step()
    assert len(controller.journal.games()) == 2 and not controller.summarising
    assert controller.form and "of the last 6" in controller.form


def test_a_migrated_journal_reopens_without_migrating_again(old_journal):
    Journal(old_journal).close()
    again = Journal(old_journal)
    assert again.migrated_from is None and again.user_version() == SCHEMA_VERSION


def test_a_read_only_look_at_an_old_journal_leaves_the_file_as_it_was(old_journal):
    before = old_journal.read_bytes()
    with Journal(old_journal, readonly=True) as journal:
        assert same_status(Controller(journal).table)
    assert old_journal.read_bytes() == before


def test_a_new_journal_starts_at_the_current_version(tmp_path):
    assert Journal(tmp_path / "j.db").user_version() == SCHEMA_VERSION


@pytest.mark.slow
def test_a_journal_from_a_newer_program_is_refused_with_one_line(tmp_path, run_cli):
    path = tmp_path / "journal.db"
    Journal(path).close()
    with sqlite3.connect(path) as con:
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(JournalError) as err:
        Journal(path)
    assert err.value.kind == "newer" and str(path) in str(err.value) and "update the program" in str(err.value)
    result = run_cli("run", "--hardware", "mock", "--db", str(path), "--display", "none", "--audio", "none",
                     "--quiet", stdin="")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert str(path) in result.stderr and "newer" in result.stderr and "start with another --db" in result.stderr


def test_replay_starts_at_the_latest_game_start_still_in_effect(tmp_path):
    table = TableKit(tmp_path / "journal.db")
    table.start_race()
    table.scan("HS15")
    first_game = table.status()
    start = table.journal.start_id()
    table.scan("HS-NEW", "HS-PLAYERS-3")
    assert table.journal.start_id() > start
    assert [e.text for e in table.journal.current()] == ["HS-NEW", "HS-PLAYERS-3"]
    table.press("undo")
    table.press("undo")  # takes back HS-NEW: the first game is in effect again
    assert table.journal.start_id() == start and table.status() == first_game


def test_undo_marks_its_target_so_older_games_are_never_read(tmp_path):
    table = TableKit(tmp_path / "journal.db")
    table.start_race()
    table.scan("HS15", "HS26")
    table.press("undo")
    rows = sqlite3.connect(tmp_path / "journal.db").execute(
        "SELECT text, undone_by FROM inputs ORDER BY id DESC LIMIT 2").fetchall()
    undo_id = sqlite3.connect(tmp_path / "journal.db").execute("SELECT max(id) FROM inputs").fetchone()[0]
    assert rows == [("HS-UNDO", None), ("HS26", undo_id)]


def test_a_thousand_finished_games_are_not_replayed_at_start(tmp_path, monkeypatch):
    journal = Journal(tmp_path / "journal.db")
    game = ["HS-NEW", "HS-PLAYERS-2", "HS-GO", "HS-GO", "HS-GO", "HS15"]
    order = json.dumps({"side_bet_order": list(range(12))})
    rows = [(t, order if "PLAYERS" in t else "{}", "new" if t == "HS-NEW" else None) for _ in range(1000) for t in game]
    journal._write(lambda db: db.executemany(
        "INSERT INTO inputs (at, source, text, data, kind) VALUES (0, 'scan', ?, ?, ?)", rows))
    applied = []
    from companion.rules import table as table_module
    real = table_module.Table.apply
    monkeypatch.setattr(table_module.Table, "apply", lambda self, text, data=None: applied.append(text) or
                        real(self, text, data))
    controller = Controller(journal)
    assert applied == game and controller.table.phase == "racing"
