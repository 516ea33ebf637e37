"""The lights renderer: frames for each mascot state on the mock strip, and effects expiring on a fake clock."""

from __future__ import annotations

import pytest

from companion.lights.render import (AMBER, CHASE_STEP, CHASE_TAIL, DEFAULT_COLOURS, FALLEN_DIM, RED, STAR_MARKER, WHITE,
                              Effects, render_lanes)
from companion.rules import Mascot, Race
from companion.lights.lanemap import LaneMap
from hardware.leds import MockStrip, scale

G, H, D, M = (DEFAULT_COLOURS[m] for m in (Mascot.GOBBLER, Mascot.HURLEY, Mascot.DANGLE, Mascot.MUM))
OFF = (0, 0, 0)
ONE = LaneMap.default(lanes=4, spaces=14, per_space=1)
TWO = LaneMap.default(lanes=4, spaces=14, per_space=2)


def frame_for(position: str, lanes: LaneMap = ONE, now: float = 0.0, **kw) -> list:
    race = Race.from_position(position)
    kw.setdefault("star_marker", None)
    strip = MockStrip(lanes.count, clock=lambda: now)
    strip.show(render_lanes(race.state, race.track, lanes, DEFAULT_COLOURS, now=now, **kw))
    return list(strip.last)


def lit(frame) -> dict[int, tuple]:
    return {i: p for i, p in enumerate(frame) if p != OFF}


def px(lanes: LaneMap, lane: int, space: int) -> list[int]:
    return lanes.pixels_for(lane, space)


def test_standing_mascots_on_their_spaces():
    frame = frame_for("G1.5 H2.6 D3.3 M4.13 fold:0 pass:1 rev:0 cards:-", TWO)
    expected = {}
    for lane, space, colour in ((1, 5, G), (2, 6, H), (3, 3, D), (4, 13, M)):
        for p in px(TWO, lane, space):
            expected[p] = colour
    assert lit(frame) == expected


