"""The settings table (companion/kiosk/settings.py): each setting declared once, everything else made from it."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from companion.kiosk.config import DEFAULT_TOML, DUMP, Config, ConfigError, config_toml, parse_config
from companion.kiosk.config_reference import main, with_reference
from companion.kiosk.settings import SETTINGS, Setting, default_toml, toml_value

ROOT = Path(__file__).resolve().parents[2]


def test_docs_config_md_holds_the_reference_made_from_the_table():
    text = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    assert with_reference(text) == text, "run: python -m companion.kiosk.config_reference docs/config.md"
    for setting in SETTINGS:
        assert f"| `{setting.path}` |" in text


def test_the_regenerating_command_rewrites_a_stale_reference_and_names_a_file_without_one(tmp_path, capsys):
    stale = tmp_path / "config.md"
    stale.write_text("# Configuration\n\n<!-- settings: begin -->\nstale words\n<!-- settings: end -->\n\nafter\n")
    assert main([str(stale)]) == 0
    text = stale.read_text()
    assert "stale words" not in text and text.endswith("\n\nafter\n") and "| `leds.brightness` | number | `0.35` |" in text
    plain = tmp_path / "plain.md"
    plain.write_text("no markers\n")
    assert main([str(plain)]) == 1
    assert plain.read_text() == "no markers\n"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{plain}: no <!-- settings: begin -->")


def test_default_toml_is_the_table_at_its_defaults():
    assert DEFAULT_TOML == default_toml()
    data = tomllib.loads(DEFAULT_TOML)
    for setting in SETTINGS:
        node = data
        for part in setting.path.split("."):
            node = node[part]
        assert node == setting.default, setting.path
        if setting.doc:
            assert f"# {setting.doc.splitlines()[0]}" in DEFAULT_TOML


def test_every_config_attribute_is_filled_by_the_table():
    filled = {s.attribute for s in SETTINGS}
    fields = {f.name for f in dataclasses.fields(Config)} - {"source"}
    assert filled == fields
    assert [path for path, _ in DUMP] == [s.path for s in SETTINGS]
    assert len({s.path for s in SETTINGS}) == len(SETTINGS)


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.path)
def test_a_value_of_the_wrong_type_is_one_problem_naming_the_key_and_what_was_expected(setting: Setting):
    section, _, key = setting.path.rpartition(".")
    text = f"[{section}]\n{key} = {{ x = 1 }}\n" if section else f"{key} = {{ x = 1 }}\n"
    with pytest.raises(ConfigError) as info:
        parse_config(text, "bad.toml")
    kinds = setting.kind if isinstance(setting.kind, tuple) else (setting.kind,)
    expected = setting.expected if setting.read is None or setting.check else ""  # lanes: its reader's list
    expected = expected or " or ".join(k.__name__ for k in kinds)
    assert info.value.problems == [f"{setting.path}: {{'x': 1}} is not valid (expected {expected})"]


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.check is not None], ids=lambda s: s.path)
def test_a_checked_setting_refuses_a_value_of_its_type_that_its_check_refuses(setting: Setting):
    probes = {str: ["", "\u00a0 /bad value"], int: [-99999], list: [["", 1] * 13]}
    kinds = setting.kind if isinstance(setting.kind, tuple) else (setting.kind,)
    check = setting.check
    assert check is not None
    value = next(v for v in probes[int if int in kinds else kinds[-1]] if not check(v))
    section, _, key = setting.path.rpartition(".")
    body = f"{key} = {toml_value(value)}\n"
    with pytest.raises(ConfigError) as info:
        parse_config(f"[{section}]\n{body}" if section else body, "bad.toml")
    assert info.value.problems[0] == f"{setting.path}: {value!r} is not valid (expected {setting.expected})"


def test_the_dump_gives_each_setting_back():
    cfg = parse_config('[leds]\nbrightness = 0.2\n[buttons]\ngo = 22\n[web]\nhosts = ["a.lan"]\n')
    data = tomllib.loads(config_toml(cfg))
    assert data["leds"]["brightness"] == 0.2 and data["buttons"]["go"] == 22 and data["web"]["hosts"] == ["a.lan"]
    assert parse_config(config_toml(cfg)) == cfg
