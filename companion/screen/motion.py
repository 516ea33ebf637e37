"""The last card's moves in motion on the race screen, as a broadcast shows them: each mascot the card moved
slides along the path it really took (``companion.motion``: lane changes, swerves, a knock back, a step off the
track), a mascot that falls tips over once it reaches the space where it fell, one that recovers stands up, the
running order's rows slide
to their new places; and, at rest, each row's up or down mark and its gap to the leader in spaces.

Everything here is a function of the model and the screen's clock ``now`` (seconds): the moves start at the
model's ``move_at`` (the time of the card) and have played :func:`companion.motion.settled` seconds later; a
model with ``move_at`` None is at rest. :func:`in_motion` tells the screen's sink to keep drawing frames, and
nothing else does: once the moves have played the screen is still again.

The painter functions take the screen's painter (``companion.screen.widgets.Widgets``) as their first
argument; ``companion.screen.track`` and ``companion.screen.race_panels`` call them.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from companion import colours as C
from companion.motion import SLIDE_SECONDS, TIP_SECONDS, Path, fall_time, point, settled, slide
from companion.screen.layout import Layout, Rect, mascot_spots, space_rect
from companion.screen.model import MascotView, OrderRow, ScreenModel, running_order
from companion.screen.podium_scene import podium_rising

if TYPE_CHECKING:
    from companion.screen.widgets import Widgets

Spot = tuple[int, int, int]
"""Where a mascot is drawn: ``(cx, cy, r)`` pixels."""

UP = (90, 220, 110)
"""The colour of a row's mark when it gained places (green; a triangle pointing up says it as well)."""
DOWN = C.OUT_MARK
"""The colour of a row's mark when it lost places (red; a triangle pointing down)."""
GAP = (70, 80, 104)
"""The gap-to-the-leader badge's fill."""


def elapsed(model: ScreenModel, now: float) -> float | None:
    """Seconds since the last card's moves started (0 at the card), or None when the model is at rest."""
    if model.move_at is None:
        return None
    return max(0.0, now - model.move_at)


def in_motion(model: ScreenModel, now: float) -> bool:
    """True while the last card's moves are playing at ``now``: a mascot slides or tips over, the running
    order's rows slide, or the podium's steps rise (``companion.screen.podium_scene``); the screen draws every
    frame meanwhile, and stops when it is False."""
    t = elapsed(model, now)
    if t is None or model.screen != "race":
        return False
    if podium_rising(model, now):
        return True
    rows = SLIDE_SECONDS if any(order_before(model).values()) else 0.0
    return t < max(settled(model.paths), rows)


def pixel(lane: float, space: float, L: Layout) -> tuple[float, float]:
    """The centre of a (fractional) lane and space in pixels; lanes and spaces off the track lie beyond its
    edges as a space would."""
    x, y, w, h = L.track
    return x + (space - 0.5) * w / L.spaces, y + (lane - 0.5) * h / L.lanes


def _alone(L: Layout) -> int:
    """The radius of a mascot alone on a space."""
    return mascot_spots(space_rect(1, 1, L), 1)[0][2]


def slide_spot(path: Path, at_rest: Spot | None, share: float, L: Layout) -> Spot:
    """Where a mascot on ``path`` is drawn ``share`` (0..1) of the way along it: on the path, drifting into
    ``at_rest`` (its place on the space it reaches, shared with others there) as it arrives."""
    lane, space = point(path.steps, share)
    x, y = pixel(lane, space, L)
    if at_rest is None:
        return round(x), round(y), _alone(L)
    ex, ey = pixel(*point(path.steps, 1.0), L)
    return round(x + (at_rest[0] - ex) * share), round(y + (at_rest[1] - ey) * share), at_rest[2]


