"""The panels of the race screen: the running order with live odds, the last card (who, its actions as
pictograms and words, the move it made), the race call and the money."""

from __future__ import annotations

from dataclasses import dataclass

from companion import colours as C
from companion.screen.words import place
from companion.screen.layout import KEY_CAP, Layout, Rect, card_tile_rect, order_rect, seat_rows
from companion.screen.model import (MASCOT_ORDER, MascotView, MoveView, OrderRow, ScreenModel, SeatView,
                                    running_order)
from companion.screen.motion import gap_badge, order_before, order_mark, row_back, row_top
from companion.screen.pages import page_at
from companion.screen.race_money import odds_label
from companion.screen.widgets import Widgets, action_words, ink_on, shade

MASCOT_NAMES = MASCOT_ORDER
TICKET_FIGURE = 0.62
"""A ticket's mascot figure in the money panel's compact form: its radius as a share of the pay's capital."""
MOVE_CALM = (70, 110, 170)
"""The fill of a move's word that is no alarm (TURNED, UP): a calm blue, white words on it."""


@dataclass(frozen=True)
class MovePlan:
    """How the last card's moves are laid out: per move its ``(from, to)`` pieces, its state word and whether
    the word goes on a line of its own (``two``); the columns, capital heights (figures, badge), line
    height and the ``height`` in pixels all the moves need."""

    moves: tuple[MoveView, ...]
    pieces: tuple[list[tuple[str, str]], ...]
    words: tuple[str, ...]
    two: tuple[bool, ...]
    cols: int
    cap: float
    pill: float
    line_h: int
    height: int
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
            ocap = max(cap * share, self.cap(0, "figure"))
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
            name = self.label(row.mascot.upper(), cap, (nx, cy), C.DIM_TEXT if out else C.TEXT, "midleft",
                              max_w=right - nx - int(10 * u))
            bx, by = x + pad, ry + int(cap * 1.45) + int(8 * u) + int(badge * 0.92)
            if by + badge * 0.92 > ry + step:   # the compact order (the 7-inch panel): one line a row, the up or
                change = order_before(model).get(row.mascot, 0)   # down mark after the name where it fits
                mx = name[0] + name[2] + int(10 * u)
                if change and mx + badge * 2.35 + self.font(badge).size(str(abs(change)))[0] <= right - int(8 * u):
                    order_mark(self, model, row, (mx, cy), badge)
                continue
            badges = [(self.w(b) if b in BADGE_FILL else b, BADGE_FILL.get(b, shade(C.PANEL, 1.7))) for b in row.badges]
            if row.space is not None:
                badges.append((self.w("space", n=row.space), shade(C.PANEL, 1.7)))
            badges += gap_badge(model, row)
            bx = order_mark(self, model, row, (bx, by), badge)
            for text, fill in badges:
                width = self.font(badge).size(text)[0] + int(badge * 1.1)
                if bx + width > x + w - pad or by + badge * 0.92 > ry + step:
                    break   # the rest do not fit: the mascot's figure shows it fallen (its mark) or turned
                pr = self.pill(text, badge, (bx, by), fill, role="badge")
                bx = pr[0] + pr[2] + int(8 * u)

    def _odds_head(self, model: ScreenModel, rect: Rect, cols: int, col_w: int, right: int, bottom: int) -> None:
        """The odds' header above the rows (which end at ``bottom``): which card they belong to (with
        "updating" while newer ones are computed) beside or under a caption over each column."""
        x, y, w, h = rect
        cap = self.cap(17, "figure")
        stale = model.odds_stale
        card = odds_label(self.lang, model.odds_card, model.pass_no, model.reveals_per_pass).upper()
        texts = [f"{card} · {self.w('updating')}", self.w("updating"), card] if stale and card else \
            [self.w("updating")] if stale else [card] if card else []
        heads = [self.w("to_win")] if cols == 1 else [place(self.lang, n).upper() for n in range(1, cols + 1)]
        left = right - (cols - 1) * col_w - self.font(cap).size(heads[0])[0] - int(cap)
        for k, text in enumerate(heads):
            self.label(text, cap, (right - (cols - 1 - k) * col_w, y), C.DIM_TEXT, "topright", role="figure")
        colour = C.GOLD if stale else C.DIM_TEXT
        for text in texts:   # the longest that fits: beside the captions, else on a line of its own
            for tcap, role in ((cap, "figure"), (self.cap(17), "text")):   # at the words' floor where it must
                second = y + int(tcap * 1.5)
                two_lines = second + tcap * 1.45 <= bottom
                if self.font(tcap).size(text)[0] <= left - x:
                    self.label(text, tcap, (x, y + int((cap - tcap) / 2)), colour, max_w=left - x, role=role)
                    return
                if two_lines and self.font(tcap).size(text)[0] <= w:
                    self.label(text, tcap, (x, second), colour, max_w=w, role=role)
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
                                            "midright", role="figure")[0])
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
        words = [action_words(a, self.lang) for a in actions]
        fcap = self.cap(18, "figure")
        plan = self._move_plan(model, aw, u)
        # the pictograms give way to the moves: an "All" card shows every mascot's move
        room = h - int(fcap * 1.45) - int(26 * u) - plan.height
        size = int(min(h * 0.42, (aw - gap * (len(actions) - 1)) / max(1, len(actions)), max(h * 0.2, room)))
        cap = min(self.fit_cap(wd, fcap, size + gap - 4, fcap) for wd in words)
        under = all(self.font(cap).size(wd)[0] <= size + gap - 4 for wd in words)   # each under its pictogram
        if not under:   # the words wrapped in a row under the pictograms: the pictograms give them room too
            words_h = len(self.lines_for(", ".join(words), cap, aw)) * int(cap * 1.45) + int(26 * u)
            size = int(min(size, max(h * 0.2, h - words_h - plan.height - int(10 * u))))
        top = y + size
        for i, act in enumerate(actions):
            bx = ax + i * (size + gap)
            self.pg.draw.rect(self.surface, shade(C.PANEL, 1.5), (bx, y, size, size), border_radius=int(12 * u))
            self.action_icon(act, (bx + size // 10, y + size // 10, size * 8 // 10, size * 8 // 10), col)
            if under:
                r = self.label(words[i], cap, (bx + size // 2, y + size + int(10 * u)), C.TEXT, "midtop",
                               role="figure")
                top = max(top, r[1] + r[3] + int(8 * u))
        if not under:   # too long for their pictograms: the words in a row under them, wrapped
            for line in self.lines_for(", ".join(words), cap, aw):
                r = self.label(line, cap, (ax, top + int(10 * u)), C.TEXT, max_w=aw, role="figure")
                top = r[1] + r[3]
            top += int(8 * u)
        self._move_lines(model, plan, (ax, top, aw, y + h - top), u)

    def _move_plan(self, model: ScreenModel, width: int, u: float) -> MovePlan:
        """How the last card's moves are laid out in ``width`` pixels: each on a line, its state word (FELL,
        TURNED) on a second line where it does not fit beside the move; in two columns for more than two
        moves where each fits its column."""
        moves = tuple(model.moves[:4])
        cap = self.cap(28, "figure")
        pill = self.cap(20, "badge")
        words = tuple(self.w(mv.what) if mv.what else "" for mv in moves)
        line_h = int(max(cap * 1.5, pill * 1.84 if any(words) else 0)) + 2
        r = int(cap * 0.8)
        pieces = tuple(self._move_pieces(mv)[0] for mv in moves)
        move_w = [2 * r + int(10 * u) + sum(self.font(cap).size(a)[0] + self.font(cap).size(b)[0] + cap * 1.4
                                            + int(34 * u) for a, b in parts) for parts in pieces]
        word_w = [self.font(pill).size(wd)[0] + pill * 1.1 if wd else 0 for wd in words]
        cols = 2 if len(moves) > 2 and all(m + wd <= width // 2 - int(10 * u) for m, wd in zip(move_w, word_w)) \
            else 1
        col_w = width // cols
        two = tuple(bool(wd) and m + wd > col_w and 2 * r + int(10 * u) + wd <= col_w
                    for m, wd in zip(move_w, word_w))
        lines = sum(1 + t for t in two) if cols == 1 else -(-len(moves) // 2)
        return MovePlan(moves, pieces, words, two, cols, cap, pill, line_h, lines * line_h if moves else line_h)

    def _move_lines(self, model: ScreenModel, plan: MovePlan, rect: Rect, u: float) -> None:
        """``GOBBLER 5 -> 7`` per moved mascot (lane changes and falls in words), as :meth:`_move_plan` lays
        them out, as many as the panel holds."""
        x, y, w, h = rect
        if not plan.moves:
            self.label(self.w("nothing_moved"), self.cap(24), (x, y), C.DIM_TEXT, max_w=w)
            return
        cap, pill, line_h, cols = plan.cap, plan.pill, plan.line_h, plan.cols
        fit = max(1, h // line_h)
        step = max(line_h, min(int(70 * u), h // max(1, plan.height // line_h)))
        r = int(cap * 0.8)
        col_w = w // cols
        row = 0
        for i, (mv, parts, word, two) in enumerate(zip(plan.moves, plan.pieces, plan.words, plan.two)):
            col = i % cols if cols > 1 else 0
            line = i // cols if cols > 1 else row
            if two and line + 2 > fit:
                two, word = False, ""   # no room for the word's own line: the move alone (the track shows it)
            if line + 1 > fit:
                break   # no room for this one (at the size class's smallest text)
            row = line + 1 + two
            ry = y + line * step + int(cap * 0.8)
            cx = x + col * col_w
            end = cx + col_w   # this move's column ends here: what does not fit is left out
            self.mascot(mv.mascot, cx + r, ry, r)
            cx += 2 * r + int(10 * u)
            start = cx
            for a, b in parts:
                if cx + self.font(cap).size(a)[0] + self.font(cap).size(b)[0] + cap * 1.4 + int(26 * u) > end:
                    break   # the lane change after a long move (the track and the call show it)
                cx = self.label(a, cap, (cx, ry), C.TEXT, "midleft", role="figure")[0] \
                    + self.font(cap).size(a)[0] + int(8 * u)
                self.arrow((cx, ry), (cx + cap * 1.4, ry), C.GOLD, max(2, int(cap * 0.22)), cap * 0.6)
                cx += int(cap * 1.4 + 8 * u)
                cx = self.label(b, cap, (cx, ry), C.TEXT, "midleft", role="figure")[0] \
                    + self.font(cap).size(b)[0] + int(18 * u)
            if word:
                if two:   # the word on its own line under the move
                    cx, ry = start, ry + step
                fill = (C.GOLD if mv.what in ("finished", "placed")
                        else C.OUT_MARK if mv.what in ("fell", "out", "knocked out") else MOVE_CALM)
                room = end - cx - int(pill * 1.1)   # the pill inside its column
                if self.font(pill).size(word)[0] > room and mv.what in ("out", "knocked out"):
                    word = self.w("DQ")   # the short word where the long one cannot fit (the 720p panel)
                if self.font(pill).size(word)[0] <= room:
                    self.pill(word, pill, (cx, ry), fill, role="badge")

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

    def money(self, model: ScreenModel, rect: Rect, u: float, now: float = 0.0) -> None:
        """Each seat's money (most first) and what its tickets would pay if the race ended now: in total beside
        the money, and ticket by ticket under it (``HURLEY TOP: +$10``) where there is room for every ticket;
        else in two columns with each ticket as its mascot's figure and the pay (``(H) +$10``, ``YES -$5``)
        where those fit a line a seat; otherwise one line per seat, in two columns for more than four seats. The
        7-inch panel shows four seats at a time, the pages turning at ``now`` (``companion.screen.pages``)."""
        x, y, w, h = rect
        rows = seat_rows(model)
        small = self.layout is not None and self.layout.small
        pages = -(-len(rows) // 4) if small else 1
        if pages > 1:
            k = page_at(now, pages)
            rows = rows[k * 4:(k + 1) * 4]
        racing = any(s.pays_now for s in rows)
        self.pg.draw.rect(self.surface, C.PANEL, rect, border_radius=int(14 * u))
        pad = int(18 * u)
        tcap = self.cap(20, "figure")
        head = self.w("money") + (f" {page_at(now, pages) + 1}/{pages}" if pages > 1 else "")
        title = self.label(head, tcap, (x + pad, y + int(14 * u)), C.DIM_TEXT, role="figure")
        room = x + w - pad - (title[0] + title[2]) - int(20 * u)
        if racing and self.font(tcap).size(self.w("now" if small else "if_ended_now"))[0] <= room:
            key = "now" if small else "if_ended_now"   # (not beside a long title and its page: the totals say it)
            self.label(self.w(key), tcap, (x + w - pad, y + int(14 * u)), C.DIM_TEXT, "topright", max_w=room,
                       role="figure")
        top = title[1] + title[3] + int(4 * u)
        if not rows:
            return
        cap = self.cap(26, "figure")
        line = int(cap * 1.5)
        pill = self.cap(18, "figure")
        pill_h = int(pill * 1.84) + int(4 * u)
        gap = int(30 * u)
        room = y + h - pad - top
        tickets = {s.name: [short_ticket(t) + (f": {_dollars(s.pays_now[k])}" if k < len(s.pays_now) else "")
                            for k, t in enumerate(s.tickets)] for s in rows}
        cols, full = 1 if len(rows) <= 4 else 2, False
        compact: dict[str, list[tuple[str, str, int]]] | None = None
        if racing:   # the full form where every ticket fits: one column, else two
            for n in (1, 2):
                per = -(-len(rows) // n)
                cw = (w - 2 * pad - gap * (n - 1)) // n
                lines = [self.pill_lines(v, pill, cw, u) for v in tickets.values()]
                if all(lines) and per * (line + max(len(k) for k in lines) * pill_h) <= room:
                    cols, full = n, True
                    break
            cw = (w - 2 * pad - gap) // 2
            if not full and -(-len(rows) // 2) * (line + pill_h) <= room:   # the compact form, two columns
                forms = {s.name: self._compact_tickets(s, pill, cw, u) for s in rows}
                if all(f is not None for f in forms.values()):
                    cols, compact = 2, {k: f for k, f in forms.items() if f is not None}
        per_col = -(-len(rows) // cols)
        step = room // per_col
        cw = (w - 2 * pad - gap * (cols - 1)) // cols
        for i, seat in enumerate(rows):
            cx = x + pad + (i // per_col) * (cw + gap)
            ry = top + (i % per_col) * step
            cy = ry + line // 2
            right = self.label(f"${seat.money}", cap, (cx + cw, cy), C.GOLD, "midright", role="figure")[0]
            if seat.pays_now:
                total = sum(seat.pays_now)
                colour = POSITIVE if total > 0 else C.OUT_MARK if total < 0 else C.DIM_TEXT
                right = self.label(_dollars(total), cap, (right - int(20 * u), cy), colour, "midright",
                                   role="figure")[0]
            self.label(seat.name.upper(), cap, (cx, cy), C.TEXT, "midleft", max_w=right - cx - int(16 * u))
            for stack, text, px in (compact or {}).get(seat.name, []):
                tx, ty = cx + px, ry + line + pill_h // 2
                if stack in C.COLOURS:   # the mascot's figure names the ticket, its pay beside it
                    r = int(pill * TICKET_FIGURE)
                    self.mascot(stack, tx + r, ty, r)
                    tx += int(r * 2.6)
                self.pill(text, pill, (tx, ty), _stack_colour(stack), role="figure")
            if full:
                for n, row in enumerate(self.pill_lines(tickets[seat.name], pill, cw, u)):
                    for k, px in row:
                        stack = seat.stacks[k] if k < len(seat.stacks) else seat.tickets[k].split()[0].lower()
                        self.pill(tickets[seat.name][k], pill, (cx + px, ry + line + n * pill_h),
                                  _stack_colour(stack), anchor="topleft", role="figure")


    def _compact_tickets(self, seat: SeatView, pill: float, width: int, u: float
                         ) -> list[tuple[str, str, int]] | None:
        """A seat's tickets in one line ``width`` pixels wide: per ticket its stack, the pill's text (the pay;
        ``YES +$10`` for a YES or NO ticket, whose stack has no figure) and its x; None when they do not fit."""
        out, x = [], 0
        for k, pays in enumerate(seat.pays_now):
            stack = seat.stacks[k] if k < len(seat.stacks) else ""
            figure = stack in C.COLOURS
            text = _dollars(pays) if figure else f"{self.w(stack) if stack in ('yes', 'no') else stack.upper()} " \
                f"{_dollars(pays)}".strip()
            wd = (int(int(pill * TICKET_FIGURE) * 2.6) if figure else 0) + self.font(pill).size(text)[0] \
                + 2 * int(pill * 0.55)
            out.append((stack, text, x))
            x += wd + int(12 * u)
        return out if x - int(12 * u) <= width else None


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
