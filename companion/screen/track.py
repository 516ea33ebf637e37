"""The track on the race screen: lanes, spaces, stars, fold lines, the finish line, the folded part, the
mascots where the engine says, and the last card's move (a ghost where the mascot was, an arrow, a ring)."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

from companion import colours as C
from companion.screen.layout import Layout, mascot_spots, space_centre, space_rect
from companion.screen.model import MascotView, ScreenModel, TrackView
from companion.screen.motion import bent_paths, draw_moving
from companion.screen.widgets import Widgets, shade

if TYPE_CHECKING:
    import pygame

TrackKey = tuple[int, int, TrackView, int]
"""What a drawn track depends on: ``(width, height, track, folds)``."""

HIGHLIGHT = C.TEXT
"""The colour of the moved mascot's ring and path (white: it reads on every lane colour)."""


class TrackPainter(Widgets):
    """Draws the track part of the race screen (a mixin of the screen's Painter)."""

    _tracks: dict[TrackKey, pygame.Surface]

    def track_surface(self, model: ScreenModel, L: Layout) -> pygame.Surface:
        """The static track for this size, track and fold count (cached)."""
        key: TrackKey = (L.width, L.height, model.track, model.folds)
        cached = self._tracks.get(key)
        if cached is not None:
            return cached
        if len(self._tracks) > 16:
            self._tracks.clear()
        surf: pygame.Surface = self.pg.Surface((L.width, L.height))
        surf.fill(C.BACKGROUND)
        old, self.surface = self.surface, surf
        try:
            self._paint_track(model, L)
        finally:
            self.surface = old
        self._tracks[key] = surf
        return surf

    def _paint_track(self, model: ScreenModel, L: Layout) -> None:
        pg, surf, t, u = self.pg, self.surface, model.track, L.unit
        edge = t.back_edge(model.folds)
        for lane in range(1, t.lanes + 1):
            for space in range(1, t.spaces + 1):
                rect = space_rect(lane, space, L)
                x, y, w, h = rect
                if space < edge:
                    pg.draw.rect(surf, C.FOLDED, rect)
                    for k in range(-h, w, max(6, int(18 * u))):
                        pg.draw.line(surf, (26, 26, 30), (x + max(k, 0), y + max(-k, 0)),
                                     (x + min(k + h, w), y + min(h, w - k)), 1)
                    continue
                base = C.TRACK_ALT if space % 2 else C.TRACK
                if space >= t.final_stretch:
                    base = shade(base, 1.18)
                pg.draw.rect(surf, base, rect)
                pg.draw.rect(surf, shade(C.TRACK, 0.6), rect, width=1)
                if space in t.stars:
                    self.star(x + int(w * 0.18), y + int(h * 0.17), min(w, h) * 0.13)
        tx, ty, tw, th = L.track
        for lane in range(2, t.lanes + 1):
            y = space_rect(lane, 1, L)[1]
            pg.draw.line(surf, C.LINE, (tx, y), (tx + tw, y), max(1, int(2 * u)))
        for k, first in enumerate(t.fold_lines):
            x = space_rect(1, first, L)[0]
            if first <= edge and k < model.folds:
                pg.draw.line(surf, C.OUT_MARK, (x, ty), (x, ty + th), max(3, int(6 * u)))
                continue
            dash = max(4, int(14 * u))
            for yy in range(ty, ty + th, dash * 2):
                pg.draw.line(surf, C.LINE, (x, yy), (x, min(yy + dash, ty + th)), max(2, int(4 * u)))
        fx = space_rect(1, t.finish_space + 1, L)[0] if t.finish_space < t.spaces else tx + tw
        sq = max(4, int(10 * u))
        for i, yy in enumerate(range(ty, ty + th, sq)):
            for j in range(2):
                colr = C.FINISH if (i + j) % 2 == 0 else (20, 20, 20)
                pg.draw.rect(surf, colr, (fx - sq + j * sq, yy, sq, min(sq, ty + th - yy)))
        pg.draw.rect(surf, C.LINE, L.track, width=max(1, int(2 * u)))

    def track_numbers(self, model: ScreenModel, L: Layout) -> None:
        """The lane numbers left of the track and the space numbers under it (every other one, counted back
        from the last, when they would not fit side by side at the size class's smallest text; none on the
        7-inch panel, where the track takes their room)."""
        t, u = model.track, L.unit
        tx, ty, tw, th = L.track
        edge = t.back_edge(model.folds)
        cap = self.cap(18)
        for lane in range(1, t.lanes + 1):
            x, y, w, h = space_rect(lane, 1, L)
            self.label(str(lane), cap, (tx - int(10 * u), y + h // 2), C.DIM_TEXT, "midright")
        if L.small:
            return   # the 7-inch panel: the track reaches down to the panels; stars and fold lines mark the spaces
        widest = self.font(cap).size(str(t.spaces))[0] + int(6 * u)
        every = 1 if widest < tw / t.spaces else 2
        for space in range(1, t.spaces + 1):
            if (t.spaces - space) % every:
                continue   # counted back from the last space, which is always numbered
            x, y, w, h = space_rect(t.lanes, space, L)
            self.label(str(space), cap, (x + w // 2, ty + th + int(8 * u)),
                       C.DIM_TEXT if space >= edge else shade(C.DIM_TEXT, 0.5), "midtop")

    def mascots_on_track(self, model: ScreenModel, L: Layout,
                         now: float | None = None) -> dict[str, tuple[int, int, int]]:
        """Draw every racing mascot on its space, and a mascot the last card finished on the space it reached
(past the line); returns where each was drawn ``{mascot: (cx, cy, r)}``. While the last card's moves play at
``now``, ``companion.screen.motion`` draws them in motion."""
        groups: dict[tuple[int, int], list[MascotView]] = {}
        for m in model.mascots:
            if m.status == "racing" and 1 <= m.lane <= L.lanes and 1 <= m.space <= L.spaces:
                groups.setdefault((m.lane, m.space), []).append(m)
        # the last card's final crossing: who it finished (or placed as the one left) stays on the track
        # for this picture, past the line, ringed in gold
        placed = {mv.mascot: mv for mv in model.moves if mv.what in ("finished", "placed")}
        for m in model.mascots:
            mv = placed.get(m.mascot)
            if mv is not None and m.status == "finished" and 1 <= mv.to_lane <= L.lanes:
                key = (mv.to_lane, min(max(mv.to_space, 1), L.spaces))
                groups.setdefault(key, []).append(dataclasses.replace(m, lane=key[0], space=key[1]))
        spots: dict[str, tuple[int, int, int]] = {}
        for (lane, space), ms in groups.items():
            for m, spot in zip(ms, mascot_spots(space_rect(lane, space, L), len(ms))):
                spots[m.mascot] = spot
        if draw_moving(self, model, L, spots, now, HIGHLIGHT, set(placed)):   # the moves in motion
            return spots
        self._move_paths(model, L, spots)
        letter = L.cap(0, "letter")   # the size class's smallest letter on the track (20 px on the panel)
        for (lane, space), ms in groups.items():
            for m in ms:
                cx, cy, r = spots[m.mascot]
                self.mascot(m.mascot, cx, cy, r, fallen=m.fallen, facing=m.facing,
                            ring=C.GOLD if m.mascot in placed else None, letter_cap=letter)
        moved = {mv.mascot for mv in model.moves}
        for name in moved & set(spots):
            cx, cy, r = spots[name]
            self.pg.draw.circle(self.surface, HIGHLIGHT, (cx, cy), int(r * 1.45), width=max(3, int(r * 0.14)))
        return spots

    def _move_paths(self, model: ScreenModel, L: Layout, spots: dict[str, tuple[int, int, int]]) -> None:
        """For each mascot the last card moved: a ghost ring where it was and an arrow to where it is."""
        u = L.unit
        bent = bent_paths(self, model, L, spots, HIGHLIGHT)   # a move and a swerve: along the path it took
        for mv in model.moves:
            if (mv.from_lane, mv.from_space) == (mv.to_lane, mv.to_space) or mv.mascot in bent:
                continue
            start = space_centre(mv.from_lane, mv.from_space, L)
            end = spots.get(mv.mascot, (*space_centre(mv.to_lane, mv.to_space, L), 0))[:2]
            r = int(min(space_rect(1, 1, L)[2], space_rect(1, 1, L)[3]) * 0.3)
            colour = C.colour(mv.mascot)
            self.pg.draw.circle(self.surface, colour, start, r, width=max(2, int(4 * u)))
            self.pg.draw.circle(self.surface, colour, start, max(3, r // 5))
            dist = math.dist(start, end)
            if dist < r * 1.2:
                continue
            k = (dist - r * 1.35) / dist
            tip = (start[0] + (end[0] - start[0]) * k, start[1] + (end[1] - start[1]) * k)
            self.arrow(start, tip, C.BACKGROUND, max(6, int(14 * u)), max(12, 30 * u))
            self.arrow(start, tip, HIGHLIGHT, max(3, int(7 * u)), max(10, 24 * u))


__all__ = ["HIGHLIGHT", "TrackPainter"]
