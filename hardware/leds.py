"""The WS2812B LED strip beside the lanes: the strip backends (pixels by chain index; the board geometry is
``companion.lights.lanemap``).

Wiring (see README "Hardware"): strip data in <- 74AHCT125 level shifter <- GPIO10 (SPI0 MOSI, pin 19);
a 5 V supply sized for the LED count feeds the strip; its ground is joined to the Pi's ground.

>>> with MockStrip(112) as strip:
...     strip.show([(255, 0, 0)] * 112)
>>> strip.closed, strip.last[0]
(True, (0, 0, 0))

- :class:`LedStrip`: the base of every backend (:class:`hardware.device.Strip`: ``count``, ``show(pixels)``,
  ``off()``, ``close()``, ``closed``, context manager). ``close()`` sends the all-off frame, then releases the
  device; nothing is written after that (a late ``show`` or ``off`` does nothing);
- :class:`Ws281xStrip` (rpi_ws281x on a Pi 3/4), :class:`SpiWs2812Strip` (spidev on a Pi 5, bits encoded
  by :func:`encode_ws2812`), :class:`MockStrip` (records frames, optional pygame window), :class:`NullStrip`
  (a no-op standing in for a strip that failed to start).

Pixels are ``(red, green, blue)`` tuples of ints 0-255 in every API; the wire order (GRB for WS2812B) is a
backend option. Frames are always full: ``show`` takes ``count`` pixels (a shorter frame is padded with off).
"""

from __future__ import annotations

import atexit
import logging
import signal
import threading
import time
from collections import deque
from dataclasses import dataclass
from types import FrameType
from typing import Any, Callable, Sequence

from hardware.device import Device, Pixel

log = logging.getLogger(__name__)

OFF: Pixel = (0, 0, 0)
ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")


# ----- strips ---------------------------------------------------------------------------------------------
def scale(pixel: Pixel, factor: float) -> Pixel:
    """``pixel`` times ``factor`` (0..1), rounded, each channel clamped to 0..255."""
    r, g, b = (max(0, min(255, int(round(c * factor)))) for c in pixel)
    return r, g, b


class LedStrip(Device):
    """The LED strip interface: ``count`` pixels, ``show(pixels)`` one full frame, ``off()``, ``close()``.

    Use as a context manager to be sure the pixels go off. ``show`` raises ValueError for a frame longer
    than ``count`` or a pixel that is not three ints 0-255 (nothing is shown then). ``status`` is a line for
    ``hotstreak status`` and the systemd STATUS. Writes and ``close`` hold one lock, so a frame from another
    thread never lands after the release; once closed, ``show`` and ``off`` do nothing.
    """

    count: int = 0
    status: str = ""
    _lock_: threading.Lock | None = None

    @property
    def _lock(self) -> threading.Lock:
        if self._lock_ is None:
            self._lock_ = threading.Lock()
        return self._lock_

    def show(self, pixels: Sequence[Pixel]) -> None:
        frame = self._check(pixels)
        with self._lock:
            if not self.closed:
                self._write(frame)

    def off(self) -> None:
        with self._lock:
            if not self.closed:
                self._write([OFF] * self.count)

    def off_now(self) -> bool:
        """``off()`` from a signal handler: skipped (False) when a frame is being written right now (the
        handler may have interrupted it; ``close()`` on the way out sends the off frame then)."""
        if not self._lock.acquire(blocking=False):
            return False
        try:
            if self.closed:
                return False
            self._write([OFF] * self.count)
            return True
        finally:
            self._lock.release()

    def close(self) -> None:
        """Send the all-off frame (the last frame), then release the device; later calls do nothing."""
        with self._lock:
            if self.closed:
                return
            self._closed = True
            try:
                self._write([OFF] * self.count)
            finally:
                self._release()

    def _check(self, pixels: Sequence[Pixel]) -> list[Pixel]:
        if len(pixels) > self.count:
            raise ValueError(f"frame of {len(pixels)} pixels is longer than the strip ({self.count})")
        out = []
        for i, p in enumerate(pixels):
            if type(p) is tuple and len(p) == 3:  # the usual pixel, checked without a loop
                r, g, b = p
                if type(r) is int and type(g) is int and type(b) is int and 0 <= r <= 255 and 0 <= g <= 255 \
                        and 0 <= b <= 255:
                    out.append(p)
                    continue
            if (len(p) != 3 or any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= 255 for c in p)):
                raise ValueError(f"pixel {i}: {p!r} is not (red, green, blue) with ints 0-255")
            out.append((p[0], p[1], p[2]))
        out.extend([OFF] * (self.count - len(out)))
        return out

    def _write(self, pixels: list[Pixel]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _release(self) -> None:
        pass


def _check_common(count: int, brightness: float, order: str) -> str:
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"LED count {count!r} must be a positive integer")
    if not 0.0 <= brightness <= 1.0:
        raise ValueError(f"brightness {brightness!r} must be between 0 and 1 (a cap on every channel)")
    order = order.upper()
    if order not in ORDERS:
        raise ValueError(f"colour order {order!r} is not one of {', '.join(ORDERS)}")
    return order


