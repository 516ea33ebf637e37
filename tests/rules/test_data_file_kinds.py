"""Config and rule-data paths must be regular files under 1 MB, refused in one line otherwise: a symlink to
/dev/zero, a FIFO (without hanging), a folder, a 48 MB file."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from companion.kiosk.config import load_config
from companion.kiosk.errors import ConfigError
from companion.rules import load_deck, load_track
from companion.rules.datafile import MAX_FILE_BYTES, NotADataFile, read_data_text
from companion.rules.errors import DataFileError
from conftest import ROOT, hotstreak_in_process


def not_a_file(tmp_path, kind: str):
    """A path of ``kind`` and the words its refusal must say."""
    path = tmp_path / f"{kind}.toml"
    if kind == "zero":
        path.symlink_to("/dev/zero")
        return path, "a character device, not a regular file (expected a TOML file)"
    if kind == "fifo":
        os.mkfifo(path)
        return path, "a named pipe (FIFO), not a regular file (expected a TOML file)"
    if kind == "folder":
        path.mkdir()
        return path, "a folder, not a regular file (expected a TOML file)"
    with open(path, "wb") as f:  # 48 MB, sparse: nothing is written but its size
        f.truncate(48_000_000)
    return path, "too large: 48 MB (expected a TOML file of at most 1 MB)"


KINDS = ["zero", "fifo", "folder", "big"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("load", [load_track, load_deck], ids=["track", "deck"])
def test_rule_data_that_is_not_a_small_regular_file_is_one_problem(tmp_path, kind, load):
    path, words = not_a_file(tmp_path, kind)
    with pytest.raises(DataFileError) as err:
        load(path)
    assert str(err.value) == f"{path}: {words}"


@pytest.mark.parametrize("kind", KINDS)
def test_a_config_that_is_not_a_small_regular_file_is_one_problem(tmp_path, kind):
    path, words = not_a_file(tmp_path, kind)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value) == f"{path}: {words}"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("args", [["config", "--config"], ["simulate", "H+3", "--track"], ["odds", "H+3", "--deck"],
                                  ["settle", "--tickets"]], ids=lambda a: a[0])
def test_each_command_refuses_it_in_one_line(tmp_path, kind, args):
    path, words = not_a_file(tmp_path, kind)
    out = hotstreak_in_process(*args, str(path), stdin="{}")
    assert (out.returncode, out.stderr) == (2, f"hotstreak {args[0]}: {path}: {words}\n")


@pytest.mark.slow
@pytest.mark.parametrize("option", ["--config", "--track", "--deck"])
def test_run_given_a_fifo_exits_at_once_with_one_line(tmp_path, option):
    path, words = not_a_file(tmp_path, "fifo")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("HOTSTREAK_HARDWARE", None)
    out = subprocess.run([sys.executable, "-m", "companion", "run", "--hardware", "mock", "--display", "none",
                          "--audio", "none", "--web", "off", "--db", str(tmp_path / "j.db"), option, str(path)],
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert (out.returncode, out.stderr) == (2, f"hotstreak run: {path}: {words}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.toml"]  # no journal, no lock


def test_a_file_at_the_cap_is_read_and_one_byte_more_is_refused(tmp_path):
    path = tmp_path / "track.toml"
    path.write_text("#" * MAX_FILE_BYTES)
    assert len(read_data_text(path)) == MAX_FILE_BYTES
    path.write_text("#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(NotADataFile, match="too large"):
        read_data_text(path)


def test_a_symlink_to_a_regular_file_is_fine(tmp_path):
    real = tmp_path / "real.toml"
    real.write_text('hardware = "mock"\n')
    (tmp_path / "link.toml").symlink_to(real)
    assert load_config(tmp_path / "link.toml").hardware == "mock"
