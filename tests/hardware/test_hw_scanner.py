"""The scanner pipeline (frames, AIM prefix, noise, repeats), reconnect with backoff, the mock, and a real pty."""

from __future__ import annotations

import logging
import os
import queue
import threading
import time

import pytest

from hardware.mock_scanner import MockScanner, parse_script
from hardware.scanner import ScanParser, SerialScanner
from conftest import FakeClock




def parser(**kw) -> ScanParser:
    kw.setdefault("clock", FakeClock())
    return ScanParser(**kw)


# ----- pipeline rules ---------------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", [b"\r", b"\n", b"\r\n", b"\r\r", b"\n\n", b"\r\n\r\n", b"\n\r"])
def test_each_suffix_gives_one_line(suffix):
    p = parser(repeat_window=0)
    assert p.feed(b"HS15" + suffix + b"HS16" + suffix) == ["HS15", "HS16"]
    assert p.stats.accepted == 2


def test_buffer_keeps_partial_lines_across_feeds():
    p = parser()
    assert p.feed(b"HS") == []
    assert p.feed(b"1") == []
    assert p.feed(b"5\r") == ["HS15"]
    assert p.feed(b"\nHS-G") == []  # the LF of the CRLF split across reads gives no empty code
    assert p.feed(b"O\r\n") == ["HS-GO"]


@pytest.mark.parametrize("prefix", [b"]C0", b"]Q1", b"]E0", b"]d2"])
def test_aim_prefix_is_stripped(prefix):
    assert parser().feed(prefix + b"HS-T-DANGLE-2-R\r\n") == ["HS-T-DANGLE-2-R"]


def test_text_that_only_looks_like_a_bracket_is_kept():
    assert parser().feed(b"]1\r") == ["]1"]


def test_control_bytes_are_stripped():
    assert parser().feed(b"\x02HS\x0015\x1b\x03\r\n") == ["HS15"]


def test_non_ascii_line_is_dropped_with_a_reason_and_counted():
    rejected: list[str] = []
    p = parser(on_reject=rejected.append)
    assert p.feed(b"\xf8\x80\xfe\x00\xe0\r\nHS15\r\n") == ["HS15"]
    assert p.stats.garbage == 1
    assert "non-ASCII byte 0xf8" in p.last_rejection
    assert rejected == [p.last_rejection]


def test_empty_lines_are_ignored():
    p = parser()
    assert p.feed(b"\r\n \r\n\x02\x03\r\n") == []
    assert p.stats.empty == 2 and p.stats.accepted == 0  # " " and STX ETX; bare suffixes uncounted


def test_over_long_terminated_line_is_dropped():
    p = parser(max_length=8)
    assert p.feed(b"HS-T-DANGLE-2-R\rHS15\r") == ["HS15"]
    assert p.stats.too_long == 1
    assert "cap 8" in p.last_rejection


def test_unterminated_buffer_over_the_cap_is_discarded_to_the_next_line_end():
    p = parser(max_length=8)
    assert p.feed(b"X" * 9) == []
    assert p.stats.too_long == 1
    assert p.feed(b"YYYYYY") == []  # still the same over-long line: dropped, not a new code
    assert p.feed(b"YY\r\nHS15\r\n") == ["HS15"]
    assert p.stats.too_long == 1


def test_line_exactly_at_the_cap_is_kept():
    assert parser(max_length=4).feed(b"HS15\r") == ["HS15"]


def test_repeat_within_window_is_dropped_and_after_it_kept():
    clock = FakeClock()
    p = ScanParser(repeat_window=0.8, clock=clock)
    assert p.feed(b"HS15\r\n") == ["HS15"]
    clock.advance(0.5)
    assert p.feed(b"HS15\r\n") == []
    assert p.stats.repeats == 1
    clock.advance(0.9)
    assert p.feed(b"HS15\r\n") == ["HS15"]


def test_held_card_re_read_keeps_being_dropped():
    clock = FakeClock()
    p = ScanParser(repeat_window=0.8, clock=clock)
    assert p.feed(b"HS15\r") == ["HS15"]
    for _ in range(5):  # a scanner in presentation mode re-reads every 0.5 s
        clock.advance(0.5)
        assert p.feed(b"HS15\r") == []


def test_a_different_code_is_not_a_repeat():
    p = parser()
    assert p.feed(b"HS15\rHS16\rHS15\r") == ["HS15", "HS16", "HS15"]


def test_bad_parser_settings_are_refused():
    with pytest.raises(ValueError, match="max_length 0"):
        ScanParser(max_length=0)
    with pytest.raises(ValueError, match="repeat_window -1"):
        ScanParser(repeat_window=-1)


