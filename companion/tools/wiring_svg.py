"""The wiring diagram as an SVG picture (standard library only: xml.etree), drawn from a
:class:`companion.tools.wiring_plan.WiringPlan`: the Pi's header pins in use, the 74AHCT125 level shifter, the 5 V
supply with its fuse and capacitor, the two buttons, and each lane's piece of strip with its pixel range, where
the data comes in and where the 5 V goes in.

>>> from companion.kiosk.config import load_config
>>> from companion.rules.track import Track
>>> from companion.tools.wiring_plan import plan
>>> svg = render(plan(load_config(None), Track()), source="defaults")
>>> svg.startswith("<svg") and "GPIO10" in svg and "pixels 28-55" in svg
True
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from companion.tools.wiring_plan import Strip, WiringPlan, cap_ma, lanes_text

__all__ = ["render"]

WIDTH = 1400
LANE_X, LANE_W, LANE_H, LANE_GAP = 330, 860, 34, 78
LEFT_RED, LEFT_GND = 290, 275       # the 5 V rails along the left end of the lanes
RED_RAIL, GND_RAIL = 1250, 1275     # and down the right side, from the supply
RAIL_END = 470                      # where the rails from the supply meet the lanes' rows
DATA_X = 800                        # the data line's way down to the lanes
RED, BLACK, DATA, GREY = "#d22", "#222", "#1a6fd0", "#777"
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"


class _Svg:
    def __init__(self, height: int):
        self.root = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", width=str(WIDTH), height=str(height),
                               viewBox=f"0 0 {WIDTH} {height}", attrib={"font-family": FONT})
        ET.SubElement(self.root, "rect", x="0", y="0", width=str(WIDTH), height=str(height), fill="white")

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str = BLACK,
             width: float = 2, rx: float = 6) -> None:
        ET.SubElement(self.root, "rect", x=_n(x), y=_n(y), width=_n(w), height=_n(h), fill=fill, stroke=stroke,
                      attrib={"stroke-width": _n(width), "rx": _n(rx)})

    def text(self, x: float, y: float, words: str, size: int = 15, anchor: str = "start", weight: str = "normal",
             fill: str = BLACK) -> None:
        node = ET.SubElement(self.root, "text", x=_n(x), y=_n(y), fill=fill,
                             attrib={"font-size": str(size), "text-anchor": anchor, "font-weight": weight})
        node.text = words

    def line(self, points: list[tuple[float, float]], colour: str = BLACK, width: float = 2.5,
             dash: str | None = None) -> None:
        attrib = {"stroke-width": _n(width), "fill": "none", "stroke-linejoin": "round"}
        if dash:
            attrib["stroke-dasharray"] = dash
        ET.SubElement(self.root, "polyline", points=" ".join(f"{_n(x)},{_n(y)}" for x, y in points),
                      stroke=colour, attrib=attrib)

    def dot(self, x: float, y: float, colour: str = BLACK, r: float = 5) -> None:
        ET.SubElement(self.root, "circle", cx=_n(x), cy=_n(y), r=_n(r), fill=colour)

    def arrow(self, x: float, y: float, right: bool, colour: str = DATA) -> None:
        d = 12 if right else -12
        ET.SubElement(self.root, "polygon", fill=colour,
                      points=f"{_n(x)},{_n(y)} {_n(x - d)},{_n(y - 7)} {_n(x - d)},{_n(y + 7)}")


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def render(p: WiringPlan, source: str) -> str:
    """The diagram of ``p`` as SVG text; ``source`` names the config it was drawn from (a path or
    "defaults")."""
    lanes_top = 530
    height = lanes_top + len(p.strips) * LANE_GAP + 200
    s = _Svg(height)
    s.text(40, 42, "Hot Streak table: wiring", 26, weight="bold")
    s.text(40, 68, f"drawn by `hotstreak wiring` from {source}: redraw it after changing [leds] or [buttons]",
           14, fill=GREY)
    pi_pins = _pi(s, p)
    _shifter(s, p, pi_pins)
    _buttons(s, p, pi_pins)
    _supply(s, p)
    _lanes(s, p, lanes_top)
    _notes(s, p, lanes_top + len(p.strips) * LANE_GAP + 80)
    ET.indent(s.root)
    return ET.tostring(s.root, encoding="unicode") + "\n"


def _pi(s: _Svg, p: WiringPlan) -> dict[str, float]:
    """The Pi with one row per header pin in use; returns each row's y by name (data, strip, undo, go...)."""
    rows: list[tuple[str, str, str]] = [("data", f"pin {p.data.header_pin}  GPIO{p.data.gpio}", p.data.use)]
    rows.append(("strip", f"pin {p.grounds['strip'].header_pin}  GND", "common ground"))
    for name, button in p.buttons.items():
        rows.append((name, f"pin {button.header_pin}  GPIO{button.gpio}", button.use))
        rows.append((f"{name}-gnd", f"pin {p.grounds[name].header_pin}  GND", f"{name.upper()}, other leg"))
    top, row = 110, 34
    s.rect(40, top, 300, 50 + row * len(rows), fill="#e8f5e9")
    s.text(190, top + 30, "Raspberry Pi (40-pin header)", 17, "middle", "bold")
    ys: dict[str, float] = {}
    for i, (key, label, use) in enumerate(rows):
        y = top + 60 + i * row
        s.text(56, y + 5, label, 15, weight="bold")
        s.text(200, y + 5, use, 12, fill=GREY)
        s.dot(340, y, RED if key == "data" else BLACK)
        ys[key] = y
    s.text(190, top + 70 + row * len(rows), "never feed the strip from the Pi's 5 V pins", 12, "middle", fill=RED)
    return ys


