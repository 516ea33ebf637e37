"""The panels of the race screen: the running order with live odds, the last card (who, its actions as
pictograms and words, the move it made), the race call and the money."""

from __future__ import annotations

from companion import colours as C
from companion.screen.words import place
from companion.screen.layout import KEY_CAP, Layout, Rect, card_tile_rect, order_rect, seat_rows
from companion.screen.model import MascotView, OrderRow, ScreenModel, running_order
from companion.screen.widgets import Widgets, action_words, ink_on, shade

BADGE_FILL = {"FINISHED": C.GOLD, "FALLEN": C.OUT_MARK, "TURNED": C.STAR, "DQ": C.OUT_MARK, "KNOCKOUT": C.OUT,
              "OUT": C.OUT}


class RacePanels(Widgets):
    """Draws the race screen's panels (a mixin of the screen's Painter)."""

    def running_order(self, model: ScreenModel, L: Layout) -> None:
        u = L.unit
        self.panel(L.order, self.w("running_order"), u)
        if model.odds:
            x, y, w, h = L.order
            head = self.w("to_win") + (f" · {self.w('updating')}" if model.odds_stale else "")
            self.label(head, 16 * u, (x + w - int(22 * u), y + int(18 * u)), C.DIM_TEXT, "topright")
        for i, row in enumerate(running_order(model)[:4]):
            x, y, w, h = order_rect(i, L)
            cy = y + h // 2
            if i:
                self.pg.draw.line(self.surface, C.BACKGROUND, (x + int(16 * u), y), (x + w - int(16 * u), y),
                                  max(1, int(2 * u)))
            view = next(m for m in model.mascots if m.mascot == row.mascot)
            out = view.status == "dq"
            pos = f"{row.position}=" if row.tied else str(row.position)
            r = int(min(h * 0.3, 34 * u))
            mx = x + int(132 * u)
            self.label(pos, KEY_CAP * 1.2 * u, (x + int(18 * u), cy), C.DIM_TEXT if out else C.TEXT, "midleft",
                       max_w=mx - r - x - int(30 * u))
            self.mascot(row.mascot, mx, cy, r, fallen=view.fallen and not out, facing=view.facing, out=out,
                        ring=C.GOLD if view.status == "finished" else None)
            nx = mx + int(r * 1.7) + int(8 * u)
            right = self._order_right(model, row, view, (x, y, w, h), u)
            self.label(row.mascot.upper(), KEY_CAP * u, (nx, y + int(h * 0.36)),
                       C.DIM_TEXT if out else C.TEXT, "midleft", max_w=right - nx - int(10 * u))
            bx = nx
            badges = list(row.badges)
            if row.space is not None:
                badges.append(self.w("space", n=row.space))
            for b in badges:
                fill = BADGE_FILL.get(b, shade(C.PANEL, 1.7))
                pr = self.pill(self.w(b) if b in BADGE_FILL else b, 17 * u, (bx, y + int(h * 0.76)), fill)
                bx = pr[0] + pr[2] + int(8 * u)

    def _order_right(self, model: ScreenModel, row: OrderRow, view: MascotView, rect: Rect, u: float) -> int:
        """The odds (racing) or the paid place (placed) at the right of a row; returns its left edge."""
        x, y, w, h = rect
        right = (x + w - int(22 * u), y + h // 2)
        if view.place is not None:
            colour = C.GOLD if view.status == "finished" else C.OUT_MARK
            return self.label(place(self.lang, view.place).upper(), KEY_CAP * u, right, colour, "midright")[0]
        if model.odds and row.mascot in model.odds:
            p = model.odds[row.mascot][0]
            colour = C.DIM_TEXT if model.odds_stale else C.TEXT  # dimmed: made for an earlier card
            return self.label(f"{round(p * 100)}%", KEY_CAP * u, right, colour, "midright")[0]
        return right[0]

    def last_card(self, model: ScreenModel, L: Layout) -> None:
        u = L.unit
        x, y, w, h = self.panel(L.card, self.w("last_card"), u)
        card = model.last_card
        if card is None:
            self.label(self.w("no_card"), KEY_CAP * u, (x + w // 2, y + h // 2), C.DIM_TEXT, "center", max_w=w)
            return
        col = C.colour(card.mascot)
        ink = ink_on(col)
        tile = card_tile_rect(L)
        tw = tile[2]
        self.pg.draw.rect(self.surface, col, tile, border_radius=int(16 * u))
        self.pg.draw.rect(self.surface, C.TEXT, tile, width=max(2, int(4 * u)), border_radius=int(16 * u))
        who = self.w("all") if card.mascot is None else card.mascot.upper()
        # who the card names, in words: its notation and label code are not for the table
        self.label(who, 40 * u, (x + tw // 2, y + int(h * 0.5)), ink, "center", max_w=tw - int(40 * u))
        ax = x + tw + int(28 * u)
        aw = x + w - ax
        actions = card.actions or (card.notation[1:],)
        gap = int(16 * u)
        size = int(min(h * 0.42, (aw - gap * (len(actions) - 1)) / max(1, len(actions))))
        words = [action_words(a, self.lang) for a in actions]
        cap = min(self.fit_cap(wd, 18 * u, size + gap - 4) for wd in words)
        for i, act in enumerate(actions):
            bx = ax + i * (size + gap)
            self.pg.draw.rect(self.surface, shade(C.PANEL, 1.5), (bx, y, size, size), border_radius=int(12 * u))
            self.action_icon(act, (bx + size // 10, y + size // 10, size * 8 // 10, size * 8 // 10), col)
            self.label(words[i], cap, (bx + size // 2, y + size + int(10 * u)), C.TEXT, "midtop")
        top = y + size + int(44 * u)
        self._move_lines(model, (ax, top, aw, y + h - top), u)

    def _move_lines(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """``GOBBLER 5 -> 7`` per moved mascot (lane changes and falls in words)."""
        x, y, w, h = rect
        moves = model.moves[:4]
        if not moves:
            self.label(self.w("nothing_moved"), 24 * u, (x, y), C.DIM_TEXT, max_w=w)
            return
        cols = 2 if len(moves) > 3 else 1   # a green card moves everyone: two columns
        rows = -(-len(moves) // cols)
        step = min(int(70 * u), h // rows)
        cap = min(28 * u, step * 0.42)
        for i, mv in enumerate(moves):
            ry = y + (i % rows) * step + int(cap * 0.8)
            cx = x + (i // rows) * (w // cols)
            r = int(cap * 0.8)
            self.mascot(mv.mascot, cx + r, ry, r)
            cx += 2 * r + int(10 * u)
            parts = []
            if mv.from_space != mv.to_space and mv.what not in ("out", "knocked out", "finished", "placed"):
                parts.append((str(mv.from_space), str(mv.to_space)))
            if mv.from_lane != mv.to_lane and mv.what not in ("out", "knocked out", "placed"):
                parts.append((self.w("lane", n=mv.from_lane), str(mv.to_lane)))
            for a, b in parts:
                cx = self.label(a, cap, (cx, ry), C.TEXT, "midleft")[0] + self.font(cap).size(a)[0] + int(8 * u)
                self.arrow((cx, ry), (cx + cap * 1.4, ry), C.GOLD, max(2, int(cap * 0.22)), cap * 0.6)
                cx += int(cap * 1.4 + 8 * u)
                cx = self.label(b, cap, (cx, ry), C.TEXT, "midleft")[0] + self.font(cap).size(b)[0] + int(18 * u)
            if mv.what:
                word = self.w(mv.what)
                fill = (C.GOLD if mv.what in ("finished", "placed")
                        else C.OUT_MARK if mv.what != "up" else shade(C.PANEL, 1.8))
                self.pill(word, cap * 0.7, (cx, ry), fill)

    def race_call(self, model: ScreenModel, L: Layout) -> None:
        u = L.unit
        x, y, w, h = self.panel(L.log, self.w("race_call"), u)
        cap = 17 * u
        step = int(cap * 1.95)
        n = max(1, h // step)
        rows: list[tuple[str, bool]] = []   # the newest whole lines that fit, long ones wrapped (never shrunk)
        for line in reversed(model.log):
            detail = line.startswith(" ")
            wrapped = self.lines_for(line.strip(), cap, w - (int(14 * u) if detail else 0)) or [""]
            if rows and len(rows) + len(wrapped) > n:
                break   # whole lines only: no entry starts half way
            rows[:0] = [(part, detail) for part in wrapped]
        for i, (part, detail) in enumerate(rows[-n:]):
            self.label(part, cap, (x + (int(14 * u) if detail else 0), y + i * step),
                       C.TEXT if detail else C.GOLD, max_w=w - (int(14 * u) if detail else 0))

    def money(self, model: ScreenModel, rect: Rect, u: float) -> None:
        x, y, w, h = self.panel(rect, self.w("money"), u)
        rows = seat_rows(model)
        if not rows:
            return
        cols = 1 if len(rows) <= 5 else 2
        per_col = -(-len(rows) // cols)
        step = min(int(74 * u), h // per_col)
        cap = min(KEY_CAP * u, step * 0.5)
        cw = (w - int(30 * u) * (cols - 1)) // cols
        money_w = max(self.font(cap).size(f"${s.money}")[0] for s in rows) + int(16 * u)
        cap = max(cap * 0.6, min(self.fit_cap(s.name.upper(), cap, cw - money_w) for s in rows))
        for i, seat in enumerate(rows):
            cx = x + (i // per_col) * (cw + int(30 * u))
            cy = y + (i % per_col) * step + step // 2
            amount = self.label(f"${seat.money}", cap, (cx + cw, cy), C.GOLD, "midright")
            self.label(seat.name.upper(), cap, (cx, cy), C.TEXT, "midleft", max_w=amount[0] - cx - int(16 * u))


__all__ = ["RacePanels"]
