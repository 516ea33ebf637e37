"""The lights renderer: frames for each mascot state on the mock strip, and effects expiring on a fake clock."""

from __future__ import annotations

import pytest

from companion.lights.render import (AMBER, DEFAULT_COLOURS, FALLEN_ON, FALLEN_PERIOD, MARKER, MARKER_PERIOD,
                                     PULSE_LEVEL, PULSE_PERIOD, RED, STAR_MARKER, WHITE, Effects, render_lanes)
from companion.rules import Mascot, Race
from companion.lights.lanemap import LaneMap
from companion.motion import SLIDE_SECONDS, reached
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


def test_fallen_blinks_at_full_colour():
    pos = "G1.5f H2.6 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-"
    on = frame_for(pos, TWO, now=0.1)
    off = frame_for(pos, TWO, now=FALLEN_ON + 0.1)
    assert [on[p] for p in px(TWO, 1, 5)] == [G, G]          # lit in its own colour, not dimmed ...
    assert [off[p] for p in px(TWO, 1, 5)] == [OFF, OFF]     # ... then dark: a blink
    assert frame_for(pos, TWO, now=FALLEN_PERIOD + 0.1)[px(TWO, 1, 5)[0]] == G
    assert off[px(TWO, 2, 6)[0]] == H                        # a standing mascot stays lit


def test_turned_around_shows_a_marker_pixel_at_the_back_of_its_space():
    pos = "G1.3 H2.6t D3.3 M4.3 fold:0 pass:1 rev:0 cards:-"
    back, front = px(TWO, 2, 6)
    for now in (0.0, 0.37, 0.81):                              # steady: not time-based
        frame = frame_for(pos, TWO, now=now)
        assert (frame[back], frame[front]) == (MARKER, H)
    standing = frame_for(pos, TWO)
    assert [standing[p] for p in px(TWO, 1, 3)] == [G, G]     # no marker when facing forward


def test_turned_around_on_one_pixel_shows_the_marker_in_turn():
    pos = "G1.3 H2.6t D3.3 M4.3 fold:0 pass:1 rev:0 cards:-"
    p = px(ONE, 2, 6)[0]
    assert frame_for(pos, now=0.1)[p] == H
    assert frame_for(pos, now=MARKER_PERIOD - 0.05)[p] == MARKER


def test_fallen_and_turned_keeps_the_marker_while_the_colour_blinks():
    pos = "G1.3 H2.6ft D3.3 M4.3 fold:0 pass:1 rev:0 cards:-"
    back, front = px(TWO, 2, 6)
    on, off = frame_for(pos, TWO, now=0.1), frame_for(pos, TWO, now=FALLEN_ON + 0.1)
    assert (on[back], on[front]) == (MARKER, H)
    assert (off[back], off[front]) == (MARKER, OFF)


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
    frame = frame_for(pos, TWO, now=0.1)
    assert [frame[p] for p in px(TWO, 1, 5)] == [G, H]
    p = px(ONE, 1, 5)[0]
    assert frame_for(pos, ONE, now=0.1)[p] == G
    assert frame_for(pos, ONE, now=0.6)[p] == OFF  # Hurley's turn, in its blink's dark phase
    assert frame_for(pos, ONE, now=0.85)[p] == H


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
    assert after[p] == G       # the flash expired: Gobbler's turn on the shared one-pixel space
    assert [e.kind for e in fx.active(11.0)] == ["move"]  # Gobbler's move and swerve: one path, still pulsing


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
    assert render(race, fx, 0.7)[px(ONE, 4, 3)[0]] == OFF   # the flash is over: the fallen blink, dark phase
    assert render(race, fx, 0.85)[px(ONE, 4, 3)[0]] == M


def dim(colour):
    """The running light of a move in ``colour``: never the mascot's own full colour."""
    return scale(colour, PULSE_LEVEL)


def test_the_mascot_that_moved_pulses_from_where_to_where():
    race = Race()
    events = race.push_text("H+3")  # Hurley from space 3 to 6 in lane 2
    fx = Effects()
    fx.trigger(events, now=0.0)
    path = [px(TWO, 2, s) for s in (3, 4, 5, 6)]
    heads = []
    for k in range(4):  # the light runs 3 -> 4 -> 5 (-> 6, where Hurley stands) as the screen's Hurley slides
        frame = render(race, fx, reached(k / 3), TWO)   # the screen's Hurley is over space 3 + k
        heads.append([s for s, pixels in zip((3, 4, 5, 6), path) if dim(H) in [frame[p] for p in pixels]])
        assert all(frame[p] == H for p in path[3])  # Hurley itself stands on 6 all along
    assert heads == [[3], [4], [5], []]
    rest = render(race, fx, (SLIDE_SECONDS + PULSE_PERIOD) / 2, TWO)   # the run is over: the path is dark
    assert all(rest[p] == OFF for pixels in path[:3] for p in pixels)
    again = render(race, fx, PULSE_PERIOD + 0.01, TWO)                  # then it runs again
    assert dim(H) in [again[p] for p in path[0]]
    other = render(race, fx, 0.1, TWO)
    assert all(other[p] == OFF for p in px(TWO, 1, 4))  # nothing in the other lanes
    assert fx.busy(5.9) and not fx.busy(6.0)


