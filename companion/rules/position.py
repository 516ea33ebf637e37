"""The one-line race position string : writing it and reading it back.

``G1.3 H2.6ft Dk4 M=1 fold:1 pass:2 rev:4 cards:HS04,HS15``: a racing mascot is its letter, lane ``.`` space,
``f`` if fallen and ``t`` if turned around; a placed one is its letter, how it left (``=`` crossed the line,
``r`` remaining at the end, ``k`` knockout, ``o`` out of bounds) and its paid place. Then the folds made, the
pass number, the reveals in this pass and their label codes (``-`` for none). :class:`Race` uses these
functions for ``Race.position()`` and ``Race.from_position(text)``.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from companion.rules.errors import InvalidPositionError
from companion.rules.events import Exit
from companion.rules.mascots import MASCOTS
from companion.rules.race_state import DQ, EXIT, FACING, FALLEN, FINISHED, LANE, PLACE, RACING, SPACE, STATUS
from companion.rules.track import Track

EXIT_MARK = MappingProxyType({Exit.CROSSED: "=", Exit.LAST_STANDING: "r", Exit.KNOCKOUT: "k",
                              Exit.OUT_OF_BOUNDS: "o"})
MARK_EXIT = MappingProxyType({v: k for k, v in EXIT_MARK.items()})
_POS_TOKEN = re.compile(r"([A-Za-z])(?:(\d+)\.(\d+)([ft]*)|([=rko])(\d+))")


@dataclass
class Position:
    """A parsed position: the race's internal rows, folds made, pass number, reveals, codes, open places, over."""

    rows: list[list[Any]]
    folds: int
    pass_no: int
    revealed: int
    codes: tuple[str, ...]
    open_places: list[int]
    over: bool


def format_position(rows: Sequence[Sequence[Any]], folds: int, pass_no: int, revealed: int,
                    codes: tuple[str, ...]) -> str:
    """The position string of the race's internal rows and counters."""
    parts = []
    for m, r in zip(MASCOTS, rows):
        if r[STATUS] is RACING:
            parts.append(f"{m.letter}{r[LANE]}.{r[SPACE]}{'f' if r[FALLEN] else ''}{'t' if r[FACING] < 0 else ''}")
        else:
            parts.append(f"{m.letter}{EXIT_MARK[r[EXIT]]}{r[PLACE]}")
    parts.append(f"fold:{folds} pass:{pass_no} rev:{revealed} cards:{','.join(codes) or '-'}")
    return " ".join(parts)


def parse_position(text: str, track: Track, start_rows: Sequence[Sequence[Any]], example: str) -> Position:
    """Read ``text`` onto a copy of ``start_rows`` (a fresh race's rows) on ``track``.

    Raises InvalidPositionError naming the bad part and the expected form (``example`` is shown).
    """
    t = track
    rows = [list(r) for r in start_rows]
    tokens = text.split()
    if len(tokens) != len(MASCOTS) + 4:
        raise InvalidPositionError(f"{text!r} is not a race position (expected e.g. {example!r})")
    for row, m, tok in zip(rows, MASCOTS, tokens):
        match = _POS_TOKEN.fullmatch(tok)
        if not match or match.group(1).upper() != m.letter:
            raise InvalidPositionError(f"{tok!r} in position is not a {m.title} token (expected e.g. "
                                       f"'{m.letter}2.6ft', '{m.letter}=1' or '{m.letter}k4')")
        if match.group(2):
            lane, space = int(match.group(2)), int(match.group(3))
            if not (1 <= lane <= t.lanes and 1 <= space <= t.finish_space):
                raise InvalidPositionError(f"{tok!r} in position is off the track "
                                           f"(expected lane 1..{t.lanes}, space 1..{t.finish_space})")
            row[LANE], row[SPACE] = lane, space
            row[FALLEN] = "f" in match.group(4)
            row[FACING] = -1 if "t" in match.group(4) else 1
        else:
            exit_ = MARK_EXIT[match.group(5)]
            row[STATUS] = DQ if exit_ in (Exit.KNOCKOUT, Exit.OUT_OF_BOUNDS) else FINISHED
            row[EXIT], row[PLACE] = exit_, int(match.group(6))
    fields = {}
    for tok in tokens[len(MASCOTS):]:
        key, _, value = tok.partition(":")
        fields[key] = value
    try:
        folds = int(fields["fold"])
        pass_no = int(fields["pass"])
        revealed = int(fields["rev"])
        codes = fields["cards"]
    except (KeyError, ValueError):
        raise InvalidPositionError(f"{' '.join(tokens[len(MASCOTS):])!r} in position is not "
                                   "'fold:N pass:N rev:N cards:CODES|-'") from None
    if not (0 <= folds <= len(t.fold_lines) and pass_no >= 1 and 0 <= revealed <= t.reveals_per_pass):
        raise InvalidPositionError(f"{text!r}: fold, pass or rev out of range")
    seen = () if codes == "-" else tuple(codes.split(","))
    if len(set(seen)) != len(seen):
        twice = next(c for c in seen if seen.count(c) > 1)
        raise InvalidPositionError(f"{text!r}: card {twice} is revealed twice in one pass (expected each code once)")
    try:
        open_ = open_places([r[PLACE] for r in rows if r[STATUS] is FINISHED],
                            [r[PLACE] for r in rows if r[STATUS] is DQ])
    except ValueError as exc:
        raise InvalidPositionError(f"{text!r}: {exc}") from None
    done = sum(r[STATUS] is not RACING for r in rows)
    over = done >= len(MASCOTS) or done >= t.finishers_to_end
    return Position(rows, folds, pass_no, revealed, seen, open_, over)


def open_places(finished: Iterable[int], dq: Iterable[int]) -> list[int]:
    """The open podium places given finishers' places and DQ paid places (a tie of k at p took p-k+1..p).

    Raises ValueError if a place is taken twice or lies outside 1..4.
    """
    taken = set(finished)
    counts: dict[int, int] = {}
    for p in dq:
        counts[p] = counts.get(p, 0) + 1
    for p, k in counts.items():
        for q in range(p - k + 1, p + 1):
            if q in taken or q < 1:
                raise ValueError(f"place {q} taken twice")
            taken.add(q)
    places = range(1, len(MASCOTS) + 1)
    if not taken <= set(places):
        raise ValueError(f"places {sorted(taken)} outside 1..{len(MASCOTS)}")
    return [p for p in places if p not in taken]
