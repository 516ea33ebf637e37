"""The LED calibration's maths: two marks per lane -> where the lane is on the strip. Pure: no I/O, no clock.

The builder marks, lane by lane, the pixel at the outer end of space 1 (toward the back of the board) and the
pixel at the outer end of the last space (toward the finish). Those two chain indices are enough:

- **direction**: +1 when space 1 has the lower index, -1 when the strip runs the other way (a strip folded
  back along the next lane);
- **pixels per space**: the lane's length in pixels (both ends included) over the number of spaces, rounded;
  a mark one pixel inside its space still gives the right figure for 1-3 pixels a space on a 14-space lane;
- **first**: the lane's lowest chain index, from the space-1 mark (exact: the lane starts there) and the
  lane's length. The end mark only sets the direction and the size, so any light beside the last space gives
  the same lane for 1-3 pixels a space. Strips daisy-chained on one data line need nothing more: the marks
  are chain indices, gaps between the pieces included.

>>> lane_from_marks(0, 27, spaces=14)          # straight, 2 pixels a space
Lane(first=0, direction=1, per_space=2)
>>> lane_from_marks(55, 28, spaces=14)         # folded back: space 1 at the high end
Lane(first=28, direction=-1, per_space=2)
>>> calibration_problems({1: Lane(0, 1, 2), 2: Lane(20, 1, 2)}, spaces=14, count=112)
['lane 2 overlaps lane 1 at pixel 20 (mark lane 2 again)']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

__all__ = ["Lane", "MA_PER_PIXEL", "MarkError", "calibration_problems", "current_amps", "lane_from_marks",
           "lane_pixels", "worst_case_amps"]

MA_PER_PIXEL = 60.0
"""Milliamps one WS2812B pixel draws at full white (20 mA a colour); scaled by the brightness cap."""
IDLE_MA = 1.0
"""Milliamps a dark WS2812B pixel still draws (its chip)."""


class MarkError(ValueError):
    """Two marks that cannot be one lane; the message names the marks and what was expected."""


@dataclass(frozen=True)
class Lane:
    """One lane on the chain: ``first`` (lowest chain index of the lane), ``direction`` (+1: space 1 at
    ``first``; -1: space 1 at the lane's highest index), ``per_space`` pixels per space."""

    first: int
    direction: int
    per_space: int


def lane_from_marks(start: int, end: int, spaces: int) -> Lane:
    """The lane whose space 1 starts at chain index ``start`` and whose last space (``spaces``, e.g. 14) ends
    at ``end`` (any pixel of the last space will do). Raises MarkError when the two marks are one pixel, closer
    than one pixel a space, or a lane running down from ``start`` would pass pixel 0."""
    if spaces < 2:
        raise MarkError(f"a lane of {spaces} space(s) cannot be calibrated from two marks (expected 2 or more)")
    span = abs(end - start) + 1
    if start == end or span < spaces:
        raise MarkError(f"marks at pixels {start} and {end} span {span} pixels: too short for {spaces} spaces "
                        f"(expected at least one pixel a space)")
    direction = 1 if end > start else -1
    per_space = max(1, round(span / spaces))
    length = per_space * spaces
    first = start if direction == 1 else start - length + 1
    if first < 0:
        raise MarkError(f"marks at pixels {start} and {end}: {spaces} spaces of {per_space} pixels running down "
                        f"from pixel {start} pass pixel 0 (expected the first light of space 1 as the first mark)")
    return Lane(first, direction, per_space)


def lane_pixels(lane: Lane, spaces: int) -> list[list[int]]:
    """The chain indices of each space of ``lane`` (space 1 first), each ordered from the back of the space."""
    n = lane.per_space
    if lane.direction == 1:
        return [list(range(lane.first + s * n, lane.first + s * n + n)) for s in range(spaces)]
    far = lane.first + spaces * n - 1
    return [list(range(far - s * n, far - s * n - n, -1)) for s in range(spaces)]


def calibration_problems(lanes: Mapping[int, Lane], spaces: int, count: int) -> list[str]:
    """What is wrong with a set of calibrated lanes, one phrase each naming the lane (empty: all good): a lane
    that runs off the strip (``count`` pixels) or shares a pixel with an earlier lane."""
    problems: list[str] = []
    owner: dict[int, int] = {}
    for number, lane in sorted(lanes.items()):
        pixels = [p for space in lane_pixels(lane, spaces) for p in space]
        if max(pixels) >= count:
            problems.append(f"lane {number} runs to pixel {max(pixels)}, past the strip's last pixel {count - 1} "
                            "(mark lane {0} again, or raise leds.count)".replace("{0}", str(number)))
            continue
        clash = next((p for p in pixels if p in owner), None)
        if clash is not None:
            problems.append(f"lane {number} overlaps lane {owner[clash]} at pixel {clash} (mark lane {number} again)")
            continue
        owner.update(dict.fromkeys(pixels, number))
    return problems


def current_amps(frame: list[tuple[int, int, int]], brightness: float) -> float:
    """The strip's estimated current in amps for ``frame`` at the ``brightness`` cap (0..1): each colour
    channel draws up to a third of MA_PER_PIXEL, scaled by its value and the cap, plus IDLE_MA a pixel."""
    lit = sum(r + g + b for r, g, b in frame) / (3 * 255) * MA_PER_PIXEL * brightness
    return (lit + IDLE_MA * len(frame)) / 1000.0


def worst_case_amps(count: int, brightness: float) -> float:
    """Amps with every one of ``count`` pixels full white at the ``brightness`` cap."""
    return count * (MA_PER_PIXEL * brightness + IDLE_MA) / 1000.0
