"""A failing sink is logged once per cause, counted, and shown in the status (docs/architecture.md)."""

from __future__ import annotations

import json
import logging

from companion.kiosk.controller import Controller
from companion.kiosk.faults import SinkFaults, faults_path, read_faults
from companion.kiosk.journal import Journal
from companion.view.sink import NullSink
from companion.view.status import status_line
from conftest import FakeClock, hotstreak_in_process


class Unplugged(NullSink):
    """A screen whose every render fails the same way (``message`` can be changed between passes)."""

    def __init__(self) -> None:
        self.message = "display unplugged"

    def render(self, view, now):
        raise RuntimeError(self.message)


def _kiosk(tmp_path, sink):
    wall = FakeClock(1_800_000_000.0)
    controller = Controller(Journal(tmp_path / "journal.db"), sinks=[sink], clock=FakeClock(), wall=wall)
    return controller, wall


def test_a_sink_failing_every_pass_is_logged_once_with_a_count_and_the_last_time(tmp_path, caplog):
    sink = Unplugged()
    controller, wall = _kiosk(tmp_path, sink)
    with caplog.at_level(logging.INFO):
        for _ in range(30):
            controller.step()
            wall.advance(1.0)
    failures = [r for r in caplog.records if "Unplugged.render failed" in r.getMessage()]
    assert len(failures) == 1 and failures[0].exc_info is not None  # the one traceback
    (fault,) = controller.faults.faults.values()
    assert (fault.count, fault.error) == (30, "RuntimeError: display unplugged")
    assert fault.last - fault.first == 29.0
    line = status_line(controller.view, controller.faults.status())
    assert "Unplugged failed in render: RuntimeError: display unplugged (30 times, last" in line


def test_another_message_is_another_cause_and_is_logged_too(tmp_path, caplog):
    sink = Unplugged()
    controller, _ = _kiosk(tmp_path, sink)
    with caplog.at_level(logging.INFO):
        controller.step()
        sink.message = "display asleep"
        controller.step()
        controller.step()
    assert len([r for r in caplog.records if "Unplugged.render failed" in r.getMessage()]) == 2
    assert sorted(f.count for f in controller.faults.faults.values()) == [1, 2]
    assert "display asleep (2 times" in controller.faults.status()["sink Unplugged"]  # the latest cause


def test_hotstreak_status_shows_the_kiosks_sink_errors(tmp_path):
    controller, _ = _kiosk(tmp_path, Unplugged())
    for _ in range(5):
        controller.step()
    controller.close()
    db = str(tmp_path / "journal.db")
    shown = json.loads(hotstreak_in_process("status", "--json", "--db", db).stdout)["sink_errors"]
    assert [(f["sink"], f["call"], f["error"], f["count"]) for f in shown] == [
        ("Unplugged", "render", "RuntimeError: display unplugged", 5)]
    text = hotstreak_in_process("status", "--db", db).stdout
    assert "  Unplugged failed in render: RuntimeError: display unplugged (5 times" in text


def test_a_new_kiosk_run_starts_with_no_sink_errors(tmp_path):
    controller, _ = _kiosk(tmp_path, Unplugged())
    controller.step()
    controller.close()
    assert len(read_faults(tmp_path / "journal.db")) == 1
    Controller(Journal(tmp_path / "journal.db"), sinks=[NullSink()], clock=FakeClock())
    assert read_faults(tmp_path / "journal.db") == []


def test_a_recurring_cause_rewrites_the_file_at_most_once_a_minute(tmp_path):
    wall = FakeClock(0.0)
    faults = SinkFaults(tmp_path / "f.json", wall)
    path = faults_path(tmp_path / "j.db")
    assert path is not None and path.name == "j.db.faults.json"
    error = RuntimeError("x")
    faults.failed("S", "render", error)
    wall.advance(30)
    faults.failed("S", "render", error)
    assert json.loads((tmp_path / "f.json").read_text())[0]["count"] == 1  # not rewritten within the minute
    wall.advance(31)
    faults.failed("S", "render", error)
    assert json.loads((tmp_path / "f.json").read_text())[0]["count"] == 3


def test_a_damaged_faults_file_reads_as_none(tmp_path):
    path = faults_path(tmp_path / "j.db")
    assert path is not None
    for text in ("not json", "{}", '[{"sink": 1}]', "[3]"):
        path.write_text(text)
        assert read_faults(tmp_path / "j.db") == []


def test_the_systemd_status_line_names_a_failing_sink_with_its_count(tmp_path, monkeypatch):
    from notify_listener import NotifyListener
    from tablekit import TableKit
    with NotifyListener(tmp_path) as listener:
        monkeypatch.setenv("NOTIFY_SOCKET", listener.path)
        table = TableKit()
        table.controller.sinks.append(Unplugged())
        for _ in range(3):
            table.advance(1.5)  # the status line is sent at most once a second
        while listener.receive(0.2) is not None:  # every datagram the kiosk sent is in the socket already
            pass
    lines = [line for m in listener.messages for line in m.splitlines() if line.startswith("STATUS=")]
    assert any("Unplugged failed in render: RuntimeError: display unplugged (" in line and "times, last" in line
               for line in lines), lines
