"""`hotstreak config`: the effective configuration as TOML, defaults included, that parses back to itself."""

from __future__ import annotations

import pytest
import tomllib
from importlib import resources

from companion.kiosk.config import DEFAULT_TOML, DUMP, config_toml, load_config, parse_config
from companion.rules import Mascot

CUSTOM = '''language = "es"
[paths]
journal = "/srv/hs/journal.db"
deck = "my \\"deck\\".toml"
[scanner]
repeat_window = 1.5
[leds]
brightness = 0.2
lanes = [{ first = 100, direction = -1 }, { first = 0, direction = 1 }, { first = 30, direction = 1 },
         { first = 60, direction = -1 }]
[colours]
mum = "#0011ff"
[audio]
voice = false
[players]
names = ["Ann", "Bo \\\\ \\"B\\""]
'''


def keys(data: dict, prefix: str = "") -> set[str]:
    out = set()
    for k, v in data.items():
        out |= keys(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
    return out


@pytest.mark.slow
def test_defaults_print_back_to_the_same_config(run_cli, monkeypatch, tmp_path):
    env = {"HOME": str(tmp_path), "XDG_STATE_HOME": "", "XDG_CACHE_HOME": ""}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("HOTSTREAK_CONFIG", raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("CACHE_DIRECTORY", raising=False)
    result = run_cli("config")
    assert result.returncode == 0, result.stderr
    assert parse_config(result.stdout) == load_config(None)
    data = tomllib.loads(result.stdout)
    assert data["colours"] == {"gobbler": "#ff9c1f", "hurley": "#f1454c", "dangle": "#8a49e8", "mum": "#54b1ff"}
    assert data["paths"]["journal"] == str(tmp_path / ".local" / "state" / "hotstreak" / "journal.db")


@pytest.mark.slow
def test_a_file_prints_its_values_and_the_defaults_it_leaves_out(run_cli, tmp_path):
    deck = tmp_path / 'my "deck".toml'  # the deck file it names exists: `config` checks it as `run` does
    deck.write_text(resources.files("companion.rules").joinpath("data", "deck.toml").read_text("utf-8"))
    text = CUSTOM.replace('deck = "my \\"deck\\".toml"', f'deck = "{str(tmp_path)}/my \\"deck\\".toml"')
    path = tmp_path / "hotstreak.toml"
    path.write_text(text)
    result = run_cli("config", "--config", str(path))
    assert result.returncode == 0, result.stderr
    cfg = parse_config(text)
    assert parse_config(result.stdout) == cfg
    data = tomllib.loads(result.stdout)
    assert data["language"] == "es" and data["colours"]["mum"] == "#0011ff" and data["audio"]["voice"] is False
    assert data["paths"]["deck"] == str(deck) and data["scanner"]["baud"] == 9600  # a default
    assert data["leds"]["lanes"][0] == {"first": 100, "direction": -1}
    assert data["players"]["names"] == ["Ann", 'Bo \\ "B"']
    assert cfg.colours[Mascot.MUM] == (0, 0x11, 0xFF)


def test_every_setting_of_the_reference_is_printed():
    reference = keys(tomllib.loads(DEFAULT_TOML))
    dumped = {path for path, _ in DUMP}
    assert reference - dumped == set(), "add a DUMP line in companion/kiosk/config.py for each new setting"
    assert keys(tomllib.loads(config_toml(parse_config(DEFAULT_TOML)))) == reference


@pytest.mark.slow
def test_a_bad_file_is_one_line_and_exit_2(run_cli, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[leds]\nbrightness = "max"\n')
    result = run_cli("config", "--config", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"hotstreak config: {path}: leds.brightness: 'max' is not valid (expected 0..1)"]


@pytest.mark.slow
def test_a_missing_track_or_deck_file_is_refused_by_config_as_by_run(run_cli, tmp_path):
    for key in ("track", "deck"):
        path = tmp_path / f"{key}.toml"
        path.write_text(f'[paths]\n{key} = "{tmp_path}/no-{key}.toml"\n')
        expected = f"{tmp_path}/no-{key}.toml: cannot read file: No such file or directory"
        shown = run_cli("config", "--config", str(path))
        assert (shown.returncode, shown.stdout, shown.stderr) == (2, "", f"hotstreak config: {expected}\n")
        ran = run_cli("run", "--config", str(path), "--hardware", "mock", "--display", "none", "--audio", "none",
                      "--web", "off", "--db", str(tmp_path / "j.db"), stdin="")
        assert (ran.returncode, ran.stderr) == (2, f"hotstreak run: {expected}\n")
