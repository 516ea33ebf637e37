"""The SQLite journal: durable appends, WAL + synchronous=FULL, undo as a stack, discards."""

import sqlite3

from companion.kiosk.journal import Journal


def test_appends_are_durable_and_ordered(tmp_path):
    path = tmp_path / "j.db"
    with Journal(path) as j:
        j.append("HS-PLAYERS-4", "scan", 1.0, {"side_bet_order": [3, 1, 2]})
        j.append("HS-GO", "button", 2.0)
    with Journal(path) as j:
        entries = j.entries()
    assert [e.text for e in entries] == ["HS-PLAYERS-4", "HS-GO"]
    assert entries[0].data == {"side_bet_order": [3, 1, 2]} and entries[1].source == "button"


def test_wal_and_full_sync_are_on(tmp_path):
    j = Journal(tmp_path / "j.db")
    assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_undo_takes_back_the_last_effective_input_each_time(tmp_path):
    j = Journal(tmp_path / "j.db")
    for text in ["A", "B", "HS-UNDO", "C", "HS-UNDO", "HS-UNDO", "D"]:
        j.append(text, "scan", 0.0)
    assert [e.text for e in j.effective()] == ["D"]


def test_undo_with_nothing_left_is_harmless(tmp_path):
    j = Journal(tmp_path / "j.db")
    j.append("HS-UNDO", "scan", 0.0)
    j.append("A", "scan", 0.0)
    assert [e.text for e in j.effective()] == ["A"]


def test_discard_removes_a_refused_input(tmp_path):
    j = Journal(tmp_path / "j.db")
    keep = j.append("A", "scan", 0.0)
    bad = j.append("garbage", "scan", 0.0)
    j.discard(bad.id)
    assert [e.id for e in j.entries()] == [keep.id]


def test_a_second_reader_sees_committed_rows_while_the_writer_is_open(tmp_path):
    writer = Journal(tmp_path / "j.db")
    writer.append("A", "scan", 0.0)
    reader = sqlite3.connect(tmp_path / "j.db")
    assert reader.execute("SELECT text FROM inputs").fetchall() == [("A",)]
