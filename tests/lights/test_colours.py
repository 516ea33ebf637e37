"""The mascot palette: every pair far apart for people with colour-vision deficiency.

Simulation: Machado, Oliveira & Fernandes (2009), "A physiologically-based model for simulation of color
vision deficiency", IEEE TVCG 15(6), at full severity, as implemented by colorspacious (``sRGB1+CVD``);
distance: CIE76 Delta E in CIELab (D65).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from companion.colours import COLOURS, colour, hex_colour
from companion.kiosk.config import load_config
from companion.lights.render import DEFAULT_COLOURS
from companion.rules.mascots import MASCOTS

colorspacious = pytest.importorskip("colorspacious")

MIN_DELTA_E = 20.0
DEFICIENCIES = {"deuteranopia": "deuteranomaly", "protanopia": "protanomaly", "tritanopia": "tritanomaly"}


def lab_under(rgb: tuple[int, int, int], cvd_type: str | None) -> np.ndarray:
    srgb = np.array(rgb, dtype=float) / 255.0
    if cvd_type is not None:
        space = {"name": "sRGB1+CVD", "cvd_type": cvd_type, "severity": 100}
        srgb = np.clip(colorspacious.cspace_convert(srgb, space, "sRGB1"), 0.0, 1.0)
    return colorspacious.cspace_convert(srgb, "sRGB1", "CIELab")


def pairs():
    return list(itertools.combinations([m.value for m in MASCOTS], 2))


@pytest.mark.parametrize("deficiency", [*DEFICIENCIES, "normal vision"])
@pytest.mark.parametrize("a,b", pairs())
def test_every_pair_of_mascot_colours_is_at_least_delta_e_20(deficiency, a, b):
    cvd = DEFICIENCIES.get(deficiency)
    delta_e = float(np.linalg.norm(lab_under(COLOURS[a], cvd) - lab_under(COLOURS[b], cvd)))
    assert delta_e >= MIN_DELTA_E, f"{a} and {b} under {deficiency}: Delta E {delta_e:.1f}"


def test_the_closest_pair_under_any_vision_is_printed_and_far_enough():
    """The figure docs/bench.md quotes: ``python -m pytest -q -s tests/lights/test_colours.py -k closest``."""
    found = min((float(np.linalg.norm(lab_under(COLOURS[a], cvd) - lab_under(COLOURS[b], cvd))), a, b, name)
                for name, cvd in [*DEFICIENCIES.items(), ("normal vision", None)] for a, b in pairs())
    print(f"closest pair: {found[1]} and {found[2]} under {found[3]}, Delta E {found[0]:.1f}")
    assert found[0] >= MIN_DELTA_E


def test_the_old_palette_fails_the_check():  # the check can fail: Dangle and Mum of the old palette
    cvd = DEFICIENCIES["deuteranopia"]
    assert np.linalg.norm(lab_under((160, 90, 235), cvd) - lab_under((40, 150, 255), cvd)) < MIN_DELTA_E


def test_mascots_keep_their_character():
    lch = {m.value: colorspacious.cspace_convert(np.array(COLOURS[m.value]) / 255, "sRGB1", "CIELCh")
           for m in MASCOTS}
    hue = {name: h for name, (_, _, h) in lch.items()}
    assert 40 <= hue["gobbler"] <= 80      # orange
    assert 15 <= hue["hurley"] < 40        # red
    assert 280 <= hue["dangle"] <= 320     # purple
    assert 240 <= hue["mum"] < 280         # blue
    assert all(chroma > 40 for _, chroma, _ in lch.values())


def test_one_table_for_screen_leds_and_config_defaults():
    cfg = load_config(None)
    for m in MASCOTS:
        assert DEFAULT_COLOURS[m] == COLOURS[m.value] == colour(m.value) == cfg.colours[m]


def test_hex_colour_and_bad_values():
    assert hex_colour((255, 156, 31)) == "#ff9c1f"
    with pytest.raises(ValueError, match=r"colour \(1, 2\) is not valid"):
        hex_colour((1, 2))
    with pytest.raises(ValueError, match="no colour for 'pink'"):
        colour("pink")


def test_the_configs_colours_reach_the_screen_too(tmp_path):
    from companion.colours import DEFAULT_COLOURS as DEFAULTS
    from companion.kiosk.config import DEFAULT_TOML, parse_config
    from companion.kiosk.wiring import build
    text = "\n".join('mum = "#00ffff"' if line.startswith("mum ") else line for line in DEFAULT_TOML.splitlines())
    assert '"#00ffff"' in text
    try:
        kiosk = build(parse_config(text), mode="mock", db=tmp_path / "j.db", display="none", audio="none")
        kiosk.close()
        assert colour("mum") == (0, 255, 255)            # what the screen draws with
        assert colour("hurley") == DEFAULTS["hurley"]     # the rest keep their defaults
    finally:
        from companion.colours import use_colours
        use_colours({})
    assert colour("mum") == DEFAULTS["mum"]
