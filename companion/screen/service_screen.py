"""The service screen (a mixin of the screen's Painter): one test of the service mode, drawn from its plain data
(``companion.service.page.ServicePage`` in ``model.service``).

Top to bottom: which test of how many, the test's name, its one big line (readable across the room), the
details, a problem in the message colour, then a mirror of the LED strip (every pixel in its colour, the
running light ringed in gold with its number) and, on the last line, what GO and UNDO do now. The screen test
adds the screen's size, a line at the smallest text the table draws, and colour patches.
"""

from __future__ import annotations

from typing import Any

from companion import colours as C
from companion.screen.layout import Layout
from companion.screen.model import ScreenModel
from companion.screen.widgets import Widgets, shade
from companion.service.words import say as service_say

PER_ROW = 40
"""Pixels a row in the strip's mirror (a 112-pixel strip: three rows)."""
PATCHES = (C.GOLD, C.MESSAGE, C.PANEL, C.TEXT, C.DIM_TEXT, C.TRACK, C.STAR, C.BACKGROUND)
"""The screen test's patches after the mascots' colours: the colours the table's screens are made of."""


class ServiceScreen(Widgets):
    """Draws ``model.service`` (see the module)."""

    def screen_service(self, model: ScreenModel, L: Layout, now: float) -> None:
        page: Any = model.service
        if page is None:
            return
        u, w, h = L.unit, L.width, L.height
        margin = int(40 * u) + 6
        inner = w - 2 * margin
        y = L.header[1] + L.header[3] + int(24 * u)
        small = L.small
        r = self.label(f"{service_say(self.lang, 'service').upper()}  ·  "
                       f"{service_say(self.lang, 'page_of', n=page.number, m=page.pages).upper()}",
                       self.cap(22), (margin, y), C.GOLD, max_w=inner)
        y = r[1] + r[3] + int(10 * u)
        r = self.label(page.title, self.cap(44 if small else 56), (margin, y), C.TEXT, max_w=inner)
        y = r[1] + r[3] + int(18 * u)
        keys_cap = self.cap(22)
        keys = self.lines_for(page.keys.replace("   ", "  ·  "), keys_cap, inner)
        keys_h = int(keys_cap * 1.75) * len(keys) + int(8 * u)
        strip_h = self._strip_height(page, L) if page.strip else 0
        bottom = h - keys_h - strip_h - int(24 * u)
        if page.big:
            used = self.wrap(page.big, self.cap(40 if small else 48), (margin, y, inner, int(h * 0.2)), C.TEXT)
            y += used + int(14 * u)
        cap = self.cap(26)
        for line in page.lines:   # each detail on a line of its own, wrapped onto a second where it must
            if y + cap * 1.6 > bottom:
                break
            y += self.wrap(line, cap, (margin, y, inner, int(bottom - y)),
                           C.DIM_TEXT if not small else C.TEXT) + int(4 * u)
        if page.alert and y < bottom:
            cap, lines = self.fit_wrap(page.alert, self.cap(28), inner - int(40 * u), max(1, bottom - y - int(20 * u)))
            box_h = int(len(lines) * cap * 1.75 + 24 * u)
            self.pg.draw.rect(self.surface, C.MESSAGE, (margin, y, inner, box_h), border_radius=int(10 * u))
            for i, line in enumerate(lines):
                self.label(line, cap, (margin + int(20 * u), y + int(12 * u) + int(i * cap * 1.75)), C.TEXT,
                           max_w=inner - int(40 * u))
            y += box_h + int(14 * u)
        if page.page == "screen":
            self._screen_test(page, L, margin, y, inner, bottom)
        if page.strip:
            self._strip(page, L, margin, h - keys_h - strip_h - int(10 * u), inner, strip_h)
        for i, line in enumerate(keys):
            self.label(line, keys_cap, (margin, h - keys_h + i * int(keys_cap * 1.75)), C.GOLD, max_w=inner)

    def _strip_height(self, page: Any, L: Layout) -> int:
        rows, cell = self._strip_grid(len(page.strip), L)
        return rows * int(cell * 1.25) + int(self.cap(18) * 1.6)

    def _strip_grid(self, count: int, L: Layout) -> tuple[int, float]:
        """Rows and cell size (pixels) of the strip's mirror: cells no smaller than about 1/90 of the width."""
        width = L.width - 2 * (int(40 * L.unit) + 6)
        per_row = max(1, min(count, PER_ROW))
        rows = -(-count // per_row)
        return rows, width / per_row

    def _strip(self, page: Any, L: Layout, x: int, y: int, width: int, height: int) -> None:
        """The LED strip's mirror: rows of pixels from the data input, the running light ringed, its number."""
        count = len(page.strip)
        rows, cell = self._strip_grid(count, L)
        per_row = max(1, min(count, PER_ROW))
        step = int(cell * 1.25)
        for i, rgb in enumerate(page.strip):
            row, col = divmod(i, per_row)
            cx, cy = int(x + col * cell), y + row * step
            size = max(2, int(cell * 0.8))
            lit = any(rgb)
            self.pg.draw.rect(self.surface, rgb if lit else shade(C.PANEL, 1.3), (cx, cy, size, size),
                              border_radius=max(1, size // 4))
            if i == page.light:
                ring = max(2, int(cell * 0.12))
                self.pg.draw.rect(self.surface, C.GOLD, (cx - ring, cy - ring, size + 2 * ring, size + 2 * ring),
                                  width=ring, border_radius=max(1, size // 3))
        if page.light is not None and count:
            row, col = divmod(page.light, per_row)
            tx = int(x + col * cell + cell * 0.4)
            ty = y + rows * step
            self.label(str(page.light), self.cap(18), (min(max(tx, x + 20), x + width - 20), ty), C.GOLD, "midtop")

    def _screen_test(self, page: Any, L: Layout, x: int, y: int, width: int, bottom: int) -> None:
        """The screen's size, a line at the smallest text the table draws, the colour patches."""
        u = L.unit
        r = self.label(service_say(self.lang, "scr_size", w=L.width, h=L.height), self.cap(30), (x, y), C.TEXT,
                       max_w=width)
        y = r[1] + r[3] + int(12 * u)
        small = L.metrics.min_cap
        r = self.label(service_say(self.lang, "scr_small", px=round(small)), small, (x, y), C.TEXT, max_w=width)
        y = r[1] + r[3] + int(16 * u)
        y += self.wrap(service_say(self.lang, "scr_patches"), self.cap(22), (x, y, width, int(self.cap(22) * 4)),
                       C.DIM_TEXT) + int(8 * u)
        colours = tuple(page.colours) + PATCHES
        side = int(min(width / len(colours) * 0.85, max(12, bottom - y)))
        for i, rgb in enumerate(colours):
            px = int(x + i * width / len(colours))
            self.pg.draw.rect(self.surface, rgb, (px, y, side, side))
            self.pg.draw.rect(self.surface, C.LINE, (px, y, side, side), width=max(1, int(2 * u)))
