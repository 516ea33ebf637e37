"""The input readers survive any byte and never buffer a line past a small cap: the keyboard (stdin), scripts,
the serial scanner's reads. A 64 MB line is dropped as it arrives (one log line), and reading goes on."""

from __future__ import annotations

import io
import logging
import subprocess
import tracemalloc

import pytest

from hardware.lines import CHUNK, LINE_CAP, bounded_lines
from hardware.mock_scanner import SCRIPT_CAP, MockScanner
from hardware.scanner import READ_MAX, SerialScanner


class HugeLine:
    """A binary stream holding ``size`` bytes of one line (made as it is read, never held), then ``tail``."""

    def __init__(self, size: int, tail: bytes = b"\nHS15\n"):
        self.left, self.tail, self.biggest = size, tail, 0

    def read1(self, n: int) -> bytes:
        self.biggest = max(self.biggest, n)
        if self.left:
            take = min(n, self.left)
            self.left -= take
            return b"x" * take
        out, self.tail = self.tail[:n], self.tail[n:]
        return out


def test_a_64_mb_line_is_dropped_as_it_arrives_and_the_next_line_comes_through():
    stream = HugeLine(64 << 20)
    dropped: list[int] = []
    tracemalloc.start()
    try:
        lines = list(bounded_lines(stream, on_drop=dropped.append))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert lines == ["HS15"] and dropped == [64 << 20]
    assert stream.biggest == CHUNK and peak < 8 * (LINE_CAP + CHUNK)  # a small bounded buffer, not 64 MB


@pytest.mark.parametrize("data, lines", [
    (b"\xff\xfe\x80\nHS15\n", ["\ufffd\ufffd\ufffd", "HS15"]),
    (b"HS-NEW\r\nHS\xc315\nHS16", ["HS-NEW", "HS\ufffd15", "HS16"]),
    (b"x" * (LINE_CAP + 1) + b"\n" + b"y" * LINE_CAP + b"\n", ["y" * LINE_CAP]),  # the cap is inclusive
])
def test_any_byte_is_survived_and_lines_split_on_lf_or_crlf(data, lines):
    assert list(bounded_lines(io.BytesIO(data), chunk=7)) == lines  # lines split across reads too


def test_the_keyboard_reader_survives_a_bad_byte_under_a_utf8_locale(caplog):
    stdin = io.TextIOWrapper(io.BytesIO(b"HS-NEW\n\xff\xfe bad\nHS15 # typed\n" + b"z" * 100_000 + b"\nHS16\n"),
                             encoding="utf-8")  # what sys.stdin is: reading it as text would raise
    got: list[str] = []
    m = MockScanner(got.append, stdin=stdin)
    with caplog.at_level(logging.WARNING):
        m.start()
        assert m.done.wait(10)
    assert got == ["HS-NEW", "HS15", "HS16"]  # the bad line is dropped by the parser as garbage
    assert m.parser.stats.garbage == 1
    assert [r.getMessage() for r in caplog.records if "100000-byte line" in r.getMessage()]


def test_a_script_too_big_to_be_one_is_refused_by_name(tmp_path):
    script = tmp_path / "big.scan"
    with open(script, "wb") as f:
        f.truncate(SCRIPT_CAP + 1)
    with pytest.raises(ValueError, match=rf"script '{script}' is {SCRIPT_CAP + 1} bytes \(expected"):
        MockScanner(lambda code: None, path=script)


def test_the_serial_reader_takes_at_most_read_max_bytes_at_a_time():
    class Flooding:
        in_waiting = 64 << 20

        def __init__(self):
            self.asked: list[int] = []

        def read(self, n):
            self.asked.append(n)
            return b"x" * n

        def close(self):
            pass
    port = Flooding()
    got: list[str] = []
    scanner = SerialScanner("/dev/x", 9600, got.append, serial_factory=lambda *_: port, sleep=lambda _: None)
    for _ in range(3):
        scanner.step()  # connect, then two reads
    assert port.asked == [READ_MAX, READ_MAX] and got == [] and len(scanner.parser._buf) <= scanner.parser.max_length


@pytest.mark.slow
def test_the_real_kiosk_reads_on_after_bad_bytes_on_its_keyboard(tmp_path):
    from kioskproc import journal_texts, start_run, stop, wait_until
    db = tmp_path / "journal.db"
    proc = start_run(tmp_path, stdin=subprocess.PIPE)
    try:
        proc.stdin.write(b"\xff\xfe\x80\n" + b"q" * (4 << 20) + b"\nHS-NEW\nHS-PLAYERS-4\n")
        proc.stdin.flush()
        wait_until(lambda: journal_texts(db) == ["HS-NEW", "HS-PLAYERS-4"] or proc.poll() is not None, 30,
                   "the codes after the bad bytes")
        assert proc.poll() is None
    finally:
        stop(proc)
    assert journal_texts(db) == ["HS-NEW", "HS-PLAYERS-4"]
