"""Hot Streak hardware: one small interface per device, each with a real and a mock backend.

The factory :func:`make_hardware` is the one place where backends are chosen (DESIGN.md "Principles"):
``mode`` ``"pi"`` or ``"mock"``, or ``"auto"`` (the default) which takes ``$HOTSTREAK_HARDWARE`` if set, else
``pi`` when the device-tree model file names a Raspberry Pi, else ``mock``.

>>> hw = make_hardware("mock", on_line=print, on_button=print, script=None, scanner_lines=["HS15"])
>>> hw.status()["leds"]
'LEDs: mock strip of 56 pixels'
>>> hw.close()

Degrade, don't die: a backend that cannot start (library missing, no device, LED init error) is replaced by
a no-op whose status line says why, logged once; the rest keeps running. The scanner itself retries a
missing or vanished port with backoff. Device libraries are imported lazily inside the backends.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from hardware.buttons import Buttons, KeyButtons, NullButtons
from hardware.leds import LaneMap, LedStrip, MockStrip, NullStrip, SpiWs2812Strip, Ws281xStrip
from hardware.scanner import MockScanner, ScanParser, SerialScanner

log = logging.getLogger(__name__)

ENV_VAR = "HOTSTREAK_HARDWARE"
MODES = ("auto", "pi", "mock")
MODEL_PATH = Path("/proc/device-tree/model")
DEFAULT_SCANNER_PORT = "/dev/hotstreak-scanner"
LED_BACKENDS = ("auto", "ws281x", "spi", "mock", "none")
LED_OPTION_KEYS = {"backend", "brightness", "order", "pin", "freq_hz", "dma", "invert", "channel", "bus", "device",
                   "bits", "keep"}

__all__ = ["LED_BACKENDS", "Board", "Hardware", "NullScanner", "detect_board", "make_hardware", "make_strip", "resolve_mode"]


@dataclass(frozen=True)
class Board:
    """What we run on: ``model`` as the device tree names it ('' on a desktop)."""

    model: str

    @property
    def is_pi(self) -> bool:
        return self.model.startswith("Raspberry Pi")

    @property
    def is_pi5(self) -> bool:
        """Pi 5 family (Pi 5, Pi 500, Compute Module 5): the LEDs need the spidev backend."""
        m = self.model
        return m.startswith(("Raspberry Pi 5", "Raspberry Pi 500", "Raspberry Pi Compute Module 5"))


def detect_board(model_path: str | Path = MODEL_PATH) -> Board:
    """Read the device-tree model file (NUL-terminated text); an empty model when it is missing."""
    try:
        text = Path(model_path).read_bytes().split(b"\0", 1)[0].decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return Board(text)


def resolve_mode(mode: str | None = "auto", *, env: Mapping[str, str] | None = None,
                 model_path: str | Path = MODEL_PATH) -> str:
    """``"pi"`` or ``"mock"``: an explicit ``mode`` wins, then ``$HOTSTREAK_HARDWARE``, then board detection.

    Raises ValueError naming a bad mode and where it came from.
    """
    env = os.environ if env is None else env
    chosen, source = (mode or "auto").strip().lower(), "hardware mode"
    if chosen == "auto" and env.get(ENV_VAR):
        chosen, source = env[ENV_VAR].strip().lower(), ENV_VAR
    if chosen not in MODES:
        raise ValueError(f"{source} {chosen!r} is not one of auto, pi, mock")
    if chosen == "auto":
        chosen = "pi" if detect_board(model_path).is_pi else "mock"
    return chosen


class NullScanner:
    """No scanner (it cannot be used at all, e.g. pyserial missing); ``status`` says why."""

    def __init__(self, reason: str):
        self.reason = reason
        self.status = f"scanner off: {reason}"
        self.connected = False

    def start(self) -> None:
        pass

    def stop(self, timeout: float = 2.0) -> bool:
        return True

    close = stop


@dataclass
class Hardware:
    """The devices of one table: ``scanner`` (start/stop/connected/status), ``leds`` (:class:`LedStrip`),
    ``buttons`` (close/status, ``press(name)``). ``mode`` is ``pi`` or ``mock``; ``board`` the model."""

    mode: str
    board: Board
    scanner: Any
    leds: LedStrip
    buttons: Any
    lane_map: LaneMap
    degraded: dict[str, str] = field(default_factory=dict)

    def start(self) -> None:
        """Start reading scans (call once the controller can take them)."""
        self.scanner.start()

    def status(self) -> dict[str, str]:
        """One line per part, for ``hotstreak status`` and the systemd STATUS= line."""
        return {"hardware": f"{self.mode} ({self.board.model or 'desktop'})", "scanner": self.scanner.status,
                "leds": self.leds.status, "buttons": self.buttons.status}

    def close(self) -> None:
        """Stop the scanner (within 2 s), turn every pixel off and release the pins; never raises."""
        for part, closer in (("scanner", self.scanner.stop), ("leds", self.leds.close), ("buttons", self.buttons.close)):
            try:
                closer()
            except Exception:
                log.exception("closing the %s failed", part)

    def __enter__(self) -> "Hardware":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _why(exc: BaseException, library: str | None = None) -> str:
    if isinstance(exc, ImportError) and library:
        return f"{library} not installed (pip install {library})"
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:160]


def _degrade(degraded: dict[str, str], part: str, reason: str) -> None:
    degraded[part] = reason
    log.warning("%s unavailable, running without: %s", part, reason)


def make_strip(mode: str, count: int, options: Mapping[str, Any] | None = None, *, board: Board | None = None,
               clock: Callable[[], float] = time.monotonic, window: bool = False, lane_map: LaneMap | None = None,
               on_key: Callable[[str], None] | None = None) -> tuple[LedStrip, str | None]:
    """Open the LED strip for ``mode`` (``pi``/``mock``); returns the strip and why it was degraded (or None).

    ``options``: ``backend`` (auto = spidev on a Pi 5, rpi_ws281x otherwise; or ws281x, spi, mock, none),
    ``brightness`` (0..1, default 0.5), ``order`` (GRB), ``pin``/``freq_hz``/``dma``/``invert``/``channel``
    (rpi_ws281x), ``bus``/``device``/``bits`` (spidev), ``keep`` (mock history length). Raises ValueError
    for a bad option (a config error, not a device failure); a device failure gives a :class:`NullStrip`.
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
            return MockStrip(count, clock=clock, keep=keep, window=window, lane_map=lane_map, on_key=on_key,
                             brightness=brightness), None
        except ValueError:
            raise
        except Exception as exc:  # no display for the window: keep recording without it
            strip = MockStrip(count, clock=clock, keep=keep, brightness=brightness)
            reason = f"LED window unavailable ({_why(exc, 'pygame-ce')})"
            strip.status += f"; {reason}"
            return strip, reason
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
        reason = _why(exc, library)
        return NullStrip(count, reason), reason