def test_mascot_shown_in_its_current_lane_after_a_swerve():
    frame = frame_for("G2.5 H1.6 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    assert frame[px(ONE, 2, 5)[0]] == G and frame[px(ONE, 1, 6)[0]] == H


def test_fallen_is_dim():
    frame = frame_for("G1.5f H2.6 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-", TWO)
    assert [frame[p] for p in px(TWO, 1, 5)] == [scale(G, FALLEN_DIM)] * 2
    assert frame[px(TWO, 2, 6)[0]] == H


def test_turned_around_is_a_chase_running_backwards():
    pos = "G1.3 H2.6t D3.3 M4.3 fold:0 pass:1 rev:0 cards:-"
    back, front = px(TWO, 2, 6)
    tail = scale(H, CHASE_TAIL)
    f0 = frame_for(pos, TWO, now=0.0)
    f1 = frame_for(pos, TWO, now=CHASE_STEP * 1.01)
    assert (f0[back], f0[front]) == (tail, H)    # lit pixel starts at the front of the space ...
    assert (f1[back], f1[front]) == (H, tail)    # ... and runs toward the back
    assert frame_for(pos, TWO, now=2 * CHASE_STEP * 1.01)[front] == H


def test_turned_around_on_one_pixel_blinks():
    pos = "G1.3 H2.6t D3.3 M4.3 fold:0 pass:1 rev:0 cards:-"
    p = px(ONE, 2, 6)[0]
    assert frame_for(pos, now=0.0)[p] == H
    assert frame_for(pos, now=CHASE_STEP * 1.5)[p] == scale(H, CHASE_TAIL)


def test_fallen_and_turned_is_a_dim_chase():
    frame = frame_for("G1.3 H2.6ft D3.3 M4.3 fold:0 pass:1 rev:0 cards:-", TWO)
    assert frame[px(TWO, 2, 6)[1]] == scale(H, FALLEN_DIM)


def test_finished_and_dq_mascots_are_not_shown():
    frame = frame_for("G=1 Hk4 D3.3 Mo3 fold:0 pass:1 rev:0 cards:-")
    assert lit(frame) == {px(ONE, 3, 3)[0]: D}


def test_folded_spaces_are_dark_even_stars():
    frame = frame_for("G1.5 H2.6 D3.7 M4.8 fold:2 pass:3 rev:0 cards:-", star_marker=STAR_MARKER)
    for lane in range(1, 5):
        for space in range(1, 7):  # folds 1 and 2: spaces 1-6 under the mat
            assert frame[px(ONE, lane, space)[0]] == OFF
        assert frame[px(ONE, lane, 14)[0]] == STAR_MARKER
    assert frame[px(ONE, 1, 8)[0]] == STAR_MARKER and frame[px(ONE, 4, 8)[0]] == M  # a mascot beats the marker


def test_star_markers_when_not_folded():
    frame = frame_for("G1.3 H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-", star_marker=STAR_MARKER)
    assert {i for i, p in enumerate(frame) if p == STAR_MARKER} == {
        px(ONE, lane, s)[0] for lane in range(1, 5) for s in (1, 8, 13, 14)}


def test_folds_argument_overrides_the_state():
    frame = frame_for("G1.5 H2.6 D3.7 M4.8 fold:2 pass:3 rev:0 cards:-", star_marker=STAR_MARKER, folds=0)
    assert frame[px(ONE, 1, 1)[0]] == STAR_MARKER


def test_two_mascots_on_one_space_share_it():
    pos = "G1.5 H1.5f D3.3 M4.3 fold:0 pass:1 rev:0 cards:-"
    frame = frame_for(pos, TWO)
    assert [frame[p] for p in px(TWO, 1, 5)] == [G, scale(H, FALLEN_DIM)]
    p = px(ONE, 1, 5)[0]
    assert frame_for(pos, ONE, now=0.1)[p] == G
    assert frame_for(pos, ONE, now=0.6)[p] == scale(H, FALLEN_DIM)


def test_bad_inputs_are_refused():
    race = Race()
    with pytest.raises(ValueError, match="no lane colour for mum"):
        render_lanes(race.state, race.track, ONE, {m: c for m, c in DEFAULT_COLOURS.items() if m is not Mascot.MUM},
                     now=0)
    with pytest.raises(ValueError, match="lane map has 10 spaces per lane; the track needs 14"):
        render_lanes(race.state, race.track, LaneMap.default(spaces=10), DEFAULT_COLOURS, now=0)
    with pytest.raises(ValueError, match=r"lane map has no lane\(s\) \[4\]"):
        render_lanes(race.state, race.track, LaneMap.default(lanes=3), DEFAULT_COLOURS, now=0)


def test_count_pads_the_frame_for_a_longer_strip():
    race = Race()
    assert len(render_lanes(race.state, race.track, ONE, DEFAULT_COLOURS, now=0, count=60)) == 60


# ----- effects ---------------------------------------------------------------------------------------------
def run(race: Race, cards: list[str]) -> list:
    events = []
    for c in cards:
        events += race.push_text(c)
    return events


def render(race: Race, effects: Effects, now: float, lanes: LaneMap = ONE) -> list:
    return render_lanes(race.state, race.track, lanes, DEFAULT_COLOURS, now=now, effects=effects, star_marker=None)


def test_collision_flashes_the_space_then_expires():
    race = Race()
    race.push_text("H+3")            # Hurley to space 6
    events = race.push_text("G+3>")  # Gobbler to lane 1 space 6, swerves right into lane 2 space 6: collision
    assert any(e.type == "collided" for e in events)
    fx = Effects()
    fx.trigger(events, now=10.0)
    p = px(ONE, 2, 6)[0]
    assert render(race, fx, 10.0)[p] == WHITE
    assert render(race, fx, 10.15)[p] != WHITE      # blink off phase
    assert fx.busy(10.5)
    after = render(race, fx, 11.0)
    assert not fx.busy(11.0) and after[p] == G       # expired: Gobbler's turn on the shared one-pixel space


def test_knockout_flashes_the_lane_red_and_expires():
    race = Race()
    events = run(race, ["DF", "DF"])
    assert any(e.type == "knocked_out" for e in events)
    fx = Effects()
    fx.trigger(events, now=0.0)
    frame = render(race, fx, 0.05)
    assert all(frame[p] == RED for p in ONE.lane_pixels(3))
    assert all(frame[p] != RED for p in ONE.lane_pixels(2))
    assert all(p == OFF for p in (render(race, fx, 1.6)[q] for q in ONE.lane_pixels(3)))


def test_out_of_bounds_off_the_side_flashes_the_lane_it_left():
    race = Race()
    events = run(race, ["GT", "G+1>"])  # turned around, right is toward lane 0: off the side
    oob = [e for e in events if e.type == "out_of_bounds"]
    assert oob and oob[0].lane == 0
    fx = Effects()
    fx.trigger(events, now=0.0)
    assert render(race, fx, 0.0)[px(ONE, 1, 5)[0]] == RED


def test_finish_sweeps_up_the_lane_then_expires():
    race = Race.from_position("G1.13 H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    events = race.push_text("G+1")
    assert any(e.type == "finished" for e in events)
    fx = Effects()
    fx.trigger(events, now=0.0)
    lane1 = ONE.lane_pixels(1)
    early = [render(race, fx, 0.1)[p] for p in lane1]
    later = [render(race, fx, 0.6)[p] for p in lane1]
    first_lit = lambda f: max(i for i, p in enumerate(f) if p != OFF)
    assert first_lit(later) > first_lit(early)
    assert later[first_lit(later)] == G
    assert all(render(race, fx, 1.3)[p] == OFF for p in lane1)


def test_fold_wipes_the_folded_spaces_then_expires():
    race = Race.from_position("G1.9 H2.9 D3.10 M4.10 fold:0 pass:1 rev:14 cards:-")
    events = race.push_text("G+1")  # the 15th reveal: the deck runs out and the track folds
    assert any(e.type == "folded" for e in events)
    fx = Effects()
    fx.trigger(events, now=0.0)
    start = render(race, fx, 0.0)
    assert all(start[px(ONE, lane, s)[0]] == AMBER for lane in range(1, 5) for s in (1, 2, 3))
    mid = render(race, fx, 0.5)
    assert mid[px(ONE, 1, 1)[0]] == OFF and mid[px(ONE, 1, 3)[0]] == AMBER  # wiped from the back
    end = render(race, fx, 1.3)
    assert all(end[px(ONE, lane, s)[0]] == OFF for lane in range(1, 5) for s in (1, 2, 3))


def test_fall_by_card_flashes_the_mascot():
    race = Race()
    events = race.push_text("MF")
    fx = Effects()
    fx.trigger(events, now=0.0)
    assert render(race, fx, 0.0)[px(ONE, 4, 3)[0]] == WHITE
    assert render(race, fx, 0.7)[px(ONE, 4, 3)[0]] == scale(M, FALLEN_DIM)


def test_other_events_start_nothing_and_bad_durations_refused():
    race = Race()
    fx = Effects()
    fx.trigger(race.push_text("H+3"), now=0.0)
    assert not fx.busy(0.0)
    with pytest.raises(ValueError, match="effect duration sparkle=1"):
        Effects({"sparkle": 1})
