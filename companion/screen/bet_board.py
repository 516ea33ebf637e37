"""The open variant's betting screen: the band says what is still missing, a board shows each seat's bet so
far (its mascot, YES or NO, the double in the double race) and who still has to bet; with many seats in
several columns, and where even those do not fit at the size class's smallest text, in pages that turn every
``companion.screen.pages.PAGE_SECONDS`` (a mixin of the screen's Painter)."""

from __future__ import annotations

import math

from companion import colours as C
from companion.colours import RGB
from companion.screen.layout import KEY_CAP, Rect
from companion.screen.model import ScreenModel
from companion.screen.open_bets import OpenBetView
from companion.screen.pages import page_at
from companion.screen.widgets import Widgets

NAMED_MISSING = 3
"""The band names the seats still to bet up to this many; more are counted."""


class BetBoard(Widgets):
    """Draws the open variant's bets (a mixin of the screen's Painter, through ``OtherScreens``)."""

    def side_bet_title(self, model: ScreenModel, width: int) -> str | None:
        """``SIDE BET: <QUESTION>``, the question alone in capitals, or as written (narrower), whichever first
        fits ``width`` at a panel title's size, cased as it is to be drawn; None without a question or when
        none fits."""
        if not model.side_bet:
            return None
        for text in (f"{self.w('side_bet')}: {model.side_bet}".upper(), model.side_bet.upper(), model.side_bet):
            if self.font(self.cap(20, "figure")).size(text)[0] <= width:
                return text
        return None

    def bets_prompt(self, model: ScreenModel) -> str:
        """The band's words: no bet yet (scan them, or race without), who is still to bet, or all bets in."""
        bets = model.open_bets
        if not any(b.started for b in bets):
            return self.w("bets_none")
        due = [b.name.partition(" · ")[0] for b in bets if not b.complete]   # names without a consent code
        if not due:
            return self.w("bets_in")
        if len(due) <= NAMED_MISSING:
            return self.w("bets_missing", names=", ".join(due))
        return self.w("bets_missing_n", n=len(due))

    def _pieces(self, bet: OpenBetView, short: bool = False) -> list[tuple[str, RGB | None]]:
        """A seat's badges in order: (text, fill) with None for a dim word (a part still missing); ``short``:
        the missing parts in fewer words."""
        if not bet.started:
            return [(self.w("no_bet"), None)]
        out: list[tuple[str, RGB | None]] = []
        if bet.mascot is not None:
            out.append((bet.mascot.upper() + (" x2" if bet.double == "mascot" else ""), C.COLOURS[bet.mascot]))
        else:
            out.append((self.w("mascot_due_short" if short else "mascot_due"), None))
        if bet.answer is not None:
            word = self.w("yes" if bet.answer else "no") + (" x2" if bet.double == "side" else "")
            out.append((word, C.TEXT if bet.answer else C.DIM_TEXT))
        elif bet.need_answer:
            out.append((self.w("answer_due_short" if short else "answer_due"), None))
        if bet.need_double and bet.double is None and bet.mascot is not None:
            out.append((self.w("double_mark_short" if short else "mark_double"), C.GOLD))
        return out

    def _cell_width(self, bet: OpenBetView, cap: float, name_w: int, u: float, short: bool) -> int:
        gap = int(12 * u)
        width = name_w + 2 * gap
        for text, fill in self._pieces(bet, short):
            width += self.font(cap).size(text)[0] + (2 * int(cap * 0.55) if fill is not None else 0) + gap
        if bet.money is not None:   # the money at the cell's right end
            width += self.font(cap).size(f"${bet.money}")[0] + 2 * gap
        code = bet.name.partition(" · ")[2]   # a phone's consent code, whole, before the money
        if code:
            width += self.font(cap).size(code)[0] + 2 * gap
        return width - gap

    def bet_board(self, model: ScreenModel, rect: Rect, u: float, now: float, title: str | None = None) -> bool:
        """Each seat's bet in ``rect``: a row per seat (the name in gold while something is missing, the money at
        the right), in as few
        columns as fit, else in pages (``1/2`` at the title's right). ``title`` replaces the panel's own
        ("BETS: 1 OF 3 IN"), as cased, where it leaves room for the page mark. False (nothing drawn) outside
        the open variant's betting."""
        bets = model.open_bets
        if not bets:
            return False
        own = self.w("bets_title", n=sum(b.complete for b in bets), m=len(bets))
        saved, self.boxes = self.boxes, None   # the panel's inner rect only: the real one is drawn over it
        inner = self.panel(rect, title or own, u, upper=False)
        self.boxes = saved
        cols, rows, cap, name_w, pages, short = self._board_plan(bets, inner, u)
        mark_cap = self.cap(20, "figure")
        mark = f"{page_at(now, pages) + 1}/{pages}" if pages > 1 else ""
        if mark and title and self.font(mark_cap).size(f"{title}   {mark}")[0] > inner[2]:
            title = None   # the question does not leave room for the page mark: the board's own title
        x, y, w, h = self.panel(rect, title or own, u, upper=False)
        if mark:
            self.label(mark, mark_cap, (x + w, y - int(8 * u)), C.DIM_TEXT, "bottomright", role="figure")
        per = cols * rows
        first = page_at(now, pages) * per
        col_w = (w - int(30 * u) * (cols - 1)) // cols
        step, gap = h // rows, int(12 * u)
        for i, bet in enumerate(bets[first:first + per]):
            cx = x + (i // rows) * (col_w + int(30 * u))
            cy = y + (i % rows) * step + step // 2
            colour = C.TEXT if bet.complete else C.GOLD
            name, _, code = bet.name.partition(" · ")   # "Bram · 482193": the code a phone types to take the seat
            self.label(self.shortened(name.upper(), cap, name_w), cap, (cx, cy), colour, "midleft", max_w=name_w)
            right = cx + col_w
            if bet.money is not None:
                right = self.label(f"${bet.money}", cap, (right, cy), C.GOLD, "midright")[0] - 2 * gap
            if code:
                self.label(code, cap, (right, cy), C.DIM_TEXT, "midright")
            px = cx + name_w + 2 * gap
            for text, fill in self._pieces(bet, short):
                if fill is None:
                    box = self.label(text, cap, (px, cy), C.DIM_TEXT, "midleft")
                else:
                    box = self.pill(text, cap, (px, cy), fill)
                px = box[0] + box[2] + gap
        return True

    def _board_plan(self, bets: tuple[OpenBetView, ...], inner: Rect, u: float
                    ) -> tuple[int, int, float, int, int, bool]:
        """How the board fits ``inner``: (columns, rows per column, capital height, name width, pages, short
        words). As few columns as fit every seat at the size class's smallest text or more (the missing parts
        in full words first, then in short ones); else pages of as many rows as fit at that text, in the most
        columns that fit."""
        _, _, w, h = inner
        floor, top_cap, gap_x = self.min_cap, self.cap(KEY_CAP * 0.8), int(30 * u)
        names = [b.name.partition(" · ")[0].upper() for b in bets]

        def fit(cols: int, rows: int) -> tuple[float, int, bool] | None:
            """The capital height, name width and short words of ``cols`` columns of ``rows`` rows, or None."""
            col_w = (w - gap_x * (cols - 1)) // cols
            for short in (False, True):
                cap = min(top_cap, h / rows / 1.7)
                while cap >= floor:
                    name_w = min(max(self.font(cap).size(n)[0] for n in names), int(col_w * 0.45))
                    if all(self._cell_width(b, cap, name_w, u, short) <= col_w for b in bets):
                        return cap, name_w, short
                    cap -= 2
            return None

        for cols in (1, 2, 3, 4):
            rows = math.ceil(len(bets) / cols)
            got = fit(cols, rows)
            if got is not None:
                return cols, rows, got[0], got[1], 1, got[2]
        rows = max(1, int(h // (floor * 1.7)))
        for cols in (4, 3, 2, 1):
            got = fit(cols, rows)
            if got is not None:
                return cols, rows, got[0], got[1], math.ceil(len(bets) / (cols * rows)), got[2]
        return 1, rows, floor, int(w * 0.45), math.ceil(len(bets) / rows), True


__all__ = ["BetBoard", "NAMED_MISSING"]
