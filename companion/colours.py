"""Per-mascot colours, in one place for the screen and the LED lights.

Colours are ``(r, g, b)`` tuples of ints 0-255. Keys are the lower-case mascot names plus ``green`` for the
green multi cards (docs/rules.md 2). The config's ``[colours]`` defaults are these (``hotstreak config`` shows
them as ``"#rrggbb"``), and the LED strip and the screen take the same table.

The mascot colours are chosen so that people with colour-vision deficiency can tell every pair apart: each
pair is at least CIE76 Delta E 20 apart in CIELab under simulated deuteranopia, protanopia and tritanopia
(Machado, Oliveira & Fernandes 2009, full severity; tests/lights/test_colours.py checks it; the smallest pair is
Delta E 28.6, Dangle-Mum under deuteranopia). They keep each mascot's character: Gobbler orange, Hurley red,
Dangle purple, Mum a lighter sky blue, so that Dangle and Mum differ in lightness as well as hue.

>>> colour("hurley")
(241, 69, 76)
>>> hex_colour(colour("mum"))
'#54b1ff'
"""

from __future__ import annotations

RGB = tuple[int, int, int]

COLOURS: dict[str, RGB] = {
    "gobbler": (255, 156, 31),   # orange  #ff9c1f
    "hurley": (241, 69, 76),     # red     #f1454c
    "dangle": (138, 73, 232),    # purple  #8a49e8
    "mum": (84, 177, 255),       # sky blue #54b1ff
    "green": (45, 205, 90),      # green multi cards
}

# The rest of the screen palette (not shared with the LEDs).
BACKGROUND: RGB = (16, 20, 32)
PANEL: RGB = (30, 36, 54)
TRACK: RGB = (52, 92, 60)
TRACK_ALT: RGB = (60, 104, 68)
FOLDED: RGB = (8, 8, 10)
LINE: RGB = (220, 220, 220)
STAR: RGB = (255, 220, 60)
FINISH: RGB = (245, 245, 245)
TEXT: RGB = (235, 238, 245)
DIM_TEXT: RGB = (150, 160, 180)
OUT: RGB = (110, 110, 115)
OUT_MARK: RGB = (255, 40, 40)
GOLD: RGB = (255, 205, 40)
MESSAGE: RGB = (200, 40, 40)


def colour(name: str | None) -> RGB:
    """The colour of a mascot by name (any case), or of the green cards for ``None``/``"green"``.

    Raises ValueError naming the bad name.
    """
    key = "green" if name is None else name.strip().lower()
    try:
        return COLOURS[key]
    except KeyError:
        raise ValueError(f"no colour for {name!r} (expected one of: {', '.join(COLOURS)})") from None


def hex_colour(rgb: RGB) -> str:
    """``(r, g, b)`` as ``"#rrggbb"`` (lower case). Raises ValueError for a channel outside 0..255."""
    if len(rgb) != 3 or any(not isinstance(c, int) or not 0 <= c <= 255 for c in rgb):
        raise ValueError(f"colour {rgb!r} is not valid (expected three whole numbers 0..255)")
    return "#" + "".join(f"{c:02x}" for c in rgb)


DEFAULT_COLOURS: dict[str, RGB] = dict(COLOURS)


def use_colours(chosen: dict[str, RGB]) -> None:
    """Make the config's mascot colours (``{"mum": (r, g, b), ...}``) the table the screen draws with, so screen
    and LEDs show the same colours; names not given keep their default. Called once by the kiosk wiring.
    Raises ValueError naming an unknown mascot or a bad colour."""
    for name, rgb in chosen.items():
        key = name.strip().lower()
        if key not in COLOURS:
            raise ValueError(f"no colour for {name!r} (expected one of: {', '.join(COLOURS)})")
        hex_colour(rgb)  # checks the channels
    COLOURS.clear()
    COLOURS.update(DEFAULT_COLOURS)
    COLOURS.update({name.strip().lower(): (rgb[0], rgb[1], rgb[2]) for name, rgb in chosen.items()})
