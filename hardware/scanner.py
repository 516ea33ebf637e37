"""The barcode scanner: raw serial bytes -> clean code strings.

Wiring: a USB barcode scanner set to USB-serial (CDC/COM) mode, not keyboard mode, 9600 baud; on the Pi the
udev rule gives it the stable name ``/dev/hotstreak-scanner``.

>>> p = ScanParser(clock=lambda: 0.0)
>>> p.feed(b"]C0HS15\\r\\n")
['HS15']

Three parts:

- :class:`ScanParser`, the pure pipeline (own buffer, framing, AIM prefix, control bytes, ASCII, length cap,
  repeat window) with counters and the last rejection for status and logs;
- :class:`SerialScanner`, a pyserial reader thread that opens the port exclusively and reconnects with
  backoff when the port is missing, vanishes or raises;
- :class:`hardware.mock_scanner.MockScanner`, lines from a script file (``wait <seconds>`` lines for table
  pace), a list, or stdin.

Every scanner calls ``on_line(text)`` from its own thread for each accepted code, and follows
:class:`hardware.device.Scanner`: ``start()``, ``stop(timeout=2.0)``, ``connected``, ``status``, ``close()``,
``closed`` and use as a context manager. A keyboard (HID) scanner goes through the same reader
(:class:`SerialScanner` with a port from :mod:`hardware.hid`), so it gets the same framing, repeat window
and reconnect.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from hardware.device import Device

log = logging.getLogger(__name__)

_TERMINATORS = b"\r\n"
_CONTROL = bytes(range(0x20)) + b"\x7f"
READ_MAX = 4096  # bytes taken from the port per read, so a flood never sits in one buffer


@dataclass
class ScanStats:
    """Counters of everything the parser saw: one count per line outcome."""

    accepted: int = 0
    empty: int = 0        # lines with only spaces or control bytes (bare CR/LF suffixes are not counted)
    repeats: int = 0
    garbage: int = 0      # non-ASCII bytes (noise, wrong baud rate)
    too_long: int = 0     # a terminated line over the cap, or an unterminated buffer over the cap

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


class ScanParser:
    """Turn raw scanner bytes into accepted code strings.

    ``feed(data)`` appends ``data`` to an internal buffer and returns the codes completed by it, in order.
    Per line: framing on CR or LF (CR, LF, CRLF and doubled suffixes all end one line; the empty lines
    between them are ignored); control bytes (0x00-0x1f, 0x7f) removed; a line with any byte >= 0x80 is
    dropped as garbage; an AIM symbology prefix (``]`` + letter + character, e.g. ``]C0``, ``]Q1``) removed;
    surrounding spaces removed; a line longer than ``max_length`` characters is dropped, and an unterminated
    buffer over the cap is discarded up to the next terminator; a read equal to the previous read within
    ``repeat_window`` seconds (by ``clock``, the window restarting with each such read) is dropped, so a
    scanner re-reading a card held under it gives one code.

    Dropped lines are counted in ``stats``; ``last_rejection`` holds a one-line reason (also passed to
    ``on_reject`` if given) for a log or status line. Repeats are counted but are not rejections.
    """

    def __init__(self, max_length: int = 64, repeat_window: float = 0.8, clock: Callable[[], float] = time.monotonic,
                 on_reject: Callable[[str], None] | None = None):
        if max_length < 1:
            raise ValueError(f"max_length {max_length!r} must be at least 1")
        if repeat_window < 0:
            raise ValueError(f"repeat_window {repeat_window!r} must be 0 or more seconds")
        self.max_length = max_length
        self.repeat_window = repeat_window
        self.clock = clock
        self.on_reject = on_reject
        self.stats = ScanStats()
        self.last_rejection: str | None = None
        self._buf = bytearray()
        self._skipping = False  # discarding an over-long line until its terminator
        self._last_text: str | None = None
        self._last_time = 0.0
        self._started: float | None = None  # when the first byte of the line in the buffer came
        self.suffix = ""                   # the last line's end as read ("CR LF"), for the service mode
        self.line_seconds: float | None = None  # the last line's first byte to its end (by ``clock``)

    def reset(self) -> None:
        """Forget the partial line (e.g. after a reconnect); counters and the repeat memory stay."""
        self._buf.clear()
        self._skipping = False

    def feed(self, data: bytes) -> list[str]:
        """Add ``data`` to the buffer; return the codes completed by it (possibly none)."""
        out: list[str] = []
        if self._started is None and data.strip(_TERMINATORS):
            self._started = self.clock()
        self._buf.extend(data)
        while True:
            cut = _first_terminator(self._buf)
            if cut < 0:
                break
            raw = bytes(self._buf[:cut])
            if raw:
                ends = len(self._buf[cut:]) - len(bytes(self._buf[cut:]).lstrip(_TERMINATORS))
                self.suffix = " ".join({13: "CR", 10: "LF"}[b] for b in self._buf[cut:cut + ends])
                self.line_seconds = None if self._started is None else self.clock() - self._started
                self._started = None if not self._buf[cut + ends:].strip(_TERMINATORS) else self.clock()
            del self._buf[:cut + 1]
            if self._skipping:
                self._skipping = False
                continue
            if not raw:  # the second half of CRLF or a doubled suffix
                continue
            text = self._line(raw)
            if text is not None:
                out.append(text)
        if len(self._buf) > self.max_length and not self._skipping:
            self._reject("too_long", f"discarded {len(self._buf)} bytes without a line end "
                                     f"(over the {self.max_length}-character cap)")
            self._buf.clear()
            self._skipping = True
        elif self._skipping:
            self._buf.clear()
        return out

    def _line(self, raw: bytes) -> str | None:
        clean = raw.translate(None, _CONTROL)
        bad = next((i for i, b in enumerate(clean) if b >= 0x80), None)
        if bad is not None:
            self._reject("garbage", f"dropped a line with non-ASCII byte 0x{clean[bad]:02x} at position {bad} "
                                    f"(noise or wrong baud rate?): {clean[:24]!r}")
            return None
        text = clean.decode("ascii")
        if len(text) >= 3 and text[0] == "]" and text[1].isalpha() and text[2].isalnum():
            text = text[3:]
        text = text.strip()
        if not text:
            self.stats.empty += 1
            return None
        if len(text) > self.max_length:
            self._reject("too_long", f"dropped a {len(text)}-character line (cap {self.max_length}): {text[:24]!r}...")
            return None
        now = self.clock()
        if text == self._last_text and now - self._last_time < self.repeat_window:
            self._last_time = now
            self.stats.repeats += 1
            return None
        self._last_text, self._last_time = text, now
        self.stats.accepted += 1
        return text

    def _reject(self, counter: str, reason: str) -> None:
        setattr(self.stats, counter, getattr(self.stats, counter) + 1)
        self.last_rejection = reason
        if self.on_reject is not None:
            self.on_reject(reason)


def _first_terminator(buf: bytearray) -> int:
    cr, lf = buf.find(b"\r"), buf.find(b"\n")
    if cr < 0:
        return lf
    if lf < 0:
        return cr
    return min(cr, lf)


def _log_rejection(reason: str) -> None:
    log.warning("scanner: %s", reason)


def _safe_call(on_line: Callable[[str], None], text: str) -> None:
    try:
        on_line(text)
    except Exception:  # a bad handler must not kill the reader thread
        log.exception("scanner: on_line handler failed for %r", text)


class SerialScanner(Device):
    """Read codes from a USB-serial barcode scanner on ``port`` in a background thread.

    The port is opened as ``serial.Serial(port, baud, timeout=0.1, exclusive=True)`` (pyserial, imported
    lazily; ``serial_factory(port, baud)`` replaces it in tests). When the port is missing at start, vanishes
    or raises, the scanner closes it and retries after ``backoff`` seconds (one step further per failed
    attempt, staying on the last step; back to the first after a successful open). State changes are logged
    once each, not once per retry. ``on_line(text)`` runs on the reader thread for each accepted code.

    ``stop()`` ends the thread within ``timeout`` seconds (reads time out every 0.1 s and waits are
    interruptible). ``step()`` runs one iteration of the loop (open attempt or one read) for tests.
    ``serial_factory`` may return any port-like object (``read(n)`` -> bytes waiting at most ~0.1 s,
    ``close()``, optional ``in_waiting`` and ``name``), e.g. a grabbed keyboard scanner from :mod:`hardware.hid`.
    """

    def __init__(self, port: str, baud: int = 9600, on_line: Callable[[str], None] | None = None, *,
                 parser: ScanParser | None = None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Any] | None = None,
                 serial_factory: Callable[[str, int], Any] | None = None,
                 backoff: tuple[float, ...] = (0.5, 1, 2, 5)):
        if on_line is None:
            raise ValueError("SerialScanner needs an on_line callback")
        if not backoff or any(b <= 0 for b in backoff):
            raise ValueError(f"backoff {backoff!r} must be a non-empty list of positive seconds")
        self.port_name = port
        self.baud = baud
        self.on_line = on_line
        self.parser = parser or ScanParser(clock=clock, on_reject=_log_rejection)
        self.clock = clock
        self.backoff = tuple(backoff)
        self._stop = threading.Event()
        self._sleep = sleep or self._stop.wait
        self._factory = serial_factory or _open_serial
        self._port: Any = None
        self._failures = 0
        self._state = "new"
        self._reason = ""
        self._retry_in = 0.0
        self._thread: threading.Thread | None = None
        self.bytes_read = 0

    # ----- public -----
    @property
    def connected(self) -> bool:
        return self._port is not None

    @property
    def status(self) -> str:
        if self._state == "connected":
            return f"scanner connected on {getattr(self._port, 'name', None) or self.port_name}"
        if self._state == "disconnected":
            return f"scanner disconnected ({self._reason}), retrying in {_secs(self._retry_in)}"
        if self._state == "stopped":
            return f"scanner stopped ({self.port_name})"
        return f"scanner starting on {self.port_name}"

    def start(self) -> None:
        """Start the reader thread (idempotent)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="scanner", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> bool:
        """Stop the thread and close the port; True if the thread ended within ``timeout`` seconds."""
        self._stop.set()
        ended = True
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
            ended = not self._thread.is_alive()
        self._close()
        self._set_state("stopped", "")
        self._closed = True
        return ended

    def _release(self) -> None:
        self.stop()

    def step(self) -> None:
        """One iteration: try to open the port (waiting the backoff after a failure), or read once."""
        if self._port is None:
            try:
                self._port = self._factory(self.port_name, self.baud)
            except Exception as exc:  # missing device, permission, busy (exclusive), pyserial missing
                self._failed(exc)
                return
            self._failures = 0
            self.parser.reset()
            self._set_state("connected", "")
            return
        try:
            waiting = min(getattr(self._port, "in_waiting", 0) or 1, READ_MAX)  # the parser's buffer stays small
            data = self._port.read(waiting)
        except Exception as exc:  # SerialException / OSError when the device vanishes
            self._close()
            self._failed(exc)
            return
        if data:
            self.bytes_read += len(data)
            for text in self.parser.feed(data):
                _safe_call(self.on_line, text)

    # ----- internals -----
    def _run(self) -> None:
        while not self._stop.is_set():
            self.step()

    def _failed(self, exc: BaseException) -> None:
        delay = self.backoff[min(self._failures, len(self.backoff) - 1)]
        self._failures += 1
        self._retry_in = delay
        self._set_state("disconnected", _describe(exc))
        if not self._stop.is_set():
            self._sleep(delay)

    def _set_state(self, state: str, reason: str) -> None:
        if state == self._state:
            self._reason = reason or self._reason
            return
        self._state, self._reason = state, reason
        if state == "connected":
            name = getattr(self._port, "name", None)
            if isinstance(name, str) and name != self.port_name:
                log.info("scanner connected on %s", name)
            else:
                log.info("scanner connected on %s at %d baud", self.port_name, self.baud)
        elif state == "disconnected":
            log.warning("scanner on %s unavailable (%s); retrying with backoff %s s",
                        self.port_name, reason, "/".join(_secs(b)[:-2] for b in self.backoff))
        elif state == "stopped":
            log.info("scanner on %s stopped", self.port_name)

    def _close(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:
                pass


def _open_serial(port: str, baud: int) -> Any:
    import serial  # lazy: pyserial only where a real scanner is used
    return serial.Serial(port, baud, timeout=0.1, exclusive=True)


def _describe(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    if (isinstance(exc, FileNotFoundError) and exc.errno is not None) or "No such file" in text:
        return "port not found"
    return text.splitlines()[0][:120]


def _secs(value: float) -> str:
    return f"{value:g} s"
