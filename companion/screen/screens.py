"""The screens around the race: attract, setup, betting (the draft), payouts and game over."""

from __future__ import annotations

import math

from companion import colours as C
from companion.screen.words import place as ordinal_in, say
from companion.screen.layout import KEY_CAP, Layout, Rect, betting_band, seat_rows, standing_rect
from companion.screen.model import MASCOT_ORDER, CardView, ScreenModel
from companion.colours import RGB
from companion.screen.race_panels import short_ticket
from companion.screen.bet_board import BetBoard
from companion.screen.widgets import ink_on, shade

POSITIVE = (90, 220, 110)


def _frac(L: Layout, x: float, y: float, w: float, h: float) -> Rect:
    return (round(L.width * x), round(L.height * y), round(L.width * w), round(L.height * h))


def stack_colour(stack: str) -> RGB:
    """A ticket stack's colour: the mascot's, white for YES, grey for NO."""
    return C.COLOURS.get(stack, C.TEXT if stack == "yes" else C.DIM_TEXT)


def pays_text(stack: str, pays: tuple[int, ...]) -> str:
    """``(10, 7, 5)`` -> ``"10 7 5"``; YES/NO ``(15, -5)`` -> ``"+15 / -5"`` (right / wrong)."""
    if stack in ("yes", "no"):
        return " / ".join(f"{p:+d}" for p in pays if p != 0) or "0"
    return " ".join(str(p) for p in pays)