def _shifter(s: _Svg, p: WiringPlan, pi: dict[str, float]) -> None:
    x, y = 470, 110
    s.rect(x, y, 230, 168, fill="#fff8e1")
    s.text(x + 115, y + 28, "74AHCT125", 17, "middle", "bold")
    s.text(x + 115, y + 46, "level shifter 3.3 V -> 5 V", 12, "middle", fill=GREY)
    s.text(x + 10, y + 75, "2  1A in", 13)
    s.text(x + 10, y + 100, "1  1OE -> GND", 13)
    s.text(x + 10, y + 125, "7  GND", 13)
    s.text(x + 220, y + 75, "1Y out  3", 13, "end")
    s.text(x + 220, y + 100, "VCC 5 V  14", 13, "end")
    s.text(x + 115, y + 143, "pins 4, 5, 9, 10, 12, 13 to GND", 11, "middle", fill=GREY)
    s.text(x + 115, y + 160, "100 nF from pin 14 to pin 7", 11, "middle", fill=GREY)
    s.line([(340, pi["data"]), (410, pi["data"]), (410, y + 70), (x, y + 70)], DATA)
    s.text(420, y + 62, "data", 12, fill=DATA)
    s.line([(340, pi["strip"]), (440, pi["strip"]), (440, y + 120), (x, y + 120)], BLACK)
    # 1Y -> 330 ohm -> down to the first strip's DIN (drawn by _lanes from the data bus at x 760)
    s.line([(x + 230, y + 70), (735, y + 70)], DATA)
    s.rect(735, y + 60, 50, 20, fill="white", stroke=DATA, rx=2)
    s.text(760, y + 54, "330 ohm", 12, "middle", fill=DATA)
    s.line([(785, y + 70), (DATA_X, y + 70), (DATA_X, 480)], DATA)
    s.text(DATA_X + 8, 300, "data to the first DIN", 12, fill=DATA)
    s.line([(x + 230, y + 95), (840, y + 95), (840, 190), (860, 190)], RED)  # VCC from the supply's +5 V


