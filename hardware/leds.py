"""The WS2812B LED strip beside the lanes: the lane map and the strip backends.

Wiring (see README "Hardware"): strip data in <- 74AHCT125 level shifter <- GPIO10 (SPI0 MOSI, pin 19);
a 5 V supply sized for the LED count feeds the strip; its ground is joined to the Pi's ground.

>>> lanes = LaneMap.default(lanes=4, spaces=14, per_space=2)
>>> list(lanes.pixels_for(2, 1))
[28, 29]
>>> with MockStrip(lanes.count) as strip:
...     strip.show([(255, 0, 0)] * lanes.count)

- :class:`LaneMap`: where each (lane, space) is on the strip;
- :class:`LedStrip`: the interface (``count``, ``show(pixels)``, ``off()``, ``close()``, context manager);
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
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

log = logging.getLogger(__name__)

Pixel = tuple[int, int, int]
OFF: Pixel = (0, 0, 0)
ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR")


# ----- lane map ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LaneSpec:
    """One lane on the strip: ``segment`` (index into the map's segment starts), ``first`` pixel of the lane
    within that segment, ``per_space`` pixels per space, ``direction`` +1 when space 1 is at the lane's
    lowest pixel index, -1 when the lane runs the other way (a strip folded back along the next lane)."""

    segment: int = 0
    first: int = 0
    per_space: int = 1
    direction: int = 1


class LaneMap:
    """Where each track space is on the LED chain.

    ``lanes`` maps lane number (1-based) to :class:`LaneSpec`; ``spaces`` is the spaces per lane;
    ``segment_starts[k]`` is the chain index of segment k's first pixel (several strip pieces daisy-chained
    on one data line). The pixels of (lane, space) are ``per_space`` consecutive indices starting at
    ``segment_starts[segment] + first + (space-1)*per_space`` (direction +1) or counting down from the lane's
    far end (direction -1). ``count`` is the chain length the map needs.
    """

    def __init__(self, lanes: Mapping[int, LaneSpec], spaces: int, segment_starts: Sequence[int] = (0,)):
        self.lanes = dict(sorted(lanes.items()))
        self.spaces = spaces
        self.segment_starts = tuple(segment_starts)
        problems = self._problems()
        if problems:
            raise ValueError("lane map: " + "; ".join(problems))

    @classmethod
    def default(cls, lanes: int = 4, spaces: int = 14, per_space: int = 1) -> "LaneMap":
        """One segment per lane, chained in lane order, every lane running from space 1 upward."""
        length = spaces * per_space
        return cls({n: LaneSpec(n - 1, 0, per_space, 1) for n in range(1, lanes + 1)}, spaces,
                   [k * length for k in range(lanes)])

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "lane_map") -> "LaneMap":
        """Build from config data, listing every problem with its key in one ValueError::

            {"spaces": 14, "segments": [0, 14, 28, 42],
             "lane": {"1": {"segment": 0, "first": 0, "per_space": 1, "direction": 1}, ...}}

        ``segments`` defaults to ``[0]``; ``first``, ``per_space`` and ``direction`` default to 0, 1, 1.
        """
        problems: list[str] = []

        def integer(table: Mapping[str, Any], key: str, path: str, low: int, default: int | None = None) -> int:
            value = table.get(key, default)
            if value is None:
                problems.append(f"{path}{key}: missing (expected an integer >= {low})")
                return low
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                problems.append(f"{path}{key}: {value!r} is not an integer >= {low}")
                return low
            return value

        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: {data!r} is not a table (expected spaces, segments and lane.N tables)")
        unknown = set(data) - {"spaces", "segments", "lane"}
        for key in sorted(unknown):
            problems.append(f"{where}.{key}: unknown key (expected spaces, segments, lane)")
        spaces = integer(data, "spaces", f"{where}.", 1, 14)
        segments = data.get("segments", [0])
        if (not isinstance(segments, list) or not segments
                or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in segments)):
            problems.append(f"{where}.segments: {segments!r} is not a list of pixel indices >= 0")
            segments = [0]
        table = data.get("lane")
        lanes: dict[int, LaneSpec] = {}
        if not isinstance(table, Mapping) or not table:
            problems.append(f"{where}.lane: missing (expected a table per lane: lane.1, lane.2, ...)")
            table = {}
        for key, spec in table.items():
            path = f"{where}.lane.{key}."
            try:
                lane = int(key)
                if lane < 1:
                    raise ValueError
            except (TypeError, ValueError):
                problems.append(f"{where}.lane.{key}: {key!r} is not a lane number (1, 2, ...)")
                continue
            if not isinstance(spec, Mapping):
                problems.append(f"{path[:-1]}: {spec!r} is not a table (expected segment, first, per_space, "
                                "direction)")
                continue
            for extra in sorted(set(spec) - {"segment", "first", "per_space", "direction"}):
                problems.append(f"{path}{extra}: unknown key (expected segment, first, per_space, direction)")
            direction = spec.get("direction", 1)
            if direction not in (1, -1) or isinstance(direction, bool):
                problems.append(f"{path}direction: {direction!r} is not 1 or -1")
                direction = 1
            lanes[lane] = LaneSpec(integer(spec, "segment", path, 0, 0), integer(spec, "first", path, 0, 0),
                                   integer(spec, "per_space", path, 1, 1), direction)
        if problems:
            raise ValueError("; ".join(problems))
        try:
            return cls(lanes, spaces, segments)
        except ValueError as exc:
            raise ValueError(f"{where}: {str(exc).removeprefix('lane map: ')}") from None

    def _problems(self) -> list[str]:
        problems = []
        if self.spaces < 1:
            problems.append(f"spaces {self.spaces!r} must be at least 1")
        if not self.lanes:
            problems.append("no lanes")
        taken: dict[int, tuple[int, int]] = {}
        for lane, spec in self.lanes.items():
            if not 0 <= spec.segment < len(self.segment_starts):
                problems.append(f"lane.{lane}.segment: {spec.segment} is not a segment "
                                f"(expected 0..{len(self.segment_starts) - 1})")
                continue
            if spec.direction not in (1, -1) or spec.per_space < 1 or spec.first < 0:
                problems.append(f"lane.{lane}: {spec} needs direction 1/-1, per_space >= 1, first >= 0")
                continue
            for space in range(1, self.spaces + 1):
                for p in self.pixels_for(lane, space):
                    if p in taken:
                        other = taken[p]
                        problems.append(f"lane.{lane}: space {space} uses pixel {p}, already used by lane "
                                        f"{other[0]} space {other[1]}")
                        break
                    taken[p] = (lane, space)
                else:
                    continue
                break
        return problems

    @property
    def count(self) -> int:
        """The number of pixels the chain needs (highest used index + 1)."""
        return max(p for lane in self.lanes for p in self.pixels_for(lane, self.spaces) + self.pixels_for(lane, 1)) + 1

    def pixels_for(self, lane: int, space: int) -> list[int]:
        """The chain indices of (lane, space), ordered from the back of the space toward the finish.

        Raises ValueError for a lane not in the map or a space outside 1..spaces.
        """
        spec = self.lanes.get(lane)
        if spec is None:
            raise ValueError(f"lane {lane!r} is not in the lane map (expected one of {sorted(self.lanes)})")
        if not 1 <= space <= self.spaces:
            raise ValueError(f"space {space!r} is off the lane map (expected 1..{self.spaces})")
        base = self.segment_starts[spec.segment] + spec.first
        n = spec.per_space
        if spec.direction == 1:
            start = base + (space - 1) * n
            return list(range(start, start + n))
        far = base + self.spaces * n - 1
        start = far - (space - 1) * n
        return list(range(start, start - n, -1))

    def lane_pixels(self, lane: int) -> list[int]:
        """Every pixel of ``lane`` from space 1 to the last space."""
        return [p for s in range(1, self.spaces + 1) for p in self.pixels_for(lane, s)]


# ----- strips ---------------------------------------------------------------------------------------------
def scale(pixel: Pixel, factor: float) -> Pixel:
    """``pixel`` times ``factor`` (0..1), rounded, each channel clamped to 0..255."""
    return tuple(max(0, min(255, int(round(c * factor)))) for c in pixel)  # type: ignore[return-value]


class LedStrip:
    """The LED strip interface: ``count`` pixels, ``show(pixels)`` one full frame, ``off()``, ``close()``.

    Use as a context manager to be sure the pixels go off. ``show`` raises ValueError for a frame longer
    than ``count`` or a pixel that is not three ints 0-255 (nothing is shown then). ``status`` is a line for
    ``hotstreak status`` and the systemd STATUS.
    """

    count: int = 0
    status: str = ""

    def show(self, pixels: Sequence[Pixel]) -> None:
        self._write(self._check(pixels))

    def off(self) -> None:
        self._write([OFF] * self.count)

    def close(self) -> None:
        try:
            self.off()
        finally:
            self._release()

    def __enter__(self) -> "LedStrip":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check(self, pixels: Sequence[Pixel]) -> list[Pixel]:
        if len(pixels) > self.count:
            raise ValueError(f"frame of {len(pixels)} pixels is longer than the strip ({self.count})")
        out = []
        for i, p in enumerate(pixels):
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
        self._strip = rpi_ws281x.PixelStrip(count, pin, freq_hz, dma, invert, int(round(brightness * 255)), channel,
                                            strip_type=strip_type)
        self._strip.begin()
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
    window (imported lazily), one row per lane when a ``lane_map`` is given (lane 1 on top, the finish on the
    right), else the chain wrapped in rows; keys pressed in the window go to ``on_key(key_name)``.
    """

    def __init__(self, count: int, *, clock: Callable[[], float] = time.monotonic, keep: int | None = None,
                 window: bool = False, lane_map: LaneMap | None = None, on_key: Callable[[str], None] | None = None,
                 brightness: float = 1.0):
        _check_common(count, brightness, "GRB")
        self.count = count
        self.clock = clock
        self.brightness = brightness
        self.frames: list[Frame] | deque[Frame] = [] if keep is None else deque(maxlen=keep)
        self.closed = False
        self._view = _PygameView(count, lane_map, on_key) if window else None
        self.status = f"LEDs: mock strip of {count} pixels" + (" in a window" if window else "")

    @property
    def last(self) -> tuple[Pixel, ...]:
        """The pixels of the newest frame (all off before the first frame)."""
        return self.frames[-1].pixels if self.frames else (OFF,) * self.count

    def _write(self, pixels: list[Pixel]) -> None:
        self.frames.append(Frame(self.clock(), tuple(pixels)))
        if self._view is not None:
            self._view.draw([scale(p, self.brightness) for p in pixels])

    def _release(self) -> None:
        self.closed = True
        if self._view is not None:
            self._view.close()


