"""The kiosk screen: draws a :class:`companion.screen.model.ScreenModel` with pygame-ce.

It draws on a surface it is given: the display's (``hardware.display``: KMSDRM full screen on a Pi, a window
on a desktop) or an off-screen one for pictures and tests. Everything is drawn by the program (shapes,
colours, letters); the layout scales with the resolution.

>>> screen = Screen(open_display("dummy", (1280, 720)).surface)          # doctest: +SKIP
>>> surface = Screen.offscreen((1280, 720)).draw(sample_model("race"), now=0.0)   # doctest: +SKIP

The geometry is pure (``companion.screen.layout``); the parts are drawn by ``track`` (the track and the moves),
``race_panels`` (running order, last card, race call, money), ``screens`` (the other screens) and ``widgets``
(text that fits, badges, mascots, pictograms). The :class:`Painter` here puts a frame together: the screen,
the header, then on top the fold moment, the name entry and a refusal message, in that order.
pygame is imported lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from companion import colours as C
from companion.screen.layout import (KEY_CAP, Layout, Rect, layout_for, mascot_spots, order_rect, podium_rect,
                                     space_rect)
from companion.screen.model import ScreenModel, trouble
from companion.screen.race_panels import RacePanels
from companion.screen.screens import OtherScreens
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


class Painter(TrackPainter, RacePanels, OtherScreens):
    """Draws screen models onto any pygame surface (the display, or an off-screen surface)."""

    def __init__(self, surface: pygame.Surface, message_seconds: float = MESSAGE_SECONDS) -> None:
        super().__init__(surface)
        self.message_seconds = message_seconds
        self._tracks: dict[TrackKey, pygame.Surface] = {}

    def draw(self, model: ScreenModel, now: float, extra: Extra | None = None) -> None:
        """Draw one frame of ``model`` at time ``now``; ``extra(surface, model)`` goes under the overlays."""
        L = layout_for(self.surface.get_size(), model.track)
        self.lang = model.language
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
        if model.screen == "race" and model.fold is not None:
            self.fold_moment(model, L)
        if model.name_entry:
            self.name_entry(model.name_entry, L)
        if model.message and 0.0 <= now - model.message_at < self.message_seconds:
            self.message(model.message, L, model.message_kind)

    def screen_race(self, model: ScreenModel, L: Layout, now: float) -> None:
        self.surface.blit(self.track_surface(model, L), (0, 0))
        self.mascots_on_track(model, L)
        self.running_order(model, L)
        self.last_card(model, L)
        self.race_call(model, L)
        self.money(model, L.seats, L.unit)

    def header(self, model: ScreenModel, L: Layout) -> None:
        """The title, race / pass / card chips, and device trouble (only when there is some: which parts)."""
        u = L.unit
        x, y, w, h = L.header
        self.pg.draw.rect(self.surface, C.PANEL, L.header)
        cy = y + h // 2
        cx = x + int(28 * u)
        if model.screen != "attract":  # the attract screen has the title large
            title = self.label("HOT STREAK", 30 * u, (cx, cy), C.GOLD, "midleft")
            cx = title[0] + title[2] + int(36 * u)
        chips = []
        if model.screen != "attract":
            chips.append(self.w("race", n=model.race_no))
        if model.screen == "race":
            chips += [self.w("pass", n=model.pass_no), self.w("card_of", n=model.revealed, m=model.reveals_per_pass)]
        for chip in chips:
            r = self.pill(chip, 24 * u, (cx, cy), shade(C.PANEL, 1.9), C.TEXT)
            cx = r[0] + r[2] + int(14 * u)
        problems = trouble(model.status)
        right = x + w - int(28 * u)
        if problems:  # which parts, in the table's words; what is wrong with them is in the log and the status
            parts = dict.fromkeys(part(self.lang, line) for line in problems)
            text = self.w("check") + " " + ", ".join(parts).upper()
            cap = self.fit_cap(text, 18 * u, right - cx - int(40 * u))
            self.pill(text, cap, (right, cy), C.MESSAGE, C.TEXT, anchor="midright")
        elif model.phase and model.screen != "race":
            self.label(model.phase.upper(), 20 * u, (right, cy), C.DIM_TEXT, "midright", max_w=right - cx)

    def fold_moment(self, model: ScreenModel, L: Layout) -> None:
        """The full-width "fold the mat" band: which spaces go under and who went under with them."""
        u = L.unit
        fold = model.fold
        assert fold is not None, "drawn only after a fold"
        x, y, w, h = L.bottom
        self.pg.draw.rect(self.surface, shade(C.MESSAGE, 0.75), (x, y, w, h))
        self.pg.draw.rect(self.surface, C.GOLD, (x, y, w, max(4, int(8 * u))))
        first = model.track.back_edge(fold.fold - 1)
        last = fold.first_space - 1
        self.label(self.w("fold_title"), 80 * u, (w // 2, y + int(h * 0.2)), C.GOLD, "center", max_w=w - int(60 * u))
        self.label(self.w("fold_spaces", a=first, b=last), 40 * u, (w // 2, y + int(h * 0.44)), C.TEXT, "center",
                   max_w=w - int(60 * u))
        if fold.under:
            names = self.w("and").join(n.upper() for n in fold.under)
            who = self.w("fold_under", names=names)
        else:
            who = self.w("fold_nobody")
        r = int(30 * u)
        row = self.label(who, KEY_CAP * u, (w // 2, y + int(h * 0.64)), C.TEXT, "center",
                         max_w=w - int(60 * u) - len(fold.under) * 3 * r)
        for i, name in enumerate(fold.under):
            self.mascot(name, row[0] - int(r * 1.6) - i * 3 * r, row[1] + row[3] // 2, r, out=True)
        self.label(say(self.lang, "fold_next"), 22 * u,
                   (w // 2, y + int(h * 0.86)), shade(C.TEXT, 0.85), "center", max_w=w - int(60 * u))

    def name_entry(self, entry: tuple[int, int, str], L: Layout) -> None:
        """The name being typed on the desktop keyboard (``companion.screen.keys.NameEntry.view``)."""
        u, w, h = L.unit, L.width, L.height
        box = (int(w * 0.2), int(h * 0.3), int(w * 0.6), int(h * 0.34))
        self.pg.draw.rect(self.surface, C.PANEL, box, border_radius=int(18 * u))
        self.pg.draw.rect(self.surface, C.GOLD, box, width=max(2, int(5 * u)), border_radius=int(18 * u))
        seat, seats, typed = entry
        title = self.w("name_for", seat=seat, seats=seats)
        bx, by, bw, bh = box
        self.label(title, 26 * u, (bx + bw // 2, by + int(bh * 0.18)), C.DIM_TEXT, "center", max_w=bw - 40)
        self.label(typed + "_", 50 * u, (bx + bw // 2, by + int(bh * 0.5)), C.TEXT, "center", max_w=bw - 40)
        self.label(self.w("name_keys"), 17 * u, (bx + bw // 2, by + int(bh * 0.84)),
                   C.DIM_TEXT, "center", max_w=bw - 40)

    def message(self, text: str, L: Layout, kind: str = "refusal") -> None:
        """A refusal or notice (``kind``) on top: the whole sentence, wrapped, never cut, over the lower panels
        (never over the two leading rows of the running order)."""
        u, w, h = L.unit, L.width, L.height
        sentence = text.strip()
        sentence = sentence[:1].upper() + sentence[1:]
        if sentence and sentence[-1] not in ".!?":
            sentence += "."
        bw = int(w * 0.9)
        inner = bw - int(80 * u)
        lead = order_rect(1, L)
        top, bottom = lead[1] + lead[3] + 6, h - int(20 * u)   # below the leading rows, above the screen's edge
        cap, lines = self.fit_wrap(sentence, 34 * u, inner, bottom - top - int(110 * u))
        step = int(cap * 1.75)
        bh = int(70 * u) + len(lines) * step + int(40 * u)
        box = ((w - bw) // 2, max(top, min(L.bottom[1], bottom - bh)), bw, bh)
        self.pg.draw.rect(self.surface, C.BACKGROUND, tuple(v + d for v, d in zip(box, (-6, -6, 12, 12))),
                          border_radius=int(20 * u))
        self.pg.draw.rect(self.surface, C.MESSAGE, box, border_radius=int(16 * u))
        self.pg.draw.rect(self.surface, C.TEXT, box, width=max(2, int(4 * u)), border_radius=int(16 * u))
        bx, by = box[0], box[1]
        title = self.w("notice" if kind == "notice" else "not_taken")
        self.label(title, 22 * u, (bx + int(40 * u), by + int(26 * u)), C.GOLD)
        for i, line in enumerate(lines):
            self.label(line, cap, (bx + int(40 * u), by + int(70 * u) + i * step), C.TEXT, max_w=inner)


__all__ = ["KEY_CAP", "Layout", "MESSAGE_SECONDS", "Painter", "Rect", "Screen", "layout_for", "mascot_spots",
           "order_rect", "podium_rect", "space_rect"]
