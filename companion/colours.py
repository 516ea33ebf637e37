"""Per-mascot colours, in one place for the screen and the LED lights.

Colours are ``(r, g, b)`` tuples of ints 0-255. Keys are the lower-case mascot names plus ``green`` for the
green multi cards (docs/rules.md 2).

>>> colour("hurley")
(230, 46, 58)
"""

from __future__ import annotations

RGB = tuple[int, int, int]

COLOURS: dict[str, RGB] = {
    "gobbler": (255, 150, 20),   # orange
    "hurley": (230, 46, 58),     # red
    "dangle": (160, 90, 235),    # purple
    "mum": (40, 150, 255),       # blue
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
