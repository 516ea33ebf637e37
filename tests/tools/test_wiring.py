"""`hotstreak wiring`: the wiring diagram drawn from the builder's own config names their pins and lanes, sizes
the supply for the strip at the brightness cap, and refuses a bad --out or --config in one line."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from conftest import hotstreak_in_process
from companion.kiosk.config import load_config, parse_config
from companion.rules.track import Track
from companion.tools.wiring_plan import LED_FULL_MA, LED_IDLE_MA, gauge_for, plan

SVG = "{http://www.w3.org/2000/svg}"

BUILDER = """\
[audio]
voice = false
effects = false
[buttons]
undo = 5
go = 6
[leds]
count = 190
pixels_per_space = 3
pin = 18
brightness = 0.5
lanes = [
  { first = 0, direction = 1 },
  { first = 44, direction = -1 },
  { first = 88, direction = 1 },
  { first = 132, direction = 1 },
]
"""


def texts(svg_file) -> list[str]:
    root = ET.parse(svg_file).getroot()
    assert root.tag == f"{SVG}svg"
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_the_diagram_parses_and_names_the_configured_pins_and_each_lanes_pixels(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text(BUILDER)
    out = tmp_path / "wiring.svg"
    result = hotstreak_in_process("wiring", "--config", str(config), "--out", str(out))
    assert result.returncode == 0, result.stderr
    words = " | ".join(texts(out))
    assert "pin 12  GPIO18" in words                       # the LED data pin, not the default GPIO10
    assert "pin 29  GPIO5" in words and "pin 31  GPIO6" in words   # the buttons of [buttons]
    assert "GPIO10" not in words and "GPIO17" not in words
    for lane, low, high, first, last in [(1, 0, 41, "0-2", "39-41"), (2, 44, 85, "83-85", "44-46"),
                                         (3, 88, 129, "88-90", "127-129"), (4, 132, 173, "132-134", "171-173")]:
        assert f"Lane {lane}" in words
        assert f"pixels {low}-{high}: space 1 at {first}, space 14 at {last}" in words
    assert "74AHCT125" in words and "330 ohm" in words and "1000 uF" in words
    assert "42-43, 86-87, 130-131" in words                # the dark pixels at the joins
    assert "wrote" in result.stdout and "GPIO18 (header pin 12)" in result.stdout


def test_the_default_table_is_drawn_without_a_config(tmp_path):
    out = tmp_path / "w.svg"
    result = hotstreak_in_process("wiring", "--out", str(out))
    assert result.returncode == 0, result.stderr
    words = " | ".join(texts(out))
    assert "pin 19  GPIO10" in words and "pin 11  GPIO17" in words and "pin 13  GPIO27" in words
    assert "pixels 28-55: space 1 at 54-55, space 14 at 28-29" in words   # lane 2 folded back


def test_the_supply_fuse_and_wire_follow_the_strip_at_its_brightness_cap():
    cfg = parse_config(BUILDER)
    p = plan(cfg, Track())
    assert p.amps == pytest.approx(190 * (LED_FULL_MA * 0.5 + LED_IDLE_MA) / 1000)   # 5.89 A
    assert p.fuse_amps >= 1.25 * p.amps and p.supply_amps >= p.fuse_amps
    assert (p.awg, p.mm2) == gauge_for(p.fuse_amps)
    brighter = plan(parse_config(BUILDER.replace("brightness = 0.5", "brightness = 1.0")), Track())
    assert brighter.supply_amps > p.supply_amps and brighter.awg < p.awg   # more current: thicker wire
    assert [s.lane for s in p.strips] == [1, 2, 3, 4] and [s.din_at_start for s in p.strips] == [True, False,
                                                                                                 True, True]


def test_a_lane_longer_than_sixty_pixels_takes_5_v_at_both_ends():
    cfg = parse_config("[leds]\ncount = 280\npixels_per_space = 5\nlanes = [\n"
                       + "".join(f"  {{ first = {k * 70}, direction = 1 }},\n" for k in range(4)) + "]\n")
    p = plan(cfg, Track())
    assert all(s.inject == ("space 1 end", "last space end") for s in p.strips)
    assert plan(load_config(None), Track()).strips[0].inject == ("space 1 end",)


@pytest.mark.parametrize("out, expected", [
    ("wiring.png", "does not end in .svg"),
    ("missing/wiring.svg", "does not exist"),
    ("", "--out is empty"),
])
def test_a_bad_out_is_refused_in_one_line_and_writes_nothing(tmp_path, monkeypatch, out, expected):
    monkeypatch.chdir(tmp_path)
    result = hotstreak_in_process("wiring", "--out", out)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and expected in result.stderr and "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_no_out_says_what_to_give():
    result = hotstreak_in_process("wiring")
    assert result.returncode == 2 and "--out F.svg" in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize("config, expected", [
    (None, "cannot read file"),
    ("[leds]\npin = 7\n", "leds.pin: 7 is not valid"),
    ("[leds]\ncount = 20\n", "leds.lanes[1].first: 28 is not valid"),
])
def test_a_bad_config_is_refused_in_one_line_naming_it(tmp_path, config, expected):
    path = tmp_path / "table.toml"
    if config is not None:
        path.write_text(config)
    out = tmp_path / "w.svg"
    result = hotstreak_in_process("wiring", "--config", str(path), "--out", str(out))
    assert result.returncode == 2, result.stdout
    assert result.stderr.count("\n") == 1 and expected in result.stderr
    assert not out.exists()


def test_every_pin_on_the_diagram_is_the_header_pin_of_its_gpio():
    """The BCM -> header map (a table in the code) against the Pi's pinout for the pins a table uses."""
    from companion.tools.wiring_plan import HEADER
    assert {10: 19, 12: 32, 18: 12, 21: 40, 17: 11, 27: 13, 5: 29, 6: 31, 22: 15, 23: 16}.items() <= HEADER.items()
    assert len(HEADER) == 28 and len(set(HEADER.values())) == 28
    assert {1, 2, 4, 6, 9, 14, 17, 20, 25, 30, 34, 39}.isdisjoint(HEADER.values())  # power and ground pins