class _PygameView:
    """A small pygame window drawing the strip; keeps running quietly if the window cannot open."""

    def __init__(self, count: int, lane_map: LaneMap | None, on_key: Callable[[str], None] | None):
        import pygame  # lazy: only when a window is asked for
        self.pg = pygame
        self.on_key = on_key
        self.cell = 18
        if lane_map is not None:
            self.rows = [lane_map.lane_pixels(lane) for lane in lane_map.lanes]
        else:
            width = 40
            self.rows = [list(range(i, min(i + width, count))) for i in range(0, count, width)]
        cols = max(len(r) for r in self.rows)
        pygame.display.init()
        self.screen = pygame.display.set_mode((cols * self.cell + 8, len(self.rows) * (self.cell + 6) + 8))
        pygame.display.set_caption("Hot Streak LEDs")

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
    """Turn ``strips`` off at interpreter exit and on SIGTERM (call from the main thread).

    The SIGTERM handler turns the pixels off, then calls the handler that was installed before (if it was a
    Python function) or raises ``SystemExit(143)`` so ``finally`` blocks and ``close()`` still run. A program
    that installs its own SIGTERM handler afterwards should call this again, or turn the strip off itself.
    """

    def all_off() -> None:
        for strip in strips:
            try:
                strip.off()
            except Exception:  # never let an exit path die on a strip error
                log.exception("could not turn the LEDs off")

    atexit.register(all_off)
    previous = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum: int, frame: Any) -> None:
        all_off()
        if callable(previous) and previous not in (signal.SIG_IGN, signal.SIG_DFL):
            previous(signum, frame)
        else:
            raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_sigterm)