def draw_moving(p: Widgets, model: ScreenModel, L: Layout, spots: dict[str, Spot], now: float | None,
                ring: C.RGB, placed: set[str]) -> bool:
    """If the last card's moves are playing at ``now``: draw every mascot on the track as it is at that moment
    (the moved ones on their paths with the path behind them, ringed in ``ring``; those in ``placed`` ringed in
    gold), update ``spots`` to where they were drawn and return True. Otherwise draw nothing and return
    False (the track draws the picture at rest)."""
    t = None if now is None else elapsed(model, now)
    if t is None or not in_motion(model, now or 0.0):
        return False
    share = slide(t)
    paths = {q.mascot: q for q in model.paths}
    views = {m.mascot: m for m in model.mascots}
    starts = {mv.mascot: (mv.from_lane, mv.from_space) for mv in model.moves}
    for name, path in paths.items():
        steps = path.steps or ((starts[name],) if name in starts else ())
        if name not in views or not steps:
            continue
        if name not in spots:   # it left the race on this card: drawn until it is off the track or down
            if path.off and share >= 1.0 or not path.off and (path.fall is None or _fell_by(path, t) > 1.0):
                continue
        if len(steps) > 1:
            spots[name] = slide_spot(path, spots.get(name), share, L)
            trail(p, path, spots[name], share, L)
        elif name not in spots:
            x, y = pixel(*steps[0], L)
            spots[name] = (round(x), round(y), _alone(L))
    letter = L.cap(0, "letter")   # the size class's smallest letter on the track, as at rest
    for name, (cx, cy, r) in spots.items():
        m = views[name]
        q = paths.get(name)
        tip = -1.0 if q is None else _fell_by(q, t)
        if q is not None and q.stood_up and t < TIP_SECONDS and not m.fallen:   # recovered: it stands up first
            tipping(p, m, (cx, cy, r), 1.0 - t / TIP_SECONDS, letter)
        elif q is None or q.fall is None:
            p.mascot(name, cx, cy, r, fallen=m.fallen, facing=m.facing, ring=C.GOLD if name in placed else None,
                     letter_cap=letter)
        elif q.knocked_out:   # already lying: crossed out once it is hit
            p.mascot(name, cx, cy, r, fallen=True, facing=m.facing, out=tip > 0.0, letter_cap=letter)
        elif tip >= 1.0:
            p.mascot(name, cx, cy, r, fallen=True, facing=m.facing, letter_cap=letter)
        else:
            tipping(p, m, (cx, cy, r), max(0.0, tip), letter)
        if q is not None and q.moved:
            p.pg.draw.circle(p.surface, ring, (cx, cy), int(r * 1.45), width=max(3, int(r * 0.14)))
    return True


