"""The kiosk screen: draws a :class:`companion.screen.model.ScreenModel` with pygame-ce.

It draws on a surface it is given: the display's (``hardware.display``: KMSDRM full screen on a Pi, a window
on a desktop) or an off-screen one for pictures and tests. Everything is drawn by the program (shapes,
colours, letters); the layout scales with the resolution.

>>> screen = Screen(open_display("dummy", (1280, 720)).surface)          # doctest: +SKIP
>>> surface = Screen.offscreen((1280, 720)).draw(sample_model("race"), now=0.0)   # doctest: +SKIP

The geometry is pure (no pygame): :func:`layout_for` gives a :class:`Layout`; :func:`space_rect` and
:func:`podium_rect` say where a space or a podium row is drawn, so tests can look at the right pixels.
pygame is imported lazily, inside :class:`Screen` only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from companion import colours as C
from companion.call.racecall import ordinal
from companion.screen.model import ScreenModel, TrackView

Rect = tuple[int, int, int, int]
"""``(x, y, width, height)`` in pixels."""

MESSAGE_SECONDS = 4.0
"""How long a message (a refusal or notice) stays on top of the screen."""


# ----- pure geometry ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Where each part of a screen goes for one resolution. All rects are ``(x, y, w, h)`` pixels."""

    width: int
    height: int
    lanes: int
    spaces: int
    header: Rect
    track: Rect
    log: Rect
    seats: Rect
    card: Rect
    podium: Rect
    status: Rect

    @property
    def unit(self) -> float:
        """One 'point': 1.0 at 1080 lines, scales every size and font."""
        return self.height / 1080.0


def _frac(w: int, h: int, x: float, y: float, fw: float, fh: float) -> Rect:
    return (round(w * x), round(h * y), round(w * fw), round(h * fh))


def layout_for(size: tuple[int, int], track: TrackView = TrackView()) -> Layout:
    """The layout for a ``(width, height)`` screen and a track; raises ValueError for a size under 320x240."""
    w, h = size
    if w < 320 or h < 240:
        raise ValueError(f"screen size {w}x{h} is too small (expected at least 320x240)")
    return Layout(w, h, track.lanes, track.spaces,
                  header=_frac(w, h, 0.0, 0.0, 1.0, 0.08),
                  track=_frac(w, h, 0.025, 0.11, 0.69, 0.50),
                  log=_frac(w, h, 0.025, 0.64, 0.43, 0.33),
                  seats=_frac(w, h, 0.475, 0.64, 0.24, 0.33),
                  card=_frac(w, h, 0.74, 0.11, 0.235, 0.33),
                  podium=_frac(w, h, 0.74, 0.47, 0.235, 0.37),
                  status=_frac(w, h, 0.74, 0.86, 0.235, 0.11))


def space_rect(lane: int, space: int, layout: Layout) -> Rect:
    """The rect of ``space`` (1 = back) in ``lane`` (1 = top: the mascots' left, facing the finish on the right).

    Raises ValueError for a lane or space off the track.
    """
    if not (1 <= lane <= layout.lanes and 1 <= space <= layout.spaces):
        raise ValueError(f"lane {lane}, space {space} is off the track "
                         f"(expected lane 1..{layout.lanes}, space 1..{layout.spaces})")
    x, y, w, h = layout.track
    x0 = x + (space - 1) * w // layout.spaces
    x1 = x + space * w // layout.spaces
    y0 = y + (lane - 1) * h // layout.lanes
    y1 = y + lane * h // layout.lanes
    return (x0, y0, x1 - x0, y1 - y0)


def podium_rect(row: int, layout: Layout) -> Rect:
    """The rect of podium row ``row`` (0-based, best place first; four rows)."""
    x, y, w, h = layout.podium
    title = h // 6
    row_h = (h - title) // 4
    return (x, y + title + row * row_h, w, row_h)


