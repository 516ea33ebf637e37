"""Each side bet predicate on hand-built races: one where it happens, one where it almost does (docs/rules.md 6)."""

from pathlib import Path

import pytest

from companion.rules.errors import DataFileError
from companion.rules.events import Status
from companion.rules.mascots import Mascot
from companion.rules.race import Race
from companion.rules.track import load_track
from companion.rules.errors import UnknownSideBetError
from companion.rules.sidebets import PREDICATES, SideBetTracker, load_side_bets

START = "G1.3 H2.3 D3.3 M4.3"


def answer(card_id: str, position: str, cards: list[str]) -> bool:
    """Push ``cards`` on a race built from ``position`` (mascots only), observing after each card."""
    race = Race.from_position(f"{position} fold:0 pass:1 rev:0 cards:-")
    tracker = SideBetTracker(card_id)
    for text in cards:
        tracker.observe(race.push_text(text), race)
    return tracker.happened


NEAR_FINISH = "G1.13 H2.13 D3.13 M4.13"

CASES = {
    # card id: (happens: position, cards), (almost: position, cards)
    "bottom2-gobbler": ((NEAR_FINISH, ["H+1", "D+1", "G+1"]), (NEAR_FINISH, ["H+1", "G+1", "D+1"])),
    "bottom2-hurley": ((NEAR_FINISH, ["G+1", "D+1", "M+1"]), (NEAR_FINISH, ["G+1", "H+1", "D+1"])),
    "bottom2-dangle": ((NEAR_FINISH, ["G+1", "H+1", "M+1"]), (NEAR_FINISH, ["G+1", "D+1", "H+1"])),
    "bottom2-mum": ((NEAR_FINISH, ["G+1", "H+1", "D+1"]), (NEAR_FINISH, ["G+1", "M+1", "H+1"])),
    # off the side past lane 1 / a swerve that stays on the track
    "out-of-bounds": ((START, ["G+1<"]), (START, ["H+1<", "G-2"])),
    # two down at once / the first gets up before the second falls
    "two-fallen": ((START, ["GF", "HF"]), (START, ["GF", "GR+1", "HF"])),
    # fall while fallen / recover in between
    "knockout": ((START, ["GF", "GF"]), (START, ["GF", "GR+1", "GF"])),
    # two on space 13 / one stops a space short
    "two-on-finish-space": (("G1.10 H2.10 D3.3 M4.3", ["G+3", "H+3"]), ("G1.10 H2.10 D3.3 M4.3", ["G+3", "H+2"])),
    # a fallen mascot crawls 10 -> 11 / crawls 9 -> 10, outside the final stretch
    "crawl-final-stretch": (("G1.10f H2.3 D3.3 M4.3", ["G+3"]), ("G1.9f H2.3 D3.3 M4.3", ["G+3", "H+3", "H*"])),
    # Hurley swerves onto Gobbler's space and stays / Hurley runs through Gobbler's space and on
    "same-space": (("G1.6 H2.5 D3.3 M4.3", ["H+1<"]), ("G1.5 H1.4 D3.3 M4.3", ["H+2"])),
    # the winner crosses with the others far back / Dangle waits on space 11
    "empty-final-stretch": (("G1.13 H2.10 D3.3 M4.3", ["G+1"]), ("G1.13 H2.10 D3.11 M4.3", ["G+1"])),
    # a knockout DQ / two falls on different mascots, nobody DQ
    "any-dq": ((START, ["HF", "HF"]), (START, ["HF", "GF", "DF"])),
}


def test_every_predicate_has_cases():
    assert set(CASES) == set(PREDICATES)


@pytest.mark.parametrize("card_id", list(CASES))
def test_side_bet_happens(card_id):
    position, cards = CASES[card_id][0]
    assert answer(card_id, position, cards) is True


@pytest.mark.parametrize("card_id", list(CASES))
def test_side_bet_almost_happens(card_id):
    position, cards = CASES[card_id][1]
    assert answer(card_id, position, cards) is False


def test_green_multi_card_crawl_counts_for_crawl_final_stretch():
    assert answer("crawl-final-stretch", "G1.11f H2.3 D3.3 M4.3", ["A+2"]) is True
    assert answer("crawl-final-stretch", "G1.9f H2.3 D3.3 M4.3", ["A+2"]) is False


def test_empty_final_stretch_is_checked_only_when_first_place_crosses():
    # Dangle reaches the final stretch only after Gobbler has won: still YES
    assert answer("empty-final-stretch", "G1.13 H2.10 D3.10 M4.3", ["G+1", "D+1"]) is True
    # a race won without crossing (everyone else DQ) answers NO
    assert answer("empty-final-stretch", "G1.3 H2.3 D3.3 M4.3", ["GF", "GF", "HF", "HF", "DF", "DF"]) is False


def test_empty_final_stretch_counts_a_mascot_that_took_a_remaining_place_on_the_winning_card():
    # Hurley and Dangle are DQ; Gobbler crosses for 1st and ends the race; Mum (space 12) is placed as remaining
    race = Race.from_position("G1.13 Hk4 Do3 M4.12 fold:0 pass:1 rev:0 cards:-")
    tracker = SideBetTracker("empty-final-stretch")
    tracker.observe(race.push_text("G+1"), race)
    assert race.is_over and tracker.happened is False


