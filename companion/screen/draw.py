"""The kiosk screen: draws a :class:`companion.screen.model.ScreenModel` with pygame-ce.

It draws on a surface it is given: the display's (``hardware.display``: KMSDRM full screen on a Pi, a window
on a desktop) or an off-screen one for pictures and tests. Everything is drawn by the program (shapes,
colours, letters); the layout scales with the resolution.

>>> screen = Screen(open_display("dummy", (1280, 720)).surface)          # doctest: +SKIP
>>> surface = Screen.offscreen((1280, 720)).draw(sample_model("race"), now=0.0)   # doctest: +SKIP

The geometry is pure (``companion.screen.layout``); the parts are drawn by ``track`` (the track and the moves),
``race_panels`` (running order, last card, race call, money), ``screens`` (the other screens) and ``widgets``
(text that fits, badges, mascots, pictograms). The :class:`Painter` here puts a frame together: the screen,
the header, then on top a big moment (``moment_band``) or the fold moment, the name entry and a refusal message,
in that order.
pygame is imported lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from companion import colours as C
from companion.screen.layout import (KEY_CAP, Layout, Rect, layout_for, mascot_spots, order_rect, podium_rect,
                                     space_rect)
from companion.screen.model import ScreenModel, trouble
from companion.screen.moment_band import MomentBand
from companion.screen.moments import showing
from companion.screen.panel_screens import PanelScreens
from companion.screen.podium_scene import podium_scene
from companion.screen.race_panels import RacePanels
from companion.screen.service_screen import ServiceScreen
from companion.screen.track import TrackKey, TrackPainter
from companion.screen.widgets import shade
from companion.screen.words import part, say

if TYPE_CHECKING:
    import pygame

    from hardware.device import Display

Extra = Callable[["pygame.Surface", ScreenModel], object]
"""What :meth:`Screen.draw` calls with the surface and the model to draw below the overlays."""

MESSAGE_SECONDS = 4.0
"""How long a message (a refusal or notice) stays on top of the screen."""


class Screen:
    """Draws screen models onto a pygame surface.

    ``surface``: what to draw on: a display's surface (``hardware.display.open_display(...).surface``) or an
    off-screen ``pygame.Surface`` (:meth:`offscreen`, for pictures and tests). ``display``: the hardware
    display the surface belongs to, if any: ``present()`` and ``close()`` go to it.
    """

    def __init__(self, surface: pygame.Surface, *, display: Display | None = None,
                 message_seconds: float = MESSAGE_SECONDS) -> None:
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

    def draw(self, model: ScreenModel, now: float, extra: Extra | None = None) -> pygame.Surface:
        """Draw ``model`` as it looks at time ``now`` (seconds, the caller's clock); ``extra(surface, model)``
        draws on the picture below the overlays (the desktop LED preview). Returns the surface."""
        self.painter.draw(model, now, extra)
        return self.surface

    def present(self) -> None:
        """Show what was drawn on the display (which also hands the window's keys to the buttons)."""
        if self.display is not None:
            self.display.present()

    def poll(self) -> None:
        """Hand the window's keys on without showing a new frame (a display without ``poll``: nothing)."""
        poll = getattr(self.display, "poll", None)
        if poll is not None:
            poll()

    def save(self, path: str) -> None:
        """Write the current picture to a PNG file."""
        self._pg.image.save(self.surface, path)

    def close(self) -> None:
        if self.display is not None:
            self.display.close()

    def __enter__(self) -> "Screen":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Painter(TrackPainter, RacePanels, PanelScreens, MomentBand, ServiceScreen):
    """Draws screen models onto any pygame surface (the display, or an off-screen surface)."""

    def __init__(self, surface: pygame.Surface, message_seconds: float = MESSAGE_SECONDS) -> None:
        super().__init__(surface)
        self.message_seconds = message_seconds
        self._tracks: dict[TrackKey, pygame.Surface] = {}

    def draw(self, model: ScreenModel, now: float, extra: Extra | None = None) -> None:
        """Draw one frame of ``model`` at time ``now``; ``extra(surface, model)`` goes under the overlays."""
        L = layout_for(self.surface.get_size(), model.track)
        self.lang = model.language
        self.min_cap = L.metrics.min_cap
        self.layout = L
        self.layer = "screen"
        if self.boxes is not None:
            self.boxes = []   # the measuring hook: this frame's text boxes
        self.drawn_texts = []
        self.surface.fill(C.BACKGROUND)
        if model.screen == "race":
            self.screen_race(model, L, now)
        else:
            getattr(self, "screen_" + model.screen.replace("-", "_"))(model, L, now)
        self.header(model, L)
        from companion.screen.qr import draw_qr
        draw_qr(self, model, L)
        if extra is not None:
            extra(self.surface, model)
        moment = showing(model.moments, model.moment_at, now) if model.screen == "race" else None
        if moment is not None:  # a big moment first, as the voice calls it; then the fold band
            self.layer = "moment"
            self.moment_band(model, L, moment)
        elif model.screen == "race" and model.fold is not None:
            self.layer = "fold"
            self.fold_moment(model, L)
        if model.name_entry:
            self.layer = "name"
            self.name_entry(model.name_entry, L)
        if model.message and 0.0 <= now - model.message_at < self.message_seconds:
            self.layer = "message"
            self.message(model.message, L, model.message_kind)
        self.layer = "screen"

    def screen_race(self, model: ScreenModel, L: Layout, now: float) -> None:
        self.surface.blit(self.track_surface(model, L), (0, 0))
        self.track_numbers(model, L)
        self.mascots_on_track(model, L, now)
        self.running_order(model, L, now)
        if not L.small:   # the 7-inch panel keeps the track, the running order and the money
            self.last_card(model, L)
            self.race_call(model, L)
        self.money(model, L.seats, L.unit, now)
        podium_scene(self, model, L, now)   # at the race's end, over the track's part of the screen

    def header(self, model: ScreenModel, L: Layout) -> None:
        """The title, race / pass / card chips, and device trouble (only when there is some: which parts)."""
        u = L.unit
        x, y, w, h = L.header
        self.pg.draw.rect(self.surface, C.PANEL, L.header)
        cy = y + h // 2
        cx = x + int(28 * u)
        if model.screen != "attract" and not (L.small and model.screen == "race"):  # attract: the title large
            title = self.label("HOT STREAK", self.cap(30), (cx, cy), C.GOLD, "midleft")
            cx = title[0] + title[2] + int(36 * u)
        chips = []
        if model.screen not in ("attract", "service"):
            chips.append(self.w("race", n=model.race_no))
        if model.screen == "race":
            chips += [self.w("pass", n=model.pass_no), self.w("card_of", n=model.revealed, m=model.reveals_per_pass)]
        for chip in chips:
            r = self.pill(chip, self.cap(24), (cx, cy), shade(C.PANEL, 1.9), C.TEXT)
            cx = r[0] + r[2] + int(14 * u)
        problems = trouble(model.status)
        right = x + w - int(28 * u)
        if problems:  # which parts, in the table's words; what is wrong with them is in the log and the status
            parts = dict.fromkeys(part(self.lang, line) for line in problems)
            text = self.w("check") + " " + ", ".join(parts).upper()
            cap = self.fit_cap(text, self.cap(18), right - cx - int(40 * u))
            self.pill(text, cap, (right, cy), C.MESSAGE, C.TEXT, anchor="midright")
        elif model.phase and model.screen != "race":   # only where it fits beside the chips
            phase_cap = self.cap(20)
            if self.font(phase_cap).size(model.phase.upper())[0] <= right - cx:
                self.label(model.phase.upper(), phase_cap, (right, cy), C.DIM_TEXT, "midright", max_w=right - cx)

    def fold_moment(self, model: ScreenModel, L: Layout) -> None:
        """The full-width "fold the mat" band: which spaces go under and who went under with them (its lines
        wrapped, the band taller where they need it)."""
        u = L.unit
        fold = model.fold
        assert fold is not None, "drawn only after a fold"
        x, y, w, h = L.bottom
        first = model.track.back_edge(fold.fold - 1)
        last = fold.first_space - 1
        if fold.under:
            names = self.w("and").join(n.upper() for n in fold.under)
            who = self.w("fold_under", names=names)
        else:
            who = self.w("fold_nobody")
        r = int(30 * u)
        figures = len(fold.under) * 3 * r
        inner = w - int(60 * u)
        items = [(self.w("fold_title"), self.cap(80), C.GOLD, inner),
                 (self.w("fold_spaces", a=first, b=last), self.cap(40), C.TEXT, inner),
                 (who, self.cap(KEY_CAP), C.TEXT, inner - figures),
                 (say(self.lang, "fold_next"), self.cap(22), shade(C.TEXT, 0.85), inner)]
        lines = [(line, cap, colour, k) for k, (text, cap, colour, width) in enumerate(items)
                 for line in self.lines_for(text, cap, width)]
        heights = [int(max(self.font(cap).get_height(), cap * 1.55)) for _, cap, _, _ in lines]
        needed = sum(heights) + int(24 * u) + 8
        if needed > h:   # long lines on the 7-inch panel: the band grows upward, over whole lanes of the track
            top = max(0, y + h - needed)
            lane_tops = [space_rect(lane, 1, L)[1] for lane in range(1, L.lanes + 1)]
            top = max([t for t in lane_tops if t <= top], default=min(top, L.track[1]))
            y, h = top, y + h - top
        self.pg.draw.rect(self.surface, shade(C.MESSAGE, 0.75), (x, y, w, h))
        self.record((x, y, w, h), "", 0.0, kind="band")
        self.pg.draw.rect(self.surface, C.GOLD, (x, y, w, max(4, int(8 * u))))
        spare = max(0, h - needed) // (len(lines) + 1)
        ly = y + int(16 * u) + 4 + spare
        for (line, cap, colour, k), lh in zip(lines, heights):
            row = self.label(line, cap, (w // 2, ly), colour, "midtop", max_w=inner)
            if k == 2 and len(self.lines_for(who, cap, inner - figures)) == 1:
                for i, name in enumerate(fold.under):
                    self.mascot(name, row[0] - int(r * 1.6) - i * 3 * r, row[1] + row[3] // 2, r, out=True)
            ly += lh + spare

    def name_entry(self, entry: tuple[int, int, str], L: Layout) -> None:
        """The name being typed on the desktop keyboard (``companion.screen.keys.NameEntry.view``)."""
        u, w, h = L.unit, L.width, L.height
        bw = int(w * (0.94 if L.small else 0.6))
        seat, seats, typed = entry
        inner = bw - 40
        keys_cap = self.cap(17)
        keys: list[str] = []   # the keys' hints ("ENTER SAVES   TAB NEXT SEAT"), whole hints to a line
        for item in self.w("name_keys").split("   "):
            joined = f"{keys[-1]}   {item}" if keys else item
            if keys and self.font(keys_cap).size(joined)[0] <= inner:
                keys[-1] = joined
            else:
                keys.append(item)
        title_cap, typed_cap = self.cap(26), self.cap(50)
        gap = int(24 * u) + 6
        bh = int(title_cap * 1.45 + typed_cap * 1.45 + len(keys) * keys_cap * 1.6 + 4 * gap)
        box = ((w - bw) // 2, max(int(h * 0.12), (h - bh) // 2), bw, bh)
        self.pg.draw.rect(self.surface, C.PANEL, box, border_radius=int(18 * u))
        self.pg.draw.rect(self.surface, C.GOLD, box, width=max(2, int(5 * u)), border_radius=int(18 * u))
        bx, by = box[0], box[1]
        title = self.w("name_for", seat=seat, seats=seats)
        r = self.label(title, title_cap, (bx + bw // 2, by + gap), C.DIM_TEXT, "midtop", max_w=inner)
        r = self.label(typed + "_", typed_cap, (bx + bw // 2, r[1] + r[3] + gap), C.TEXT, "midtop", max_w=inner)
        ky = r[1] + r[3] + gap
        for i, line in enumerate(keys):
            self.label(line, keys_cap, (bx + bw // 2, ky + int(i * keys_cap * 1.6)), C.DIM_TEXT, "midtop",
                       max_w=inner)

    def message(self, text: str, L: Layout, kind: str = "refusal") -> None:
        """A refusal or notice (``kind``) on top: the whole sentence, wrapped, never cut, over the lower panels
        (never over the two leading rows of the running order); on the 7-inch panel over the track."""
        u, w, h = L.unit, L.width, L.height
        sentence = text.strip()
        sentence = sentence[:1].upper() + sentence[1:]
        if sentence and sentence[-1] not in ".!?":
            sentence += "."
        bw = int(w * 0.9)
        inner = bw - int(80 * u)
        lead = order_rect(1, L)
        top, bottom = lead[1] + lead[3] + 6, h - int(20 * u)   # below the leading rows, above the screen's edge
        if L.small:   # the 7-inch panel: the running order is under the track, so the message goes over the track
            top, bottom = L.header[1] + L.header[3] + 4, L.order[1] + order_rect(0, L)[3] // 2
        cap, lines = self.fit_wrap(sentence, self.cap(34), inner, bottom - top - int(110 * u))
        step = int(cap * 1.75)
        bh = int(70 * u) + len(lines) * step + int(40 * u)
        box = ((w - bw) // 2, top if L.small else max(top, min(L.bottom[1], bottom - bh)), bw, bh)
        self.pg.draw.rect(self.surface, C.BACKGROUND, tuple(v + d for v, d in zip(box, (-6, -6, 12, 12))),
                          border_radius=int(20 * u))
        self.pg.draw.rect(self.surface, C.MESSAGE, box, border_radius=int(16 * u))
        self.pg.draw.rect(self.surface, C.TEXT, box, width=max(2, int(4 * u)), border_radius=int(16 * u))
        bx, by = box[0], box[1]
        title = self.w("notice" if kind == "notice" else "not_taken")
        head = self.label(title, self.cap(22), (bx + int(40 * u), by + int(16 * u)), C.GOLD)
        top = max(by + int(70 * u), head[1] + head[3] + int(8 * u))
        for i, line in enumerate(lines):
            self.label(line, cap, (bx + int(40 * u), top + i * step), C.TEXT, max_w=inner)


__all__ = ["KEY_CAP", "Layout", "MESSAGE_SECONDS", "Painter", "Rect", "Screen", "layout_for", "mascot_spots",
           "order_rect", "podium_rect", "space_rect"]
