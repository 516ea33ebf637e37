"""The lane map: where each (lane, space) of the board is on the LED chain."""

from __future__ import annotations

import pytest

from companion.lights.lanemap import LaneMap, LaneSpec


def test_default_map_one_segment_per_lane():
    m = LaneMap.default(lanes=4, spaces=14, per_space=2)
    assert m.count == 112
    assert m.pixels_for(1, 1) == [0, 1]
    assert m.pixels_for(1, 14) == [26, 27]
    assert m.pixels_for(4, 3) == [88, 89]


def test_reversed_lane_counts_down_from_its_far_end():
    m = LaneMap({1: LaneSpec(0, 0, 2, 1), 2: LaneSpec(0, 28, 2, -1)}, spaces=14)
    assert m.pixels_for(2, 1) == [55, 54]   # space 1 of lane 2 is at the far end of the fold-back
    assert m.pixels_for(2, 14) == [29, 28]
    assert m.count == 56
    assert m.lane_pixels(2)[:3] == [55, 54, 53]


def test_from_dict_with_segments_and_string_lane_keys():
    m = LaneMap.from_dict({"spaces": 14, "segments": [0, 100],
                           "lane": {"1": {"segment": 0}, "2": {"segment": 1, "first": 3, "per_space": 3,
                                                                "direction": -1}}})
    assert m.pixels_for(1, 2) == [1]
    assert m.pixels_for(2, 1) == [144, 143, 142]
    assert m.pixels_for(2, 14) == [105, 104, 103]


def test_from_dict_lists_every_problem_with_its_key():
    with pytest.raises(ValueError) as err:
        LaneMap.from_dict({"spaces": 0, "colour": 1,
                           "lane": {"1": {"per_space": "two", "direction": 2}, "x": {}}}, where="leds.lane_map")
    text = str(err.value)
    for part in ("leds.lane_map.colour: unknown key", "leds.lane_map.spaces: 0 is not an integer >= 1",
                 "leds.lane_map.lane.1.per_space: 'two'", "leds.lane_map.lane.1.direction: 2 is not 1 or -1",
                 "leds.lane_map.lane.x: 'x' is not a lane number"):
        assert part in text


def test_overlapping_lanes_and_bad_segment_are_refused():
    with pytest.raises(ValueError, match="lane.2: space 1 uses pixel 0, already used by lane 1 space 1"):
        LaneMap({1: LaneSpec(), 2: LaneSpec()}, spaces=3)
    with pytest.raises(ValueError, match=r"leds.lane_map: lane.1.segment: 2 is not a segment \(expected 0..0\)"):
        LaneMap.from_dict({"lane": {"1": {"segment": 2}}}, where="leds.lane_map")


def test_pixels_for_bad_lane_or_space_names_it():
    m = LaneMap.default()
    with pytest.raises(ValueError, match=r"lane 5 is not in the lane map"):
        m.pixels_for(5, 1)
    with pytest.raises(ValueError, match=r"space 15 is off the lane map \(expected 1..14\)"):
        m.pixels_for(1, 15)
