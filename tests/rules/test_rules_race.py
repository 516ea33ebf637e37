"""One named test per rule of docs/rules.md sections 3-5, on the pure engine (companion.rules.Race)."""

import pytest

from companion.rules import Card, IllegalRevealError, Mascot, Race, Status
from companion.rules import events as ev
from companion.rules.events import Exit, Facing, OutOfBoundsWay

G, H, D, M = Mascot.GOBBLER, Mascot.HURLEY, Mascot.DANGLE, Mascot.MUM


def race_at(position: str) -> Race:
    return Race.from_position(position)


def push(race: Race, *cards: str) -> list[ev.Event]:
    out = []
    for c in cards:
        out += race.push_text(c)
    return out


def types(events) -> list[str]:
    return [e.type for e in events]


# --- section 3: resolving a card ------------------------------------------------------------------
def test_card_naming_inactive_mascot_does_nothing():
    race = race_at("G1.3 H=1 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    events = push(race, "H+3")
    assert types(events) == ["revealed", "no_effect"]
    assert events[1].mascot is H


def test_recover_happens_before_movement_and_faces_finish():
    race = race_at("G1.6ft H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    push(race, "GR+2")
    s = race.mascot(G)
    assert (s.space, s.fallen, s.facing) == (8, False, Facing.FORWARD)


def test_negative_move_goes_against_facing_even_when_turned():
    race = race_at("G1.5t H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    push(race, "G-2")
    assert race.mascot(G).space == 7


def test_fallen_mascot_crawls_exactly_one_step():
    race = race_at("G1.5f H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    events = push(race, "G-2")
    assert race.mascot(G).space == 4
    assert [e for e in events if isinstance(e, ev.Moved)][0].crawled


def test_star_goes_to_nearest_star_ahead():
    race = race_at("G1.8 H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    push(race, "G*")
    assert race.mascot(G).space == 13


def test_star_when_fallen_crawls_one_toward_it():
    race = race_at("G1.5f H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    push(race, "G*")
    assert race.mascot(G).space == 6


def test_star_behind_a_fold_is_not_a_target():
    race = race_at("G1.6t H2.8 D3.8 M4.8 fold:1 pass:2 rev:0 cards:-")
    events = push(race, "G*")
    assert race.mascot(G).space == 6
    assert any(isinstance(e, ev.NoEffect) and e.reason == "no star ahead" for e in events)


def test_turn_around_flips_facing_twice_back():
    race = Race()
    push(race, "GT")
    assert race.mascot(G).facing is Facing.BACKWARD
    push(race, "GT")
    assert race.mascot(G).facing is Facing.FORWARD


def test_fall_when_already_fallen_is_a_knockout():
    race = race_at("G1.5f H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    events = push(race, "GF")
    assert race.mascot(G).status is Status.DQ
    assert race.outcome.exits[G] is Exit.KNOCKOUT
    assert any(isinstance(e, ev.KnockedOut) for e in events)


def test_swerve_is_mirrored_when_facing_backward():
    race = race_at("G1.5 H2.7t D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    race.push(Card.parse("H>"))
    assert race.mascot(H).lane == 1  # right of a mascot facing the back is toward lane 1


def test_swerve_past_the_outer_lane_is_out_of_bounds():
    race = race_at("G1.5 H2.5 D3.5 M4.5 fold:0 pass:1 rev:0 cards:-")
    events = push(race, "M+1<", "M+1<", "M+1<", "M+1<")
    assert race.mascot(M).status is Status.DQ
    oob = [e for e in events if isinstance(e, ev.OutOfBounds)]
    assert oob and oob[0].way is OutOfBoundsWay.SIDE and oob[0].lane == 0


def test_swerve_allowed_while_fallen():
    race = race_at("G1.5f H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    push(race, "G+1>")
    s = race.mascot(G)
    assert (s.lane, s.space, s.fallen) == (2, 6, True)


def test_collision_knocks_down_a_standing_mascot_and_mover_carries_on():
    race = race_at("G1.3 H1.5 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    events = push(race, "G+3")
    assert race.mascot(H).fallen and race.mascot(G).space == 6 and not race.mascot(G).fallen
    assert types(events) == ["revealed", "moved", "collided", "fell", "moved"]


def test_collision_with_a_fallen_mascot_is_a_knockout():
    race = race_at("G1.3 H1.5f D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    push(race, "G+3")
    assert race.mascot(H).status is Status.DQ and race.outcome.exits[H] is Exit.KNOCKOUT


def test_collision_with_two_fallen_mascots_is_a_simultaneous_knockout():
    race = race_at("G1.3 H1.5f D1.5f M4.3 fold:0 pass:1 rev:0 cards:-")
    push(race, "G+3")
    assert race.outcome.placings[H] == race.outcome.placings[D] == 4


def test_crossing_the_finish_line_ends_the_card_for_the_mascot():
    race = race_at("G1.3 H2.3 D3.3 M4.13 fold:0 pass:1 rev:0 cards:-")
    push(race, "M+3<")
    assert race.mascot(M).status is Status.FINISHED and race.outcome.placings[M] == 1


def test_step_behind_the_back_edge_is_out_of_bounds_at_once():
    race = race_at("G1.4 H2.8 D3.8 M4.8 fold:1 pass:2 rev:0 cards:-")
    events = push(race, "G-2")
    oob = [e for e in events if isinstance(e, ev.OutOfBounds)]
    assert oob[0].way is OutOfBoundsWay.BACK and oob[0].space == 3
    assert race.mascot(G).status is Status.DQ


def test_green_card_moves_each_mascot_by_its_own_state_without_collisions():
    race = race_at("G1.5f H1.3 D3.6t M4.3 fold:0 pass:1 rev:0 cards:-")
    events = push(race, "A+2")
    assert [race.mascot(m).space for m in (G, H, D, M)] == [6, 5, 4, 5]
    assert not any(isinstance(e, (ev.Collided, ev.Fell)) for e in events)


def test_green_card_cannot_cross_the_finish_line():
    race = race_at("G1.12 H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    push(race, "A+3")
    assert race.mascot(G).space == 13 and race.mascot(G).status is Status.RACING


def test_green_card_out_of_bounds_dq_at_the_same_time():
    race = race_at("G1.2 H2.1 D3.9 M4.9 fold:0 pass:1 rev:0 cards:-")
    push(race, "A-2")
    assert race.outcome.placings == {G: 4, H: 4}


# --- section 4: deck, passes, reshuffle, folds ----------------------------------------------------
def test_fifteen_reveals_make_a_pass_then_fold_and_reshuffle():
    race = race_at("G1.5 H2.5 D3.5 M4.5 fold:0 pass:1 rev:0 cards:-")
    events = []
    for _ in range(15):
        events += race.push(Card.parse("GT"))
    assert race.pass_no == 2 and race.revealed == 0 and race.folds == 1
    assert types(events)[-2:] == ["folded", "reshuffled"]


def test_fold_dq_is_simultaneous_for_everyone_under_the_mat():
    race = race_at("G1.3 H2.3 D3.9 M4.9 fold:0 pass:1 rev:14 cards:-")
    push(race, "DT")
    assert race.outcome.placings == {G: 4, H: 4}
    assert race.outcome.exits[G] is Exit.OUT_OF_BOUNDS


def test_folds_stop_after_the_third():
    race = race_at("G1.11 H2.11 D3.12 M4.12 fold:3 pass:4 rev:14 cards:-")
    events = push(race, "DT")
    assert race.folds == 3 and race.pass_no == 5
    assert "folded" not in types(events)


def test_same_physical_card_twice_in_a_pass_is_refused_and_changes_nothing():
    race = Race()
    race.push_text("HS15")
    before = race.position()
    with pytest.raises(IllegalRevealError, match="HS15"):
        race.push_text("HS15")
    assert race.position() == before


def test_same_physical_card_in_a_later_pass_is_fine():
    race = race_at("G1.5 H2.5 D3.5 M4.5 fold:0 pass:1 rev:14 cards:HS15")
    race.push_text("HS01")
    race.push_text("HS15")
    assert race.pass_no == 2 and race.mascot(H).space == 8


# --- section 5: podium ----------------------------------------------------------------------------
def test_crossing_takes_the_best_open_place():
    race = race_at("G1.13 H=1 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    push(race, "G+1")
    assert race.outcome.placings[G] == 2


def test_dq_takes_the_worst_open_place():
    race = race_at("G1.3 H2.3 Dk4 M4.3 fold:0 pass:1 rev:0 cards:-")
    push(race, "GF", "GF")
    assert race.outcome.placings[G] == 3


def test_race_ends_at_three_out_and_the_last_takes_the_remaining_place():
    race = race_at("G1.3 H=1 Dk4 M4.9 fold:0 pass:1 rev:0 cards:-")
    events = push(race, "GF", "GF")
    assert race.is_over and race.outcome.placings == {H: 1, D: 4, G: 3, M: 2}
    assert race.outcome.exits[M] is Exit.LAST_STANDING
    assert types(events)[-1] == "race_ended"


def test_no_card_after_the_race_is_over():
    race = race_at("G1.3 H=1 Dk4 Mo3 fold:0 pass:1 rev:0 cards:-")
    assert race.is_over
    with pytest.raises(IllegalRevealError, match="over"):
        race.push_text("G+1")


# --- undo and position ----------------------------------------------------------------------------
def test_pop_restores_state_across_a_fold():
    race = race_at("G1.3 H2.5 D3.9 M4.9 fold:0 pass:1 rev:14 cards:HS01")
    before = race.position()
    race.push_text("HS26")
    assert race.folds == 1
    race.pop()
    assert race.position() == before


def test_pop_with_nothing_pushed_raises():
    with pytest.raises(IndexError):
        Race().pop()


def test_bad_position_string_names_the_token():
    from companion.rules import InvalidPositionError
    with pytest.raises(InvalidPositionError, match="'X1.3'"):
        Race.from_position("X1.3 H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")


def test_pop_walks_back_through_marks_and_passes_to_every_earlier_state():
    """Undo restores a snapshot and pushes the cards after it again: at every depth, across the undo marks and
    a pass boundary, the race equals a fresh one given the same cards, and pushing again gives the same events."""
    cards = [f"HS{n:02d}" for n in (1, 12, 23, 34, 45, 2, 13, 24, 35, 46, 3, 14, 25, 36, 47)]
    cards += [f"HS{n:02d}" for n in (4, 15, 26, 37, 48, 5, 16)]  # a second pass
    race = Race()
    events = []
    for code in cards:
        if race.is_over:
            break
        events.append(race.push_text(code))
    played = len(events)
    assert played > race.track.reveals_per_pass and race.pass_no == 2
    for depth in range(played - 1, -1, -1):
        race.pop()
        fresh = Race()
        for code in cards[:depth]:
            fresh.push_text(code)
        assert (race.position(), race.state, race.outcome) == (fresh.position(), fresh.state, fresh.outcome)
        assert race.cards == fresh.cards
        assert race.push_text(cards[depth]) == events[depth]
        race.pop()
    with pytest.raises(IndexError):
        race.pop()


def test_undo_of_a_race_rebuilt_from_a_position_stops_at_the_position_and_keeps_its_codes_refused():
    text = "G1.3 H2.5 D3.9 M4.9 fold:0 pass:1 rev:2 cards:HS01,HS02"
    race = race_at(text)
    race.push_text("HS26")
    race.push_text("H+1")  # in notation: no label code
    assert race.cards[-2:] == ((race.deck.by_code("HS26").card, "HS26"), (Card.parse("H+1"), None))
    assert race.pop() == (Card.parse("H+1"), None)
    assert race.pop()[1] == "HS26"
    assert race.position() == text
    with pytest.raises(IndexError):
        race.pop()
    with pytest.raises(IllegalRevealError, match="HS02"):
        race.push_text("HS02")  # seen in this pass before the position was written
    assert race.position() == text


def test_a_copy_keeps_its_own_undo_history():
    race = Race()
    for code in ("HS01", "HS12", "HS23"):
        race.push_text(code)
    other = race.copy()
    other.pop()
    other.push_text("HS34")
    assert [code for _, code in race.cards] == ["HS01", "HS12", "HS23"]
    assert [code for _, code in other.cards] == ["HS01", "HS12", "HS34"]
    race.pop()
    assert race.position() == Race.from_position(race.position()).position()
    with pytest.raises(IllegalRevealError):
        other.push_text("HS34")  # the copy's pass has it, the original's does not
    race.push_text("HS34")


def test_a_notation_reads_as_one_card_value_however_it_is_spelt():
    from companion.rules import load_deck
    assert Card.parse("h+3") == Card.parse("H+03") == Card.parse(" H+3 ")
    assert [c.card for c in load_deck()] == [c.card for c in load_deck()]


def test_a_position_naming_a_card_twice_in_one_pass_is_refused_naming_it():
    from companion.rules import InvalidPositionError
    with pytest.raises(InvalidPositionError, match="HS04 is revealed twice"):
        Race.from_position("G1.3 H2.3 D3.3 M4.3 fold:0 pass:1 rev:2 cards:HS04,HS04")



def test_placings_if_ended_keep_the_placed_and_rank_the_rest_by_space_without_changing_the_race():
    race = Race()
    for text in ("H+3", "G+2", "M+1", "G+12"):   # gobbler crosses: 1st; hurley, mum, dangle still racing
        race.push_text(text)
    before = race.position()
    now = race.placings_if_ended()
    assert race.position() == before and not race.is_over   # only a look ahead
    assert now[Mascot.GOBBLER] == race.outcome.placings[Mascot.GOBBLER] == 1
    racing = sorted((m for m in Mascot if m not in race.outcome.placings), key=lambda m: -race.mascot(m).space)
    assert [now[m] for m in racing] == [2, 3, 4]
