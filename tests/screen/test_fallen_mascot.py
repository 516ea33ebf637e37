"""A fallen mascot on the track reads for every colour vision: its letter stays upright and as large as a
standing one's, it carries a fallen mark, and its edge keeps at least 3:1 contrast (WCAG) against every track
colour under simulated deuteranopia, protanopia and tritanopia (Machado, Oliveira & Fernandes 2009 at full
severity, as colorspacious implements it), measured on the drawn pixels."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest

pygame = pytest.importorskip("pygame")
np = pytest.importorskip("numpy")
colorspacious = pytest.importorskip("colorspacious")

from companion import colours as C
from companion.screen.widgets import shade

MASCOTS = ("gobbler", "hurley", "dangle", "mum")
VISIONS = ("deuteranomaly", "protanomaly", "tritanomaly")
TRACKS = (C.TRACK, C.TRACK_ALT, shade(C.TRACK, 1.18), shade(C.TRACK_ALT, 1.18))   # the final stretch is lighter


def seen(rgb: tuple[int, int, int], vision: str | None) -> np.ndarray:
    """``rgb`` (0-255) as sRGB 0-1 seen with ``vision`` (None: typical colour vision)."""
    x = np.array(rgb, dtype=float) / 255
    if vision is None:
        return x
    space = {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}
    return np.clip(colorspacious.cspace_convert(x, space, "sRGB1"), 0.0, 1.0)


def contrast(a: np.ndarray, b: np.ndarray) -> float:
    """The WCAG 2 contrast ratio of two sRGB 0-1 colours (1 .. 21)."""
    def lum(c: np.ndarray) -> float:
        lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2])
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def draw(name: str, fallen: bool, track: tuple[int, int, int], r: int = 19):
    """One mascot drawn on a patch of ``track`` colour (the panel's lone figure): (surface, its letter box)."""
    from companion.screen.widgets import Widgets
    surf = pygame.Surface((120, 120))
    surf.fill(track)
    painter = Widgets(surf)
    painter.boxes = []
    painter.mascot(name, 60, 60, r, fallen=fallen, letter_cap=20)
    (letter,) = [b for b in painter.boxes if b.role == "letter"]
    return surf, letter


def test_the_contrast_measure_knows_black_on_white_and_a_colour_on_itself():
    assert contrast(seen((0, 0, 0), None), seen((255, 255, 255), None)) == pytest.approx(21, rel=1e-3)
    assert contrast(seen(C.TRACK, "protanomaly"), seen(C.TRACK, "protanomaly")) == 1.0


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("name", MASCOTS)
def test_a_fallen_mascots_edge_keeps_3_to_1_against_every_track_colour(name, vision):
    """The ring just inside the figure's outline, read from the drawn pixels, against the track around it."""
    for track in TRACKS:
        surf, _ = draw(name, True, track)
        edge = tuple(surf.get_at((60, 60 - 19 - 1)))[:3]   # the top of the edge round the disc
        assert edge != track
        assert contrast(seen(edge, vision), seen(track, vision)) >= 3.0, (name, vision, track, edge)


@pytest.mark.parametrize("vision", (None, *VISIONS))
@pytest.mark.parametrize("name", MASCOTS)
def test_a_fallen_mascots_letter_keeps_3_to_1_against_its_body(name, vision):
    surf, letter = draw(name, True, C.TRACK)
    x, y, w, h = letter.rect
    pixels = {tuple(surf.get_at((i, j)))[:3] for i in range(x, x + w) for j in range(y, y + h)}
    body, ink = C.colour(name), C.BACKGROUND
    assert body in pixels and ink in pixels   # the letter, drawn in the dark ink on the body
    assert contrast(seen(ink, vision), seen(body, vision)) >= 3.0


def test_the_letter_stays_upright_and_as_large_when_the_mascot_falls():
    _, standing = draw("hurley", False, C.TRACK)
    surf_fallen, fallen = draw("hurley", True, C.TRACK)
    assert fallen.rect[2:] == standing.rect[2:] and fallen.cap == standing.cap >= 20


def test_a_fallen_mascot_carries_a_mark_a_standing_one_does_not():
    """The fallen mark, a light disc with a dark arrow at the figure's back foot (lower left, facing ahead)."""
    standing, _ = draw("mum", False, C.TRACK)
    fallen, _ = draw("mum", True, C.TRACK)
    from companion.screen.widgets import MARK_AT
    foot = (60 - int(19 * MARK_AT), 60 + int(19 * MARK_AT))
    lit = [tuple(fallen.get_at((foot[0] + dx, foot[1] + dy)))[:3] for dx in (-5, 5) for dy in (-5, 0, 5)]
    assert sum(p == C.TEXT for p in lit) >= 2 and tuple(fallen.get_at(foot))[:3] == C.BACKGROUND
    assert tuple(standing.get_at(foot))[:3] != C.BACKGROUND