def make_hardware(mode: str | None = "auto", *, scanner_port: str | None = None, baud: int = 9600,
                  on_line: Callable[[str], None], on_button: Callable[[str], None],
                  lane_map: LaneMap | None = None, led_count: int | None = None,
                  led_options: Mapping[str, Any] | None = None, button_pins: Mapping[str, int] | None = None,
                  debounce: float = 0.05, script: str | Path | None = None, scanner_lines: Iterable[str] | None = None,
                  repeat_window: float = 0.8, window: bool = False, clock: Callable[[], float] = time.monotonic,
                  sleep: Callable[[float], Any] | None = None, env: Mapping[str, str] | None = None,
                  model_path: str | Path = MODEL_PATH) -> Hardware:
    """Build the table's hardware for ``mode`` (see :func:`resolve_mode`); nothing is started yet.

    pi: a :class:`SerialScanner` on ``scanner_port`` (default ``/dev/hotstreak-scanner``), the strip from
    ``led_options`` (spidev on a Pi 5, rpi_ws281x otherwise), gpiozero buttons on ``button_pins``
    (undo 17, go 27). mock: a :class:`MockScanner` replaying ``script`` (a file) or ``scanner_lines``, or a
    real :class:`SerialScanner` when ``scanner_port`` is given (e.g. a pty in tests), else the keyboard
    (stdin); a :class:`MockStrip` (``window=True`` draws it with pygame, keys u/g/space press the buttons);
    buttons on gpiozero's MockFactory (``hardware.buttons.press("undo")`` or drive the mock pins).

    ``on_line(text)`` gets each accepted scan and ``on_button(name)`` each press, both on device threads.
    ``led_count`` defaults to the lane map's need (default map: 4 lanes x 14 spaces x 1 pixel). Raises
    ValueError for a bad mode, option or a strip shorter than the lane map; device failures degrade instead.
    """
    chosen = resolve_mode(mode, env=env, model_path=model_path)
    board = detect_board(model_path)
    lane_map = lane_map or LaneMap.default()
    count = lane_map.count if led_count is None else led_count
    if isinstance(count, bool) or not isinstance(count, int) or count < lane_map.count:
        raise ValueError(f"LED count {count!r} is too small for the lane map (it needs at least {lane_map.count})")
    degraded: dict[str, str] = {}

    # scanner
    scanner: Any
    if chosen == "mock" and (script is not None or scanner_lines is not None or scanner_port is None):
        scanner = MockScanner(on_line, scanner_lines, path=script, sleep=sleep)
    else:
        try:
            import serial  # noqa: F401  (the reader imports it lazily; check it is there at all)
        except ImportError as exc:
            scanner = NullScanner(_why(exc, "pyserial"))
            _degrade(degraded, "scanner", scanner.reason)
        else:
            parser = ScanParser(repeat_window=repeat_window, clock=clock)
            parser.on_reject = lambda reason: log.warning("scanner: %s", reason)
            scanner = SerialScanner(scanner_port or DEFAULT_SCANNER_PORT, baud, on_line, parser=parser, clock=clock)

    # buttons (before the strip: the mock window forwards keys to them)
    buttons: Any
    if chosen == "mock":
        try:
            from gpiozero.pins.mock import MockFactory
            buttons = Buttons(on_button, button_pins, debounce=debounce, clock=clock, pin_factory=MockFactory())
            buttons.status += " (mock pins)"
        except Exception as exc:
            buttons = KeyButtons(on_button, debounce=debounce, clock=clock)
            log.info("mock buttons without gpiozero (%s); keys only", _why(exc, "gpiozero"))
    else:
        try:
            buttons = Buttons(on_button, button_pins, debounce=debounce, clock=clock)
        except ValueError:
            raise
        except Exception as exc:
            buttons = NullButtons(_why(exc, "gpiozero"))
            _degrade(degraded, "buttons", buttons.reason)

    keys = KeyButtons(buttons.press if hasattr(buttons, "press") else on_button, debounce=0.0, clock=clock)
    leds, why = make_strip(chosen, count, led_options, board=board, clock=clock, window=window, lane_map=lane_map,
                           on_key=keys.key)
    if why:
        _degrade(degraded, "leds", why)
    return Hardware(chosen, board, scanner, leds, buttons, lane_map, degraded)

