"""One default config file: every command reads it when no --config is given, and the LED calibration writes it.

The order (companion/kiosk/config_path.py): --config, $HOTSTREAK_CONFIG, the service's $CONFIGURATION_DIRECTORY,
the user's $XDG_CONFIG_HOME/hotstreak/config.toml when it exists, else the defaults.
"""

import tomllib
from pathlib import Path

import pytest

from companion.kiosk.config import DEFAULT_TOML, load_config
from companion.kiosk.config_path import config_location
from companion.kiosk.errors import ConfigError
from companion.kiosk.service_setup import config_target
from companion.service.calibrate import Lane
from companion.service.configfile import write_calibration
from conftest import hotstreak_in_process

LANES = {1: Lane(0, 1, 2), 2: Lane(28, 1, 2), 3: Lane(56, 1, 2), 4: Lane(84, 1, 2)}   # straight, not folded


def lanes_of(cfg) -> list[Lane]:
    return [Lane(s.first, s.direction, s.per_space or cfg.pixels_per_space) for s in cfg.lanes]


@pytest.fixture
def homes(tmp_path, monkeypatch):
    """A user's config folder and a service's config folder, both empty; no $HOTSTREAK_CONFIG."""
    user, service = tmp_path / "xdg", tmp_path / "etc-hotstreak"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(user))
    monkeypatch.delenv("HOTSTREAK_CONFIG", raising=False)
    monkeypatch.delenv("CONFIGURATION_DIRECTORY", raising=False)
    service.mkdir()
    return user / "hotstreak" / "config.toml", service


def test_the_order_is_given_file_then_env_then_service_then_user(tmp_path):
    env = {"HOTSTREAK_CONFIG": "/a.toml", "CONFIGURATION_DIRECTORY": "/etc/hotstreak", "XDG_CONFIG_HOME": "/x"}
    assert config_location("/given.toml", env) == config_location("/given.toml", {})
    assert (str(config_location(None, env).path), config_location(None, env).required) == ("/a.toml", True)
    del env["HOTSTREAK_CONFIG"]
    assert (str(config_location(None, env).path), config_location(None, env).why) == (
        "/etc/hotstreak/config.toml", "$CONFIGURATION_DIRECTORY")
    del env["CONFIGURATION_DIRECTORY"]
    assert str(config_location(None, env).path) == "/x/hotstreak/config.toml"
    assert str(config_location(None, {"HOME": "/home/ann"}).path) == "/home/ann/.config/hotstreak/config.toml"


def test_no_file_at_the_default_location_gives_the_defaults(homes):
    user, _ = homes
    cfg = load_config(None)
    assert cfg.source is None and cfg.led_count == 112
    assert config_location().said() == f"the defaults (no file at {user}, the user's config)"


def test_the_users_file_is_read_when_it_exists(homes):
    user, _ = homes
    user.parent.mkdir(parents=True)
    user.write_text('language = "nl"\n')
    cfg = load_config(None)
    assert cfg.language == "nl" and cfg.source == user


def test_the_services_folder_comes_before_the_users_file(homes, monkeypatch):
    user, service = homes
    user.parent.mkdir(parents=True)
    user.write_text('language = "nl"\n')
    monkeypatch.setenv("CONFIGURATION_DIRECTORY", str(service))
    assert load_config(None).language == "en"            # the service's folder has no file yet: the defaults
    (service / "config.toml").write_text('language = "es"\n')
    assert load_config(None).language == "es" and load_config(None).source == service / "config.toml"


def test_a_missing_file_named_by_the_environment_is_an_error_not_the_defaults(homes, monkeypatch, tmp_path):
    monkeypatch.setenv("HOTSTREAK_CONFIG", str(tmp_path / "nowhere.toml"))
    with pytest.raises(ConfigError, match="nowhere.toml: cannot read file"):
        load_config(None)


@pytest.mark.parametrize("service", [False, True], ids=["laptop", "pi-service"])
def test_a_calibration_saved_without_config_is_what_the_next_start_reads(homes, monkeypatch, service):
    user, folder = homes
    if service:
        monkeypatch.setenv("CONFIGURATION_DIRECTORY", str(folder))
    first = load_config(None)                            # the kiosk started with no --config and no file
    target = config_target(first)
    assert target == (folder / "config.toml" if service else user)
    write_calibration(target, LANES)                     # the service mode saves there
    again = load_config(None)                            # the next start, still without --config
    assert again.source == target and lanes_of(again) == list(LANES.values())
    shown = hotstreak_in_process("config")
    assert shown.returncode == 0, shown.stderr
    why = "$CONFIGURATION_DIRECTORY" if service else "the user's config"
    assert shown.stdout.splitlines()[0] == f"# read from {target} ({why})"
    assert tomllib.loads(shown.stdout)["leds"]["lanes"][1] == {"first": 28, "direction": 1}


def test_config_says_when_it_read_no_file(homes):
    user, _ = homes
    shown = hotstreak_in_process("config")
    assert shown.stdout.splitlines()[0] == f"# read from the defaults (no file at {user}, the user's config)"
    given = user.parent.parent.parent / "given.toml"
    given.write_text(DEFAULT_TOML)
    shown = hotstreak_in_process("config", "--config", str(given))
    assert shown.stdout.splitlines()[0] == f"# read from {given} (--config)"


def test_config_into_the_default_file_makes_a_config_every_command_then_reads(homes):
    user, _ = homes
    user.parent.mkdir(parents=True)
    user.write_text("")                                   # what `hotstreak config > FILE` does first
    shown = hotstreak_in_process("config")
    user.write_text(shown.stdout)
    assert load_config(None) == load_config(Path(user))


def test_wiring_without_config_reads_the_default_location(homes, tmp_path):
    user, _ = homes
    out = tmp_path / "wiring.svg"
    made = hotstreak_in_process("wiring", "--out", str(out))
    assert made.returncode == 0, made.stderr
    assert "from the default settings:" in out.read_text()
    user.parent.mkdir(parents=True)
    user.write_text("[buttons]\nundo = 22\n")
    made = hotstreak_in_process("wiring", "--out", str(out))
    assert made.returncode == 0, made.stderr
    assert f"from {user}:" in out.read_text() and "GPIO22" in made.stdout


def test_on_the_pi_a_builders_command_reads_the_tables_config_unless_they_have_their_own(homes, monkeypatch,
                                                                                         tmp_path):
    user, _ = homes
    system = tmp_path / "etc" / "config.toml"
    monkeypatch.setattr("companion.kiosk.config_path.SYSTEM", system)
    assert config_location().path == user                 # no table config either: the user's, for a calibration
    system.parent.mkdir()
    system.write_text('language = "es"\n')
    where = config_location()
    assert (where.path, where.why) == (system, "the table's config") and load_config(None).language == "es"
    user.parent.mkdir(parents=True)
    user.write_text('language = "nl"\n')
    assert load_config(None).language == "nl"


def test_a_default_folder_this_user_may_not_look_into_holds_no_config(monkeypatch):
    def refused(self):
        raise PermissionError(13, "Permission denied", str(self))
    monkeypatch.setattr(Path, "is_file", refused)
    where = config_location(None, {"XDG_CONFIG_HOME": "/locked"})
    assert where.to_read() is None and where.said().startswith("the defaults (no file at /locked/hotstreak")