def _buttons(s: _Svg, p: WiringPlan, pi: dict[str, float]) -> None:
    for i, (name, pin) in enumerate(p.buttons.items()):
        y = 305 + i * 85
        x = 470
        s.rect(x, y, 150, 56, fill="#e3f2fd")
        s.text(x + 75, y + 24, f"{name.upper()} button", 15, "middle", "bold")
        s.text(x + 75, y + 44, "momentary, no resistor", 11, "middle", fill=GREY)
        lane_y, ground_y = pi[name], pi[f"{name}-gnd"]
        bend = 360 + i * 30
        s.line([(340, lane_y), (bend, lane_y), (bend, y + 18), (x, y + 18)], "#2e7d32")
        s.line([(340, ground_y), (bend + 14, ground_y), (bend + 14, y + 40), (x, y + 40)], BLACK)


def _supply(s: _Svg, p: WiringPlan) -> None:
    """The supply, its fuse on +5 V, the two rails down the right side and the capacitor across them."""
    x, y = 860, 100
    s.rect(x, y, 290, 150, fill="#fce4ec")
    s.text(x + 145, y + 30, f"5 V {p.supply_config:g} A supply", 18, "middle", "bold",
           RED if p.supply_short else BLACK)
    s.text(x + 145, y + 50, f"strip worst case {p.amps:.1f} A: {p.count} px x {cap_ma(p):.0f} mA", 12, "middle",
           fill=GREY)
    advice = (f"too small: {p.supply_amps} A needed ([leds] supply_amps)" if p.supply_short else
              f"at brightness {p.brightness:g}; {p.supply_amps} A leaves a margin")
    s.text(x + 145, y + 66, advice, 12, "middle", fill=RED if p.supply_short else GREY)
    s.text(x + 280, y + 95, "+5 V", 15, "end", "bold", RED)
    s.text(x + 280, y + 125, "GND", 15, "end", "bold")
    s.text(x + 145, y + 143, f"5 V and GND wires: {p.awg} AWG ({p.mm2:g} mm2)", 12, "middle")
    s.line([(x + 290, y + 90), (RED_RAIL, y + 90), (RED_RAIL, RAIL_END)], RED, 3.5)
    s.rect(x + 302, y + 80, 40, 20, fill="white", stroke=RED, rx=2)
    s.text(x + 322, y + 74, f"fuse {p.fuse_amps:g} A", 12, "middle", fill=RED)
    s.line([(x + 290, y + 120), (GND_RAIL, y + 120), (GND_RAIL, RAIL_END)], BLACK, 3.5)
    cap = y + 190
    s.rect(RED_RAIL - 4, cap, GND_RAIL - RED_RAIL + 8, 16, fill="#fff", stroke=BLACK, width=1.5, rx=2)
    s.text(RED_RAIL - 14, cap + 13, "1000 uF across the rails", 12, "end")
    s.text(RED_RAIL - 14, cap + 45, "GND also to the Pi", 12, "end")
    s.text(RED_RAIL - 14, cap + 61, f"(pin {p.grounds['strip'].header_pin}) and the shifter", 12, "end")
    s.text(RED_RAIL - 14, cap + 77, "(pin 7): one ground", 12, "end")