class Ws281xStrip(LedStrip):
    """A WS2812B strip through rpi_ws281x ``PixelStrip`` (Pi 3/4; imported lazily).

    Defaults: GPIO10 (SPI0 MOSI: no root needed, needs SPI enabled and the user in group ``spi``), 800 kHz,
    DMA 10, GRB order, ``brightness`` a 0..1 cap on every channel (handed to the library as 0..255).
    Raises ImportError without rpi_ws281x and RuntimeError when the library cannot start the strip.
    """

    def __init__(self, count: int, *, pin: int = 10, freq_hz: int = 800_000, dma: int = 10, invert: bool = False,
                 channel: int = 0, brightness: float = 0.5, order: str = "GRB"):
        self.order = _check_common(count, brightness, order)
        self.count = count
        import rpi_ws281x  # lazy: only on a Pi with the library installed
        strip_type = getattr(rpi_ws281x.ws, f"WS2811_STRIP_{self.order}")
        strip = rpi_ws281x.PixelStrip(count, pin, freq_hz, dma, invert, int(round(brightness * 255)), channel,
                                      strip_type=strip_type)
        try:
            strip.begin()
        except BaseException:
            _disarm(strip)
            raise
        self._strip = strip
        self.status = (f"LEDs: {count} pixels on GPIO{pin} (rpi_ws281x, {self.order}, "
                       f"brightness {brightness:.0%})")

    def _write(self, pixels: list[Pixel]) -> None:
        set_rgb = self._strip.setPixelColorRGB
        for i, (r, g, b) in enumerate(pixels):
            set_rgb(i, r, g, b)
        self._strip.show()

    def _release(self) -> None:
        cleanup = getattr(self._strip, "_cleanup", None)
        if cleanup is not None:
            cleanup()


def _disarm(strip: Any) -> None:
    """Make a rpi_ws281x ``PixelStrip`` whose ``begin()`` failed safe to drop.

    The library registers ``_cleanup`` with atexit when the strip is made; after a failed ``ws2811_init`` that
    cleanup calls ``ws2811_fini`` on a half-freed device and the process dies with SIGSEGV at exit. So the
    atexit entry is removed and the handle forgotten (its few bytes are left to the process's end), and the
    library's cleanup is never called for this strip.
    """
    cleanup = getattr(strip, "_cleanup", None)
    if cleanup is not None:
        atexit.unregister(cleanup)
    for name in ("_leds", "_channel"):
        if hasattr(strip, name):
            setattr(strip, name, None)


# WS2812 bit patterns per SPI scheme: SPI bits per data bit -> (speed in Hz, pattern of a 0, pattern of a 1)
SPI_SCHEMES: dict[int, tuple[int, int, int]] = {
    3: (2_400_000, 0b100, 0b110),            # 417 ns per SPI bit: 0 = 417 ns high, 1 = 833 ns high
    8: (6_400_000, 0b11000000, 0b11111000),  # 156 ns per SPI bit: 0 = 312 ns high, 1 = 781 ns high
}


