"""Every command's bad option value is refused in one line that names the option and what was expected, with
exit status 2, before anything is read or written."""

from __future__ import annotations

import pytest

from conftest import hotstreak_in_process

BAD = [  # (arguments, the option the line must name, a word of what was expected)
    (["odds", "--seed", "-5", "H+3"], "--seed -5", "0 or more"),
    (["odds", "--seed", "x", "H+3"], "--seed", "int"),
    (["odds", "--players", "13", "H+3"], "--players 13", "2..12"),
    (["odds", "--players", "1", "H+3"], "--players 1", "2..12"),
    (["odds", "--samples", "0", "H+3"], "--samples 0", "1..500000"),
    (["odds", "--samples", "many", "H+3"], "--samples", "int"),
    (["history", "--limit", "-3"], "--limit -3", "1 or more"),
    (["history", "--limit", "ten"], "--limit", "int"),
    (["demo", "--headless", "--speed", "-1"], "--speed -1", "positive"),
    (["demo", "--headless", "--speed", "inf"], "--speed inf", "positive"),
    (["demo", "--headless", "--speed", "fast"], "--speed", "float"),
    (["leds-off", "--hardware", "mock", "--led-count", "0"], "--led-count 0", "1..10000"),
    (["labels", "--codes", "--skip", "-4"], "--skip -4", "0..23"),
    (["labels", "--codes", "--skip", "two"], "--skip two", "0..23"),
    (["labels", "--paper", "a3"], "--paper", "a4"),
    (["labels", "--layout", "huge"], "--layout", "a4-3x8"),
    (["labels", "--symbology", "ean13"], "--symbology", "code128"),
    (["labels", "--only", "card"], "--only", "cards"),
    (["screenshot", "--screen", "race", "--size", "0x0", "--out", "x.png"], "--size '0x0'", "800x480"),
    (["screenshot", "--screen", "race", "--now", "-3", "--out", "x.png"], "--now", "0 to 3600"),
    (["simulate", "--pace", "0", "H+3"], "--pace", "above 0"),
    (["run", "--hardware", "mock", "--display", "none", "--web", "99999"], "--web '99999'", "0..65535"),
]


@pytest.mark.parametrize("args, option, expected", BAD, ids=[" ".join(a[:3]) for a, _, _ in BAD])
def test_a_bad_option_value_is_one_line_naming_the_option(args, option, expected, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HOTSTREAK_HARDWARE", raising=False)
    out = hotstreak_in_process(*args)
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith(f"hotstreak {args[0]}: ") and out.stderr.count("\n") == 1, out.stderr
    assert option in out.stderr and expected in out.stderr, out.stderr
    assert out.stdout == "" and list(tmp_path.iterdir()) == []


def test_labels_refuses_a_bad_paper_before_saying_there_is_nothing_to_do():
    out = hotstreak_in_process("labels", "--paper", "a3")
    assert (out.returncode, out.stderr) == (2, "hotstreak labels: --paper: unknown paper 'a3' (expected one of: "
                                               "a4, letter)\n")
