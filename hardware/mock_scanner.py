"""A scanner for the desktop and tests: codes from a script file, a list, or the keyboard (stdin).

>>> seen = []
>>> scanner = MockScanner(seen.append, ["HS-NEW", "wait 0", "HS-PLAYERS-4"], sleep=lambda s: None)
>>> scanner.start(); scanner.done.wait(2)
True
>>> seen
['HS-NEW', 'HS-PLAYERS-4']
>>> scanner.close()
"""

from __future__ import annotations

import logging
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Iterable, TextIO

from hardware.device import Device
from hardware.lines import LINE_CAP, bounded_lines
from hardware.scanner import ScanParser, _log_rejection, _safe_call

__all__ = ["MockScanner", "parse_script"]
log = logging.getLogger(__name__)
SCRIPT_CAP = 1 << 20  # bytes: a scanner script is a few hundred lines


class MockScanner(Device):
    """A scanner for the desktop and tests: codes from a list, a script file, or stdin (the keyboard).

    Script format (``path``), one item per line: a code; blank lines and ``#`` comments (also after a code)
    are ignored; ``wait <seconds>`` pauses (through ``sleep``) for the demo's table pace. With neither
    ``lines`` nor ``path``, lines are read from ``stdin`` (default ``sys.stdin``, read as bytes: any byte is
    survived, bad UTF-8 becomes U+FFFD and the parser drops that line) until end of file; a line over
    :data:`hardware.lines.LINE_CAP` bytes is dropped as it arrives (one log line), never buffered.
    ``feed(text)`` pushes text (one or more lines) straight through, for tests.

    Every line goes through a :class:`ScanParser` (default without a repeat window, so a script may repeat a
    code quickly, e.g. two ``HS-GO``); ``history`` records each accepted code in order; ``done`` is set when
    the script or stdin has ended. Raises ValueError for a bad ``wait`` line (naming the line), a script that is
    not UTF-8 text or is over :data:`SCRIPT_CAP` bytes.
    """

    def __init__(self, on_line: Callable[[str], None], lines: Iterable[str] | None = None, *,
                 path: str | Path | None = None, sleep: Callable[[float], Any] | None = None,
                 parser: ScanParser | None = None, stdin: TextIO | None = None):
        self.on_line = on_line
        self.parser = parser or ScanParser(repeat_window=0.0, on_reject=_log_rejection)
        self.history: list[str] = []
        self.done = threading.Event()
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.source: str
        if path is not None:
            try:
                size = Path(path).stat().st_size
                if size > SCRIPT_CAP:
                    raise ValueError(f"script {str(path)!r} is {size} bytes (expected a scanner script of at most "
                                     f"{SCRIPT_CAP} bytes, one code per line)")
                text = Path(path).read_text(encoding="utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"script {str(path)!r} is not a text file (expected one code per line, "
                                 "UTF-8)") from None
            self._items: list[tuple[str, Any]] | None = parse_script(text, str(path))
            self.source = f"script {path}"
        elif lines is not None:
            self._items = parse_script("\n".join(lines), "lines")
            self.source = "scripted lines"
        else:
            self._items = None
            self.source = "keyboard"
        self._stdin = stdin
        self._started = False

    @property
    def connected(self) -> bool:
        return self._started and not self._stop.is_set()

    @property
    def status(self) -> str:
        if not self._started:
            return f"mock scanner ready ({self.source})"
        if self._stop.is_set():
            return f"mock scanner stopped ({self.source})"
        if self.done.is_set():
            return f"mock scanner: {self.source} finished after {len(self.history)} codes"
        return f"mock scanner reading {self.source}"

    def start(self) -> None:
        if self._thread is not None:
            return
        self._started = True
        self._thread = threading.Thread(target=self._run, name="mock-scanner", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> bool:
        self._stop.set()
        self._closed = True
        if self._items is None:
            return True  # a stdin read cannot be interrupted: that thread is a daemon and dies with the process
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return True

    def _release(self) -> None:
        self.stop()

    def feed(self, text: str) -> list[str]:
        """Push ``text`` (lines) through the parser and deliver the accepted codes; returns them."""
        with self._lock:
            codes = self.parser.feed(text.encode("utf-8", "replace") + b"\n")
            for code in codes:
                self.history.append(code)
                _safe_call(self.on_line, code)
        return codes

    def _run(self) -> None:
        try:
            if self._items is not None:
                for kind, value in self._items:
                    if self._stop.is_set():
                        return
                    if kind == "wait":
                        self._sleep(value)
                    else:
                        self.feed(value)
            else:
                stream = self._stdin or sys.stdin
                for line in bounded_lines(stream, on_drop=_dropped):
                    if self._stop.is_set():
                        return
                    code = line.split("#", 1)[0].strip()
                    if code:
                        self.feed(code)
        finally:
            self.done.set()


def parse_script(text: str, source: str = "script") -> list[tuple[str, Any]]:
    """Parse scanner script text into ``("code", text)`` and ``("wait", seconds)`` items.

    Raises ValueError naming the source and line number of a bad ``wait`` line.
    """
    items: list[tuple[str, Any]] = []
    for n, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        words = body.split()
        if words[0].lower() == "wait":
            try:
                if len(words) != 2:
                    raise ValueError
                seconds = float(words[1])
                if not 0 <= seconds < 3600:
                    raise ValueError
            except ValueError:
                raise ValueError(f"{source} line {n}: {body!r} is not a pause "
                                 "(expected 'wait <seconds>', 0 to 3600)") from None
            items.append(("wait", seconds))
        else:
            items.append(("code", body))
    return items


def _dropped(length: int) -> None:
    log.warning("keyboard: dropped a %d-byte line (over the %d-byte cap; expected one code per line)", length,
                LINE_CAP)