def test_the_diagram_in_the_build_guide_is_the_commands_own_for_the_defaults(tmp_path, monkeypatch):
    """docs/wiring.svg is what `hotstreak wiring --out docs/wiring.svg` makes with no config (remake it so)."""
    from conftest import ROOT
    monkeypatch.delenv("HOTSTREAK_CONFIG", raising=False)
    out = tmp_path / "w.svg"
    assert hotstreak_in_process("wiring", "--out", str(out)).returncode == 0
    assert (ROOT / "docs" / "wiring.svg").read_text() == out.read_text()
    assert "(wiring.svg)" in (ROOT / "docs" / "build.md").read_text()


@pytest.mark.parametrize("name", ["companion.tools.wiring_plan", "companion.tools.wiring_svg"])
def test_the_docstring_examples_stay_true(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_a_supply_the_config_names_too_small_for_the_strip_is_said_on_the_diagram_and_the_terminal(tmp_path):
    """[leds] supply_amps below the strip's worst case at the brightness cap (what the LED test warns of)."""
    small = tmp_path / "small.toml"
    small.write_text(BUILDER)                                   # 190 pixels at 0.5: 5.9 A on the default 4 A
    big = tmp_path / "big.toml"
    big.write_text(BUILDER.replace("brightness = 0.5", "brightness = 0.5\nsupply_amps = 8"))
    for config, short in ((small, True), (big, False)):
        out = tmp_path / f"{config.stem}.svg"
        result = hotstreak_in_process("wiring", "--config", str(config), "--out", str(out))
        assert result.returncode == 0, result.stderr
        assert ("too small" in result.stdout) is short
        assert any("too small" in t for t in texts(out)) is short
        assert plan(parse_config(config.read_text()), Track()).supply_short is short
