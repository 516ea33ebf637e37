"""The table's wiring worked out from its config: which header pins, which level shifter pins, the LED strip's
pieces with their pixel ranges, the 5 V supply, fuse and wire sizes. ``hotstreak wiring`` draws it
(:mod:`companion.tools.wiring_svg`); ``docs/build.md`` explains it.

>>> from companion.kiosk.config import load_config
>>> from companion.rules.track import Track
>>> p = plan(load_config(None), Track())
>>> p.data.gpio, p.data.header_pin, [(s.lane, s.low, s.high) for s in p.strips][:2]
(10, 19, [(1, 0, 27), (2, 28, 55)])
>>> round(p.amps, 2), p.supply_amps, p.fuse_amps
(2.46, 4, 4)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.kiosk.config import Config
from companion.lights.lanemap import LaneMap
from companion.rules.track import Track
from companion.service.calibrate import IDLE_MA, MA_PER_PIXEL, worst_case_amps
from hardware.pins import SPI_MOSI, uses_spi

__all__ = ["HEADER", "LED_FULL_MA", "LED_IDLE_MA", "Pin", "Strip", "WiringPlan", "cap_ma", "describe", "gauge_for",
           "lanes_text", "pixel_amps", "plan"]

# BCM GPIO number -> physical pin on the 40-pin header (every Raspberry Pi since the B+)
HEADER = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31, 13: 33, 19: 35,
          26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 1: 28, 12: 32, 16: 36, 20: 38,
          21: 40}
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)

LED_FULL_MA = MA_PER_PIXEL  # mA: one WS2812B pixel at full white (20 mA per colour), as the LED test counts it
LED_IDLE_MA = IDLE_MA       # mA: one pixel showing nothing (its driver chip)
SUPPLIES = (2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 40)    # A: usual 5 V supply sizes
FUSES = (1, 2, 3, 4, 5, 7.5, 10, 15, 20, 25, 30, 40)  # A: usual blade / glass fuse sizes
# (AWG, mm², most amps for the short runs of a table): thicker than the tables allow, to keep the drop small
GAUGES = ((22, 0.34, 2.0), (20, 0.5, 3.0), (18, 0.75, 5.0), (16, 1.5, 8.0), (14, 2.5, 13.0), (12, 4.0, 20.0),
          (10, 6.0, 30.0))
INJECT_EVERY = 60  # pixels: a piece longer than this gets 5 V at both ends


@dataclass(frozen=True)
class Pin:
    """One header pin the table uses: BCM ``gpio`` (None for a ground pin), physical ``header_pin``, and what
    it is for, in a few words."""

    gpio: int | None
    header_pin: int
    use: str


@dataclass(frozen=True)
class Strip:
    """One lane's piece of LED strip: ``lane`` (1-based), its ``mascot`` and ``colour`` ("#rrggbb"), the chain
    indices ``low``..``high`` beside its spaces, the pixels of space 1 and of the last space, ``din_at_start``
    True when the data comes in at space 1 (``direction`` 1), the pixels per space, its current in A at the
    brightness cap and where it takes 5 V (``inject``: "space 1 end", "last space end")."""

    lane: int
    mascot: str
    colour: str
    low: int
    high: int
    first_space: tuple[int, ...]
    last_space: tuple[int, ...]
    spaces: int
    per_space: int
    din_at_start: bool
    amps: float
    inject: tuple[str, ...]

    @property
    def pixels(self) -> int:
        return self.high - self.low + 1


@dataclass(frozen=True)
class WiringPlan:
    """Everything the diagram shows: the LED ``data`` pin, the ``buttons`` (name -> :class:`Pin`), their
    ``grounds``, the ``strips`` in chain order (the data runs through them in this order), the unlit
    ``bridges`` (pixel ranges between pieces: corners and joins), ``count`` pixels configured, the worst-case
    current ``amps`` at the brightness cap (every pixel white, as the LED test shows it), the supply and fuse
    sizes (A) it needs, the wire gauge for 5 V and ground (AWG, mm²), the config's ``brightness`` and the supply
    the config names (``[leds] supply_amps``: ``supply_config``; ``supply_short`` when it is below the need)."""

    data: Pin
    spi: bool
    buttons: dict[str, Pin]
    grounds: dict[str, Pin]
    strips: tuple[Strip, ...]
    bridges: tuple[tuple[int, int], ...]
    count: int
    brightness: float
    amps: float
    supply_amps: int
    fuse_amps: float
    supply_config: float
    awg: int
    mm2: float

    @property
    def supply_short(self) -> bool:
        """True when the supply the config names gives less than the strip's worst case at the brightness cap
        (the service mode's LED test warns then too)."""
        return self.supply_config < self.amps


def gauge_for(amps: float) -> tuple[int, float]:
    """The thinnest wire (AWG, mm²) of :data:`GAUGES` that carries ``amps``; raises ValueError past 30 A."""
    for awg, mm2, most in GAUGES:
        if amps <= most:
            return awg, mm2
    raise ValueError(f"{amps:.1f} A is more than one 5 V feed should carry (expected at most 30 A: split the "
                     "strip over several supplies)")


def _at_least(sizes: tuple[float, ...], amps: float) -> float:
    return next((s for s in sizes if s >= amps), sizes[-1])


def _nearest_ground(pin: int, avoid: tuple[int, ...] = ()) -> int:
    return min((g for g in GROUND_PINS if g not in avoid), key=lambda g: (abs(g - pin), g))


def pixel_amps(count: int, brightness: float) -> float:
    """Amps ``count`` pixels draw at full white capped at ``brightness`` (0..1), idle current included: the
    service mode's LED test figure (:func:`companion.service.calibrate.worst_case_amps`)."""
    return worst_case_amps(count, brightness)


def plan(cfg: Config, track: Track) -> WiringPlan:
    """The wiring of the table ``cfg`` describes on ``track`` (its lanes, spaces and mascots' lanes).

    Raises ValueError for a lane map that does not fit (the same message ``hotstreak run`` gives) or a pin
    off the 40-pin header."""
    lane_map = LaneMap.from_dict(cfg.lane_map_dict(track.spaces), where="leds")
    if cfg.led_count < lane_map.count:
        raise ValueError(f"leds.count {cfg.led_count} is too small for the lane map (it needs at least "
                         f"{lane_map.count})")
    spi = uses_spi(cfg.led_pin, cfg.led_backend)
    gpio = SPI_MOSI if spi else cfg.led_pin
    data = Pin(gpio, _header(gpio, "leds.pin"), "LED data (SPI0 MOSI)" if spi else "LED data (PWM/PCM)")
    buttons = {name: Pin(g, _header(g, f"buttons.{name}"), f"{name.upper()} button")
               for name, g in cfg.buttons.items()}
    # the ground beside the data pin (pin 20 beside 19 for SPI): data and ground run as a pair; pins 4 and 6 stay
    # free for the 7-inch panel's power leads
    grounds = {"strip": Pin(None, _nearest_ground(data.header_pin, avoid=(6,)), "common ground")}
    for name, pin in buttons.items():
        grounds[name] = Pin(None, _nearest_ground(pin.header_pin), f"{name.upper()} button, other leg")
    lane_of = {lane: m.value for m, lane in track.start_lanes}
    colours = {m.value: rgb for m, rgb in cfg.colours.items()}
    strips = []
    for lane in lane_map.lanes:
        pixels = lane_map.lane_pixels(lane)
        spec = lane_map.lanes[lane]
        mascot = lane_of.get(lane, f"lane {lane}")
        rgb = colours.get(mascot, (200, 200, 200))
        amps = pixel_amps(len(pixels), cfg.brightness)
        inject: tuple[str, ...] = ("space 1 end" if spec.direction == 1 else "last space end",)
        if len(pixels) > INJECT_EVERY:
            inject += ("last space end" if spec.direction == 1 else "space 1 end",)
        strips.append(Strip(lane, mascot, "#%02x%02x%02x" % rgb, min(pixels), max(pixels),
                            tuple(lane_map.pixels_for(lane, 1)), tuple(lane_map.pixels_for(lane, track.spaces)),
                            track.spaces, spec.per_space, spec.direction == 1, amps, inject))
    strips.sort(key=lambda s: s.low)
    bridges = []
    edge = 0
    for s in strips:
        if s.low > edge:
            bridges.append((edge, s.low - 1))
        edge = s.high + 1
    amps = pixel_amps(cfg.led_count, cfg.brightness)
    fuse = _at_least(FUSES, max(1.0, amps * 1.25))
    supply = int(_at_least(SUPPLIES, max(fuse, amps * 1.25)))
    awg, mm2 = gauge_for(fuse)
    return WiringPlan(data, spi, buttons, grounds, tuple(strips), tuple(bridges), cfg.led_count, cfg.brightness,
                      amps, supply, fuse, cfg.supply_amps, awg, mm2)


def _header(gpio: int, key: str) -> int:
    if gpio not in HEADER:
        raise ValueError(f"{key}: GPIO{gpio} is not on the 40-pin header (expected GPIO 0-27)")
    return HEADER[gpio]


def describe(p: WiringPlan) -> list[str]:
    """The plan as short lines for the terminal (what ``hotstreak wiring`` prints besides the file)."""
    lines = [f"LED data: GPIO{p.data.gpio} (header pin {p.data.header_pin}) -> 74AHCT125 1A, 1Y -> 330 ohm -> "
             f"DIN of lane {p.strips[0].lane}" if p.strips else "no lanes"]
    lines.append(f"common ground: pin {p.grounds['strip'].header_pin} to the 74AHCT125's GND (pin 7) and the 5 V "
                 "supply's GND")
    lines += [f"{name.upper()} button: GPIO{pin.gpio} (pin {pin.header_pin}) and ground (pin "
              f"{p.grounds[name].header_pin})" for name, pin in p.buttons.items()]
    for s in p.strips:
        lines.append(f"lane {s.lane} ({s.mascot}): pixels {s.low}-{s.high}, space 1 at "
                     f"{_span(s.first_space)}, space {s.spaces} at {_span(s.last_space)}; 5 V at the "
                     + " and the ".join(s.inject))
    lines.append(f"5 V supply: {p.count} pixels x {LED_FULL_MA * p.brightness + LED_IDLE_MA:.0f} mA at "
                 f"brightness {p.brightness:g} = {p.amps:.1f} A -> a 5 V {p.supply_amps} A supply, a "
                 f"{p.fuse_amps:g} A fuse, {p.awg} AWG ({p.mm2:g} mm2) wire")
    if p.supply_short:
        lines.append(f"[leds] supply_amps = {p.supply_config:g}: too small for this strip (expected at least "
                     f"{p.supply_amps} A, or a lower brightness)")
    return lines


def _span(pixels: tuple[int, ...]) -> str:
    return str(pixels[0]) if len(pixels) == 1 else f"{min(pixels)}-{max(pixels)}"


def lanes_text(s: Strip) -> str:
    """``"pixels 28-55: space 1 at 54-55, space 14 at 28-29"`` for a label beside the strip."""
    return (f"pixels {s.low}-{s.high}: space 1 at {_span(s.first_space)}, space {s.spaces} at "
            f"{_span(s.last_space)}")


def cap_ma(p: WiringPlan) -> float:
    """mA per pixel at full white capped at the config's brightness."""
    return LED_FULL_MA * p.brightness + LED_IDLE_MA
