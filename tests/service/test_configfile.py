"""Writing the calibration into the config: only [leds] lanes change, atomically, with a backup to restore."""

import os

import pytest

from companion.kiosk.config import DEFAULT_TOML, load_config, parse_config
from companion.service.calibrate import Lane
from companion.service.configfile import SaveError, backup_of, remove_new, restore, with_lanes, write_calibration

LANES = {1: Lane(0, 1, 3), 2: Lane(42, -1, 3), 3: Lane(90, 1, 2), 4: Lane(130, -1, 1)}


def test_the_calibration_replaces_only_the_lanes_and_keeps_every_other_line(tmp_path):
    path = tmp_path / "config.toml"
    text = DEFAULT_TOML.replace("count = 112", "count = 150")
    path.write_text(text)
    backup = write_calibration(path, LANES, check=lambda t: parse_config(t, str(path)))
    cfg = load_config(path)
    assert [(s.first, s.direction, s.per_space or cfg.pixels_per_space) for s in cfg.lanes] == [
        (0, 1, 3), (42, -1, 3), (90, 1, 2), (130, -1, 1)]
    assert cfg.led_count == 150 and cfg.source == path
    new = path.read_text().splitlines()
    gone = {line for line in text.splitlines() if line not in new}
    assert all(line.startswith(("pixels_per_space", "  { first", "lanes", "]")) for line in gone), gone
    assert backup == backup_of(path) and backup.read_text() == text
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
    restore(path)
    assert path.read_text() == text


def test_one_size_for_every_lane_is_written_once():
    text = with_lanes("", {1: Lane(0, 1, 2), 2: Lane(28, -1, 2)})
    assert "pixels_per_space = 2" in text and "per_space = 2 }" not in text


def test_a_config_without_leds_or_without_a_file_gets_one(tmp_path):
    path = tmp_path / "new" / "config.toml"
    assert write_calibration(path, {1: Lane(0, 1, 2)}) is None
    assert "[leds]" in path.read_text()


def test_no_old_file_means_no_backup_and_a_stale_one_is_removed(tmp_path):
    path = tmp_path / "config.toml"
    backup_of(path).write_text('language = "nl"\n')   # left by an earlier file that is gone now
    assert write_calibration(path, LANES) is None
    assert not backup_of(path).exists()
    with pytest.raises(SaveError, match="no backup to restore"):
        restore(path)                                   # the stale file can never be put back by mistake
    remove_new(path)                                    # UNDO of that save: the defaults again
    assert not path.exists()
    remove_new(path)                                    # already gone: nothing to do, no error


def test_a_refused_calibration_leaves_the_file_as_it_was(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(DEFAULT_TOML)
    with pytest.raises(SaveError, match=r"config.toml: the calibrated config is refused: .*leds.lanes\[1\]"):
        write_calibration(path, {1: Lane(0, 1, 2), 2: Lane(500, 1, 2), 3: Lane(60, 1, 2), 4: Lane(90, 1, 1)},
                          check=lambda t: parse_config(t, str(path)))
    assert path.read_text() == DEFAULT_TOML and not backup_of(path).exists()


def test_restore_without_a_backup_says_so(tmp_path):
    with pytest.raises(SaveError, match="no backup to restore"):
        restore(tmp_path / "config.toml")
