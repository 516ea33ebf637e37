"""Every case of tests/data/settle-cases.jsonl through ``hotstreak settle`` (its JSON contract), and the
command's refusals of bad input (one-line message, exit status 2). The cases run in process through the
command's own code; one test runs the real process for the CLI contract."""

import copy
import json

import pytest

from conftest import hotstreak, hotstreak_in_process, rule_cases

CASES = rule_cases("settle-cases.jsonl")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_settle_matches_case(case):
    result = hotstreak_in_process("settle", stdin=json.dumps(case["input"]))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == case["expect"]


BASE = {"race": 1, "variant": "standard", "placings": {"gobbler": 1, "hurley": 2, "dangle": 3, "mum": 4},
        "side_bet": {"card": "any-dq", "happened": False},
        "players": [{"name": "Ann", "money": 10, "tickets": [{"ticket": "gobbler-top", "side": "safe", "double": False}]},
                    {"name": "Bo", "money": 10, "tickets": [{"ticket": "no-top", "side": "risky", "double": False}]}]}


def _with(path, value):
    data = copy.deepcopy(BASE)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize("data, words", [
    (_with(("players", 0, "tickets", 0, "ticket"), "gobbler-tip"), ["'gobbler-tip'", "expected"]),
    (_with(("players", 1, "tickets", 0, "ticket"), "gobbler-top"), ["gobbler-top", "twice"]),
    (_with(("players", 0, "tickets", 0, "double"), True), ["gobbler-top", "race 1", "race 3"]),
    (_with(("players", 0, "money"), -1), ["players[0].money", "-1"]),
    (_with(("side_bet", "card"), "rain"), ["'rain'", "any-dq"]),
    (_with(("placings",), {"gobbler": 1, "hurley": 2, "dangle": 3}), ["mum"]),
    (_with(("players", 0, "tickets", 0, "side"), "wild"), ["\"wild\"", "safe or risky"]),
])
def test_settle_bad_input_exit_2_names_it(data, words):
    result = hotstreak_in_process("settle", stdin=json.dumps(data))
    assert result.returncode == 2, result.stdout
    assert result.stderr.count("\n") == 1
    for word in words:
        assert word in result.stderr


def test_settle_two_doubles_for_one_player_refused():
    data = _with(("race",), 3)
    data["players"][0]["tickets"] = [{"ticket": "gobbler-top", "side": "safe", "double": True},
                                     {"ticket": "hurley-top", "side": "safe", "double": True}]
    result = hotstreak_in_process("settle", stdin=json.dumps(data))
    assert result.returncode == 2 and "at most one" in result.stderr


def test_settle_malformed_json_exit_2():
    result = hotstreak_in_process("settle", stdin='{"race": 1, ')
    assert result.returncode == 2
    assert "not valid JSON" in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.slow
def test_settle_base_example_pays_ticket_by_place_and_answer_as_a_real_process():
    result = hotstreak("settle", stdin=json.dumps(BASE))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"players": [{"name": "Ann", "money": 20, "change": 10},
                                                     {"name": "Bo", "money": 25, "change": 15}]}
