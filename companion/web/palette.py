"""The phone page's colours: the screen's palette (:mod:`companion.colours`) as CSS custom properties, and the
text/background pairs the page draws, each at WCAG 2.x AA contrast.

:func:`palette` is ``{css name: (r, g, b)}`` read from :mod:`companion.colours` when called (so the config's
mascot colours, set by ``use_colours`` before the page starts, are the phone's too); :func:`palette_css` is
the ``:root { --name: #rrggbb; }`` rule the page loads as ``/static/palette.css``. The page's style sheet
names colours only through these properties. A few phone-only shades are derived here, never typed: ``stretch`` (the final stretch, as the screen shades it), ``raised``
(buttons and inputs) is the panel lifted toward the text colour; ``bad`` is the screen's out-mark red lifted
just enough to read as text on the panels; ``ink-<mascot>`` is the letter colour on that mascot's disc.

:data:`TEXT_PAIRS` lists every (text, background) pair the page uses with the ratio it needs: 4.5:1 for
text, 3:1 for large text (at least 24 px, or 18.66 px bold). tests/web/test_web_palette.py checks them and
that style.css uses no colour outside this palette.

>>> round(contrast((255, 255, 255), (0, 0, 0)), 1)
21.0
>>> palette_css().startswith(":root {")
True
"""

from __future__ import annotations

from companion import colours as C
from companion.colours import RGB, hex_colour

AA = 4.5
"""WCAG AA: the least contrast ratio of normal text."""
AA_LARGE = 3.0
"""WCAG AA: the least contrast ratio of large text (24 px, or 18.66 px bold) and of graphics."""
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)


def luminance(rgb: RGB) -> float:
    """The WCAG relative luminance of an sRGB colour ``(r, g, b)`` 0..255: 0.0 (black) .. 1.0 (white)."""
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours: 1.0 (same) .. 21.0 (black on white), either order."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: RGB, b: RGB, k: float) -> RGB:
    """``a`` moved a fraction ``k`` (0..1) of the way to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * k), round(a[1] + (b[1] - a[1]) * k), round(a[2] + (b[2] - a[2]) * k))


def lifted(colour: RGB, backgrounds: tuple[RGB, ...], ratio: float = AA) -> RGB:
    """``colour`` mixed toward white in small steps until it reaches ``ratio`` on every one of ``backgrounds``
    (``colour`` itself when it already does)."""
    for step in range(21):
        shade = mix(colour, WHITE, step / 20)
        if all(contrast(shade, bg) >= ratio for bg in backgrounds):
            return shade
    return WHITE


def _shade(colour: RGB, k: float) -> RGB:
    """``colour`` with each channel times ``k`` (capped at 255), as the screen shades the final stretch."""
    return (min(255, round(colour[0] * k)), min(255, round(colour[1] * k)), min(255, round(colour[2] * k)))


def ink_on(fill: RGB) -> RGB:
    """The letter colour on ``fill``: the screen's dark or light text colour when one reaches AA, else black or
    white, whichever reads better."""
    for ink in (C.BACKGROUND, C.TEXT):
        if contrast(ink, fill) >= AA:
            return ink
    return max((BLACK, WHITE), key=lambda ink: contrast(ink, fill))


def palette() -> dict[str, RGB]:
    """``{css custom property name (without --): (r, g, b)}``, from :mod:`companion.colours` as it is now."""
    raised = mix(C.PANEL, C.TEXT, 0.07)
    out: dict[str, RGB] = {
        "bg": C.BACKGROUND, "panel": C.PANEL, "raised": raised, "rule": mix(C.PANEL, C.TEXT, 0.18),
        "text": C.TEXT, "dim": C.DIM_TEXT, "gold": C.GOLD, "on-gold": ink_on(C.GOLD),
        "good": C.COLOURS["green"], "bad": lifted(C.OUT_MARK, (C.BACKGROUND, C.PANEL, raised)),
        "notice": C.MESSAGE, "on-notice": ink_on(C.MESSAGE),
        "track": C.TRACK, "track-alt": C.TRACK_ALT, "stretch": _shade(C.TRACK, 1.18), "stretch-alt": _shade(C.TRACK_ALT, 1.18),
        "folded": C.FOLDED, "line": C.LINE, "star": C.STAR, "finish": C.FINISH, "out": C.OUT,
        "out-mark": C.OUT_MARK, "on-out": ink_on(C.OUT),
    }
    for name, rgb in C.COLOURS.items():  # the four mascots and the green multi cards
        out[name] = rgb
        out[f"ink-{name}"] = ink_on(rgb)
    out["yes"], out["ink-yes"] = C.TEXT, ink_on(C.TEXT)        # the YES stack: white as on the screen
    out["no"], out["ink-no"] = C.DIM_TEXT, ink_on(C.DIM_TEXT)  # the NO stack: grey
    return out


def palette_css() -> str:
    """The palette as one CSS rule: ``:root { --bg: #101420; ... }`` (one property a line)."""
    lines = [f"  --{name}: {hex_colour(rgb)};" for name, rgb in palette().items()]
    return ":root {\n" + "\n".join(lines) + "\n}\n"


MASCOT_FILLS = ("gobbler", "hurley", "dangle", "mum", "green", "yes", "no", "out")
"""The fills that carry a letter or words in their ``ink-`` colour (discs, stack tiles, swatches)."""

TEXT_PAIRS: tuple[tuple[str, str, float], ...] = (
    *((fg, bg, AA) for fg in ("text", "dim", "gold", "good", "bad") for bg in ("bg", "panel", "raised")),
    ("on-gold", "gold", AA), ("on-notice", "notice", AA), ("on-out", "out", AA),
    *((f"ink-{m}" if m != "out" else "on-out", m, AA) for m in MASCOT_FILLS if m != "out"),
)
"""Every ``(text, background, least ratio)`` the page draws, by palette name (see the module docstring)."""

__all__ = ["AA", "AA_LARGE", "MASCOT_FILLS", "TEXT_PAIRS", "contrast", "ink_on", "lifted", "luminance", "mix",
           "palette", "palette_css"]