class OtherScreens(BetBoard):
    """Draws the screens other than the race (a mixin of the screen's Painter)."""

    def odds_list(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """Each mascot's chance to win, large, in a 2x2 grid."""
        title_w = rect[2] - 2 * int(18 * u)
        title = self.w("chance")
        if self.font(self.cap(20, "figure")).size(title)[0] > title_w:
            title = self.w("to_win")   # the shorter caption on a narrow panel
        x, y, w, h = self.panel(rect, title, u)
        if not model.odds:
            self.label(self.w("not_known"), self.cap(24), (x, y), C.DIM_TEXT, max_w=w)
            return
        mark = self.w("updating")
        title_cap = self.cap(20, "figure")
        if model.odds_stale and self.font(title_cap).size(title)[0] + self.font(self.cap(16)).size(mark)[0] \
                + int(30 * u) <= title_w:   # made for an earlier card: dimmed, with a small mark where it fits
            rx, ry, rw, rh = rect
            self.label(mark, self.cap(16), (rx + rw - int(22 * u), ry + int(18 * u)), C.DIM_TEXT, "topright")
        names = [n for n in MASCOT_ORDER if n in model.odds]
        across = 4 if h < self.cap(KEY_CAP) * 3.2 else 2   # a short panel: the four in one row
        cw, ch = w // across, h // (4 // across)
        for i, name in enumerate(names):
            cx, cy = x + (i % across) * cw, y + (i // across) * ch + ch // 2
            r = int(min(ch * 0.34, 30 * u))
            self.mascot(name, cx + r, cy, r)
            self.label(f"{round(model.odds[name][0] * 100)}%", self.cap(KEY_CAP), (cx + int(r * 2.6), cy),
                       C.DIM_TEXT if model.odds_stale else C.TEXT, "midleft", max_w=cw - int(r * 2.8))

    def screen_attract(self, model: ScreenModel, L: Layout, now: float) -> None:
        u, w, h = L.unit, L.width, L.height
        row = 0.5 if L.small else 0.58   # where the mascots stand (the 7-inch panel: higher, room for the words)
        title = self.label("HOT STREAK", self.cap(150), (w // 2, int(h * (0.21 if L.small else 0.25))), C.GOLD,
                           "center", max_w=int(w * 0.9))
        self.label(self.w("caller"), self.cap(30), (w // 2, title[1] + title[3] + int(8 * u)), C.DIM_TEXT, "midtop")
        r = int(70 * u)
        cap = self.cap(KEY_CAP)
        col = int(w * 0.2)
        if max(self.font(cap).size(n.upper())[0] for n in MASCOT_ORDER) > col - int(10 * u):
            col = int(w * 0.24)   # narrow screens: the four mascots closer to the edges
        for i, name in enumerate(MASCOT_ORDER):
            cx = w // 2 + int((i - 1.5) * col)
            cy = int(h * row + math.sin(now * 3.0 + i) * 14 * u)
            self.mascot(name, cx, cy, r)
            self.label(name.upper(), cap, (cx, int(h * row) + int(r * 1.5)), C.TEXT, "midtop",
                       max_w=col - int(10 * u))
        bottom = int(h * 0.955 - self.cap(30) * 0.85) if model.form else int(h * 0.98)
        lines = self.lines_for(self.w("scan_new"), cap, int(w * 0.92))
        top = max(int(h * row) + int(r * 1.5) + int(cap * 2.2), int(h * 0.88) - int(cap * 0.8) * len(lines))
        for k, line in enumerate(lines):   # a long one on two lines, never shrunk under the size class
            self.label(line, cap, (w // 2, min(top, bottom - int(cap * 1.6) * len(lines)) + k * int(cap * 1.6)),
                       C.TEXT, "midtop", max_w=int(w * 0.96))
        if model.form:  # past games: "Mum has won 4 of the last 10"
            self.label(model.form, self.cap(30), (w // 2, int(h * 0.955)), C.GOLD, "center", max_w=int(w * 0.92))

    def screen_setup(self, model: ScreenModel, L: Layout, now: float) -> None:
        """The face-up cards scanned (a column per mascot and one for green), the chance to win, the players
        and what to do. The 7-inch panel keeps the cards, the chance to win and the players; with the phone
        page on, the join code takes the chance to win's place (``companion.screen.qr``)."""
        u = L.unit
        cols = (*MASCOT_ORDER, "green")
        total = sum(len(v) for v in model.known_cards.values())
        known = self.w("known_of", n=total, m=model.face_up_total) if model.face_up_total else self.w("known", n=total)
        if L.small:
            x, y, aw, ah = self.panel(_frac(L, 0.02, 0.1, 0.6, 0.7 if model.join_url else 0.88), known, u)
        else:
            x, y, aw, ah = self.panel(_frac(L, 0.02, 0.1, 0.62, 0.6), self.w("face_up"), u)
            self.label(known, self.cap(22), (x + aw, y - int(34 * u)), C.TEXT, "topright")
        cw = aw // len(cols)
        r = int(32 * u)
        for i, name in enumerate(cols):
            cx = x + i * cw + cw // 2
            if name == "green":  # a green card moves everybody: the first letter of the table's word for "all"
                self.pg.draw.circle(self.surface, C.colour("green"), (cx, y + r), r)
                letter = self.text(self.w("all")[:1], r * 0.95, C.BACKGROUND)   # a figure on the disc, not a word
                self.surface.blit(letter, letter.get_rect(center=(cx, y + r)))
            else:
                self.mascot(name, cx, y + r, r)
            cards = model.known_cards.get(name, ())
            note_cap = self.cap(28)
            step = max(int(note_cap * 1.6), min(int(62 * u), (ah - 2 * r - int(20 * u)) // max(1, len(cards))))
            col = C.colour(name)
            tw = cw - 2 if L.small else int(cw * 0.8)
            for j, note in enumerate(cards):   # each known card as a small card in its colour, its actions drawn
                tile = (cx - tw // 2, y + 2 * r + int(20 * u) + j * step, tw, int(step * 0.9))
                self.pg.draw.rect(self.surface, col, tile, border_radius=int(8 * u))
                acts = CardView(note).actions
                side = min(int(tile[3] * 0.9), (tile[2] - int(8 * u)) // max(1, len(acts)))
                left = cx - side * len(acts) // 2
                for k, act in enumerate(acts):
                    self.action_icon(act, (left + k * side, tile[1] + (tile[3] - side) // 2, side, side), ink_on(col))
        if L.small:
            if not model.join_url:
                self.odds_list(model, _frac(L, 0.64, 0.1, 0.34, 0.3), u)
            top = 0.48 if model.join_url else 0.42   # under the join code, or under the chance to win
            self.players(model, _frac(L, 0.64, top, 0.34, 0.98 - top), u)
            return
        self.odds_list(model, _frac(L, 0.655, 0.1, 0.325, 0.3), u)
        self.players(model, _frac(L, 0.655, 0.42, 0.325, 0.56), u)
        hint = (_frac(L, 0.02, 0.72, 0.62, 0.26))
        hx, hy, hw, hh = self.panel(hint, self.w("what_to_do"), u)
        if model.form:  # past games: "Mum has won 4 of the last 10", at the foot of the hint panel
            form = self.label(model.form, self.cap(24), (hx, hy + hh), C.GOLD, "bottomleft", max_w=hw)
            hh = form[1] - hy - int(8 * u)
        self.wrap(say(self.lang, "setup_help"), self.cap(26), (hx, hy, hw, hh), C.TEXT)

    def players(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """The players by name with their money (seat order), and the keyboard hint for names where a keyboard
        types into the screen."""
        x, y, w, h = self.panel(rect, self.w("players"), u)
        hint_cap = self.cap(15)
        # the keyboard hint at the foot (on two lines when it is long), only where a keyboard types names
        hint = self.lines_for(self.w("name_key"), hint_cap, w) if model.keyboard else []
        hint_h = int(len(hint) * hint_cap * 1.6)
        n = max(1, len(model.seats))
        if (h - hint_h - int(8 * u)) // n < self.min_cap * 1.5:
            hint, hint_h = [], 0   # no room for the keyboard hint (the 7-inch panel): the players first
        step = max(int(self.min_cap * 1.5), min(int(76 * u), (h - hint_h - int(8 * u)) // n))
        cap = max(self.min_cap, min(self.cap(KEY_CAP), step * 0.6))
        font, gap = self.font(cap), int(16 * u)
        # a seat with a code (the 6 digits a phone types to take it) keeps its name readable: on a narrow panel
        # the money gives way first (it is on every other screen), then the name is shortened
        money = all(font.size(f"{s.name.partition(' · ')[0].upper()[:6]} {s.name.partition(' · ')[2]}  "
                              f"${s.money}")[0] + 2 * gap <= w for s in model.seats)
        for i, seat in enumerate(model.seats):
            cy = y + i * step + step // 2
            right = x + w
            if money or " · " not in seat.name:
                right = self.label(f"${seat.money}", cap, (x + w, cy), C.GOLD, "midright")[0] - int(12 * u)
            name, _, code = seat.name.partition(" · ")  # "Bram · 482193": the consent code a phone types
            if code:  # the code whole, beside the money; the name gives way (shortened) when both do not fit
                right = self.label(code, cap, (right, cy), C.DIM_TEXT, "midright")[0] - gap
            self.label(self.shortened(name.upper(), cap, right - x), cap, (x, cy), C.TEXT, "midleft",
                       max_w=right - x)
        for k, line in enumerate(hint):
            self.label(line, hint_cap, (x, y + h - hint_h + int(k * hint_cap * 1.6)), C.DIM_TEXT, max_w=w)

    def screen_betting(self, model: ScreenModel, L: Layout, now: float) -> None:
        """The draft: whose pick (and the double to mark) in a band, the ticket stacks as a table, the side bet,
        the chance to win and each seat's tickets. The 7-inch panel keeps the band and the stacks, with each
        mascot's chance to win in the table."""
        u = L.unit
        band = betting_band(L)
        self.pg.draw.rect(self.surface, shade(C.GOLD, 0.3), band, border_radius=int(14 * u))
        bx, by, bw, bh = band
        sub = short = None
        if model.whose_pick:
            prompt, colour, sub = self.w("your_pick", name=model.whose_pick), C.GOLD, model.double_prompt
            short = model.double_short
        elif model.open_bets or model.double_prompt:   # the open variant: what is still missing
            prompt, colour = self.bets_prompt(model) if model.open_bets else str(model.double_prompt).upper(), C.GOLD
        elif model.table_phase == "adding-cards":
            prompt, colour = self.w("add_cards"), C.TEXT
        else:
            prompt, colour = self.w("draft_done"), C.TEXT
        from companion.screen.qr import band_room
        room = bw - band_room(self, model, L) - int(40 * u)   # the join code at the band's right end, when shown
        pad = int(10 * u)
        sub_cap = self.cap(22)

        def with_note(text: str | None) -> tuple[list[str], int, float]:
            """The note's lines, their height and the prompt's capital height beside them."""
            lines = self.lines_for(text.upper(), sub_cap, room) if text else []
            height = int(len(lines) * sub_cap * 1.55)
            return lines, height, max(self.min_cap, min(self.cap(50), (bh - 2 * pad - height) / 1.55))

        sub_lines, sub_h, cap = with_note(sub)
        if sub_lines and cap * 1.45 + sub_h > bh - 2 * pad:   # no room for the double's note (the 7-inch panel):
            sub_lines, sub_h, cap = with_note(short)   # its few words, on one line
            if len(sub_lines) != 1 or cap * 1.45 + sub_h > bh - 2 * pad:
                sub_lines, sub_h, cap = with_note(None)   # not even that: the phones say it
        cx = bx + int(20 * u) + room // 2
        top = by + (bh - int(cap * 1.45) - sub_h) // 2
        prompt_lines = self.lines_for(prompt, cap, room)
        if len(prompt_lines) > 1 and not sub_lines and len(prompt_lines) * cap * 1.55 <= bh - 2 * pad:
            top = by + (bh - int(len(prompt_lines) * cap * 1.55)) // 2   # a long prompt on two lines
        else:
            prompt_lines = [prompt]
        for k, line in enumerate(prompt_lines):
            self.label(line, cap, (cx, top + int(k * cap * 1.55)), colour, "midtop", max_w=room)
        for k, line in enumerate(sub_lines):
            self.label(line, sub_cap, (cx, top + int(cap * 1.55) + int(k * sub_cap * 1.55)), C.TEXT, "midtop",
                       max_w=room)
        below = (by + bh) / L.height + 0.02
        if L.small:   # the side bet's question as the table's title, where it fits on the line
            rect = _frac(L, 0.02, below, 0.96, 0.98 - below)
            title = self.side_bet_title(model, rect[2] - 2 * int(18 * u))
            if not self.bet_board(model, rect, u, now, title):
                self.stacks(model, rect, u, odds=True, title=title)
            return
        if not self.bet_board(model, _frac(L, 0.02, below, 0.6, 0.98 - below), u, now):
            self.stacks(model, _frac(L, 0.02, below, 0.6, 0.66 - below), u)
            self.tickets_by_seat(model, _frac(L, 0.02, 0.68, 0.96, 0.3), u)
        sx, sy, sw, sh = self.panel(_frac(L, 0.635, below, 0.345, 0.5 - below), self.w("side_bet"), u)
        self.wrap(model.side_bet or say(self.lang, "no_side_card"), self.cap(24), (sx, sy, sw, sh),
                  C.TEXT if model.side_bet else C.DIM_TEXT)
        self.odds_list(model, _frac(L, 0.635, 0.52, 0.345, 0.14), u)

    def stacks(self, model: ScreenModel, rect: Rect, u: float, odds: bool = False, title: str | None = None) -> None:
        """The ticket stacks as a table, a row per stack: its name, the tickets left, the top ticket's level
        and what it pays safe and risky (per paid place; right / wrong for YES and NO), and with ``odds``
        each mascot's chance to win. Columns that do not fit are left out, the tickets left first. ``title``
        replaces the panel's own ("TICKET STACKS: THE TOP TICKET PAYS...")."""
        if title is None:
            title = self.w("stacks")
            if self.font(self.cap(20, "figure")).size(title)[0] > rect[2] - 2 * int(18 * u):
                title = title.split(":")[0]   # "TICKET STACKS" without what the top ticket pays
        x, y, w, h = self.panel(rect, title, u, upper=False)   # the stacks' title in capitals, a question as cased
        if not model.stacks:
            return
        cap = self.cap(26, "figure")
        gap = int(24 * u) + 8
        step = max(int(cap * 1.5), min(int(cap * 2.2), (h - int(cap * 1.6)) // (len(model.stacks) + 1)))
        rows = []
        for st in model.stacks:
            name = self.w(st.stack) if st.stack in ("yes", "no") else st.stack.upper()
            win = ""
            if odds and model.odds and st.stack in model.odds:
                win = f"{round(model.odds[st.stack][0] * 100)}%"
            rows.append((st, [name, self.w("left", n=st.left), self.w(st.top) if st.top else self.w("empty"),
                              pays_text(st.stack, st.safe) if st.top else "",
                              pays_text(st.stack, st.risky) if st.top else "", win]))
        heads = ["", "", "", self.w("safe"), self.w("risky"), self.w("to_win") if odds and model.odds else ""]
        widths = [max(self.font(cap).size(t)[0] for t in [heads[c]] + [r[1][c] for r in rows]) for c in range(6)]
        shown = [c for c in range(6) if widths[c]]
        for drop in (1, 2, 5):   # the tickets left are on the table, the level is in the pays: the first to go
            if sum(widths[c] for c in shown) + gap * (len(shown) - 1) <= w:
                break
            if drop == 5 and 5 in shown:   # the chance to win beside the stack's name, captioned above it
                heads[0], heads[5] = heads[5], ""
                for _, cells in rows:
                    cells[0], cells[5] = (f"{cells[0]} {cells[5]}" if cells[5] else cells[0]), ""
                widths[0] = max(self.font(cap).size(t)[0] for t in [heads[0]] + [r[1][0] for r in rows])
            if drop in shown:
                shown.remove(drop)
        xs, cx = {}, x
        for c in shown:
            xs[c] = cx
            cx += widths[c] + gap
        for c in shown:
            if heads[c]:
                self.label(heads[c], cap, (xs[c], y), C.DIM_TEXT, role="figure")
        for k, (st, cells) in enumerate(rows):
            ry = y + step * (k + 1)
            colours = [stack_colour(st.stack), C.TEXT, C.DIM_TEXT, C.TEXT, C.GOLD,
                       C.DIM_TEXT if model.odds_stale else C.TEXT]
            for c in shown:
                if cells[c]:
                    self.label(cells[c], cap, (xs[c], ry), colours[c], role="figure")

    def tickets_by_seat(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """A row per seat: its name and money, then its drafted tickets (x2 when doubled; a note while a
        double is due), the drafter's row outlined in gold; tickets without their side where they do not fit."""
        x, y, w, h = self.panel(rect, self.w("tickets"), u)
        seats = model.seats
        if not seats:
            return
        step = h // len(seats)
        cap = max(self.min_cap, min(self.cap(KEY_CAP * 0.8), step / 1.6))
        tcap = max(self.cap(0, "figure"), min(self.cap(21, "figure"), step / 1.9))
        name_w = max(self.font(cap).size(s.name.upper())[0] for s in seats)
        money_w = max(self.font(cap).size(f"${s.money}")[0] for s in seats)
        tx = x + name_w + money_w + int(60 * u)
        for i, seat in enumerate(seats):
            ry = y + i * step
            cy = ry + step // 2
            if model.whose_pick and seat.name == model.whose_pick:   # the drafter's row, outlined in gold
                self.pg.draw.rect(self.surface, C.GOLD, (x - int(8 * u), ry, w + int(16 * u), step),
                                  width=max(2, int(4 * u)), border_radius=int(10 * u))
            self.label(seat.name.upper(), cap, (x + int(6 * u), cy), C.TEXT, "midleft")
            self.label(f"${seat.money}", cap, (tx - int(30 * u), cy), C.GOLD, "midright")
            texts = [t.upper() for t in seat.tickets]
            if seat.double_due:
                texts.append(self.w("mark_double"))
            lines = self.pill_lines(texts, tcap, x + w - tx, u)
            if len(lines) != 1 and seat.tickets:
                texts = [short_ticket(t) for t in seat.tickets] + texts[len(seat.tickets):]
                lines = self.pill_lines(texts, tcap, x + w - tx, u)
            for k, px in (lines[0] if len(lines) == 1 else []):
                due = k >= len(seat.tickets)
                stack = "" if due else seat.stacks[k] if k < len(seat.stacks) else seat.tickets[k].split()[0].lower()
                self.pill(texts[k], tcap, (tx + px, cy), C.GOLD if due else stack_colour(stack), role="figure")

    def screen_payouts(self, model: ScreenModel, L: Layout, now: float) -> None:
        u = L.unit
        # the 7-inch panel: the seats across the top, the places and the side bet's answer side by side below
        seats_rect = _frac(L, 0.02, 0.1, 0.96, 0.43) if L.small else _frac(L, 0.02, 0.1, 0.62, 0.88)
        x, y, aw, ah = self.panel(seats_rect, self.w("payouts_after", n=model.race_no), u)
        rows = seat_rows(model)
        n = max(1, len(rows))
        step = min(int(150 * u), ah // n)
        cap = max(self.min_cap, min(self.cap(KEY_CAP), step * 0.3))
        for i, seat in enumerate(rows):
            ry = y + i * step
            if i:
                self.pg.draw.line(self.surface, C.BACKGROUND, (x, ry - int(6 * u)), (x + aw, ry - int(6 * u)), 2)
            self.label(str(i + 1), cap * (1.0 if L.small else 1.2), (x, ry + int(cap * 0.2)), C.DIM_TEXT)
            nx = x + int(cap * 1.8)
            after = self.label(f"${seat.money}", cap, (x + aw, ry + int(cap * 0.2)), C.GOLD, "topright")
            if seat.money_before is not None:
                change = seat.money - seat.money_before
                colour = POSITIVE if change > 0 else (C.OUT_MARK if change < 0 else C.DIM_TEXT)
                text = f"{'+' if change > 0 else '-' if change < 0 else '+'}${abs(change)}"
                after = self.label(text, cap, (after[0] - int(36 * u), ry + int(cap * 0.2)), colour, "topright")
            self.label(seat.name.upper(), cap, (nx, ry + int(cap * 0.2)), C.TEXT, max_w=after[0] - nx - int(20 * u))
            tcap, ty = self.cap(19, "figure"), ry + int(cap * 1.6) + int(10 * u)
            texts = [t.upper() for t in seat.tickets] or [say(self.lang, "no_tickets").upper()]
            lines = self.pill_lines(texts, tcap, x + aw - nx, u)
            fits = ty + len(lines) * int(tcap * 2.2) <= ry + step - int(8 * u)
            if seat.tickets and not (lines and fits):   # short: "GOBBLER TOP: +7", what it paid says the side
                texts = [short_ticket(t.partition(":")[0]) + (":" + t.partition(":")[2] if ":" in t else "")
                         for t in seat.tickets]
                lines = self.pill_lines(texts, tcap, x + aw - nx, u)
                if ty + len(lines) * int(tcap * 2.2) > ry + step - int(8 * u):
                    lines = []   # no room for the tickets (the 7-inch panel): the money and its change only
            for li, line in enumerate(lines):
                for k, px in line:
                    t = seat.tickets[k] if seat.tickets else texts[k]
                    stack = seat.stacks[k] if k < len(seat.stacks) else t.split()[0].lower()
                    self.pill(texts[k], tcap, (nx + px, ty + li * int(tcap * 2.2)), stack_colour(stack),
                              anchor="topleft", role="figure")
        self.payouts_lower(model, L)

    def payouts_lower(self, model: ScreenModel, L: Layout) -> None:
        """The payouts' places and side bet beside the seats (the 7-inch panel draws its own)."""
        self.places(model, _frac(L, 0.655, 0.1, 0.325, 0.5), L.unit)
        self.side_bet_result(model, _frac(L, 0.655, 0.62, 0.325, 0.36), L.unit)

    def side_bet_result(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """The side bet panel of the payouts: the question, and the answer in a badge under it. Where both do
        not fit (the 7-inch panel), the answer is a YES or NO badge on the panel's title row and the question
        takes the panel; where even that does not fit, the answer alone."""
        title = self.w("side_bet")
        sx, sy, sw, sh = self.panel(rect, title, u)
        question = model.side_bet or say(self.lang, "no_side_bet")
        qcap, pcap, gap = self.cap(24), self.cap(KEY_CAP * 0.85), int(20 * u)
        answer = model.side_bet_answer
        if answer is None:
            if self.wraps_in(question, qcap, sw, sh):
                self.wrap(question, qcap, (sx, sy, sw, sh), C.TEXT)
            return
        word, fill = (self.w("happened"), POSITIVE) if answer else (self.w("not_happened"), C.OUT_MARK)
        short = self.w("yes" if answer else "no")
        if self.font(pcap).size(word)[0] + pcap * 1.1 > sw:   # too long for the panel: YES or NO
            word = short
        room = sh - int(pcap * 1.84) - gap   # above the answer's badge
        if self.wraps_in(question, qcap, sw, room):
            used = self.wrap(question, qcap, (sx, sy, sw, room), C.TEXT)
            self.pill(word, pcap, (sx, sy + used + gap), fill, anchor="topleft")
            return
        beside = self.font(self.cap(20, "figure")).size(title.upper())[0] + self.font(pcap).size(short)[0] \
            + pcap * 1.1 + gap
        top = max(sy, rect[1] + int(6 * u) + int(pcap * 1.84) + int(4 * u))   # under the badge on the title row
        if beside <= sw and self.wraps_in(question, qcap, sw, sy + sh - top):
            self.pill(short, pcap, (sx + sw, rect[1] + int(6 * u)), fill, anchor="topright")
            self.wrap(question, qcap, (sx, top, sw, sy + sh - top), C.TEXT)
            return
        self.pill(word, pcap, (sx, sy + gap), fill, anchor="topleft")   # a long question in nl or es: the answer

    def places(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """The race's paid places, best first; a shared place marked ``=`` (``=4TH`` twice: one shared fourth)."""
        x, y, w, h = self.panel(rect, self.w("places"), u)
        status = {m.mascot: m.status for m in model.mascots}
        rows = sorted(model.podium, key=lambda mp: (mp[1], mp[0]))[:4]
        step = h // 4
        cap = self.cap(KEY_CAP)
        r = int(min(step * 0.32, 32 * u))
        mx = x + max(int(150 * u), max((self.font(cap).size(ordinal_in(self.lang, p).upper())[0]
                                        for _, p in rows), default=0) + int(r * 1.4))
        for i, (name, place) in enumerate(rows):
            cy = y + i * step + step // 2
            out = status.get(name) == "dq"
            shared = "=" if sum(p == place for _, p in rows) > 1 else ""   # a shared place, as on game over
            self.label(shared + ordinal_in(self.lang, place).upper(), cap, (x, cy),
                       C.GOLD if place == 1 else C.TEXT, "midleft")
            self.mascot(name, mx, cy, r, out=out)
            label = name.upper() + (" DQ" if out else "")
            self.label(label, cap, (mx + int(r * 1.8), cy), C.OUT_MARK if out else C.TEXT,
                       "midleft", max_w=x + w - mx - int(r * 1.8))

    def screen_game_over(self, model: ScreenModel, L: Layout, now: float) -> None:
        u, w, h = L.unit, L.width, L.height
        self.label(self.w("final"), self.cap(60), (w // 2, int(h * 0.15)), C.GOLD, "center")
        rows = model.standings
        for i, st in enumerate(rows):
            box = standing_rect(i, len(rows), L)
            x0, ry, bw, bh = box
            x1 = x0 + bw
            step = bh + int(14 * u)
            cap = max(self.min_cap, min(self.cap(KEY_CAP * 1.15), step * 0.3))
            self.pg.draw.rect(self.surface, shade(C.GOLD, 0.28) if st.place == 1 else C.PANEL, box,
                              border_radius=int(14 * u))
            shared = sum(o.place == st.place for o in rows) > 1
            place = ("=" if shared else "") + ordinal_in(self.lang, st.place).upper()
            nx = x0 + int(cap * 5.2)
            line = st.line or (model.life_outcome if i == 0 else "") or ""
            lcap = max(self.min_cap, min(self.cap(26), cap * 0.65))
            ty = ry + int(step * 0.12)
            ly = ty + int(cap * 1.45) + int(6 * u)
            fits = bool(line) and self.font(lcap).size(line)[0] <= x1 - nx - int(24 * u) and ly + lcap * 1.45 <= ry + bh
            if not fits:   # no life-outcome line (it does not fit on its line): the row's words in its middle
                ty = ry + (bh - int(cap * 1.45)) // 2
            self.label(place, cap, (x0 + int(24 * u), ty), C.GOLD if st.place == 1 else C.TEXT)
            money = self.label(f"${st.money}", cap, (x1 - int(24 * u), ty), C.GOLD, "topright")
            self.label(st.name.upper(), cap, (nx, ty), C.TEXT, max_w=money[0] - nx - int(20 * u))
            if fits:
                self.label(line, lcap, (nx, ly), C.DIM_TEXT, max_w=x1 - nx - int(24 * u))


__all__ = ["OtherScreens", "pays_text"]
