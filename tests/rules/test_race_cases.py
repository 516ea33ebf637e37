"""Every case of tests/data/race-cases.jsonl through ``hotstreak simulate --json`` (its JSON contract): placings,
final state and the whole event stream (tests/data/race-events.jsonl, written by make_race_events.py there). The
golden cases run in process through the command's own code; one test runs the real process for the CLI
contract."""

import json

import pytest

from conftest import DATA, hotstreak, hotstreak_in_process, read_cases, rule_cases

CASES = rule_cases("race-cases.jsonl")
EVENTS = {case["name"]: case["events"] for case in rule_cases("race-events.jsonl")}


def _assert_matches(out: dict, case: dict) -> None:
    expect = case["expect"]
    assert out["placings"] == expect["placings"]
    assert out["finished"] == expect["finished"]
    assert out["mascots"] == expect["mascots"]
    assert out["events"] == EVENTS[case["name"]]


def test_every_case_has_its_expected_events_and_no_other():
    assert list(EVENTS) == [case["name"] for case in CASES]
    assert all(EVENTS.values())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_simulate_json_matches_case(case):
    result = hotstreak_in_process("simulate", "--json", *case["cards"])
    assert result.returncode == 0, result.stderr
    _assert_matches(json.loads(result.stdout), case)


@pytest.mark.slow
def test_simulate_json_contract_as_a_real_process():
    case = max(CASES, key=lambda c: len(c["cards"]))
    result = hotstreak("simulate", "--json", *case["cards"])
    assert result.returncode == 0, result.stderr
    _assert_matches(json.loads(result.stdout), case)


def test_simulate_reads_stdin_with_comments():
    result = hotstreak_in_process("simulate", "--json", "-", stdin="H+3 H+3  # two runs\nH+3\n# all done\nH+2\n")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["placings"] == {"hurley": 1}


def test_simulate_bad_card_exit_2_names_it():
    result = hotstreak_in_process("simulate", "H+3", "Q+1")
    assert result.returncode == 2
    assert "'Q+1'" in result.stderr and "expected" in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("name", ["race-cases.jsonl", "settle-cases.jsonl"])
def test_the_rule_case_files_hold_named_cases_with_expectations(name):
    cases = read_cases(DATA / name)
    assert cases and all(c["name"] and "expect" in c for c in cases)
    assert len({c["name"] for c in cases}) == len(cases)
