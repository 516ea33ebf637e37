"""Where each track space is on the LED chain: the board geometry of the strip (lanes, spaces, segments).

The hardware knows pixels by index only; this map turns a (lane, space) into those indices.

>>> lanes = LaneMap.default(lanes=4, spaces=14, per_space=2)
>>> list(lanes.pixels_for(2, 1))
[28, 29]
>>> lanes.count
112
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

__all__ = ["LaneMap", "LaneSpec"]


@dataclass(frozen=True)
class LaneSpec:
    """One lane on the strip: ``segment`` (index into the map's segment starts), ``first`` pixel of the lane
    within that segment, ``per_space`` pixels per space, ``direction`` +1 when space 1 is at the lane's
    lowest pixel index, -1 when the lane runs the other way (a strip folded back along the next lane)."""

    segment: int = 0
    first: int = 0
    per_space: int = 1
    direction: int = 1


class LaneMap:
    """Where each track space is on the LED chain.

    ``lanes`` maps lane number (1-based) to :class:`LaneSpec`; ``spaces`` is the spaces per lane;
    ``segment_starts[k]`` is the chain index of segment k's first pixel (several strip pieces daisy-chained
    on one data line). The pixels of (lane, space) are ``per_space`` consecutive indices starting at
    ``segment_starts[segment] + first + (space-1)*per_space`` (direction +1) or counting down from the lane's
    far end (direction -1). ``count`` is the chain length the map needs.
    """

    def __init__(self, lanes: Mapping[int, LaneSpec], spaces: int, segment_starts: Sequence[int] = (0,)):
        self.lanes = dict(sorted(lanes.items()))
        self.spaces = spaces
        self.segment_starts = tuple(segment_starts)
        problems = self._problems()
        if problems:
            raise ValueError("lane map: " + "; ".join(problems))

    @classmethod
    def default(cls, lanes: int = 4, spaces: int = 14, per_space: int = 1) -> "LaneMap":
        """One segment per lane, chained in lane order, every lane running from space 1 upward."""
        length = spaces * per_space
        return cls({n: LaneSpec(n - 1, 0, per_space, 1) for n in range(1, lanes + 1)}, spaces,
                   [k * length for k in range(lanes)])

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "lane_map") -> "LaneMap":
        """Build from config data, listing every problem with its key in one ValueError::

            {"spaces": 14, "segments": [0, 14, 28, 42],
             "lane": {"1": {"segment": 0, "first": 0, "per_space": 1, "direction": 1}, ...}}

        ``segments`` defaults to ``[0]``; ``first``, ``per_space`` and ``direction`` default to 0, 1, 1.
        """
        problems: list[str] = []

        def integer(table: Mapping[str, Any], key: str, path: str, low: int, default: int | None = None) -> int:
            value = table.get(key, default)
            if value is None:
                problems.append(f"{path}{key}: missing (expected an integer >= {low})")
                return low
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                problems.append(f"{path}{key}: {value!r} is not an integer >= {low}")
                return low
            return value

        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: {data!r} is not a table (expected spaces, segments and lane.N tables)")
        unknown = set(data) - {"spaces", "segments", "lane"}
        for key in sorted(unknown):
            problems.append(f"{where}.{key}: unknown key (expected spaces, segments, lane)")
        spaces = integer(data, "spaces", f"{where}.", 1, 14)
        segments = data.get("segments", [0])
        if (not isinstance(segments, list) or not segments
                or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in segments)):
            problems.append(f"{where}.segments: {segments!r} is not a list of pixel indices >= 0")
            segments = [0]
        table = data.get("lane")
        lanes: dict[int, LaneSpec] = {}
        if not isinstance(table, Mapping) or not table:
            problems.append(f"{where}.lane: missing (expected a table per lane: lane.1, lane.2, ...)")
            table = {}
        for key, spec in table.items():
            path = f"{where}.lane.{key}."
            try:
                lane = int(key)
                if lane < 1:
                    raise ValueError
            except (TypeError, ValueError):
                problems.append(f"{where}.lane.{key}: {key!r} is not a lane number (1, 2, ...)")
                continue
            if not isinstance(spec, Mapping):
                problems.append(f"{path[:-1]}: {spec!r} is not a table (expected segment, first, per_space, "
                                "direction)")
                continue
            for extra in sorted(set(spec) - {"segment", "first", "per_space", "direction"}):
                problems.append(f"{path}{extra}: unknown key (expected segment, first, per_space, direction)")
            direction = spec.get("direction", 1)
            if direction not in (1, -1) or isinstance(direction, bool):
                problems.append(f"{path}direction: {direction!r} is not 1 or -1")
                direction = 1
            lanes[lane] = LaneSpec(integer(spec, "segment", path, 0, 0), integer(spec, "first", path, 0, 0),
                                   integer(spec, "per_space", path, 1, 1), direction)
        if problems:
            raise ValueError("; ".join(problems))
        try:
            return cls(lanes, spaces, segments)
        except ValueError as exc:
            raise ValueError(f"{where}: {str(exc).removeprefix('lane map: ')}") from None

    def _problems(self) -> list[str]:
        problems = []
        if self.spaces < 1:
            problems.append(f"spaces {self.spaces!r} must be at least 1")
        if not self.lanes:
            problems.append("no lanes")
        taken: dict[int, tuple[int, int]] = {}
        for lane, spec in self.lanes.items():
            if not 0 <= spec.segment < len(self.segment_starts):
                problems.append(f"lane.{lane}.segment: {spec.segment} is not a segment "
                                f"(expected 0..{len(self.segment_starts) - 1})")
                continue
            if spec.direction not in (1, -1) or spec.per_space < 1 or spec.first < 0:
                problems.append(f"lane.{lane}: {spec} needs direction 1/-1, per_space >= 1, first >= 0")
                continue
            for space in range(1, self.spaces + 1):
                for p in self.pixels_for(lane, space):
                    if p in taken:
                        other = taken[p]
                        problems.append(f"lane.{lane}: space {space} uses pixel {p}, already used by lane "
                                        f"{other[0]} space {other[1]}")
                        break
                    taken[p] = (lane, space)
                else:
                    continue
                break
        return problems

    @property
    def count(self) -> int:
        """The number of pixels the chain needs (highest used index + 1)."""
        return max(p for lane in self.lanes for p in self.pixels_for(lane, self.spaces) + self.pixels_for(lane, 1)) + 1

    def pixels_for(self, lane: int, space: int) -> list[int]:
        """The chain indices of (lane, space), ordered from the back of the space toward the finish.

        Raises ValueError for a lane not in the map or a space outside 1..spaces.
        """
        spec = self.lanes.get(lane)
        if spec is None:
            raise ValueError(f"lane {lane!r} is not in the lane map (expected one of {sorted(self.lanes)})")
        if not 1 <= space <= self.spaces:
            raise ValueError(f"space {space!r} is off the lane map (expected 1..{self.spaces})")
        base = self.segment_starts[spec.segment] + spec.first
        n = spec.per_space
        if spec.direction == 1:
            start = base + (space - 1) * n
            return list(range(start, start + n))
        far = base + self.spaces * n - 1
        start = far - (space - 1) * n
        return list(range(start, start - n, -1))

    def lane_pixels(self, lane: int) -> list[int]:
        """Every pixel of ``lane`` from space 1 to the last space."""
        return [p for s in range(1, self.spaces + 1) for p in self.pixels_for(lane, s)]
