"""The calibration maths: two marks -> a lane (companion.service.calibrate), and the strip's current."""

import pytest

from companion.service.calibrate import (Lane, MarkError, calibration_problems, current_amps, lane_from_marks,
                                         lane_pixels, worst_case_amps)


def ends(lane: Lane, spaces: int = 14) -> tuple[int, int]:
    """The pixels a builder marks: the first light of space 1 and the last light of the last space."""
    pixels = lane_pixels(lane, spaces)
    return pixels[0][0], pixels[-1][-1]


@pytest.mark.parametrize("lane", [Lane(first, direction, per) for first in (0, 5, 61) for direction in (1, -1)
                                  for per in (1, 2, 3)])
def test_the_two_end_marks_give_back_the_lane(lane):
    assert lane_from_marks(*ends(lane), spaces=14) == lane


@pytest.mark.parametrize("per", [1, 2, 3])
@pytest.mark.parametrize("direction", [1, -1])
def test_an_end_mark_anywhere_beside_the_last_space_gives_the_same_lane(per, direction):
    lane = Lane(30, direction, per)
    start, end = ends(lane)
    for inside in lane_pixels(lane, 14)[-1]:
        assert lane_from_marks(start, inside, spaces=14) == lane, inside
    assert end in lane_pixels(lane, 14)[-1]


def test_space_1_lights_from_the_back_of_the_space_in_either_direction():
    assert lane_pixels(Lane(0, 1, 2), 3) == [[0, 1], [2, 3], [4, 5]]
    assert lane_pixels(Lane(10, -1, 2), 3) == [[15, 14], [13, 12], [11, 10]]


@pytest.mark.parametrize("start, end", [(7, 7), (0, 5), (20, 0)])
def test_marks_too_close_for_a_lane_are_refused_naming_them(start, end):
    with pytest.raises(MarkError, match=f"pixels {start} and {end}"):
        lane_from_marks(start, end, spaces=14)


def test_overlapping_or_overlong_lanes_are_named():
    assert calibration_problems({1: Lane(0, 1, 2), 2: Lane(28, -1, 2)}, 14, 112) == []
    assert calibration_problems({1: Lane(0, 1, 2), 2: Lane(27, 1, 2)}, 14, 112) == [
        "lane 2 overlaps lane 1 at pixel 27 (mark lane 2 again)"]
    [problem] = calibration_problems({1: Lane(100, 1, 2)}, 14, 112)
    assert "lane 1 runs to pixel 127" in problem and "111" in problem


def test_current_scales_with_colour_and_the_brightness_cap():
    white, dark = [(255, 255, 255)] * 100, [(0, 0, 0)] * 100
    assert current_amps(white, 1.0) == pytest.approx(6.1)          # 100 x (60 + 1) mA
    assert current_amps(white, 0.5) == pytest.approx(3.1)
    assert current_amps(dark, 1.0) == pytest.approx(0.1)           # the chips alone
    assert current_amps([(255, 0, 0)] * 100, 1.0) == pytest.approx(2.1)
    assert worst_case_amps(112, 0.35) == pytest.approx(112 * (21 + 1) / 1000)
