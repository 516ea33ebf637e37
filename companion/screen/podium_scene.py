"""The podium scene at the end of a race: while the winner's moment shows (and the moments after it, until the
payouts), the track's part of the race screen becomes a podium: three steps rise (2nd, 1st, 3rd from the left,
:data:`PODIUM_SECONDS`, eased as the moves are) with the mascots paid 1st, 2nd and 3rd on them and their places on
the steps' fronts; the mascot paid 4th stands beside them (crossed out when it was disqualified).

The steps rise from the start of the winner's moment on the screen's clock when the model has a time for the
last card (``move_at``, live at the table); a model at rest (an undo, a restart, a picture without ``--now``)
shows them risen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion import colours as C
from companion.motion import ease
from companion.screen.layout import Layout, Rect
from companion.screen.model import MascotView, ScreenModel
from companion.screen.moments import showing
from companion.screen.words import place

if TYPE_CHECKING:
    from companion.screen.widgets import Widgets

PODIUM_SECONDS = 0.8
"""How long the podium's steps take to rise, in seconds."""

STEP_COLOURS: dict[int, C.RGB] = {1: C.GOLD, 2: (196, 202, 214), 3: (214, 140, 74)}
"""The steps' colours: gold, silver, bronze."""

STEP_HEIGHTS: dict[int, float] = {1: 0.5, 2: 0.36, 3: 0.26}
"""Each step's height as a share of the scene's height."""


def winner_at(model: ScreenModel) -> float | None:
    """When the winner's moment starts on the screen's clock, or None when the model has none."""
    start = model.moment_at
    for m in model.moments:
        if m.kind == "winner":
            return start
        start += m.seconds
    return None


def podium_shown(model: ScreenModel, now: float) -> bool:
    """True while the podium scene shows: the winner's moment or one after it is on the race screen."""
    start = winner_at(model)
    return (model.screen == "race" and start is not None and now >= start and bool(model.podium)
            and showing(model.moments, model.moment_at, now) is not None)


def podium_rising(model: ScreenModel, now: float) -> bool:
    """True while the podium's steps rise (the screen draws every frame meanwhile)."""
    start = winner_at(model)
    return model.move_at is not None and start is not None and podium_shown(model, now) and \
        now < start + PODIUM_SECONDS


def scene_rect(L: Layout) -> Rect:
    """Where the scene goes: the track's part of the race screen (left of the running order, or the whole width
    on the 7-inch panel, where the order is under the track; between the header and the moment band), the
    track's lane and space numbers included."""
    top = L.header[1] + L.header[3]
    below = L.order[1] >= L.track[1] + L.track[3]   # the 7-inch panel: the running order is under the track
    right = L.width if below else L.order[0] - max(4, int(12 * L.unit))
    return (0, top, right, max(0, L.bottom[1] - top))


def podium_scene(p: Widgets, model: ScreenModel, L: Layout, now: float | None) -> bool:
    """Draw the podium scene over the track's part of the race screen when it shows at ``now``; returns whether
    it did."""
    if now is None or not podium_shown(model, now):
        return False
    start = winner_at(model)
    assert start is not None, "shown only with a winner's moment"
    k = 1.0 if model.move_at is None else ease((now - start) / PODIUM_SECONDS)
    x, y, w, h = scene_rect(L)
    u = L.unit
    p.pg.draw.rect(p.surface, C.BACKGROUND, (x, y, w, h))
    layer, p.layer = p.layer, "podium"   # drawn on top of the track on purpose: its text is checked on its own
    try:
        _steps(p, model, (x, y, w, h), u, k)
    finally:
        p.layer = layer
    return True


def _steps(p: Widgets, model: ScreenModel, rect: Rect, u: float, k: float) -> None:
    """The steps ``k`` (0..1) of the way up in ``rect``, the mascots on them and the 4th beside them."""
    x, y, w, h = rect
    cap = p.cap(40)
    ground = y + h - int(12 * u) - 2
    step_w = int(w * 0.22)
    figure_h = h * 0.3                         # room above the highest step for its mascots
    scale = max(0.2, (h - figure_h - int(12 * u)) / h / STEP_HEIGHTS[1])
    centres = {2: x + int(w * 0.16), 1: x + int(w * 0.4), 3: x + int(w * 0.64)}
    by_place: dict[int, list[str]] = {}
    for name, n in model.podium:
        by_place.setdefault(n, []).append(name)
    views = {m.mascot: m for m in model.mascots}
    for n in (2, 1, 3):
        cx = centres[n]
        top = ground - int(h * STEP_HEIGHTS[n] * scale * k)
        rect = (cx - step_w // 2, top, step_w, ground - top)
        if ground - top > 0:
            p.pg.draw.rect(p.surface, STEP_COLOURS[n], rect, border_radius=max(2, int(8 * u)))
            if ground - top > cap * 1.6:
                p.label(place(p.lang, n).upper(), cap, (cx, top + int(cap * 0.4)), C.BACKGROUND, "midtop",
                        max_w=step_w - 4)
        _figures(p, by_place.get(n, []), views, cx, top, step_w, figure_h, gold=n == 1)
    rest = [name for n, names in sorted(by_place.items()) if n > 3 for name in names]
    if rest:   # paid 4th: beside the steps, on the ground
        cx = x + int(w * 0.88)
        _figures(p, rest, views, cx, ground, int(w * 0.2), figure_h * 0.8, gold=False)
        p.label(place(p.lang, 4).upper(), p.cap(36), (cx, ground - int(figure_h * 0.8) - int(8 * u)), C.DIM_TEXT,
                "midbottom", max_w=int(w * 0.18))


def _figures(p: Widgets, names: list[str], views: dict[str, MascotView], cx: int, top: int, width: int,
             height: float, gold: bool) -> None:
    """The mascots of one place side by side, standing on ``top`` (centred on ``cx``, within ``width``)."""
    if not names:
        return
    r = int(min(width / len(names) / 2.9, height / 2.6))
    for i, name in enumerate(names):
        fx = cx - width // 2 + int(width * (i + 0.5) / len(names))
        view = views.get(name)
        out = view is not None and view.status == "dq"
        p.mascot(name, fx, top - int(r * 1.15), r, out=out, ring=C.GOLD if gold else None)


__all__ = ["PODIUM_SECONDS", "podium_rising", "podium_scene", "podium_shown", "scene_rect", "winner_at"]