def bent_paths(p: Widgets, model: ScreenModel, L: Layout, spots: dict[str, Spot], colour: C.RGB) -> set[str]:
    """At rest: for each mascot whose path on the last card turned a corner (a move and a swerve), a ring where
    it started and an arrow along the path it took to where it stands; returns their names (the track draws a
    straight arrow for the others)."""
    drawn: set[str] = set()
    u = L.unit
    for path in model.paths:
        steps = path.steps
        if len(steps) < 3 or path.mascot not in spots or len({lane for lane, _ in steps}) == 1:
            continue
        points = [pixel(*s, L) for s in steps[:-1]] + [spots[path.mascot][:2]]
        first = (round(points[0][0]), round(points[0][1]))
        r = int(min(space_rect(1, 1, L)[2], space_rect(1, 1, L)[3]) * 0.3)
        mascot = C.colour(path.mascot)
        p.pg.draw.circle(p.surface, mascot, first, r, width=max(2, int(4 * u)))
        p.pg.draw.circle(p.surface, mascot, first, max(3, r // 5))
        end = points[-1]
        back = points[-2]
        dist = ((end[0] - back[0]) ** 2 + (end[1] - back[1]) ** 2) ** 0.5
        stop = spots[path.mascot][2] * 1.35
        if dist <= stop:
            continue
        tip = (end[0] - (end[0] - back[0]) * stop / dist, end[1] - (end[1] - back[1]) * stop / dist)
        for width, head, ink in ((max(6, int(14 * u)), max(12, 30 * u), C.BACKGROUND),
                                 (max(3, int(7 * u)), max(10, 24 * u), colour)):
            if len(points) > 2:
                p.pg.draw.lines(p.surface, ink, False, points[:-1], width)
                for q in points[1:-1]:   # round corners
                    p.pg.draw.circle(p.surface, ink, (round(q[0]), round(q[1])), width // 2)
            p.arrow(back, tip, ink, width, head)
        drawn.add(path.mascot)
    return drawn


def _fell_by(path: Path, t: float) -> float:
    """How far a falling mascot has tipped over ``t`` seconds after the card: below 0 before it falls, 0..1
    while it tips, above 1 after; -1 for a mascot that does not fall on the card."""
    start = fall_time(path)
    if start is None:
        return -1.0
    return (t - start) / TIP_SECONDS


def tipping(p: Widgets, m: MascotView, spot: Spot, k: float, letter_cap: float | None = None) -> None:
    """A mascot ``k`` (0..1) of the way through tipping over: standing at 0, its nose turning down toward
    the ground as ``k`` grows (the letter stays upright); at 1 the fallen figure, with its mark, is drawn."""
    cx, cy, r = spot
    p.mascot(m.mascot, cx, cy, r, facing=m.facing, tip=k, letter_cap=letter_cap)


def trail(p: Widgets, path: Path, spot: Spot, share: float, L: Layout) -> None:
    """The path behind a sliding mascot, in its colour: a ring where it started and a line along the spaces
    and lanes it crossed up to where it is now."""
    colour = C.colour(path.mascot)
    u = L.unit
    first = pixel(*path.steps[0], L)
    r = int(min(space_rect(1, 1, L)[2], space_rect(1, 1, L)[3]) * 0.3)
    start = (round(first[0]), round(first[1]))
    p.pg.draw.circle(p.surface, colour, start, r, width=max(2, int(4 * u)))
    n = len(path.steps) - 1
    done = [pixel(*path.steps[k], L) for k in range(int(share * n) + 1)]
    points = [*done, (spot[0], spot[1])]
    if len(points) >= 2:
        p.pg.draw.lines(p.surface, colour, False, points, max(3, int(8 * u)))


def order_before(model: ScreenModel) -> dict[str, int]:
    """How many places each mascot of the running order gained (positive) or lost (negative) on the last
    card (0 for the others); from the model's moves (where each mascot stood before the card)."""
    return {row.mascot: before - row.position for row, before in _before_positions(model)}


def _before_model(model: ScreenModel) -> ScreenModel:
    """The model's mascots as they stood before the last card (from its moves)."""
    moved = {mv.mascot: mv for mv in model.moves}
    mascots = []
    for m in model.mascots:
        mv = moved.get(m.mascot)
        if mv is not None and mv.what in ("finished", "placed", "out", "knocked out"):
            m = dataclasses.replace(m, status="racing", place=None, exit=None)
        if mv is not None:
            m = dataclasses.replace(m, lane=mv.from_lane, space=mv.from_space)
        mascots.append(m)
    return dataclasses.replace(model, mascots=tuple(mascots))


def _before_positions(model: ScreenModel) -> list[tuple[OrderRow, int]]:
    """Each row of the running order now with its mascot's position before the last card."""
    rows = running_order(model)
    if not model.moves:
        return [(row, row.position) for row in rows]
    before = {row.mascot: row.position for row in running_order(_before_model(model))}
    return [(row, before.get(row.mascot, row.position)) for row in rows]


def row_top(model: ScreenModel, mascot: str, index: int, step: int, now: float | None) -> int:
    """The top of running-order row ``index`` (0-based, rows ``step`` pixels apart) of ``mascot``, relative to
    the first row: the row slides from where the mascot stood before the card while the moves play."""
    t = None if now is None else elapsed(model, now)
    if t is None or t >= SLIDE_SECONDS:
        return index * step
    rows = running_order(model)
    before = {row.mascot: k for k, row in enumerate(running_order(_before_model(model)))}
    was = before.get(mascot, index)
    if not any(before.get(r.mascot) != k for k, r in enumerate(rows)):
        return index * step
    return round((was + (index - was) * slide(t)) * step)


def row_back(p: Widgets, model: ScreenModel, rect: Rect, now: float | None) -> None:
    """While the rows slide, each row's own background (``rect``), so a row passing another covers it
    instead of mixing their letters; nothing at rest."""
    t = None if now is None else elapsed(model, now)
    if t is not None and t < SLIDE_SECONDS and any(order_before(model).values()):
        x, y, w, h = rect
        inset = max(2, w // 60)
        p.pg.draw.rect(p.surface, C.PANEL, (x + inset, y, w - 2 * inset, h))


def gap_badge(model: ScreenModel, row: OrderRow) -> list[tuple[str, C.RGB]]:
    """The gap to the leader in spaces as a badge (``+3``: three spaces behind the racing mascot furthest
    ahead), for a racing mascot behind the leader; none for the leader, those level with it, and mascots
    out of the race."""
    spaces = [m.space for m in model.mascots if m.status == "racing"]
    if row.space is None or not spaces or len(spaces) < 2:
        return []
    gap = max(spaces) - row.space
    return [(f"+{gap}", GAP)] if gap > 0 else []


def order_mark(p: Widgets, model: ScreenModel, row: OrderRow, at: tuple[int, int], cap: float) -> int:
    """The row's up or down mark at ``at`` (its middle left): a green triangle up and the places gained, or a
    red triangle down and the places lost, on the last card; returns the x where the next badge goes (``at``'s
    x when there is no mark)."""
    change = order_before(model).get(row.mascot, 0)
    x, y = at
    if not change:
        return x
    fill = UP if change > 0 else DOWN
    text = str(abs(change))
    tri = cap * 0.9
    tw = p.font(cap).size(text)[0]
    h = int(cap * 1.84)
    w = int(cap * 0.55 * 2 + tri + cap * 0.35 + tw)
    p.pg.draw.rect(p.surface, fill, (x, y - h // 2, w, h), border_radius=h // 2)
    ink = C.BACKGROUND
    tx, half = x + cap * 0.55, tri / 2
    if change > 0:
        pts = [(tx, y + half * 0.8), (tx + tri, y + half * 0.8), (tx + half, y - half * 0.9)]
    else:
        pts = [(tx, y - half * 0.8), (tx + tri, y - half * 0.8), (tx + half, y + half * 0.9)]
    p.pg.draw.polygon(p.surface, ink, pts)
    p.label(text, cap, (int(tx + tri + cap * 0.35), y + 1), ink, "midleft", role="badge")
    return x + w + max(4, int(cap * 0.45))


__all__ = ["DOWN", "GAP", "UP", "bent_paths", "draw_moving", "elapsed", "gap_badge", "in_motion", "order_before",
           "order_mark", "pixel", "row_back", "row_top", "slide_spot", "tipping", "trail"]
