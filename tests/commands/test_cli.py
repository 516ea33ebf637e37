"""The ``hotstreak`` command line as a real process: version, a closed pipe, and refused sizes and paths."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys

import pytest

from conftest import ROOT, hotstreak


@pytest.mark.slow
def test_version_prints_the_installed_version_and_exits_0():
    out = hotstreak("--version")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"hotstreak {importlib.metadata.version('hotstreak-companion')}"


@pytest.mark.slow
def test_output_into_a_closed_pipe_exits_0_without_a_message():
    read_end, write_end = os.pipe()
    os.close(read_end)  # no reader at all: the first write fails with a broken pipe, whatever the timing
    try:
        proc = subprocess.run([sys.executable, "-m", "companion", "simulate", "--json", "H+3", "G+2", "D-1"],
                              stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=60,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
    finally:
        os.close(write_end)
    assert (proc.returncode, proc.stderr) == (0, "")


@pytest.mark.slow
@pytest.mark.parametrize("samples", ["0", "500001", "100000000"])
def test_odds_samples_out_of_range_is_refused_before_any_work(samples):
    out = hotstreak("odds", "--samples", samples, "--json")
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr == f"hotstreak odds: --samples {samples} is out of range (expected 1..500000)\n"


@pytest.mark.slow
def test_run_with_a_db_in_a_missing_folder_says_so_and_creates_nothing(tmp_path):
    missing = tmp_path / "no-such-folder" / "deeper"
    out = hotstreak("run", "--hardware", "mock", "--display", "none", "--audio", "none", "--web", "off",
                    "--db", str(missing / "j.db"), stdin="")
    assert out.returncode == 2
    assert out.stderr == (f"hotstreak run: --db {missing / 'j.db'}: the folder {missing} does not exist "
                          "(expected a journal file in an existing folder)\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("lang,said", [("en", "Race not over after 1 card"), ("nl", "eerste kaart"),
                                       ("es", "primera carta")])
def test_simulate_says_one_card_in_the_singular(lang, said, capsys):
    from companion.cli import main
    assert main(["simulate", "--lang", lang, "H+3"]) == 0
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert said in out and "1 cards" not in out and "1 kaarten" not in out and "1 cartas" not in out