def _lanes(s: _Svg, p: WiringPlan, top: float) -> None:
    s.text(LANE_X, top - 10, "The LED strip beside the lanes, as seen from above (the finish on the right)", 15,
           weight="bold")
    previous: tuple[float, float] | None = None
    order = sorted(p.strips, key=lambda t: t.lane)
    rows = {strip.lane: top + 30 + k * LANE_GAP for k, strip in enumerate(order)}
    bottom = top + 30 + len(order) * LANE_GAP
    for strip in p.strips:  # chain order: the data runs through them in this order
        y = rows[strip.lane]
        _strip(s, strip, y)
        din_x = LANE_X if strip.din_at_start else LANE_X + LANE_W
        side = -30 if strip.din_at_start else 30
        here = (din_x, y + LANE_H / 2)
        if previous is None:  # from the 330 ohm resistor
            s.line([(DATA_X, top - 40), (DATA_X, top - 30), (din_x + side, top - 30), (din_x + side, here[1]),
                    here], DATA)
        else:  # out of the last DOUT, along the gap above this row, into this DIN
            out = 30 if previous[0] > LANE_X else -30
            gap = y - 10
            s.line([previous, (previous[0] + out, previous[1]), (previous[0] + out, gap), (here[0] + side, gap),
                    (here[0] + side, here[1]), here], DATA, dash="6 4")
        s.arrow(here[0] + (1 if strip.din_at_start else -1), here[1], strip.din_at_start)
        previous = (LANE_X + LANE_W if strip.din_at_start else LANE_X, y + LANE_H / 2)
        for end in strip.inject:
            left = end.startswith("space 1")
            x = LANE_X - 8 if left else LANE_X + LANE_W + 8
            s.line([(x, y + 4), (LEFT_RED if left else RED_RAIL, y + 4)], RED)
            s.line([(x, y + LANE_H - 4), (LEFT_GND if left else GND_RAIL, y + LANE_H - 4)], BLACK)
            s.dot(x, y + 4, RED, 4)
            s.dot(x, y + LANE_H - 4, BLACK, 4)
    if any(end.startswith("space 1") for t in p.strips for end in t.inject):  # the rails on the left, from the right
        first = min(rows.values())
        s.line([(LEFT_RED, first), (LEFT_RED, bottom), (RED_RAIL, bottom), (RED_RAIL, RAIL_END)], RED, 3.5)
        s.line([(LEFT_GND, first), (LEFT_GND, bottom + 14), (GND_RAIL, bottom + 14), (GND_RAIL, RAIL_END)], BLACK, 3.5)
    else:
        s.line([(RED_RAIL, RAIL_END), (RED_RAIL, bottom)], RED, 3.5)
        s.line([(GND_RAIL, RAIL_END), (GND_RAIL, bottom + 14)], BLACK, 3.5)


def _strip(s: _Svg, strip: Strip, y: float) -> None:
    s.text(LANE_X - 80, y + 16, f"Lane {strip.lane}", 15, "end", "bold")
    s.text(LANE_X - 80, y + 33, strip.mascot.capitalize(), 13, "end", fill=GREY)
    s.rect(LANE_X, y, LANE_W, LANE_H, fill=strip.colour, stroke=BLACK, width=1.5, rx=3)
    cell = LANE_W / strip.spaces
    for space in range(1, strip.spaces):
        s.line([(LANE_X + space * cell, y), (LANE_X + space * cell, y + LANE_H)], "white", 1.5)
    s.text(LANE_X + cell / 2, y + 22, "1", 13, "middle", "bold", "white")
    s.text(LANE_X + LANE_W - cell / 2, y + 22, str(strip.spaces), 13, "middle", "bold", "white")
    din = "space 1" if strip.din_at_start else f"space {strip.spaces}"
    s.text(LANE_X, y + LANE_H + 18, f"{lanes_text(strip)}; {strip.per_space} per space; data in at {din}", 13)


def _notes(s: _Svg, p: WiringPlan, y: float) -> None:
    lines = [
        f"Blue: data, GPIO{p.data.gpio} -> 74AHCT125 -> 330 ohm at the first DIN; then each piece's DOUT to the "
        "next DIN (dashed), in pixel order.",
        f"Red and black: 5 V and GND from the supply through the {p.fuse_amps:g} A fuse, fed in at each dot; "
        f"{p.awg} AWG ({p.mm2:g} mm2) wire, as short as the table allows.",
        "Pixels between pieces (corners, joins) stay dark: "
        + (", ".join(f"{a}-{b}" for a, b in p.bridges) if p.bridges else "none here") + ".",
        "The Pi has its own USB-C supply. Bring it up step by step: docs/build.md (scan SERVICE MODE on the "
        "control card, follow the screen).",
    ]
    for i, line in enumerate(lines):
        s.text(40, y + i * 24, line, 14)
