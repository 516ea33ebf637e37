"""The SQLite journal: durable appends, WAL + synchronous=FULL, undo as a stack, marks."""

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
        j.undo("scan", 0.0) if text == "HS-UNDO" else j.append(text, "scan", 0.0)
    assert [e.text for e in j.effective()] == ["D"]


def test_undo_with_nothing_left_is_harmless(tmp_path):
    j = Journal(tmp_path / "j.db")
    assert j.undo("scan", 0.0) is None  # nothing stored
    j.append("A", "scan", 0.0)
    assert [e.text for e in j.effective()] == ["A"]


def test_a_mark_is_kept_with_the_input_and_cleared_when_it_applies_again(tmp_path):
    j = Journal(tmp_path / "j.db")
    a = j.append("A", "scan", 0.0)
    b = j.append("B", "scan", 0.0)
    j.mark({b.id: "unknown card"}, [])
    assert [(e.id, e.skipped) for e in j.entries()] == [(a.id, None), (b.id, "unknown card")]
    j.mark({}, [b.id])
    assert [e.skipped for e in j.entries()] == [None, None]


def test_a_second_reader_sees_committed_rows_while_the_writer_is_open(tmp_path):
    writer = Journal(tmp_path / "j.db")
    writer.append("A", "scan", 0.0)
    reader = sqlite3.connect(tmp_path / "j.db")
    assert reader.execute("SELECT text FROM inputs").fetchall() == [("A",)]
