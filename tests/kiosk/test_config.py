"""The kiosk config: defaults without a file, every problem listed with its key path."""

import pytest

from companion.kiosk.config import DEFAULT_TOML, load_config, parse_config
from companion.kiosk.errors import ConfigError
from companion.rules import Mascot


def test_no_file_gives_defaults(monkeypatch):
    monkeypatch.delenv("HOTSTREAK_CONFIG", raising=False)
    cfg = load_config()
    assert cfg.hardware == "auto" and cfg.baud == 9600 and cfg.buttons == {"undo": 17, "go": 27}
    assert len(cfg.lanes) == 4 and cfg.colours[Mascot.HURLEY] == (0xF1, 0x45, 0x4C)


def test_default_toml_is_itself_a_valid_config():
    assert parse_config(DEFAULT_TOML).led_count == 112


def test_lane_map_dict_has_one_segment_per_lane():
    from companion.lights.lanemap import LaneMap
    data = parse_config(DEFAULT_TOML).lane_map_dict()
    assert data["lane"]["2"] == {"segment": 0, "first": 28, "per_space": 2, "direction": -1}
    lane_map = LaneMap.from_dict(data)
    assert lane_map.count == 112
    assert lane_map.pixels_for(2, 1) == [55, 54] or sorted(lane_map.pixels_for(2, 1)) == [54, 55]


def test_every_problem_is_listed_with_its_key_path():
    text = ('hardware = "cloud"\nvolume = 3\n[scanner]\nbaud = 1234\n[leds]\nbrightness = 2.0\n'
            'lanes = [{ first = 0, direction = 2 }]\n[colours]\nmum = "purple"\n')
    with pytest.raises(ConfigError) as info:
        parse_config(text, "my.toml")
    problems = info.value.problems
    for key in ("hardware:", "volume:", "scanner.baud:", "leds.brightness:", "leds.lanes[0].direction:",
                "colours.mum:", "leds.lanes:"):
        assert any(p.startswith(key) for p in problems), key
    assert str(info.value).startswith("my.toml: ")


def test_unreadable_file_is_one_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_paths_expand_and_default_to_the_state_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    assert parse_config("").journal == tmp_path / "journal.db"
    assert parse_config(f'[paths]\njournal = "{tmp_path}/x.db"\n').journal == tmp_path / "x.db"


def test_two_buttons_on_one_pin_is_a_problem():
    with pytest.raises(ConfigError, match="GPIO17"):
        parse_config("[buttons]\nundo = 17\ngo = 17\n")


@pytest.mark.slow
def test_hotstreak_config_shows_the_environments_hardware(run_cli):
    result = run_cli("config", env={"HOTSTREAK_HARDWARE": "mock"})
    settings = [line for line in result.stdout.splitlines() if not line.startswith("#")]  # first: which file
    assert result.returncode == 0 and settings[0] == 'hardware = "mock"'
    bad = run_cli("config", env={"HOTSTREAK_HARDWARE": "toaster"})
    assert bad.returncode == 2 and "HOTSTREAK_HARDWARE='toaster'" in bad.stderr


@pytest.mark.parametrize("text, problem", [
    ("[display]\nwidth = 100000\n", "display.width: 100000 is not valid (expected 0 or a width in pixels up to 7680)"),
    ("[display]\nheight = -1\n", "display.height: -1 is not valid (expected 0 or a height in pixels up to 7680)"),
    ("[leds]\ncount = 10001\n", "leds.count: 10001 is not valid (expected 1..10000)"),
])
def test_sizes_that_allocate_are_bounded(text, problem):
    with pytest.raises(ConfigError) as info:
        parse_config(text, "my.toml")
    assert problem in info.value.problems


def test_a_file_that_is_not_utf8_is_named_in_the_error(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('language = "en"  # café\n'.encode("latin-1"))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == (f"{path}: not UTF-8 text: byte 0xe9 at offset 22 "
                               "(expected a TOML file saved as UTF-8)")


@pytest.mark.parametrize("names, problem", [
    ('["Ann", "' + "x" * 17 + '"]', "players.names[1]: '" + "x" * 17 + "' is not valid: a name is 0-16 printable "
                                    "characters (got 17)"),
    ('["Ann", "Bo\\u0007b"]', "players.names[1]: 'Bo\\x07b' is not valid: a name is 0-16 printable characters "
                              "(got '\\x07')"),
    ('["HS-GO"]', "players.names[0]: 'HS-GO' is not valid: 'HS-GO' reads as a scan code (expected a name, not a "
                  "code)"),
    ('["Ann", 3]', "players.names[1]: 3 is not valid (expected a name in quotes)"),
    ('[' + ', '.join(['"A"'] * 13) + ']', "players.names: " + repr(["A"] * 13) + " is not valid (expected a list "
                                                                             "of at most 12 names, one a seat)"),
])
def test_a_bad_player_name_is_named_with_the_reason(names, problem):
    with pytest.raises(ConfigError) as info:
        parse_config(f"[players]\nnames = {names}\n", "my.toml")
    assert info.value.problems == [problem]


def test_player_names_fold_their_spaces():
    assert parse_config('[players]\nnames = ["  Ann   Marie ", ""]\n').names == ("Ann Marie", "")