# ----- reconnect through a fake serial factory -----------------------------------------------------------
class FakePort:
    def __init__(self, chunks: list[bytes | Exception]):
        self.chunks = list(chunks)
        self.closed = False
        self.in_waiting = 0

    def read(self, n: int) -> bytes:
        if not self.chunks:
            return b""
        item = self.chunks.pop(0)
        if isinstance(item, Exception):
            raise item
        return item

    def close(self) -> None:
        self.closed = True


class FakeFactory:
    """Each call takes the next outcome: an exception to raise or a FakePort to return."""

    def __init__(self, outcomes):
        self.outcomes = list(outcomes)
        self.calls: list[tuple[str, int]] = []

    def __call__(self, port: str, baud: int):
        self.calls.append((port, baud))
        item = self.outcomes.pop(0)
        if isinstance(item, Exception):
            raise item
        return item


def make(outcomes, **kw):
    lines: list[str] = []
    sleeps: list[float] = []
    factory = FakeFactory(outcomes)
    s = SerialScanner("/dev/ttyFAKE", 9600, lines.append, serial_factory=factory, sleep=sleeps.append,
                      clock=FakeClock(), **kw)
    return s, lines, sleeps, factory


def test_missing_port_at_start_retries_with_backoff_then_connects(caplog):
    port = FakePort([b"HS15\r\n"])
    missing = FileNotFoundError(2, "No such file or directory: '/dev/ttyFAKE'")
    s, lines, sleeps, factory = make([missing] * 5 + [port])
    with caplog.at_level(logging.INFO, logger="hardware.scanner"):
        for _ in range(5):
            s.step()
            assert not s.connected
        assert s.status == "scanner disconnected (port not found), retrying in 5 s"
        s.step()
        assert s.connected and s.status == "scanner connected on /dev/ttyFAKE"
        s.step()
    assert sleeps == [0.5, 1, 2, 5, 5]
    assert lines == ["HS15"]
    assert factory.calls[0] == ("/dev/ttyFAKE", 9600)
    messages = [r.getMessage() for r in caplog.records]
    assert sum("unavailable" in m for m in messages) == 1  # once per state change, not per retry
    assert sum("connected on" in m for m in messages) == 1


def test_vanishing_port_reconnects_and_backoff_restarts():
    import serial
    first = FakePort([b"HS1", serial.SerialException("device reports readiness to read but returned no data")])
    second = FakePort([b"HS16\r"])
    s, lines, sleeps, _ = make([OSError(5, "Input/output error"), first, OSError(16, "busy"), second])
    s.step()  # fails -> 0.5
    s.step()  # opens first
    s.step()  # reads a partial line
    s.step()  # read raises -> closed, backoff restarts at 0.5
    assert first.closed and not s.connected
    assert "returned no data" in s.status
    s.step()  # open fails -> 1
    s.step()  # opens second
    s.step()
    assert sleeps == [0.5, 0.5, 1]
    assert lines == ["HS16"]  # the partial "HS1" from the dead port does not prefix the next code


def test_raising_on_line_handler_does_not_stop_the_reader():
    port = FakePort([b"HS15\rHS16\r"])
    got: list[str] = []

    def handler(text: str) -> None:
        got.append(text)
        raise RuntimeError("boom")

    s = SerialScanner("/dev/x", 9600, handler, serial_factory=FakeFactory([port]), sleep=lambda _: None)
    s.step()
    s.step()
    assert got == ["HS15", "HS16"]


def test_thread_stops_within_two_seconds_while_retrying():
    s = SerialScanner("/dev/does-not-exist-hotstreak", 9600, lambda _: None, backoff=(30,),
                      serial_factory=FakeFactory([FileNotFoundError("nope")] * 10))
    s.start()
    time.sleep(0.05)
    t0 = time.monotonic()
    assert s.stop(timeout=2.0)
    assert time.monotonic() - t0 < 2.0
    assert s.status == "scanner stopped (/dev/does-not-exist-hotstreak)"


def test_missing_callback_and_bad_backoff_are_refused():
    with pytest.raises(ValueError, match="on_line"):
        SerialScanner("/dev/x", 9600)
    with pytest.raises(ValueError, match="backoff"):
        SerialScanner("/dev/x", 9600, print, backoff=())


