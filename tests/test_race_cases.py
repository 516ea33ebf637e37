"""Every case of shared/cases/race-cases.jsonl through ``hotstreak simulate --json`` (DESIGN.md contract)."""

import json

import pytest

from conftest import hotstreak, shared_cases

CASES = shared_cases("race-cases.jsonl")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_simulate_json_matches_case(case):
    result = hotstreak("simulate", "--json", *case["cards"])
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    expect = case["expect"]
    assert out["placings"] == expect["placings"]
    assert out["finished"] == expect["finished"]
    assert out["mascots"] == expect["mascots"]
    assert isinstance(out["events"], list) and out["events"]


def test_simulate_reads_stdin_with_comments():
    result = hotstreak("simulate", "--json", "-", stdin="H+3 H+3  # two runs\nH+3\n# all done\nH+2\n")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["placings"] == {"hurley": 1}


def test_simulate_bad_card_exit_2_names_it():
    result = hotstreak("simulate", "H+3", "Q+1")
    assert result.returncode == 2
    assert "'Q+1'" in result.stderr and "expected" in result.stderr
    assert result.stderr.count("\n") == 1
