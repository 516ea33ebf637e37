"""Hot Streak hardware: one small typed interface per device (:mod:`hardware.device`), each with a real, a
mock and a null backend. This package imports nothing of ``companion``.

The hardware mode is decided in one function, :func:`hardware.board.resolve_mode` (``--hardware``, then
``$HOTSTREAK_HARDWARE``, then the config's ``hardware``, then board detection). :func:`make_hardware` builds
the scanner, LED strip and buttons for a mode; :func:`make_strip` the strip alone.

>>> with make_hardware("mock", on_line=print, on_button=print, scanner_lines=["HS15"]) as hw:
...     hw.status()["leds"]
'LEDs: mock strip of 56 pixels'

Degrade, don't die: a backend that cannot start (library missing, no device, LED init error) is replaced by
a no-op whose status line says what is missing (:func:`hardware.pins.explain`), logged once; the rest keeps
running. The scanner itself retries a missing or vanished device with backoff. Device libraries are imported
lazily inside the backends.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from hardware.board import ENV_VAR, MODEL_PATH, MODES, Board, detect_board, resolve_mode
from hardware.buttons import Buttons, KeyButtons, NullButtons
from hardware.device import ButtonPanel, Device, Scanner, Strip
from hardware.leds import LedStrip, MockStrip, NullStrip, SpiWs2812Strip, Ws281xStrip
from hardware.pins import SPI_MOSI, explain, uses_spi
from hardware.mock_scanner import MockScanner
from hardware.scanner import ScanParser, SerialScanner

log = logging.getLogger(__name__)

DEFAULT_SCANNER_PORT = "/dev/hotstreak-scanner"
SCANNER_MODES = ("auto", "serial", "hid")
LED_BACKENDS = ("auto", "ws281x", "spi", "mock", "none")
LED_OPTION_KEYS = {"backend", "brightness", "order", "pin", "freq_hz", "dma", "invert", "channel", "bus", "device",
                   "bits", "keep"}

__all__ = ["ENV_VAR", "LED_BACKENDS", "MODEL_PATH", "MODES", "SCANNER_MODES", "Board", "Hardware", "NullScanner",
           "detect_board", "make_hardware", "make_scanner", "make_strip", "resolve_mode"]


class NullScanner(Device):
    """No scanner (it cannot be used at all, e.g. pyserial missing); ``status`` says why."""

    def __init__(self, reason: str):
        self.reason = reason
        self.status = f"scanner off: {reason}"
        self.connected = False

    def start(self) -> None:
        pass

    def stop(self, timeout: float = 2.0) -> bool:
        self._closed = True
        return True


@dataclass
class Hardware:
    """The devices of one table: ``scanner``, ``leds``, ``buttons`` (see :mod:`hardware.device`); ``keys``
    maps a desktop window's keys onto the buttons' press path (``keys.key("u")``). ``mode`` is ``pi`` or
    ``mock``; ``board`` the model; ``degraded`` says which part is a no-op and why."""

    mode: str
    board: Board
    scanner: Scanner
    leds: Strip
    buttons: ButtonPanel
    degraded: dict[str, str] = field(default_factory=dict)
    keys: KeyButtons | None = None
    closed: bool = False

    def start(self) -> None:
        """Start reading scans (call once the controller can take them)."""
        self.scanner.start()

    def status(self) -> dict[str, str]:
        """One line per part, for ``hotstreak status`` and the systemd STATUS= line."""
        return {"hardware": f"{self.mode} ({self.board.model or 'desktop'})", "scanner": self.scanner.status,
                "leds": self.leds.status, "buttons": self.buttons.status}

    def close(self) -> None:
        """Stop the scanner (within 2 s), turn every pixel off and release the pins; never raises."""
        self.closed = True
        for part, closer in (("scanner", self.scanner.stop), ("leds", self.leds.close), ("buttons", self.buttons.close)):
            try:
                closer()
            except Exception:
                log.exception("closing the %s failed", part)

    def __enter__(self) -> "Hardware":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _degrade(degraded: dict[str, str], part: str, reason: str) -> None:
    degraded[part] = reason
    log.warning("%s unavailable, running without: %s", part, reason)


def make_strip(mode: str, count: int, options: Mapping[str, Any] | None = None, *, board: Board | None = None,
               clock: Callable[[], float] = time.monotonic, window: bool = False,
               rows: Sequence[Sequence[int]] | None = None,
               on_key: Callable[[str], Any] | None = None) -> tuple[LedStrip, str | None]:
    """Open the LED strip for ``mode`` (``pi``/``mock``); returns the strip and why it was degraded (or None).

    ``options``: ``backend`` (auto = spidev on a Pi 5, rpi_ws281x otherwise; or ws281x, spi, mock, none),
    ``brightness`` (0..1, default 0.5), ``order`` (GRB), ``pin``/``freq_hz``/``dma``/``invert``/``channel``
    (rpi_ws281x), ``bus``/``device``/``bits`` (spidev), ``keep`` (mock history length). ``rows`` and
    ``on_key`` go to a mock strip's window. Raises ValueError for a bad option (a config error, not a device
    failure); a device failure gives a :class:`NullStrip` whose reason says what is missing.
    """
    opts = dict(options or {})
    unknown = set(opts) - LED_OPTION_KEYS
    if unknown:
        raise ValueError(f"unknown LED option(s) {', '.join(sorted(unknown))} (expected {', '.join(sorted(LED_OPTION_KEYS))})")
    backend = str(opts.pop("backend", "auto")).lower()
    if backend not in LED_BACKENDS:
        raise ValueError(f"LED backend {backend!r} is not one of {', '.join(LED_BACKENDS)}")
    keep = opts.pop("keep", 5000)
    if backend == "auto":
        backend = "mock" if mode == "mock" else ("spi" if (board or detect_board()).is_pi5 else "ws281x")
    if backend == "none":
        return NullStrip(count, "disabled in the config"), None
    if backend == "mock":
        brightness = opts.get("brightness", 1.0)
        try:
            return MockStrip(count, clock=clock, keep=keep, window=window, rows=rows, on_key=on_key,
                             brightness=brightness), None
        except ValueError:
            raise
        except Exception as exc:  # no display for the window: keep recording without it
            strip = MockStrip(count, clock=clock, keep=keep, brightness=brightness)
            reason = f"LED window unavailable ({explain(exc, 'pygame-ce')})"
            strip.status += f"; {reason}"
            return strip, reason
    if backend == "spi":  # spidev always sends on GPIO10 and needs no DMA channel
        pin = opts.pop("pin", SPI_MOSI)
        if pin != SPI_MOSI:
            raise ValueError(f"LED pin {pin!r} cannot be used with the spi backend (spidev always sends on "
                             f"GPIO{SPI_MOSI})")
        opts.pop("dma", None)
    ws_keys = {"brightness", "order", "pin", "freq_hz", "dma", "invert", "channel"}
    spi_keys = {"brightness", "order", "bus", "device", "bits"}
    allowed = ws_keys if backend == "ws281x" else spi_keys
    extra = set(opts) - allowed
    if extra:
        raise ValueError(f"LED option(s) {', '.join(sorted(extra))} do not apply to the {backend} backend "
                         f"(expected {', '.join(sorted(allowed))})")
    library = "rpi_ws281x" if backend == "ws281x" else "spidev"
    try:
        if backend == "ws281x":
            return Ws281xStrip(count, **opts), None
        return SpiWs2812Strip(count, **opts), None
    except ValueError:
        raise
    except Exception as exc:  # ImportError, no /dev/spidev*, permission, ws2811_init failure
        reason = explain(exc, library, needs_spi=uses_spi(int(opts.get("pin", 10)), backend))
        return NullStrip(count, reason), reason


def make_scanner(mode: str, on_line: Callable[[str], None], *, scanner_mode: str = "auto",
                 port: str | None = None, baud: int = 9600, hid_device: str | None = None, layout: str = "us",
                 max_length: int = 64, repeat_window: float = 0.8, script: str | Path | None = None,
                 lines: Iterable[str] | None = None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Any] | None = None) -> Scanner:
    """The scanner for ``mode``. mock: a :class:`MockScanner` on ``script``/``lines``/stdin unless a ``port``
    is given (or ``scanner_mode`` is ``hid``). pi (or mock with a device): ``scanner_mode`` ``serial`` reads
    ``port`` (default ``/dev/hotstreak-scanner``), ``hid`` grabs the keyboard scanner ``hid_device`` (or the
    one found in /dev/input/by-id) and decodes it in ``layout``, ``auto`` takes the serial port when it
    exists, else a keyboard scanner, on every (re)connect. Every reader applies ``max_length`` and
    ``repeat_window``. A missing library gives a :class:`NullScanner` saying which. Raises ValueError for a
    bad scanner mode or layout."""
    if scanner_mode not in SCANNER_MODES:
        raise ValueError(f"scanner mode {scanner_mode!r} is not one of {', '.join(SCANNER_MODES)}")
    if mode == "mock" and (script is not None or lines is not None
                           or (port is None and not (scanner_mode == "hid" and hid_device))):
        parser = ScanParser(max_length=max_length, repeat_window=0.0,
                            on_reject=lambda reason: log.warning("scanner: %s", reason))
        return MockScanner(on_line, lines, path=script, sleep=sleep, parser=parser)
    from hardware import hid
    from hardware.scanner import _open_serial

    have: dict[str, str | None] = {}
    for library, module in (("pyserial", "serial"), ("evdev", "evdev")):
        try:
            __import__(module)
            have[library] = None
        except ImportError as exc:
            have[library] = explain(exc, library)
    serial_path = port or DEFAULT_SCANNER_PORT
    factory: Callable[[str, int], Any]
    if scanner_mode == "serial" or (scanner_mode == "auto" and have["evdev"] and not have["pyserial"]):
        if have["pyserial"]:
            return NullScanner(have["pyserial"])
        factory, name = _open_serial, serial_path
    elif scanner_mode == "hid" or have["pyserial"]:
        if have["evdev"]:
            return NullScanner(have["evdev"] + " (needed for a keyboard-mode scanner)")
        factory, name = hid.hid_port_factory(hid_device or None, layout), hid_device or "a keyboard scanner"
    else:
        factory = hid.either_port_factory(serial_path, hid_device or None, layout, _open_serial)
        name = f"{serial_path} or a keyboard scanner"
    parser = ScanParser(max_length=max_length, repeat_window=repeat_window, clock=clock,
                        on_reject=lambda reason: log.warning("scanner: %s", reason))
    return SerialScanner(name, baud, on_line, parser=parser, clock=clock, serial_factory=factory, sleep=sleep)


def make_hardware(mode: str | None = "auto", *, on_line: Callable[[str], None], on_button: Callable[[str], Any],
                  scanner_port: str | None = None, baud: int = 9600, scanner_mode: str = "auto",
                  hid_device: str | None = None, layout: str = "us", max_length: int = 64,
                  led_count: int = 56, led_rows: Sequence[Sequence[int]] | None = None,
                  led_options: Mapping[str, Any] | None = None, button_pins: Mapping[str, int] | None = None,
                  debounce: float = 0.05, script: str | Path | None = None, scanner_lines: Iterable[str] | None = None,
                  repeat_window: float = 0.8, window: bool = False, clock: Callable[[], float] = time.monotonic,
                  sleep: Callable[[float], Any] | None = None, env: Mapping[str, str] | None = None,
                  model_path: str | Path = MODEL_PATH, on_chord: Callable[[], Any] | None = None) -> Hardware:
    """Build the table's hardware for ``mode`` (see :func:`resolve_mode`); nothing is started yet.

    The scanner comes from :func:`make_scanner` (``scanner_*``, ``hid_device``, ``layout``, ``max_length``,
    ``repeat_window``, ``script``/``scanner_lines`` in mock mode); the strip of ``led_count`` pixels from
    :func:`make_strip` (``led_options``; ``window=True`` draws a mock strip in a pygame window with one row
    per item of ``led_rows``); buttons on ``button_pins`` (undo 17, go 27) through gpiozero, on its
    MockFactory in mock mode. ``hw.keys`` maps desktop keys (u undo, g/space go) onto the buttons' press.

    ``on_line(text)`` gets each accepted scan and ``on_button(name)`` each press, both on device threads;
    ``on_chord()`` both buttons held together 3 s (then a pin's press is delivered at its release: see
    :class:`hardware.buttons.Buttons`).
    Raises ValueError for a bad mode or option; device failures degrade instead.
    """
    chosen = resolve_mode(mode, env=env, model_path=model_path)
    board = detect_board(model_path)
    if isinstance(led_count, bool) or not isinstance(led_count, int) or led_count < 1:
        raise ValueError(f"LED count {led_count!r} must be a positive number of pixels")
    degraded: dict[str, str] = {}

    scanner = make_scanner(chosen, on_line, scanner_mode=scanner_mode, port=scanner_port, baud=baud,
                           hid_device=hid_device, layout=layout, max_length=max_length, repeat_window=repeat_window,
                           script=script, lines=scanner_lines, clock=clock, sleep=sleep)
    if isinstance(scanner, NullScanner):
        _degrade(degraded, "scanner", scanner.reason)

    buttons: ButtonPanel
    if chosen == "mock":
        try:
            from gpiozero.pins.mock import MockFactory
            buttons = Buttons(on_button, button_pins, debounce=debounce, clock=clock, pin_factory=MockFactory(),
                              on_chord=on_chord)
            buttons.status += " (mock pins)"
        except Exception as exc:
            buttons = KeyButtons(on_button, debounce=debounce, clock=clock)
            log.info("mock buttons without gpiozero (%s); keys only", explain(exc, "gpiozero"))
    else:
        try:
            buttons = Buttons(on_button, button_pins, debounce=debounce, clock=clock, on_chord=on_chord)
        except ValueError:
            raise
        except Exception as exc:
            buttons = NullButtons(explain(exc, "gpiozero"))
            _degrade(degraded, "buttons", buttons.reason)

    keys = KeyButtons(buttons.press, debounce=0.0, clock=clock)  # the buttons debounce; keys only map
    leds, why = make_strip(chosen, led_count, led_options, board=board, clock=clock, window=window, rows=led_rows,
                           on_key=keys.key)
    if why:
        _degrade(degraded, "leds", why)
    return Hardware(chosen, board, scanner, leds, buttons, degraded, keys)
