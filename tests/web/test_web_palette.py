"""The phone page's colours: the screen's palette, every text on its background at WCAG AA, and the mascots apart
under colour-vision deficiency as on the screen (tests/lights/test_colours.py's check)."""

from __future__ import annotations

import itertools
import re
from importlib import resources

import numpy as np
import pytest

from companion import colours as C
from companion.colours import hex_colour, use_colours
from companion.rules.mascots import MASCOTS
from companion.web.palette import AA, TEXT_PAIRS, contrast, ink_on, lifted, palette, palette_css

pytest.importorskip("colorspacious")
from tests.lights.test_colours import DEFICIENCIES, MIN_DELTA_E, lab_under  # noqa: E402 - the screen's own check

STYLE = resources.files("companion.web").joinpath("static", "style.css").read_text()
PAGE = resources.files("companion.web").joinpath("static", "index.html").read_text()
SURFACES = ("bg", "panel", "raised")  # what the page's text sits on unless a rule sets its own background


def css_rules(css: str) -> list[tuple[str, dict[str, str]]]:
    """``[(selector, {property: value})]`` of a flat style sheet (comments and @keyframes left out)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"@keyframes[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", css)
    rules = []
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        props = dict((k.strip(), v.strip()) for k, _, v in (d.partition(":") for d in body.split(";")) if v.strip())
        rules.append((selector.strip(), props))
    return rules


def var_name(value: str) -> str | None:
    match = re.fullmatch(r"var\(--([a-z-]+)\)", value.strip())
    return match.group(1) if match else None


def test_contrast_ratio_matches_the_wcag_examples():
    assert contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)  # the lightest AA grey
    assert contrast((10, 20, 30), (10, 20, 30)) == 1.0


@pytest.mark.parametrize("fg,bg,least", TEXT_PAIRS, ids=[f"{f}-on-{b}" for f, b, _ in TEXT_PAIRS])
def test_every_text_and_background_pair_of_the_page_reaches_aa(fg, bg, least):
    p = palette()
    assert contrast(p[fg], p[bg]) >= least, f"{fg} on {bg}: {contrast(p[fg], p[bg]):.2f}:1 (expected {least}:1)"


def test_the_old_phone_colours_fail_the_check():  # the check can fail: the old page's 3rd-place odds
    assert contrast((0xe6, 0x2e, 0x3a), (0x11, 0x11, 0x11)) < AA  # #111 text on the old Hurley bar


def test_the_palette_is_the_screens():
    p = palette()
    for name in ("bg", "panel", "text", "dim", "gold", "track", "track-alt", "folded", "star", "finish", "out-mark"):
        assert p[name] in (C.BACKGROUND, C.PANEL, C.TEXT, C.DIM_TEXT, C.GOLD, C.TRACK, C.TRACK_ALT, C.FOLDED, C.STAR,
                           C.FINISH, C.OUT_MARK)
    for m in MASCOTS:
        assert p[m.value] == C.colour(m.value)
    assert f"--gobbler: {hex_colour(C.colour('gobbler'))};" in palette_css()
    assert f'<meta name="theme-color" content="{hex_colour(C.BACKGROUND)}">' in PAGE


def test_the_configs_mascot_colours_reach_the_phone_with_a_readable_ink():
    try:
        use_colours({"mum": (20, 20, 120)})  # a dark blue: its letter turns light
        assert palette()["mum"] == (20, 20, 120)
        assert contrast(palette()["ink-mum"], (20, 20, 120)) >= AA
    finally:
        use_colours({})
    assert palette()["mum"] == C.DEFAULT_COLOURS["mum"]


def test_lifted_and_ink_on_reach_aa():
    red = lifted(C.OUT_MARK, (C.PANEL,))
    assert contrast(C.OUT_MARK, C.PANEL) < AA <= contrast(red, C.PANEL)
    assert lifted(C.TEXT, (C.PANEL,)) == C.TEXT  # already readable: unchanged
    for fill in [*C.COLOURS.values(), C.GOLD, C.MESSAGE, (0, 0, 0), (255, 255, 255), (128, 128, 128)]:
        assert contrast(ink_on(fill), fill) >= AA


def test_the_style_sheet_names_colours_only_from_the_palette():
    names = set(palette())
    body = re.sub(r"/\*.*?\*/", "", STYLE, flags=re.S)
    used = set(re.findall(r"var\(--([a-z-]+)\)", body))
    assert used and used <= names, f"not in the palette: {sorted(used - names)}"
    assert not re.findall(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(|\bopacity\b", body)
    for selector, props in css_rules(STYLE):
        for prop in ("color", "background", "background-color", "fill", "stroke", "border", "outline"):
            if prop in props and props[prop] not in ("none", "inherit", "0"):
                assert "var(--" in props[prop], f"{selector} {{ {prop}: {props[prop]} }}"


def test_every_text_colour_of_the_style_sheet_reads_on_its_background():
    p = palette()
    checked = 0
    for selector, props in css_rules(STYLE):
        fg = var_name(props.get("color", ""))
        if fg is None:
            continue
        own = var_name(props.get("background", props.get("background-color", "")))
        for bg in (own,) if own else SURFACES:
            checked += 1
            assert contrast(p[fg], p[bg]) >= AA, f"{selector}: {fg} on {bg} is {contrast(p[fg], p[bg]):.2f}:1"
    assert checked > 20


def test_every_letter_on_a_disc_reads_on_its_fill():
    p = palette()
    rules = dict(css_rules(STYLE))
    for m in MASCOTS:
        fill, ink = var_name(rules[f".f-{m.value}"]["fill"]), var_name(rules[f".ink-{m.value}"]["fill"])
        assert (fill, ink) == (m.value, f"ink-{m.value}")
        assert contrast(p[ink], p[fill]) >= AA


@pytest.mark.parametrize("deficiency", [*DEFICIENCIES, "normal vision"])
@pytest.mark.parametrize("a,b", list(itertools.combinations([m.value for m in MASCOTS], 2)))
def test_the_phones_mascot_colours_are_delta_e_20_apart(deficiency, a, b):
    p = palette()
    cvd = DEFICIENCIES.get(deficiency)
    delta_e = float(np.linalg.norm(lab_under(p[a], cvd) - lab_under(p[b], cvd)))
    assert delta_e >= MIN_DELTA_E, f"{a} and {b} under {deficiency}: Delta E {delta_e:.1f}"


def test_the_old_phone_palette_fails_the_distinctness_check():  # Dangle and Mum of the old page: Delta E 6.2
    delta_e = np.linalg.norm(lab_under((0xa0, 0x5a, 0xeb), "deuteranomaly") - lab_under((0x28, 0x96, 0xff), "deuteranomaly"))
    assert delta_e < MIN_DELTA_E
