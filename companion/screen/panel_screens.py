"""The screens around the race as the 7-inch panel (800x480) shows them: the payouts' places in a 2x2 grid
with the side bet's question across the panel, and the final standings with their life-outcome lines, paged
when they do not all fit (a mixin of the screen's Painter; larger screens draw ``OtherScreens``' own)."""

from __future__ import annotations

from companion import colours as C
from companion.screen.layout import KEY_CAP, Layout, Rect
from companion.screen.model import ScreenModel, StandingView
from companion.screen.pages import page_at
from companion.screen.screens import OtherScreens
from companion.screen.widgets import shade
from companion.screen.words import place as ordinal

def _frac(L: Layout, x: float, y: float, w: float, h: float) -> Rect:
    """A rect as shares of the screen's width and height."""
    return (round(L.width * x), round(L.height * y), round(L.width * w), round(L.height * h))


def page_split(heights: list[int], room: int, gap: int) -> list[list[int]]:
    """Rows of ``heights`` pixels (``gap`` between them) in order on pages ``room`` pixels high: as few pages
    as fit them, with the rows shared out as evenly as fits (4 rows on 2 pages: 2 and 2, not 3 and 1); a row
    taller than a page has a page of its own. Returns each page's row indices."""
    greedy: list[list[int]] = [[]]
    used = 0
    for i, hgt in enumerate(heights):
        if greedy[-1] and used + hgt > room:
            greedy.append([])
            used = 0
        greedy[-1].append(i)
        used += hgt + gap
    n = len(greedy)
    per = -(-len(heights) // n)
    even = [list(range(k, min(k + per, len(heights)))) for k in range(0, len(heights), per)]
    fits = len(even) == n and all(sum(heights[i] + gap for i in page) - gap <= room for page in even)
    return even if fits else greedy


class PanelScreens(OtherScreens):
    """The payouts and the game over on the 7-inch panel; every other size as :class:`OtherScreens`."""

    def payouts_lower(self, model: ScreenModel, L: Layout) -> None:
        """Under the seats: the places two by two across the panel, then the side bet (its question across the
        whole width, the answer as a badge on its title row)."""
        if not L.small:
            super().payouts_lower(model, L)
            return
        self.places_grid(model, _frac(L, 0.02, 0.545, 0.96, 0.19))
        rect = _frac(L, 0.02, 0.745, 0.96, 0.245)
        if not self.side_bet_beside(model, rect):
            self.side_bet_result(model, rect, L.unit)

    def side_bet_beside(self, model: ScreenModel, rect: Rect) -> bool:
        """The side bet's answer as a YES or NO badge at the left of its question, the question wrapped in the
        rest of the panel (no title: the question says what it is). False (nothing drawn) without an answer
        or where the question does not fit."""
        if model.side_bet is None or model.side_bet_answer is None:
            return False
        u = self.layout.unit if self.layout else 1.0
        x, y, w, h = rect
        pad = int(18 * u)
        cap = self.min_cap
        word = self.w("yes" if model.side_bet_answer else "no")
        pcap = self.cap(KEY_CAP * 0.85)
        badge_w = self.font(pcap).size(word)[0] + int(pcap * 1.1)
        qx = x + pad + badge_w + pad
        room = (qx, y + int(8 * u), x + w - pad - qx, h - 2 * int(8 * u))
        if not self.wraps_in(model.side_bet, cap, room[2], room[3]):
            return False
        self.pg.draw.rect(self.surface, C.PANEL, rect, border_radius=int(14 * u))
        from companion.screen.screens import POSITIVE
        self.pill(word, pcap, (x + pad, y + h // 2), POSITIVE if model.side_bet_answer else C.OUT_MARK)
        cap, lines = self.fit_wrap(model.side_bet, cap, room[2], room[3])
        step = int(cap * 1.5)
        top = y + (h - len(lines) * step) // 2
        for k, line in enumerate(lines):
            self.label(line, cap, (qx, top + k * step), C.TEXT, max_w=room[2])
        return True

    def places_grid(self, model: ScreenModel, rect: Rect) -> None:
        """The race's paid places in two columns of two rows (1st and 2nd above, 3rd and 4th below): the
        place, the mascot's disc and its name; a shared place marked ``=``, a DQ in red."""
        u = self.layout.unit if self.layout else 1.0
        self.pg.draw.rect(self.surface, C.PANEL, rect, border_radius=int(14 * u))
        x, y, w, h = rect
        pad = int(18 * u)
        rows = sorted(model.podium, key=lambda mp: (mp[1], mp[0]))[:4]
        status = {m.mascot: m.status for m in model.mascots}
        cap = self.cap(KEY_CAP)
        col_w, row_h = (w - 2 * pad) // 2, (h - 2 * int(4 * u)) // 2
        r = int(min(row_h * 0.34, 32 * u * 2))
        pw = max((self.font(cap).size("=" + ordinal(self.lang, p).upper())[0] for _, p in rows), default=0)
        for i, (name, paid) in enumerate(rows):
            cx, cy = x + pad + (i % 2) * col_w, y + int(4 * u) + (i // 2) * row_h + row_h // 2
            shared = "=" if sum(p == paid for _, p in rows) > 1 else ""
            out = status.get(name) == "dq"
            self.label(shared + ordinal(self.lang, paid).upper(), cap, (cx, cy), C.GOLD if paid == 1 else C.TEXT,
                       "midleft")
            mx = cx + pw + int(10 * u) + r
            self.mascot(name, mx, cy, r, out=out)
            nx = mx + int(r * 1.6)
            self.label(name.upper() + (" DQ" if out else ""), cap, (nx, cy), C.OUT_MARK if out else C.TEXT,
                       "midleft", max_w=cx + col_w - nx - int(8 * u))

    def screen_game_over(self, model: ScreenModel, L: Layout, now: float) -> None:
        """The final standings; on the 7-inch panel each with its life-outcome line, as many as fit a page, the
        pages turning every ``companion.screen.pages.PAGE_SECONDS`` (the page shown as ``1/2`` beside the title)."""
        if not L.small:
            super().screen_game_over(model, L, now)
            return
        u, w, h = L.unit, L.width, L.height
        pad = int(24 * u)
        cap, lcap = self.cap(KEY_CAP), self.min_cap
        top, bottom = L.header[1] + L.header[3] + int(8 * u), h - int(6 * u)
        title = self.label(self.w("final"), self.cap(60), (w // 2, top), C.GOLD, "midtop")
        top = title[1] + title[3] + int(8 * u)
        x0, x1 = int(w * 0.03), int(w * 0.97)
        nx = x0 + pad + max((self.font(cap).size("=" + ordinal(self.lang, st.place).upper())[0]
                             for st in model.standings), default=0) + int(cap * 0.7)
        lines = [self.lines_for(self._life_line(model, i, st), lcap, x1 - nx - pad)
                 for i, st in enumerate(model.standings)]
        heights = [int(cap * 1.45) + int(10 * u) + len(ls) * int(lcap * 1.5) + 2 * int(8 * u) for ls in lines]
        pages = page_split(heights, bottom - top, int(8 * u))
        shown = pages[page_at(now, len(pages))]
        if len(pages) > 1:
            k = page_at(now, len(pages))
            self.label(f"{k + 1}/{len(pages)}", lcap, (x1, title[1] + title[3] // 2), C.DIM_TEXT, "midright")
        y = top
        for i in shown:
            st = model.standings[i]
            box = (x0, y, x1 - x0, heights[i])
            self.pg.draw.rect(self.surface, shade(C.GOLD, 0.28) if st.place == 1 else C.PANEL, box,
                              border_radius=int(14 * u))
            shared = sum(o.place == st.place for o in model.standings) > 1
            ty = y + int(8 * u)
            self.label(("=" if shared else "") + ordinal(self.lang, st.place).upper(), cap, (x0 + pad, ty),
                       C.GOLD if st.place == 1 else C.TEXT)
            money = self.label(f"${st.money}", cap, (x1 - pad, ty), C.GOLD, "topright")
            self.label(st.name.upper(), cap, (nx, ty), C.TEXT, max_w=money[0] - nx - int(20 * u))
            ly = ty + int(cap * 1.45) + int(10 * u)
            for k, line in enumerate(lines[i]):
                self.label(line, lcap, (nx, ly + k * int(lcap * 1.5)), C.DIM_TEXT, max_w=x1 - nx - pad)
            y += heights[i] + int(8 * u)

    @staticmethod
    def _life_line(model: ScreenModel, i: int, st: StandingView) -> str:
        return st.line or (model.life_outcome if i == 0 else "") or ""


__all__ = ["PanelScreens", "page_split"]
