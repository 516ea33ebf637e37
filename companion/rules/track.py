"""The track: lanes, spaces, stars, fold lines and starting lanes (docs/rules.md section 1).

Load the default with ``load_track()`` or a user's file with ``load_track(path)``; every figure comes from
the data file ``data/track.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.rules.datafile import Checker, read_toml
from companion.rules.mascots import MASCOTS, Mascot


@dataclass(frozen=True)
class Track:
    """Track geometry. Spaces and lanes are 1-based ints.

    ``finish_space`` is the finish-line space; a step from it onto ``finish_space + 1`` crosses the line.
    ``fold_lines[k]`` is the first space still on the track after the (k+1)-th reshuffle.
    """

    lanes: int = 4
    spaces: int = 14
    finish_space: int = 13
    start_space: int = 3
    stars: tuple[int, ...] = (1, 8, 13, 14)
    fold_lines: tuple[int, ...] = (4, 7, 11)
    final_stretch: int = 11
    start_lanes: tuple[tuple[Mascot, int], ...] = tuple((m, i + 1) for i, m in enumerate(MASCOTS))
    deck_size: int = 18
    burn: int = 3
    finishers_to_end: int = 3

    @property
    def reveals_per_pass(self) -> int:
        """Cards revealed per pass: the deck less the burned cards (docs/rules.md 4)."""
        return self.deck_size - self.burn

    def back_edge(self, folds: int) -> int:
        """The first space still on the track after ``folds`` reshuffles (docs/rules.md 4)."""
        return 1 if folds <= 0 else self.fold_lines[min(folds, len(self.fold_lines)) - 1]

    def in_final_stretch(self, space: int) -> bool:
        return space >= self.final_stretch


_KEYS = frozenset({"lanes", "spaces", "finish_space", "start_space", "stars", "fold_lines", "final_stretch", "lane",
                   "race"})


def load_track(path: str | Path | None = None) -> Track:
    """Load and validate a track file (default: the packaged ``data/track.toml``).

    Raises DataFileError listing every problem with its key path.
    """
    data, source = read_toml(path, "track.toml")
    c = Checker(source)
    c.unknown_keys(data, _KEYS, "")
    lanes = c.integer(data, "lanes", "", 1, 16)
    spaces = c.integer(data, "spaces", "", 3, 200)
    finish = c.integer(data, "finish_space", "", 2, max(2, spaces - 1))
    start = c.integer(data, "start_space", "", 1, max(1, finish))
    stars = c.int_list(data, "stars", "", 1, spaces)
    folds = c.int_list(data, "fold_lines", "", 2, max(2, finish))
    if folds != sorted(set(folds)):
        c.problem("fold_lines", f"{folds} must be strictly increasing")
    stretch = c.integer(data, "final_stretch", "", 1, spaces)
    lane_table = data.get("lane")
    start_lanes: list[tuple[Mascot, int]] = []
    if not isinstance(lane_table, dict):
        c.problem("lane", "missing table (expected gobbler/hurley/dangle/mum = lane number)")
    else:
        c.unknown_keys(lane_table, {m.value for m in MASCOTS}, "lane.")
        for m in MASCOTS:
            start_lanes.append((m, c.integer(lane_table, m.value, "lane.", 1, lanes)))
        used = [lane for _, lane in start_lanes]
        if len(set(used)) != len(used):
            c.problem("lane", f"two mascots share a starting lane: {used}")
    race = data.get("race", {})
    if not isinstance(race, dict):
        c.problem("race", "must be a table")
        race = {}
    c.unknown_keys(race, {"deck_size", "burn", "finishers_to_end"}, "race.")
    deck_size = c.integer(race, "deck_size", "race.", 2, 200, default=18)
    burn = c.integer(race, "burn", "race.", 0, max(0, deck_size - 1), default=3)
    to_end = c.integer(race, "finishers_to_end", "race.", 1, len(MASCOTS), default=3)
    c.finish()
    return Track(lanes=lanes, spaces=spaces, finish_space=finish, start_space=start, stars=tuple(sorted(set(stars))),
                 fold_lines=tuple(folds), final_stretch=stretch, start_lanes=tuple(start_lanes),
                 deck_size=deck_size, burn=burn, finishers_to_end=to_end)