def encode_ws2812(pixels: Sequence[Pixel], order: str = "GRB", *, bits: int = 3, reset_us: float = 300.0) -> bytes:
    """The SPI bytes that send ``pixels`` to a WS2812B chain when clocked out at ``SPI_SCHEMES[bits][0]`` Hz.

    Each pixel goes in wire ``order`` (GRB for WS2812B), each colour byte most significant bit first, each
    data bit as ``bits`` SPI bits: 3 (``100`` / ``110`` at 2.4 MHz, 9 bytes a pixel) or 8 (``11000000`` /
    ``11111000`` at 6.4 MHz, 24 bytes a pixel; every byte ends low, so gaps between bytes are harmless).
    Then ``reset_us`` microseconds of zero bytes latch the frame (WS2812B needs at least 280 us).
    Raises ValueError for an unknown order or scheme.
    """
    order = order.upper()
    if order not in ORDERS:
        raise ValueError(f"colour order {order!r} is not one of {', '.join(ORDERS)}")
    if bits not in SPI_SCHEMES:
        raise ValueError(f"bits {bits!r} per WS2812 bit is not supported (expected 3 or 8)")
    speed, zero, one = SPI_SCHEMES[bits]
    idx = ["RGB".index(c) for c in order]
    table = _byte_table(bits, zero, one)
    out = bytearray()
    for p in pixels:
        for k in idx:
            out += table[p[k]]
    out += bytes(-(-int(reset_us * speed / 1e6) // 8))
    return bytes(out)


_TABLES: dict[int, list[bytes]] = {}


def _byte_table(bits: int, zero: int, one: int) -> list[bytes]:
    """For each colour byte value, its encoded SPI bytes (cached)."""
    table = _TABLES.get(bits)
    if table is None:
        table = []
        for value in range(256):
            acc = 0
            for i in range(7, -1, -1):
                acc = (acc << bits) | (one if value >> i & 1 else zero)
            table.append(acc.to_bytes(bits, "big"))
        _TABLES[bits] = table
    return table


class SpiWs2812Strip(LedStrip):
    """A WS2812B strip on an SPI MOSI pin through spidev (the Pi 5, where rpi_ws281x does not work).

    Opens ``/dev/spidev{bus}.{device}`` (default 0.0 = MOSI on GPIO10), mode 0, at the speed of the chosen
    ``bits`` scheme (see :func:`encode_ws2812`); ``brightness`` scales every channel in software.
    Raises ImportError without spidev, OSError (FileNotFoundError/PermissionError) without the device.
    """

    def __init__(self, count: int, *, bus: int = 0, device: int = 0, bits: int = 8, brightness: float = 0.5,
                 order: str = "GRB", reset_us: float = 300.0):
        self.order = _check_common(count, brightness, order)
        if bits not in SPI_SCHEMES:
            raise ValueError(f"bits {bits!r} per WS2812 bit is not supported (expected 3 or 8)")
        self.count, self.bits, self.brightness, self.reset_us = count, bits, brightness, reset_us
        import spidev  # lazy: only on a Pi with the library installed
        spi = spidev.SpiDev()
        spi.open(bus, device)
        try:
            spi.max_speed_hz = SPI_SCHEMES[bits][0]
            spi.mode = 0
        except Exception:
            spi.close()
            raise
        self._spi = spi
        self.status = (f"LEDs: {count} pixels on /dev/spidev{bus}.{device} (spidev, {bits} SPI bits a bit at "
                       f"{SPI_SCHEMES[bits][0] / 1e6:g} MHz, {self.order}, brightness {brightness:.0%})")

    def _write(self, pixels: list[Pixel]) -> None:
        if self.brightness < 1.0:
            pixels = [scale(p, self.brightness) for p in pixels]
        data = encode_ws2812(pixels, self.order, bits=self.bits, reset_us=self.reset_us)
        writer = getattr(self._spi, "writebytes2", None)  # writebytes2 splits buffers over the 4096-byte limit
        if writer is not None:
            writer(data)
        else:
            for i in range(0, len(data), 4096):
                self._spi.writebytes(list(data[i:i + 4096]))

    def _release(self) -> None:
        self._spi.close()


@dataclass(frozen=True)
class Frame:
    """One recorded frame: ``time`` by the strip's clock (seconds) and the full ``pixels`` tuple."""

    time: float
    pixels: tuple[Pixel, ...]


class MockStrip(LedStrip):
    """A strip for the desktop and tests: every frame shown is recorded in ``frames`` with ``clock()``.

    ``keep`` bounds the history (the newest frames stay); ``window=True`` also draws the strip in a pygame
    window (imported lazily) with one row of pixel indices per item of ``rows`` (e.g. one per lane, lane 1 on
    top, the finish on the right), else the chain wrapped in rows of 40; keys pressed in the window go to
    ``on_key(key_name)``.
    """

    def __init__(self, count: int, *, clock: Callable[[], float] = time.monotonic, keep: int | None = None,
                 window: bool = False, rows: Sequence[Sequence[int]] | None = None,
                 on_key: Callable[[str], Any] | None = None, brightness: float = 1.0):
        _check_common(count, brightness, "GRB")
        self.count = count
        self.clock = clock
        self.brightness = brightness
        self.frames: list[Frame] | deque[Frame] = [] if keep is None else deque(maxlen=keep)
        self._view = _PygameView(count, rows, on_key) if window else None
        self.status = f"LEDs: mock strip of {count} pixels" + (" in a window" if window else "")

    @property
    def last(self) -> tuple[Pixel, ...]:
        """The pixels of the newest frame (all off before the first frame)."""
        return self.frames[-1].pixels if self.frames else (OFF,) * self.count

    def set_rows(self, rows: Sequence[Sequence[int]]) -> None:
        """Lay the window out again with one row of pixel indices per item of ``rows`` (a new lane map: the
        service mode's calibration); the last frame is drawn at once in the new layout. Nothing without a
        window. Raises ValueError for an index outside the strip."""
        bad = [i for row in rows for i in row if not 0 <= i < self.count]
        if bad:
            raise ValueError(f"pixel {bad[0]} is not on the strip (expected 0..{self.count - 1})")
        if self._view is not None:
            self._view.lay_out(rows)
            self._view.draw([scale(p, self.brightness) for p in self.last])

    def _write(self, pixels: list[Pixel]) -> None:
        self.frames.append(Frame(self.clock(), tuple(pixels)))
        if self._view is not None:
            self._view.draw([scale(p, self.brightness) for p in pixels])

    def _release(self) -> None:
        if self._view is not None:
            self._view.close()


class _PygameView:
    """A small pygame window drawing the strip; keeps running quietly if the window cannot open."""

    def __init__(self, count: int, rows: Sequence[Sequence[int]] | None, on_key: Callable[[str], Any] | None):
        import pygame  # lazy: only when a window is asked for
        self.pg = pygame
        self.on_key = on_key
        self.cell = 18
        if not rows:
            width = 40
            rows = [list(range(i, min(i + width, count))) for i in range(0, count, width)]
        pygame.display.init()
        self.lay_out(rows)
        pygame.display.set_caption("Hot Streak LEDs")

    def lay_out(self, rows: Sequence[Sequence[int]]) -> None:
        """A row of the window per item of ``rows``, the window sized to fit them."""
        self.rows = [list(r) for r in rows]
        cols = max((len(r) for r in self.rows), default=1)
        self.screen = self.pg.display.set_mode((cols * self.cell + 8, len(self.rows) * (self.cell + 6) + 8))

    def draw(self, pixels: list[Pixel]) -> None:
        pg = self.pg
        for event in pg.event.get():
            if event.type == pg.KEYDOWN and self.on_key is not None:
                self.on_key(pg.key.name(event.key))
        self.screen.fill((20, 20, 20))
        for y, row in enumerate(self.rows):
            for x, index in enumerate(row):
                centre = (4 + x * self.cell + self.cell // 2, 4 + y * (self.cell + 6) + self.cell // 2)
                pg.draw.circle(self.screen, pixels[index], centre, self.cell // 2 - 2)
        pg.display.flip()

    def close(self) -> None:
        self.pg.display.quit()


class NullStrip(LedStrip):
    """A no-op strip standing in for one that failed to start; ``status`` says why."""

    def __init__(self, count: int, reason: str):
        self.count = max(0, count)
        self.reason = reason
        self.status = f"LEDs off: {reason}"

    def show(self, pixels: Sequence[Pixel]) -> None:
        pass

    def _write(self, pixels: list[Pixel]) -> None:
        pass


# ----- all off on exit ------------------------------------------------------------------------------------
def install_off_on_exit(*strips: LedStrip) -> None:
    """Make "all off" the last frame of ``strips`` however the program ends (call from the main thread).

    At interpreter exit each strip is closed (all off, then released; nothing if it was closed already).
    On SIGTERM the pixels go off at once (unless the signal interrupted a frame being written: the close on
    the way out sends the off frame then), then the handler installed before runs (if it was a Python
    function, e.g. one that ends the main loop, which closes the strip) or ``SystemExit(143)`` is raised so
    ``finally`` blocks and ``close()`` still run. Nothing is ever written after a strip's ``close()``.
    """

    def close_all() -> None:
        for strip in strips:
            try:
                strip.close()
            except Exception:  # never let an exit path die on a strip error
                log.exception("could not turn the LEDs off")

    atexit.register(close_all)
    previous = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        for strip in strips:
            try:
                strip.off_now()
            except Exception:
                log.exception("could not turn the LEDs off")
        if callable(previous):
            previous(signum, frame)
        else:
            raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_sigterm)
