"""The panels of the race screen: the running order with live odds, the last card (who, its actions as
pictograms and words, the move it made), the race call and the money."""

from __future__ import annotations

from companion import colours as C
from companion.screen.words import place
from companion.screen.layout import KEY_CAP, Layout, Rect, card_tile_rect, order_rect, seat_rows
from companion.screen.model import MASCOT_ORDER, MascotView, MoveView, OrderRow, ScreenModel, running_order
from companion.screen.motion import gap_badge, order_mark, row_back, row_top
from companion.screen.race_money import odds_label
from companion.screen.widgets import Widgets, action_words, ink_on, shade

MASCOT_NAMES = MASCOT_ORDER
POSITIVE = (90, 220, 110)
BADGE_FILL = {"FINISHED": C.GOLD, "PLACED": shade(C.GOLD, 0.55), "FALLEN": C.OUT_MARK, "TURNED": C.STAR, "DQ": C.OUT_MARK, "KNOCKOUT": C.OUT,
              "OUT": C.OUT}


class RacePanels(Widgets):
    """Draws the race screen's panels (a mixin of the screen's Painter)."""

    def running_order(self, model: ScreenModel, L: Layout, now: float | None = None) -> None:
        """The running order: per row the position, the mascot, its name, the odds of the paid places that fit
        (1st, 2nd, 3rd at 1080p; to win on smaller screens) or its paid place, and its state badges below
        (the most important first, as many as fit; its space last). The odds say which card they belong to and
        are dimmed with an "updating" mark while newer ones are computed. Rows slide to their new places while the
        last card's moves play at ``now``, with up and down marks and the gap to the leader (``motion``)."""
        u = L.unit
        x, y, w, h = L.order
        pad = int(18 * u)
        ix, iy, iw, ih = self.panel(L.order, None if model.odds else self.w("running_order"), u)
        if model.odds:   # the odds' header line says what the panel is: no title above it
            iy, ih = y + int(14 * u), h - int(28 * u)
        cap = self.cap(KEY_CAP)
        name_w = max(self.font(cap).size(m.upper())[0] for m in MASCOT_NAMES)
        rows = running_order(model)[:4]
        pos_w = max(self.font(cap).size(f"{r.position}=" if r.tied else str(r.position))[0] for r in rows) \
            if rows else 0
        r = int(min(cap * 0.75, 34 * u))
        nx = x + pad + pos_w + int(14 * u) + int(r * 2.9)
        room = x + w - pad - (nx + name_w + int(10 * u))
        ocap, col_w, cols = cap, 1, 0   # the odds' figures: the three paid places where they fit at a smaller size
        for share in (1.0, 0.85, 0.72, 0.62):
            ocap = max(cap * share, self.min_cap)
            col_w = self.font(ocap).size("100%")[0] + int(18 * u)
            cols = max(1, min(3, room // col_w)) if model.odds else 0
            if cols == 3 or not model.odds or L.small:
                break
        top, step = order_rect(0, L)[1], order_rect(0, L)[3]
        if model.odds:
            self._odds_head(model, (ix, iy, iw, ih), cols, col_w, x + w - pad, top)
        iy = top
        badge = self.cap(17, "badge")
        for i, row in enumerate(rows):
            ry = iy + row_top(model, row.mascot, i, step, now)
            row_back(self, model, (x, ry, w, step), now)
            cy = ry + int(cap * 0.73) + int(4 * u)
            if i:
                self.pg.draw.line(self.surface, C.BACKGROUND, (x + int(16 * u), ry), (x + w - int(16 * u), ry),
                                  max(1, int(2 * u)))
            view = next(m for m in model.mascots if m.mascot == row.mascot)
            out = view.status == "dq"
            pos = f"{row.position}=" if row.tied else str(row.position)
            self.label(pos, cap, (x + pad, cy), C.DIM_TEXT if out else C.TEXT, "midleft")
            mx = x + pad + pos_w + int(14 * u) + int(r * 1.1)
            self.mascot(row.mascot, mx, cy, r, fallen=view.fallen and not out, facing=view.facing, out=out,
                        ring=C.GOLD if view.status == "finished" else None)
            right = self._order_right(model, row, view, (x + w - pad, cy), cols, col_w, cap, ocap)
            self.label(row.mascot.upper(), cap, (nx, cy), C.DIM_TEXT if out else C.TEXT, "midleft",
                       max_w=right - nx - int(10 * u))
            bx, by = x + pad, ry + int(cap * 1.45) + int(8 * u) + int(badge * 0.92)
            badges = [(self.w(b) if b in BADGE_FILL else b, BADGE_FILL.get(b, shade(C.PANEL, 1.7))) for b in row.badges]
            if row.space is not None:
                badges.append((self.w("space", n=row.space), shade(C.PANEL, 1.7)))
            badges += gap_badge(model, row)
            bx = order_mark(self, model, row, (bx, by), badge)
            for text, fill in badges:
                width = self.font(badge).size(text)[0] + int(badge * 1.1)
                if bx + width > x + w - pad or by + badge * 0.92 > ry + step:
                    break   # the rest do not fit: the mascot's figure shows it lying flat or turned
                pr = self.pill(text, badge, (bx, by), fill, role="badge")
                bx = pr[0] + pr[2] + int(8 * u)

    def _odds_head(self, model: ScreenModel, rect: Rect, cols: int, col_w: int, right: int, bottom: int) -> None:
        """The odds' header above the rows (which end at ``bottom``): which card they belong to (with
        "updating" while newer ones are computed) beside or under a caption over each column."""
        x, y, w, h = rect
        cap = self.cap(17)
        stale = model.odds_stale
        card = odds_label(self.lang, model.odds_card, model.pass_no, model.reveals_per_pass).upper()
        texts = [f"{card} · {self.w('updating')}", self.w("updating"), card] if stale and card else \
            [self.w("updating")] if stale else [card] if card else []
        heads = [self.w("to_win")] if cols == 1 else [place(self.lang, n).upper() for n in range(1, cols + 1)]
        left = right - (cols - 1) * col_w - self.font(cap).size(heads[0])[0] - int(cap)
        for k, text in enumerate(heads):
            self.label(text, cap, (right - (cols - 1 - k) * col_w, y), C.DIM_TEXT, "topright")
        colour = C.GOLD if stale else C.DIM_TEXT
        second = y + int(cap * 1.5)
        two_lines = second + cap * 1.45 <= bottom
        for text in texts:   # the longest that fits: beside the captions, else on a line of its own
            if self.font(cap).size(text)[0] <= left - x:
                self.label(text, cap, (x, y), colour, max_w=left - x)
                return
            if two_lines and self.font(cap).size(text)[0] <= w:
                self.label(text, cap, (x, second), colour, max_w=w)
                return
        # none fits (a long "after pass 1 card 15" on a narrow panel): the figures alone, dimmed if stale

    def _order_right(self, model: ScreenModel, row: OrderRow, view: MascotView, at: tuple[int, int], cols: int,
                     col_w: int, cap: float, odds_cap: float | None = None) -> int:
        """The odds of the paid places (racing, figures ``odds_cap`` high) or the paid place (placed) at the right
        of a row, in ``cols`` columns ``col_w`` wide ending at ``at``; returns the left edge of what it drew."""
        right, cy = at
        if view.place is not None:
            colour = C.GOLD if view.status == "finished" else C.OUT_MARK
            return self.label(place(self.lang, view.place).upper(), cap, (right, cy), colour, "midright")[0]
        if model.odds and row.mascot in model.odds and cols:
            places = model.odds[row.mascot]
            colour = C.DIM_TEXT if model.odds_stale else C.TEXT  # dimmed: made for an earlier card
            left = right
            for k in range(cols):
                cx = right - (cols - 1 - k) * col_w
                left = min(left, self.label(f"{round(places[k] * 100)}%", odds_cap or cap, (cx, cy), colour,
                                            "midright")[0])
            return left
        return right

    def last_card(self, model: ScreenModel, L: Layout) -> None:
        u = L.unit
        x, y, w, h = self.panel(L.card, self.w("last_card"), u)
        card = model.last_card
        if card is None:
            self.label(self.w("no_card"), self.cap(KEY_CAP), (x + w // 2, y + h // 2), C.DIM_TEXT, "center", max_w=w)
            return
        col = C.colour(card.mascot)
        ink = ink_on(col)
        tile = card_tile_rect(L)
        tw = tile[2]
        self.pg.draw.rect(self.surface, col, tile, border_radius=int(16 * u))
        self.pg.draw.rect(self.surface, C.TEXT, tile, width=max(2, int(4 * u)), border_radius=int(16 * u))
        who = self.w("all") if card.mascot is None else card.mascot.upper()
        # who the card names, in words: its notation and label code are not for the table
        self.label(who, self.cap(40), (tile[0] + tw // 2, tile[1] + tile[3] // 2), ink, "center", max_w=tw - int(40 * u))
        ax = x + tw + int(28 * u)
        aw = x + w - ax
        actions = card.actions or (card.notation[1:],)
        gap = int(16 * u)
        size = int(min(h * 0.42, (aw - gap * (len(actions) - 1)) / max(1, len(actions))))
        words = [action_words(a, self.lang) for a in actions]
        cap = min(self.fit_cap(wd, self.cap(18), size + gap - 4) for wd in words)
        under = all(self.font(cap).size(wd)[0] <= size + gap - 4 for wd in words)   # each under its pictogram
        top = y + size
        for i, act in enumerate(actions):
            bx = ax + i * (size + gap)
            self.pg.draw.rect(self.surface, shade(C.PANEL, 1.5), (bx, y, size, size), border_radius=int(12 * u))
            self.action_icon(act, (bx + size // 10, y + size // 10, size * 8 // 10, size * 8 // 10), col)
            if under:
                r = self.label(words[i], cap, (bx + size // 2, y + size + int(10 * u)), C.TEXT, "midtop")
                top = max(top, r[1] + r[3] + int(8 * u))
        if not under:   # too long for their pictograms: the words in a row under them, wrapped
            for line in self.lines_for(", ".join(words), cap, aw):
                r = self.label(line, cap, (ax, top + int(10 * u)), C.TEXT, max_w=aw)
                top = r[1] + r[3]
            top += int(8 * u)
        self._move_lines(model, (ax, top, aw, y + h - top), u)

    def _move_lines(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """``GOBBLER 5 -> 7`` per moved mascot (lane changes and falls in words): in two columns for more
        than three where each fits its column, and as many as the panel holds."""
        x, y, w, h = rect
        moves = model.moves[:4]
        if not moves:
            self.label(self.w("nothing_moved"), self.cap(24), (x, y), C.DIM_TEXT, max_w=w)
            return
        cap = self.cap(28)
        pill = max(self.cap(10), cap * 0.7)
        line_h = int(max(cap * 1.5, pill * 1.84)) + 2
        fit = max(1, h // line_h)
        pieces = [self._move_pieces(mv) for mv in moves]
        r = int(cap * 0.8)
        widths = [2 * r + int(10 * u) + sum(self.font(cap).size(a)[0] + self.font(cap).size(b)[0] + cap * 1.4
                                            + int(34 * u) for a, b in parts)
                  + (self.font(pill).size(word)[0] + pill * 1.1 if word else 0) for parts, word in pieces]
        cols = 2 if len(moves) > min(3, fit) and max(widths) <= w // 2 - int(10 * u) else 1
        rows = min(fit, -(-len(moves) // cols))
        shown = rows * cols   # as many as the panel holds at the size class's smallest text
        step = max(line_h, min(int(70 * u), h // rows))
        for i, (mv, (parts, word)) in enumerate(list(zip(moves, pieces))[:shown]):
            ry = y + (i % rows) * step + int(cap * 0.8)
            cx = x + (i // rows) * (w // cols)
            self.mascot(mv.mascot, cx + r, ry, r)
            cx += 2 * r + int(10 * u)
            end = x + (i // rows + 1) * (w // cols)   # this move's column ends here: what does not fit is left out
            for a, b in parts:
                if cx + self.font(cap).size(a)[0] + self.font(cap).size(b)[0] + cap * 1.4 + int(26 * u) > end:
                    break   # the lane change after a long move (the track and the call show it)
                cx = self.label(a, cap, (cx, ry), C.TEXT, "midleft")[0] + self.font(cap).size(a)[0] + int(8 * u)
                self.arrow((cx, ry), (cx + cap * 1.4, ry), C.GOLD, max(2, int(cap * 0.22)), cap * 0.6)
                cx += int(cap * 1.4 + 8 * u)
                cx = self.label(b, cap, (cx, ry), C.TEXT, "midleft")[0] + self.font(cap).size(b)[0] + int(18 * u)
            if word:
                fill = (C.GOLD if mv.what in ("finished", "placed")
                        else C.OUT_MARK if mv.what != "up" else shade(C.PANEL, 1.8))
                room = end - cx - int(pill * 1.1)   # the pill inside its column
                pc = self.fit_cap(word, pill, room)
                if self.font(pc).size(word)[0] > room and mv.what in ("out", "knocked out"):
                    word = self.w("DQ")   # the short word where the long one cannot fit (the 720p panel)
                self.pill(word, pc, (cx, ry), fill)

    def _move_pieces(self, mv: MoveView) -> tuple[list[tuple[str, str]], str]:
        """One move's ``(from, to)`` pairs (space, lane) and its word (``FELL``), as :meth:`_move_lines` draws."""
        parts = []
        if mv.from_space != mv.to_space and mv.what not in ("out", "knocked out", "finished", "placed"):
            parts.append((str(mv.from_space), str(mv.to_space)))
        if mv.from_lane != mv.to_lane and mv.what not in ("out", "knocked out", "placed"):
            parts.append((self.w("lane", n=mv.from_lane), str(mv.to_lane)))
        return parts, self.w(mv.what) if mv.what else ""

    def race_call(self, model: ScreenModel, L: Layout) -> None:
        u = L.unit
        x, y, w, h = self.panel(L.log, self.w("race_call"), u)
        cap = self.cap(17, "call")
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
                       C.TEXT if detail else C.GOLD, max_w=w - (int(14 * u) if detail else 0), role="call")

    def money(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """Each seat's money (most first) and what its tickets would pay if the race ended now: in total beside
        the money, and ticket by ticket under it (``HURLEY TOP: +$10``) where there is room for every ticket;
        otherwise one line per seat, in two columns for more than four seats."""
        x, y, w, h = rect
        rows = seat_rows(model)
        racing = any(s.pays_now for s in rows)
        small = self.layout is not None and self.layout.small
        self.pg.draw.rect(self.surface, C.PANEL, rect, border_radius=int(14 * u))
        pad = int(18 * u)
        tcap = self.cap(20)
        title = self.label(self.w("money"), tcap, (x + pad, y + int(14 * u)), C.DIM_TEXT)
        if racing:
            key = "now" if small else "if_ended_now"
            self.label(self.w(key), tcap, (x + w - pad, y + int(14 * u)), C.DIM_TEXT, "topright",
                       max_w=x + w - pad - (title[0] + title[2]) - int(20 * u))
        top = title[1] + title[3] + int(4 * u)
        if not rows:
            return
        cap = self.cap(26)
        line = int(cap * 1.5)
        pill = self.cap(18)
        pill_h = int(pill * 1.84) + int(4 * u)
        gap = int(30 * u)
        room = y + h - pad - top
        tickets = {s.name: [short_ticket(t) + (f": {_dollars(s.pays_now[k])}" if k < len(s.pays_now) else "")
                            for k, t in enumerate(s.tickets)] for s in rows}
        cols, full = 1 if len(rows) <= 4 else 2, False
        if racing:   # the full form where every ticket fits: one column, else two
            for n in (1, 2):
                per = -(-len(rows) // n)
                cw = (w - 2 * pad - gap * (n - 1)) // n
                lines = [self.pill_lines(v, pill, cw, u) for v in tickets.values()]
                if all(lines) and per * (line + max(len(k) for k in lines) * pill_h) <= room:
                    cols, full = n, True
                    break
        per_col = -(-len(rows) // cols)
        step = room // per_col
        cw = (w - 2 * pad - gap * (cols - 1)) // cols
        for i, seat in enumerate(rows):
            cx = x + pad + (i // per_col) * (cw + gap)
            ry = top + (i % per_col) * step
            cy = ry + line // 2
            right = self.label(f"${seat.money}", cap, (cx + cw, cy), C.GOLD, "midright")[0]
            if seat.pays_now:
                total = sum(seat.pays_now)
                colour = POSITIVE if total > 0 else C.OUT_MARK if total < 0 else C.DIM_TEXT
                right = self.label(_dollars(total), cap, (right - int(20 * u), cy), colour, "midright")[0]
            self.label(seat.name.upper(), cap, (cx, cy), C.TEXT, "midleft", max_w=right - cx - int(16 * u))
            if full:
                for n, row in enumerate(self.pill_lines(tickets[seat.name], pill, cw, u)):
                    for k, px in row:
                        stack = seat.stacks[k] if k < len(seat.stacks) else seat.tickets[k].split()[0].lower()
                        self.pill(tickets[seat.name][k], pill, (cx + px, ry + line + n * pill_h),
                                  _stack_colour(stack), anchor="topleft")


def short_ticket(text: str) -> str:
    """A ticket's text without its side (what it pays says that): ``"Hurley top, risky x2"`` -> ``"HURLEY TOP x2"``."""
    head, _, rest = text.partition(",")
    return head.upper() + (" x2" if rest.endswith(" x2") else "")


def _dollars(amount: int) -> str:
    """``12`` -> ``"+$12"``, ``-5`` -> ``"-$5"``, ``0`` -> ``"$0"``."""
    return f"{'+' if amount > 0 else '-' if amount < 0 else ''}${abs(amount)}"


def _stack_colour(stack: str) -> tuple[int, int, int]:
    """A ticket stack's colour: the mascot's, white for YES, grey for NO."""
    return C.COLOURS.get(stack, C.TEXT if stack == "yes" else C.DIM_TEXT)


__all__ = ["RacePanels", "short_ticket"]
