"""`hotstreak odds` during a race: --revealed (the cards revealed so far) and --position (a position string)."""

import pytest
import json

from companion.odds.estimate import estimate
from companion.rules.race import play
from conftest import hotstreak_in_process

FACE_UP = ["HS02", "HS13", "HS24", "HS35", "HS09", "HS23", "HS37", "HS51", "HS46", "HS08"]
REVEALED = ["HS15", "HS26", "HS45"]


def _odds(*args):
    result = hotstreak_in_process("odds", "--json", "--samples", "3000", "--seed", "5", *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_revealed_cards_give_the_odds_of_the_race_after_them():
    race, _ = play(REVEALED)
    expected = estimate(FACE_UP, 4, race, samples=3000, seed=5).to_dict()
    assert _odds(*FACE_UP, "--revealed", *REVEALED) == expected
    assert _odds(*FACE_UP) != expected  # the revealed cards change the odds


def test_revealed_cards_may_come_first_ended_by_a_double_dash_or_quoted():
    after = _odds(*FACE_UP, "--revealed", *REVEALED)
    assert _odds("--revealed", *REVEALED, "--", *FACE_UP) == after
    assert _odds(*FACE_UP, "--revealed", " ".join(REVEALED)) == after


def test_position_string_gives_the_same_odds_as_the_cards_behind_it():
    race, _ = play(REVEALED)
    assert _odds(*FACE_UP, "--position", race.position()) == _odds(*FACE_UP, "--revealed", *REVEALED)


def test_table_output_names_the_race_so_far():
    result = hotstreak_in_process("odds", "--samples", "500", "--seed", "1", "HS02", "--revealed", "H+3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Race so far: G1.3 H2.6 D3.3 M4.3 fold:0 pass:1 rev:1")


def test_a_finished_race_has_exact_odds():
    out = _odds("--revealed", "HT", "DT", "A+3", "G*", "G*", "G*")
    assert out["exact"] and out["places"]["gobbler"] == [1.0, 0.0, 0.0, 0.0]


def test_card_after_the_end_of_the_race_exits_2_naming_it():
    result = hotstreak_in_process("odds", "--revealed", "HT", "DT", "A+3", "G*", "G*", "G*", "H+3")
    assert result.returncode == 2
    assert "'H+3'" in result.stderr and "ended at card 6" in result.stderr and result.stderr.count("\n") == 1


def test_card_revealed_twice_in_a_pass_and_bad_position_exit_2():
    twice = hotstreak_in_process("odds", "--revealed", "HS15", "HS15")
    assert twice.returncode == 2 and "HS15" in twice.stderr and "already revealed" in twice.stderr
    bad = hotstreak_in_process("odds", "--position", "G1.3 nonsense")
    assert bad.returncode == 2 and "'G1.3 nonsense'" in bad.stderr


def test_revealed_and_position_together_are_refused():
    result = hotstreak_in_process("odds", "--revealed", "H+3", "--position", "G1.3 H2.6 D3.3 M4.3 fold:0 pass:1 rev:1 cards:-")
    assert result.returncode == 2 and "not allowed with" in result.stderr