def test_tracker_turns_yes_once_and_stays():
    race = Race()
    tracker = SideBetTracker("two-fallen")
    assert tracker.observe(race.push_text("GF"), race) is False
    assert tracker.observe(race.push_text("HF"), race) is True
    assert tracker.observe(race.push_text("GR+1"), race) is False  # already YES: not newly
    assert tracker.happened is True


def test_unknown_side_bet_id_refused():
    with pytest.raises(UnknownSideBetError, match="'rain'.*any-dq"):
        SideBetTracker("rain")


def test_default_side_bet_data_in_rules_order():
    bets = load_side_bets()
    assert bets.ids == tuple(PREDICATES)
    assert bets.by_number(12).id == "any-dq" and bets.by_number(1).code == "HS-S01"
    assert all(card.question.endswith("?") for card in bets)
    with pytest.raises(UnknownSideBetError, match="HS-S13"):
        bets.by_number(13)


def test_side_bet_data_lists_every_problem(tmp_path):
    path = tmp_path / "sidebets.toml"
    path.write_text('[[card]]\nid = "rain"\nquestion = "Rain?"\n\n[[card]]\nid = "knockout"\nquestion = ""\n\n'
                    '[[card]]\nid = "knockout"\nquestion = "Again?"\ncolour = "red"\n')
    with pytest.raises(DataFileError) as info:
        load_side_bets(path)
    problems = info.value.problems
    assert any(p.startswith("card[0].id:") and "'rain'" in p for p in problems)
    assert any(p.startswith("card[1].question:") for p in problems)
    assert any(p.startswith("card[2].colour:") for p in problems)
    assert any(p.startswith("card[2].id:") and "twice" in p for p in problems)
    assert len(problems) == 4


# ----- the 15th card of a pass: side bets are checked after the card, before the fold (docs/rules.md 4, 6) -----
def fifteenth(card_id: str, position: str, card: str, track=None) -> tuple[bool, Race]:
    """Reveal ``card`` as the 15th of pass 1 from ``position``; the deck then runs out and the mat folds."""
    race = Race.from_position(f"{position} fold:0 pass:1 rev:14 cards:-", track)
    tracker = SideBetTracker(card_id)
    tracker.observe(race.push_text(card), race)
    assert race.folds == 1
    return tracker.happened, race


def test_two_fallen_on_the_15th_card_counts_before_the_fold_puts_one_out_of_bounds():
    # Gobbler lies on space 3; Hurley falls on the 15th card; the fold then DQs Gobbler under the mat
    happened, race = fifteenth("two-fallen", "G1.3f H2.13 D3.11 M4.11", "HF")
    assert race.mascot(Mascot.GOBBLER).status is Status.DQ
    assert happened is True


def test_same_space_on_the_15th_card_counts_before_the_fold_takes_both():
    # Dangle swerves onto Hurley's space 3 (Hurley falls); the fold then DQs them both
    happened, race = fifteenth("same-space", "G1.7 H2.3 D3.1 M4.7", "D+2<")
    assert {race.mascot(m).status for m in (Mascot.HURLEY, Mascot.DANGLE)} == {Status.DQ}
    assert happened is True


def test_two_on_finish_space_on_the_15th_card_counts_before_the_fold_ends_the_race(tmp_path):
    # With the default track a fold never reaches space 13 nor ends a race with two mascots still racing, so
    # this uses a track whose race ends once 2 mascots are out: Gobbler is DQ already, Dangle joins Hurley
    # on space 13, the fold DQs Mum on space 3 and ends the race (Hurley and Dangle take the last places).
    text = (Path(__file__).parents[2] / "companion/rules/data/track.toml").read_text()
    custom = tmp_path / "track.toml"
    custom.write_text(text.replace("finishers_to_end = 3", "finishers_to_end = 2"))
    happened, race = fifteenth("two-on-finish-space", "Go4 H2.13 D3.10 M4.3f", "D+3", load_track(custom))
    assert race.is_over and race.mascot(Mascot.MUM).status is Status.DQ
    assert race.mascot(Mascot.HURLEY).status is not Status.RACING
    assert happened is True


def test_a_whole_first_pass_through_the_game_answers_two_fallen_yes():
    from companion.rules.codes import parse_code
    from companion.rules.game import Game
    from companion.rules.game_events import SideBetHappened
    game = Game(3, side_bet_order=["two-fallen"])
    for code in ("HS-GO", "HS-GO", "HS-GO"):
        game.apply(parse_code(code))
    # Hurley, Dangle, Mum run on to space 11, Hurley on to 13; Gobbler falls on space 3; Hurley falls 15th
    first_14 = "HS12 HS13 HS14 HS15 HS23 HS24 HS25 HS26 HS34 HS35 HS36 HS37 HS17 HS08".split()
    for code in first_14:
        assert not any(isinstance(e, SideBetHappened) for e in game.apply(parse_code(code)))
    events = game.apply(parse_code("HS19"))
    assert SideBetHappened("two-fallen") in events
    assert game.race.folds == 1 and game.race.mascot(Mascot.GOBBLER).status is Status.DQ