def mascot_spots(rect: Rect, count: int) -> list[tuple[int, int, int]]:
    """Centres and radius ``(cx, cy, r)`` of ``count`` mascots sharing one space rect, left to right."""
    x, y, w, h = rect
    r = int(min(w / (count + 0.4) / 2, h * 0.36))
    return [(x + round(w * (j + 1) / (count + 1)), y + h // 2, r) for j in range(count)]


def podium_rows(model: ScreenModel) -> list[tuple[str, int, str]]:
    """``(mascot, place, status)`` per podium row, best place first (status ``finished``/``dq``/``racing``)."""
    status = {m.mascot: m.status for m in model.mascots}
    rows = list(model.podium) or [(m.mascot, m.place) for m in model.mascots if m.place is not None]
    rows.sort(key=lambda mp: (mp[1], mp[0]))
    return [(m, p, status.get(m, "finished")) for m, p in rows[:4]]


# ----- drawing -----------------------------------------------------------------------------------------------
class Screen:
    """Draws screen models onto a pygame surface.

    ``surface``: what to draw on: a display's surface (``hardware.display.open_display(...).surface``) or an
    off-screen ``pygame.Surface`` (:meth:`offscreen`, for pictures and tests). ``display``: the hardware
    display the surface belongs to, if any: ``present()`` and ``close()`` go to it.
    """

    def __init__(self, surface: Any, *, display: Any = None, message_seconds: float = MESSAGE_SECONDS):
        import pygame
        self._pg = pygame
        pygame.font.init()
        self.surface = surface
        self.display = display
        self.painter = Painter(self.surface, message_seconds)

    @classmethod
    def offscreen(cls, size: tuple[int, int], message_seconds: float = MESSAGE_SECONDS) -> "Screen":
        """A screen drawing on an off-screen surface of ``size`` pixels (no display needed)."""
        import pygame
        return cls(pygame.Surface(size), message_seconds=message_seconds)

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def draw(self, model: ScreenModel, now: float):
        """Draw ``model`` as it looks at time ``now`` (seconds, the caller's clock); returns the surface."""
        self.painter.draw(model, now)
        return self.surface

    def present(self) -> None:
        """Show what was drawn on the display (which also hands the window's keys to the buttons)."""
        if self.display is not None:
            self.display.present()

    def save(self, path: str) -> None:
        """Write the current picture to a PNG file."""
        self._pg.image.save(self.surface, path)

    def close(self) -> None:
        if self.display is not None:
            self.display.close()

    def __enter__(self) -> "Screen":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Painter:
    """Draws screen models onto any pygame surface (the display, or an off-screen surface)."""

    def __init__(self, surface, message_seconds: float = MESSAGE_SECONDS):
        import pygame
        self.pg = pygame
        pygame.font.init()
        self.surface = surface
        self.message_seconds = message_seconds
        self._fonts: dict[tuple[int, bool], object] = {}
        self._texts: dict[tuple, object] = {}
        self._tracks: dict[tuple, object] = {}

    # --- small helpers ---
    def font(self, px: float, bold: bool = False):
        key = (max(8, int(px)), bold)
        f = self._fonts.get(key)
        if f is None:
            f = self.pg.font.Font(None, key[0])
            f.set_bold(bold)
            self._fonts[key] = f
        return f

    def text(self, s: str, px: float, colour=C.TEXT, bold: bool = False):
        key = (s, int(px), colour, bold)
        t = self._texts.get(key)
        if t is None:
            if len(self._texts) > 800:
                self._texts.clear()
            t = self.font(px, bold).render(s, True, colour)
            self._texts[key] = t
        return t

    def blit_text(self, s: str, px: float, pos: tuple[int, int], colour=C.TEXT, bold=False, anchor="topleft",
                  max_w: int | None = None) -> Rect:
        surf = self.text(s, px, colour, bold)
        if max_w is not None and surf.get_width() > max_w:
            while len(s) > 2 and self.font(px, bold).size(s + "...")[0] > max_w:
                s = s[:-1]
            surf = self.text(s + "...", px, colour, bold)
        r = surf.get_rect(**{anchor: pos})
        self.surface.blit(surf, r)
        return (r.x, r.y, r.w, r.h)

    def panel(self, rect: Rect, title: str | None, u: float) -> tuple[int, int, int, int]:
        pg = self.pg
        pg.draw.rect(self.surface, C.PANEL, rect, border_radius=int(10 * u))
        x, y, w, h = rect
        if title:
            self.blit_text(title, 34 * u, (x + int(14 * u), y + int(10 * u)), C.DIM_TEXT, bold=True)
            return (x + int(14 * u), y + int(48 * u), w - int(28 * u), h - int(58 * u))
        return (x + int(14 * u), y + int(10 * u), w - int(28 * u), h - int(20 * u))

    # --- entry point ---
    def draw(self, model: ScreenModel, now: float) -> None:
        layout = layout_for(self.surface.get_size(), model.track)
        self.surface.fill(C.BACKGROUND)
        getattr(self, "_screen_" + model.screen.replace("-", "_"))(model, layout, now)
        self._header(model, layout)
        from companion.screen.qr import draw_qr
        draw_qr(self, model, layout)
        if model.message and 0.0 <= now - model.message_at < self.message_seconds:
            self._message(model.message, layout)

    def _header(self, model: ScreenModel, L: Layout) -> None:
        u = L.unit
        x, y, w, h = L.header
        self.pg.draw.rect(self.surface, C.PANEL, L.header)
        self.blit_text("HOT STREAK", 56 * u, (x + int(24 * u), y + h // 2), C.GOLD, bold=True, anchor="midleft")
        parts = []
        if model.screen not in ("attract",):
            parts.append(f"Race {model.race_no}")
        if model.screen == "race":
            parts.append(f"Pass {model.pass_no}")
            parts.append(f"Card {model.revealed} of {model.reveals_per_pass}")
        if model.phase:
            parts.append(model.phase)
        self.blit_text("   |   ".join(parts), 40 * u, (x + int(330 * u), y + h // 2), C.TEXT, anchor="midleft",
                       max_w=int(w * 0.55))
        if model.players:
            self.blit_text(f"{model.players} players", 36 * u, (x + w - int(24 * u), y + h // 2), C.DIM_TEXT,
                           anchor="midright")

    def _message(self, text: str, L: Layout) -> None:
        u = L.unit
        w, h = L.width, L.height
        rect = (int(w * 0.12), int(h * 0.36), int(w * 0.76), int(h * 0.16))
        self.pg.draw.rect(self.surface, C.MESSAGE, rect, border_radius=int(16 * u))
        self.pg.draw.rect(self.surface, C.TEXT, rect, width=max(2, int(4 * u)), border_radius=int(16 * u))
        self.blit_text(text, 54 * u, (w // 2, int(h * 0.44)), C.TEXT, bold=True, anchor="center",
                       max_w=rect[2] - int(40 * u))

    def _status(self, model: ScreenModel, L: Layout) -> None:
        u = L.unit
        x, y, w, h = L.status
        for i, line in enumerate(model.status[:4]):
            self.blit_text(line, 26 * u, (x + int(8 * u), y + int(i * 28 * u)), C.DIM_TEXT, max_w=w)

    # --- mascots ---
    def mascot(self, name: str, cx: int, cy: int, r: int, fallen=False, facing="forward", out=False,
               ring=None) -> None:
        """A mascot: a body in its colour, a nose toward where it faces, its letter; lying flat if fallen,
        grey with a red cross if out (DQ), a ring in ``ring`` colour if given (finished)."""
        pg = self.pg
        s = self.surface
        col = C.OUT if out else C.colour(name)
        d = 1 if facing == "forward" else -1
        if fallen:
            body = pg.Rect(0, 0, int(r * 2.1), int(r * 1.1))
            body.center = (cx, cy + r // 3)
            nose = [(cx + d * int(r * 1.05), body.centery - r // 3), (cx + d * int(r * 1.45), body.centery),
                    (cx + d * int(r * 1.05), body.centery + r // 3)]
            pg.draw.polygon(s, col, nose)
            pg.draw.ellipse(s, col, body)
            pg.draw.ellipse(s, C.BACKGROUND, body, width=max(1, r // 12))
            letter = pg.transform.rotate(self.text(name[0].upper(), r * 1.1, C.BACKGROUND, True), 90 * d)
            s.blit(letter, letter.get_rect(center=body.center))
        else:
            nose = [(cx + d * int(r * 0.8), cy - r // 2), (cx + d * int(r * 1.4), cy),
                    (cx + d * int(r * 0.8), cy + r // 2)]
            pg.draw.polygon(s, col, nose)
            pg.draw.circle(s, col, (cx, cy), r)
            pg.draw.circle(s, C.BACKGROUND, (cx, cy), r, width=max(1, r // 12))
            letter = self.text(name[0].upper(), r * 1.4, C.BACKGROUND, True)
            s.blit(letter, letter.get_rect(center=(cx, cy + r // 12)))
        if ring:
            pg.draw.circle(s, ring, (cx, cy), int(r * 1.18), width=max(2, r // 7))
        if out:
            k = int(r * 0.95)
            wd = max(3, r // 5)
            pg.draw.line(s, C.OUT_MARK, (cx - k, cy - k), (cx + k, cy + k), wd)
            pg.draw.line(s, C.OUT_MARK, (cx - k, cy + k), (cx + k, cy - k), wd)

    # --- the track ---
    def _track_surface(self, model: ScreenModel, L: Layout):
        key = (L.width, L.height, model.track, model.folds)
        surf = self._tracks.get(key)
        if surf is not None:
            return surf
        pg = self.pg
        if len(self._tracks) > 16:
            self._tracks.clear()
        surf = pg.Surface((L.width, L.height))
        surf.fill(C.BACKGROUND)
        t = model.track
        u = L.unit
        edge = t.back_edge(model.folds)
        old = self.surface
        self.surface = surf
        try:
            for lane in range(1, t.lanes + 1):
                for space in range(1, t.spaces + 1):
                    rect = space_rect(lane, space, L)
                    if space < edge:
                        pg.draw.rect(surf, C.FOLDED, rect)
                        x, y, w, h = rect
                        for k in range(-h, w, max(6, int(18 * u))):
                            pg.draw.line(surf, (26, 26, 30), (x + max(k, 0), y + max(-k, 0)),
                                         (x + min(k + h, w), y + min(h, w - k)), 1)
                        continue
                    base = C.TRACK_ALT if space % 2 else C.TRACK
                    if space >= t.final_stretch:
                        base = tuple(min(255, c + 14) for c in base)
                    pg.draw.rect(surf, base, rect)
                    pg.draw.rect(surf, (30, 60, 38), rect, width=1)
                    if space in t.stars:
                        x, y, w, h = rect
                        self._star(x + int(w * 0.22), y + int(h * 0.2), min(w, h) * 0.16)
            # lane lines, numbers, space numbers
            tx, ty, tw, th = L.track
            for lane in range(1, t.lanes + 1):
                x, y, w, h = space_rect(lane, 1, L)
                self.blit_text(str(lane), 28 * u, (tx - int(6 * u), y + h // 2), C.DIM_TEXT, anchor="midright")
            for lane in range(2, t.lanes + 1):
                y = space_rect(lane, 1, L)[1]
                pg.draw.line(surf, C.LINE, (tx, y), (tx + tw, y), max(1, int(2 * u)))
            for space in range(1, t.spaces + 1):
                x, y, w, h = space_rect(t.lanes, space, L)
                self.blit_text(str(space), 24 * u, (x + w // 2, ty + th + int(4 * u)), C.DIM_TEXT, anchor="midtop")
            # fold lines (dashed), the fold edge solid
            for k, first in enumerate(t.fold_lines):
                x = space_rect(1, first, L)[0]
                if first <= edge and k < model.folds:
                    pg.draw.line(surf, C.OUT_MARK, (x, ty), (x, ty + th), max(2, int(5 * u)))
                    continue
                dash = max(4, int(14 * u))
                for yy in range(ty, ty + th, dash * 2):
                    pg.draw.line(surf, C.LINE, (x, yy), (x, min(yy + dash, ty + th)), max(2, int(4 * u)))
            # finish line: a chequered strip between the finish-line space and the next
            fx = space_rect(1, t.finish_space + 1, L)[0] if t.finish_space < t.spaces else tx + tw
            sq = max(4, int(10 * u))
            for i, yy in enumerate(range(ty, ty + th, sq)):
                for j in range(2):
                    colr = C.FINISH if (i + j) % 2 == 0 else (20, 20, 20)
                    pg.draw.rect(surf, colr, (fx - sq + j * sq, yy, sq, min(sq, ty + th - yy)))
            pg.draw.rect(surf, C.LINE, L.track, width=max(1, int(2 * u)))
        finally:
            self.surface = old
        self._tracks[key] = surf
        return surf

    def _star(self, cx: float, cy: float, r: float) -> None:
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.45
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        self.pg.draw.polygon(self.surface, C.STAR, pts)

    def _mascots_on_track(self, model: ScreenModel, L: Layout) -> None:
        groups: dict[tuple[int, int], list] = {}
        for m in model.mascots:
            if m.status == "racing" and 1 <= m.lane <= L.lanes and 1 <= m.space <= L.spaces:
                groups.setdefault((m.lane, m.space), []).append(m)
        for (lane, space), ms in groups.items():
            for m, (cx, cy, r) in zip(ms, mascot_spots(space_rect(lane, space, L), len(ms))):
                self.mascot(m.mascot, cx, cy, r, fallen=m.fallen, facing=m.facing)

    # --- panels ---
    def _last_card(self, model: ScreenModel, L: Layout) -> None:
        u = L.unit
        inner = self.panel(L.card, "Last card", u)
        card = model.last_card
        if card is None:
            self.blit_text("-", 60 * u, (inner[0] + inner[2] // 2, inner[1] + inner[3] // 2), C.DIM_TEXT,
                           anchor="center")
            return
        x, y, w, h = inner
        cw = min(w, int(h * 0.72))
        rect = (x + (w - cw) // 2, y, cw, h)
        col = C.colour(card.mascot)
        self.pg.draw.rect(self.surface, col, rect, border_radius=int(14 * u))
        self.pg.draw.rect(self.surface, C.TEXT, rect, width=max(2, int(4 * u)), border_radius=int(14 * u))
        cx = rect[0] + cw // 2
        self.blit_text(card.notation, 130 * u, (cx, y + int(h * 0.45)), C.BACKGROUND, bold=True, anchor="center",
                       max_w=cw - int(16 * u))
        who = "All" if card.mascot is None else card.mascot.capitalize()
        self.blit_text(who, 38 * u, (cx, y + int(h * 0.12)), C.BACKGROUND, bold=True, anchor="center")
        if card.code:
            self.blit_text(card.code, 32 * u, (cx, y + int(h * 0.85)), C.BACKGROUND, anchor="center")

    def _podium(self, model: ScreenModel, L: Layout) -> None:
        u = L.unit
        self.panel(L.podium, "Podium", u)
        for i, (name, place, status) in enumerate(podium_rows(model)):
            x, y, w, h = podium_rect(i, L)
            r = int(min(h * 0.36, w * 0.1))
            self.blit_text(ordinal(place), 44 * u, (x + int(20 * u), y + h // 2), C.TEXT, bold=True, anchor="midleft")
            out = status == "dq"
            self.mascot(name, x + int(w * 0.36), y + h // 2, r, out=out, ring=None if out else C.GOLD)
            label = name.capitalize() + ("  DQ" if out else "")
            self.blit_text(label, 36 * u, (x + int(w * 0.36) + int(r * 1.7), y + h // 2),
                           C.OUT_MARK if out else C.TEXT, anchor="midleft")

    def _log(self, model: ScreenModel, L: Layout, title: str = "Race call") -> None:
        u = L.unit
        x, y, w, h = self.panel(L.log, title, u)
        px = 30 * u
        step = int(px * 1.05)
        n = max(1, h // step)
        for i, line in enumerate(model.log[-n:]):
            self.blit_text(line, px, (x, y + i * step), C.TEXT if line.startswith(" ") else C.GOLD, max_w=w)

    def _seats_small(self, model: ScreenModel, rect: Rect, u: float) -> None:
        x, y, w, h = self.panel(rect, "Money", u)
        step = int(34 * u)
        for i, seat in enumerate(model.seats[: max(1, h // step)]):
            self.blit_text(seat.name, 32 * u, (x, y + i * step), C.TEXT, max_w=int(w * 0.65))
            self.blit_text(f"${seat.money}", 32 * u, (x + w, y + i * step), C.GOLD, anchor="topright")

    def _odds(self, model: ScreenModel, rect: Rect, u: float) -> None:
        x, y, w, h = self.panel(rect, "Odds (1st / 2nd / 3rd / 4th)", u)
        if not model.odds:
            self.blit_text("not known yet", 32 * u, (x, y), C.DIM_TEXT)
            return
        names = [n for n in ("gobbler", "hurley", "dangle", "mum") if n in model.odds]
        row = h // max(1, len(names))
        for i, name in enumerate(names):
            ry = y + i * row
            bar_h = int(row * 0.6)
            r = int(bar_h * 0.45)
            self.mascot(name, x + r + 2, ry + bar_h // 2, r)
            bx = x + int(r * 3)
            bw = w - int(r * 3)
            base = C.colour(name)
            cur = bx
            for k, p in enumerate(model.odds[name][:4]):
                seg = int(bw * max(0.0, min(1.0, p)))
                shade = tuple(int(c * (1.0 - 0.22 * k)) for c in base)
                self.pg.draw.rect(self.surface, shade, (cur, ry, seg, bar_h))
                if seg > 60 * u:
                    self.blit_text(f"{round(p * 100)}%", 26 * u, (cur + seg // 2, ry + bar_h // 2), C.BACKGROUND,
                                   bold=True, anchor="center")
                cur += seg

    # --- the screens ---
    def _screen_race(self, model: ScreenModel, L: Layout, now: float) -> None:
        self.surface.blit(self._track_surface(model, L), (0, 0))
        self._mascots_on_track(model, L)
        self._last_card(model, L)
        self._podium(model, L)
        self._log(model, L)
        self._seats_small(model, L.seats, L.unit)
        self._status(model, L)

    def _screen_attract(self, model: ScreenModel, L: Layout, now: float) -> None:
        u = L.unit
        w, h = L.width, L.height
        self.blit_text("HOT STREAK", 200 * u, (w // 2, int(h * 0.27)), C.GOLD, bold=True, anchor="center")
        self.blit_text("the race caller", 60 * u, (w // 2, int(h * 0.39)), C.DIM_TEXT, anchor="center")
        names = ("gobbler", "hurley", "dangle", "mum")
        r = int(70 * u)
        for i, name in enumerate(names):
            cx = int(w * (0.2 + 0.2 * i))
            cy = int(h * 0.58 + math.sin(now * 3.0 + i) * 18 * u)
            self.mascot(name, cx, cy, r)
            self.blit_text(name.capitalize(), 40 * u, (cx, int(h * 0.58) + int(r * 1.6)), C.TEXT, anchor="midtop")
        self.blit_text("Scan NEW GAME, then the number of players", 44 * u, (w // 2, int(h * 0.86)), C.TEXT,
                       anchor="center")
        self._form(model, L)
        self._status(model, L)

    def _form(self, model: ScreenModel, L: Layout, x: float = 0.5, y: float = 0.95) -> None:
        """The line of mascot form from past games at (``x``, ``y``) of the screen (minimal; ScreenModel.form)."""
        if model.form:
            self.blit_text(model.form, 34 * L.unit, (int(L.width * x), int(L.height * y)), C.GOLD, anchor="center",
                           max_w=int(L.width * 0.6))

    def _screen_setup(self, model: ScreenModel, L: Layout, now: float) -> None:
        u = L.unit
        w, h = L.width, L.height
        cols = ("gobbler", "hurley", "dangle", "mum", "green")
        area = (int(w * 0.025), int(h * 0.11), int(w * 0.69), int(h * 0.5))
        x, y, aw, ah = self.panel(area, "Known cards in the race deck", u)
        cw = aw // len(cols)
        for i, name in enumerate(cols):
            cx = x + i * cw + cw // 2
            r = int(36 * u)
            if name == "green":
                self.pg.draw.circle(self.surface, C.colour("green"), (cx, y + r + 4), r)
                self.blit_text("A", r * 1.4, (cx, y + r + 4), C.BACKGROUND, bold=True, anchor="center")
            else:
                self.mascot(name, cx, y + r + 4, r)
            cards = model.known_cards.get(name, ())
            for j, note in enumerate(cards[:9]):
                self.blit_text(note, 38 * u, (cx, y + int(2 * r + 20 * u) + j * int(40 * u)), C.colour(name),
                               bold=True, anchor="midtop")
            self.blit_text(f"{len(cards)} known", 28 * u, (cx, y + ah), C.DIM_TEXT, anchor="midbottom")
        self._odds(model, L.log, u)
        self._seats_small(model, L.seats, u)
        self._status(model, L)
        self._form(model, L, 0.37, 0.625)

    def _screen_betting(self, model: ScreenModel, L: Layout, now: float) -> None:
        u = L.unit
        w, h = L.width, L.height
        area = (int(w * 0.025), int(h * 0.11), int(w * 0.69), int(h * 0.5))
        x, y, aw, ah = self.panel(area, "Ticket draft", u)
        who = model.whose_pick or "-"
        self.blit_text(f"{who}, your pick", 80 * u, (x, y + int(10 * u)), C.GOLD, bold=True, max_w=aw)
        stacks = list(model.stacks_left.items())
        if stacks:
            sw = aw // len(stacks)
            base_y = y + ah - int(60 * u)
            for i, (name, left) in enumerate(stacks):
                cx = x + i * sw + sw // 2
                col = C.COLOURS.get(name, C.TEXT if name == "yes" else C.DIM_TEXT)
                tw, th = int(sw * 0.6), int(34 * u)
                for k in range(left):
                    self.pg.draw.rect(self.surface, col, (cx - tw // 2, base_y - (k + 1) * int(th * 1.15), tw, th),
                                      border_radius=int(6 * u))
                self.blit_text(f"{name.upper() if name in ('yes', 'no') else name.capitalize()}: {left}", 32 * u,
                               (cx, base_y + int(8 * u)), C.TEXT, anchor="midtop")
        sb = (L.card[0], L.card[1], L.card[2], L.card[3])
        sx, sy, sw_, sh = self.panel(sb, "Side bet", u)
        self._wrap(model.side_bet or "-", 40 * u, (sx, sy, sw_, sh), C.TEXT)
        self._odds(model, L.log, u)
        self._seats_small(model, L.seats, u)
        self._status(model, L)

    def _wrap(self, text: str, px: float, rect: Rect, colour) -> None:
        x, y, w, h = rect
        words = text.split()
        line = ""
        step = int(px * 1.1)
        for word in words:
            trial = (line + " " + word).strip()
            if self.font(px).size(trial)[0] > w and line:
                self.blit_text(line, px, (x, y), colour)
                y += step
                line = word
            else:
                line = trial
        if line:
            self.blit_text(line, px, (x, y), colour)

    def _screen_payouts(self, model: ScreenModel, L: Layout, now: float) -> None:
        u = L.unit
        w, h = L.width, L.height
        area = (int(w * 0.025), int(h * 0.11), int(w * 0.69), int(h * 0.86))
        x, y, aw, ah = self.panel(area, f"Payouts after race {model.race_no}", u)
        cols = (0.0, 0.3, 0.45, 0.6, 0.74)
        for c, head in zip(cols, ("Player", "Before", "After", "Change", "Tickets")):
            self.blit_text(head, 32 * u, (x + int(aw * c), y), C.DIM_TEXT, bold=True)
        n = max(1, len(model.seats))
        step = min(int(70 * u), (ah - int(50 * u)) // n)
        px = min(44 * u, step * 0.8)
        for i, seat in enumerate(model.seats):
            ry = y + int(50 * u) + i * step
            before = seat.money_before
            change = None if before is None else seat.money - before
            self.blit_text(seat.name, px, (x, ry), C.TEXT, bold=True, max_w=int(aw * 0.28))
            self.blit_text("-" if before is None else f"${before}", px, (x + int(aw * cols[1]), ry), C.DIM_TEXT)
            self.blit_text(f"${seat.money}", px, (x + int(aw * cols[2]), ry), C.GOLD, bold=True)
            if change is not None:
                self.blit_text(f"{change:+d}", px, (x + int(aw * cols[3]), ry),
                               (90, 220, 110) if change > 0 else (C.OUT_MARK if change < 0 else C.DIM_TEXT), bold=True)
            self.blit_text(", ".join(seat.tickets), px * 0.7, (x + int(aw * cols[4]), ry + int(px * 0.15)), C.DIM_TEXT,
                           max_w=int(aw * 0.26))
        self._podium(model, L)
        self._status(model, L)

    def _screen_game_over(self, model: ScreenModel, L: Layout, now: float) -> None:
        u = L.unit
        w, h = L.width, L.height
        self.blit_text("Game over", 110 * u, (w // 2, int(h * 0.17)), C.GOLD, bold=True, anchor="center")
        n = max(1, len(model.standings))
        step = min(int(80 * u), int(h * 0.5) // n)
        for i, (name, money) in enumerate(model.standings):
            ry = int(h * 0.27) + i * step
            col = C.GOLD if i == 0 else C.TEXT
            self.blit_text(f"{i + 1}.", step * 0.8, (int(w * 0.3), ry), col, bold=True, anchor="topright")
            self.blit_text(name, step * 0.8, (int(w * 0.32), ry), col, bold=i == 0, max_w=int(w * 0.3))
            self.blit_text(f"${money}", step * 0.8, (int(w * 0.7), ry), col, bold=True, anchor="topright")
        if model.life_outcome:
            self._wrap(model.life_outcome, 44 * u, (int(w * 0.12), int(h * 0.8), int(w * 0.76), int(h * 0.15)),
                       C.DIM_TEXT)
        self._status(model, L)