@pytest.mark.parametrize("lanes", [ONE, TWO], ids=["one-pixel", "two-pixels"])
def test_the_space_left_is_never_lit_as_the_mascots_after_the_move(lanes):
    """Two spaces never show one mascot: on every frame of the pulse only the space reached has the mascot's
    colour; the light passing the space left (and the spaces between) is dim, on one pixel of a space."""
    race = Race()
    events = race.push_text("H+3")  # Hurley from space 3 to 6 in lane 2
    fx = Effects()
    fx.trigger(events, now=0.0)
    seen = set()
    for step in range(int(6.0 / 0.01)):
        frame = render(race, fx, step * 0.01, lanes)
        as_hurley = [s for s in range(1, 15) if any(frame[p] == H for p in px(lanes, 2, s))]
        assert as_hurley == [6], (step * 0.01, as_hurley)
        for s in (3, 4, 5):
            pixels = [frame[p] for p in px(lanes, 2, s)]
            if dim(H) in pixels:
                seen.add(s)
                assert sum(p != OFF for p in pixels) == 1  # one pixel of the space, never all of it
    assert seen == {3, 4, 5}  # the light does run the path


def test_a_swerve_pulses_between_the_lanes_and_the_next_card_ends_the_pulse():
    race = Race.from_position("G1.3 H2.6 D3.9 M4.3 fold:0 pass:1 rev:0 cards:-")
    events = race.push_text("D<")  # Dangle changes lane on space 9, where nobody stands
    swerves = [e for e in events if e.type == "swerved"]
    assert swerves
    fx = Effects()
    fx.trigger(events, now=0.0)
    s = swerves[0]
    start = render(race, fx, 0.1, TWO)
    assert dim(D) in [start[p] for p in px(TWO, s.from_lane, s.space)]  # the light starts on the lane left
    assert D not in [start[p] for p in px(TWO, s.from_lane, s.space)]
    fx.trigger(race.push_text("H+1"), now=1.0)                         # next card: only Hurley pulses now
    frame = render(race, fx, 1.1, TWO)
    assert all(frame[p] == OFF for p in px(TWO, s.from_lane, s.space))
    assert dim(H) in [frame[p] for p in px(TWO, 2, 6)]                 # Hurley's light starts on 6
    assert all(frame[p] == H for p in px(TWO, 2, 7))                   # where Hurley stands now


def test_a_move_then_a_swerve_of_one_card_is_one_path():
    race = Race.from_position("G1.3 H2.9 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    events = race.push_text("G+3>")  # Gobbler 3 -> 6 in lane 1, then over to lane 2 on space 6
    fx = Effects()
    fx.trigger(events, now=0.0)
    moves = fx.active(0.0)
    assert [e.path for e in moves] == [((1, 3), (1, 4), (1, 5), (1, 6), (2, 6))]
    frame = render(race, fx, reached(3 / 4), TWO)  # the screen's Gobbler on the 4th of 5 steps: lane 1 space 6
    assert dim(G) in [frame[p] for p in px(TWO, 1, 6)]


def test_the_pulse_skips_a_space_where_another_mascot_stands():
    race = Race.from_position("G1.3 H1.5 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    events = race.push_text("H+3")  # Hurley 5 -> 8 in lane 1; Gobbler stays on 3
    fx = Effects()
    fx.trigger(events, now=0.0)
    assert dim(H) in [render(race, fx, 0.05, TWO)[p] for p in px(TWO, 1, 5)]
    race2 = Race.from_position("G1.6 H1.5 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    events = race2.push_text("H+3")  # passing Gobbler on 6 knocks it down; its space is not painted over
    fx2 = Effects()
    fx2.trigger(events, now=0.0)
    frame = render(race2, fx2, 0.1 + PULSE_PERIOD / 4, TWO)
    assert all(frame[p] in (G, OFF, WHITE) for p in px(TWO, 1, 6))


def test_other_events_start_nothing_and_bad_durations_refused():
    race = Race()
    fx = Effects()
    fx.trigger(race.push_text("HT"), now=0.0)
    assert not fx.busy(0.0)
    with pytest.raises(ValueError, match="effect duration sparkle=1"):
        Effects({"sparkle": 1})