# ----- a real pseudo-terminal ----------------------------------------------------------------------------
def test_real_pty_bytes_end_to_end():
    master, slave = os.openpty()
    got: queue.Queue[str] = queue.Queue()
    s = SerialScanner(os.ttyname(slave), 9600, got.put, backoff=(0.05,))
    try:
        s.start()
        deadline = time.monotonic() + 30  # a deadline for a hang only
        while not s.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        assert s.connected, s.status
        os.write(master, b"]C0HS15\r\n")
        os.write(master, b"HS16\r")
        os.write(master, b"HS16\r")          # duplicate read within the window
        os.write(master, b"\xf8\xe0\x80\xff\x1c\r\n")  # wrong-baud garbage
        os.write(master, b"HS-G")
        os.write(master, b"O\n\n")
        os.write(master, b"]Q1HS-UNDO\r\n\r\n")
        codes = [got.get(timeout=2) for _ in range(4)]
        assert codes == ["HS15", "HS16", "HS-GO", "HS-UNDO"]
        assert s.parser.stats.repeats == 1 and s.parser.stats.garbage == 1
        t0 = time.monotonic()
        assert s.stop(timeout=2.0)
        assert time.monotonic() - t0 < 2.0
        assert got.empty()
    finally:
        s.stop()
        os.close(master)
        os.close(slave)


def test_real_pty_port_is_opened_exclusively():
    master, slave = os.openpty()
    name = os.ttyname(slave)
    a = SerialScanner(name, 9600, lambda _: None)
    b = SerialScanner(name, 9600, lambda _: None, sleep=lambda _: None)
    try:
        a.step()
        assert a.connected
        b.step()
        assert not b.connected and "disconnected" in b.status
    finally:
        a.stop()
        b.stop()
        os.close(master)
        os.close(slave)


# ----- mock scanner --------------------------------------------------------------------------------------
def test_mock_script_file_with_waits_and_comments(tmp_path):
    script = tmp_path / "game.scan"
    script.write_text("# a sample\nHS-NEW\nHS-PLAYERS-4  # four at the table\n\nwait 1.5\nHS-GO\nHS-GO\n")
    got: list[str] = []
    sleeps: list[float] = []
    m = MockScanner(got.append, path=script, sleep=sleeps.append)
    assert m.status.startswith("mock scanner ready")
    m.start()
    assert m.done.wait(30)  # a deadline for a hang only
    assert got == ["HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO"] == m.history
    assert sleeps == [1.5]
    assert "finished after 4 codes" in m.status
    assert m.stop()


def test_mock_feed_goes_through_the_pipeline():
    got: list[str] = []
    m = MockScanner(got.append, lines=[])
    assert m.feed("]C0HS15\nHS16") == ["HS15", "HS16"]
    assert m.feed("\u00e9t\u00e9") == []
    assert got == ["HS15", "HS16"]
    assert m.parser.stats.garbage == 1


def test_mock_reads_stdin_until_end(tmp_path):
    import io
    got: list[str] = []
    m = MockScanner(got.append, stdin=io.StringIO("HS15\n\nHS16 # typed\n"))
    assert m.source == "keyboard"
    m.start()
    assert m.done.wait(30)  # a deadline for a hang only
    assert got == ["HS15", "HS16"]


def test_stopping_does_not_wait_for_a_keyboard_line_that_never_comes():
    """A stdin read cannot be interrupted: stop() returns at once and leaves the daemon thread to the exit."""
    import os
    import time
    r, w = os.pipe()                      # a keyboard nobody types on
    with os.fdopen(r) as stdin:
        m = MockScanner(lambda code: None, stdin=stdin)
        m.start()
        t0 = time.monotonic()
        assert m.stop() is True
        assert time.monotonic() - t0 < 0.5
        os.close(w)


def test_stopping_ends_a_scripted_wait():
    import threading
    stop = threading.Event()
    m = MockScanner(lambda code: None, lines=["wait 60", "HS15"], sleep=stop.wait)
    m.start()
    stop.set()                             # what the demo does with the kiosk's stop event
    assert m.stop(timeout=1.0) is True and m.history == []


def test_bad_wait_line_names_the_line():
    with pytest.raises(ValueError, match=r"demo line 2: 'wait soon' is not a pause"):
        parse_script("HS15\nwait soon\n", "demo")


@pytest.mark.parametrize("suffix, said", [(b"\r", "CR"), (b"\n", "LF"), (b"\r\n", "CR LF"), (b"\r\n\r\n", "CR LF CR LF")])
def test_the_parser_tells_the_line_end_it_read(suffix, said):
    parser = ScanParser(clock=FakeClock())
    assert parser.feed(b"HS15" + suffix) == ["HS15"]
    assert parser.suffix == said


def test_the_parser_times_a_line_from_its_first_byte_to_its_end():
    clock = FakeClock()
    parser = ScanParser(clock=clock)
    assert parser.line_seconds is None
    parser.feed(b"]C0H")
    clock.advance(0.012)
    parser.feed(b"S-GO\r\n")
    assert parser.line_seconds == pytest.approx(0.012)
    clock.advance(5.0)
    parser.feed(b"HS15\n")                            # the wait between two scans is not the second one's time
    assert parser.line_seconds == pytest.approx(0.0)
