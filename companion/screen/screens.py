"""The screens around the race: attract, setup, betting (the draft), payouts and game over."""

from __future__ import annotations

import math

from companion import colours as C
from companion.screen.words import place as ordinal_in, say
from companion.screen.layout import KEY_CAP, Layout, Rect, seat_rows, standing_rect
from companion.screen.model import MASCOT_ORDER, CardView, ScreenModel
from companion.colours import RGB
from companion.screen.widgets import Widgets, ink_on, shade

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


class OtherScreens(Widgets):
    """Draws the screens other than the race (a mixin of the screen's Painter)."""

    def odds_list(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """Each mascot's chance to win, large, in a 2x2 grid."""
        x, y, w, h = self.panel(rect, self.w("chance"), u)
        if not model.odds:
            self.label(self.w("not_known"), 24 * u, (x, y), C.DIM_TEXT, max_w=w)
            return
        if model.odds_stale:  # made for an earlier card: dimmed, with a small mark
            rx, ry, rw, rh = rect
            self.label(self.w("updating"), 16 * u, (rx + rw - int(22 * u), ry + int(18 * u)), C.DIM_TEXT, "topright")
        names = [n for n in MASCOT_ORDER if n in model.odds]
        cw, ch = w // 2, h // 2
        for i, name in enumerate(names):
            cx, cy = x + (i % 2) * cw, y + (i // 2) * ch + ch // 2
            r = int(min(ch * 0.34, 30 * u))
            self.mascot(name, cx + r, cy, r)
            self.label(f"{round(model.odds[name][0] * 100)}%", KEY_CAP * u, (cx + int(r * 2.6), cy),
                       C.DIM_TEXT if model.odds_stale else C.TEXT, "midleft", max_w=cw - int(r * 2.8))

    def screen_attract(self, model: ScreenModel, L: Layout, now: float) -> None:
        u, w, h = L.unit, L.width, L.height
        self.label("HOT STREAK", 150 * u, (w // 2, int(h * 0.27)), C.GOLD, "center", max_w=int(w * 0.9))
        self.label(self.w("caller"), 30 * u, (w // 2, int(h * 0.4)), C.DIM_TEXT, "center")
        r = int(70 * u)
        for i, name in enumerate(MASCOT_ORDER):
            cx = int(w * (0.2 + 0.2 * i))
            cy = int(h * 0.58 + math.sin(now * 3.0 + i) * 14 * u)
            self.mascot(name, cx, cy, r)
            self.label(name.upper(), KEY_CAP * u, (cx, int(h * 0.58) + int(r * 1.5)), C.TEXT, "midtop",
                       max_w=int(w * 0.19))
        self.label(self.w("scan_new"), KEY_CAP * u, (w // 2, int(h * 0.88)), C.TEXT,
                   "center", max_w=int(w * 0.92))
        if model.form:  # past games: "Mum has won 4 of the last 10"
            self.label(model.form, 30 * u, (w // 2, int(h * 0.955)), C.GOLD, "center", max_w=int(w * 0.92))

    def screen_setup(self, model: ScreenModel, L: Layout, now: float) -> None:
        u = L.unit
        cols = (*MASCOT_ORDER, "green")
        x, y, aw, ah = self.panel(_frac(L, 0.02, 0.1, 0.62, 0.6), self.w("face_up"), u)
        cw = aw // len(cols)
        total = sum(len(v) for v in model.known_cards.values())
        known = self.w("known_of", n=total, m=model.face_up_total) if model.face_up_total else self.w("known", n=total)
        self.label(known, 22 * u, (x + aw, y - int(34 * u)), C.TEXT, "topright")
        for i, name in enumerate(cols):
            cx = x + i * cw + cw // 2
            r = int(32 * u)
            if name == "green":  # a green card moves everybody: the first letter of the table's word for "all"
                self.pg.draw.circle(self.surface, C.colour("green"), (cx, y + r), r)
                self.label(self.w("all")[:1], r * 0.95, (cx, y + r), C.BACKGROUND, "center")
            else:
                self.mascot(name, cx, y + r, r)
            cards = model.known_cards.get(name, ())
            step = min(int(62 * u), (ah - 2 * r - int(20 * u)) // max(1, len(cards)))
            col = C.colour(name)
            for j, note in enumerate(cards):   # each known card as a small card in its colour, its actions drawn
                tile = (cx - int(cw * 0.4), y + 2 * r + int(20 * u) + j * step, int(cw * 0.8), int(step * 0.84))
                self.pg.draw.rect(self.surface, col, tile, border_radius=int(8 * u))
                acts = CardView(note).actions
                side = min(int(tile[3] * 0.9), (tile[2] - int(8 * u)) // max(1, len(acts)))
                left = cx - side * len(acts) // 2
                for k, act in enumerate(acts):
                    self.action_icon(act, (left + k * side, tile[1] + (tile[3] - side) // 2, side, side), ink_on(col))
        self.odds_list(model, _frac(L, 0.655, 0.1, 0.325, 0.3), u)
        self.players(model, _frac(L, 0.655, 0.42, 0.325, 0.56), u)
        hint = (_frac(L, 0.02, 0.72, 0.62, 0.26))
        hx, hy, hw, hh = self.panel(hint, self.w("what_to_do"), u)
        if model.form:  # past games: "Mum has won 4 of the last 10", at the foot of the hint panel
            form = self.label(model.form, 24 * u, (hx, hy + hh), C.GOLD, "bottomleft", max_w=hw)
            hh = form[1] - hy - int(8 * u)
        self.wrap(say(self.lang, "setup_help"), 26 * u, (hx, hy, hw, hh), C.TEXT)

    def players(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """The players by name with their money (seat order), and the keyboard hint for names where a keyboard
        types into the screen."""
        x, y, w, h = self.panel(rect, self.w("players"), u)
        n = max(1, len(model.seats))
        step = min(int(76 * u), (h - int(40 * u)) // n)
        cap = min(KEY_CAP * u, step * 0.5)
        for i, seat in enumerate(model.seats):
            cy = y + i * step + step // 2
            amount = self.label(f"${seat.money}", cap, (x + w, cy), C.GOLD, "midright")
            self.label(seat.name.upper(), cap, (x, cy), C.TEXT, "midleft", max_w=amount[0] - x - int(12 * u))
        if model.keyboard:
            self.label(self.w("name_key"), 15 * u, (x, y + h), C.DIM_TEXT, "bottomleft", max_w=w)

    def screen_betting(self, model: ScreenModel, L: Layout, now: float) -> None:
        u = L.unit
        band = _frac(L, 0.02, 0.1, 0.96, 0.14)
        self.pg.draw.rect(self.surface, shade(C.GOLD, 0.3), band, border_radius=int(14 * u))
        bx, by, bw, bh = band
        sub = None
        if model.whose_pick:
            prompt, colour, sub = self.w("your_pick", name=model.whose_pick), C.GOLD, model.double_prompt
        elif model.double_prompt:
            prompt, colour = model.double_prompt.upper(), C.GOLD
        elif model.table_phase == "adding-cards":
            prompt, colour = self.w("add_cards"), C.TEXT
        else:
            prompt, colour = self.w("draft_done"), C.TEXT
        mid = by + (bh * 2 // 5 if sub else bh // 2)
        self.label(prompt, 50 * u, (bx + bw // 2, mid), colour, "center", max_w=bw - int(40 * u))
        if sub:
            self.label(sub.upper(), 20 * u, (bx + bw // 2, by + bh * 4 // 5), C.TEXT, "center", max_w=bw - int(40 * u))
        self.stacks(model, _frac(L, 0.02, 0.26, 0.62, 0.4), u)
        sx, sy, sw, sh = self.panel(_frac(L, 0.655, 0.26, 0.325, 0.2), self.w("side_bet"), u)
        self.wrap(model.side_bet or say(self.lang, "no_side_card"), 24 * u, (sx, sy, sw, sh),
                  C.TEXT if model.side_bet else C.DIM_TEXT)
        self.odds_list(model, _frac(L, 0.655, 0.48, 0.325, 0.18), u)
        self.tickets_by_seat(model, _frac(L, 0.02, 0.68, 0.96, 0.3), u)

    def stacks(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """Each ticket stack as it is: the tickets left (drawn and counted), the top ticket and its pay."""
        x, y, w, h = self.panel(rect, self.w("stacks"), u)
        if not model.stacks:
            return
        sw = w // len(model.stacks)
        for i, st in enumerate(model.stacks):
            cx = x + i * sw + sw // 2
            col = stack_colour(st.stack)
            tw, th = int(sw * 0.78), int(30 * u)
            base = y + int(h * 0.4)
            for k in range(st.left):
                r = (cx - tw // 2, base - (k + 1) * int(th * 1.25), tw, th)
                self.pg.draw.rect(self.surface, col, r, border_radius=int(6 * u))
                self.pg.draw.rect(self.surface, C.BACKGROUND, r, width=max(1, int(2 * u)), border_radius=int(6 * u))
            if st.left == 0:
                self.label(self.w("empty"), 18 * u, (cx, base - th), C.DIM_TEXT, "midbottom")
            title = self.w(st.stack) if st.stack in ("yes", "no") else st.stack.upper()
            self.label(title, 22 * u, (cx, base + int(14 * u)), col, "midtop", max_w=sw - 8)
            self.label(self.w("left", n=st.left), KEY_CAP * u, (cx, base + int(56 * u)), C.TEXT, "midtop", max_w=sw - 8)
            if st.top:
                ty = base + int(112 * u)
                self.label(self.w(st.top), 16 * u, (cx, ty), C.DIM_TEXT, "midtop", max_w=sw - 8)
                safe = self.w("safe") + " " + pays_text(st.stack, st.safe)
                self.label(safe, 17 * u, (cx, ty + int(30 * u)), C.TEXT, "midtop", max_w=sw - 10)
                risky = self.w("risky") + " " + pays_text(st.stack, st.risky)
                self.label(risky, 17 * u, (cx, ty + int(60 * u)), C.GOLD, "midtop", max_w=sw - 10)

    def tickets_by_seat(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """Each seat's name, money and drafted tickets (x2 when doubled; a note while a double is due)."""
        x, y, w, h = self.panel(rect, self.w("tickets"), u)
        seats = model.seats
        if not seats:
            return
        per_row = min(len(seats), 4)
        rows = -(-len(seats) // per_row)
        cw, rh = w // per_row, h // rows
        for i, seat in enumerate(seats):
            cx, cy = x + (i % per_row) * cw, y + (i // per_row) * rh
            cap = min(KEY_CAP * u, rh * 0.16)
            if model.whose_pick and seat.name == model.whose_pick:   # the drafter's column, outlined in gold
                pad = int(8 * u)
                self.pg.draw.rect(self.surface, C.GOLD, (cx - pad, cy - pad, cw - int(14 * u), rh),
                                  width=max(2, int(4 * u)), border_radius=int(10 * u))
            amount = self.label(f"${seat.money}", cap, (cx + cw - int(34 * u), cy), C.GOLD, "topright")
            self.label(seat.name.upper(), cap, (cx, cy), C.TEXT, max_w=amount[0] - cx - int(10 * u))
            ty = cy + int(cap * 1.9)
            for k, t in enumerate(seat.tickets):
                fill = stack_colour(seat.stacks[k] if k < len(seat.stacks) else t.split()[0].lower())
                tcap = min(21 * u, rh * 0.1)
                self.pill(t.upper(), tcap, (cx, ty), fill, anchor="topleft")
                ty += int(tcap * 2.3)
            if seat.double_due:
                self.label(self.w("mark_double"), min(21 * u, rh * 0.1), (cx, ty + int(4 * u)), C.GOLD)

    def screen_payouts(self, model: ScreenModel, L: Layout, now: float) -> None:
        u = L.unit
        x, y, aw, ah = self.panel(_frac(L, 0.02, 0.1, 0.62, 0.88), self.w("payouts_after", n=model.race_no), u)
        rows = seat_rows(model)
        n = max(1, len(rows))
        step = min(int(150 * u), ah // n)
        cap = min(KEY_CAP * u, step * 0.3)
        for i, seat in enumerate(rows):
            ry = y + i * step
            if i:
                self.pg.draw.line(self.surface, C.BACKGROUND, (x, ry - int(6 * u)), (x + aw, ry - int(6 * u)), 2)
            self.label(str(i + 1), cap * 1.2, (x, ry + int(cap * 0.2)), C.DIM_TEXT)
            nx = x + int(cap * 1.8)
            after = self.label(f"${seat.money}", cap, (x + aw, ry + int(cap * 0.2)), C.GOLD, "topright")
            if seat.money_before is not None:
                change = seat.money - seat.money_before
                colour = POSITIVE if change > 0 else (C.OUT_MARK if change < 0 else C.DIM_TEXT)
                text = f"{'+' if change > 0 else '-' if change < 0 else '+'}${abs(change)}"
                after = self.label(text, cap, (after[0] - int(36 * u), ry + int(cap * 0.2)), colour, "topright")
            self.label(seat.name.upper(), cap, (nx, ry + int(cap * 0.2)), C.TEXT, max_w=after[0] - nx - int(20 * u))
            tx, ty, tcap = nx, ry + int(cap * 2.3), min(19 * u, cap * 0.5)
            for k, t in enumerate(seat.tickets or (say(self.lang, "no_tickets"),)):
                if tx > nx and tx + self.font(tcap).size(t.upper())[0] + tcap * 1.2 > x + aw:
                    tx, ty = nx, ty + int(tcap * 2.4)
                stack = seat.stacks[k] if k < len(seat.stacks) else t.split()[0].lower()
                pr = self.pill(t.upper(), tcap, (tx, ty), stack_colour(stack), anchor="topleft")
                tx = pr[0] + pr[2] + int(12 * u)
        self.places(model, _frac(L, 0.655, 0.1, 0.325, 0.5), u)
        sx, sy, sw, sh = self.panel(_frac(L, 0.655, 0.62, 0.325, 0.36), self.w("side_bet"), u)
        used = self.wrap(model.side_bet or say(self.lang, "no_side_bet"), 24 * u, (sx, sy, sw, int(sh * 0.5)), C.TEXT)
        if model.side_bet_answer is not None:
            word, fill = ((self.w("happened"), POSITIVE) if model.side_bet_answer
                          else (self.w("not_happened"), C.OUT_MARK))
            self.pill(word, KEY_CAP * u * 0.85, (sx, sy + used + int(20 * u)), fill, anchor="topleft")

    def places(self, model: ScreenModel, rect: Rect, u: float) -> None:
        """The race's paid places, best first; a shared place marked ``=`` (``=4TH`` twice: one shared fourth)."""
        x, y, w, h = self.panel(rect, self.w("places"), u)
        status = {m.mascot: m.status for m in model.mascots}
        rows = sorted(model.podium, key=lambda mp: (mp[1], mp[0]))[:4]
        step = h // 4
        for i, (name, place) in enumerate(rows):
            cy = y + i * step + step // 2
            out = status.get(name) == "dq"
            shared = "=" if sum(p == place for _, p in rows) > 1 else ""   # a shared place, as on game over
            self.label(shared + ordinal_in(self.lang, place).upper(), KEY_CAP * u, (x, cy),
                       C.GOLD if place == 1 else C.TEXT, "midleft")
            r = int(min(step * 0.32, 32 * u))
            self.mascot(name, x + int(150 * u), cy, r, out=out)
            label = name.upper() + (" DQ" if out else "")
            self.label(label, KEY_CAP * u, (x + int(150 * u) + int(r * 1.8), cy), C.OUT_MARK if out else C.TEXT,
                       "midleft", max_w=w - int(150 * u) - int(r * 1.8))

    def screen_game_over(self, model: ScreenModel, L: Layout, now: float) -> None:
        u, w, h = L.unit, L.width, L.height
        self.label(self.w("final"), 60 * u, (w // 2, int(h * 0.15)), C.GOLD, "center")
        rows = model.standings
        for i, st in enumerate(rows):
            box = standing_rect(i, len(rows), L)
            x0, ry, bw, bh = box
            x1 = x0 + bw
            step = bh + int(14 * u)
            cap = min(KEY_CAP * 1.15 * u, step * 0.3)
            self.pg.draw.rect(self.surface, shade(C.GOLD, 0.28) if st.place == 1 else C.PANEL, box,
                              border_radius=int(14 * u))
            shared = sum(o.place == st.place for o in rows) > 1
            place = ("=" if shared else "") + ordinal_in(self.lang, st.place).upper()
            self.label(place, cap, (x0 + int(24 * u), ry + int(step * 0.12)), C.GOLD if st.place == 1 else C.TEXT)
            nx = x0 + int(cap * 5.2)
            money = self.label(f"${st.money}", cap, (x1 - int(24 * u), ry + int(step * 0.12)), C.GOLD, "topright")
            self.label(st.name.upper(), cap, (nx, ry + int(step * 0.12)), C.TEXT, max_w=money[0] - nx - int(20 * u))
            line = st.line or (model.life_outcome if i == 0 else "")
            if line:
                self.label(line, min(26 * u, cap * 0.65), (nx, ry + int(step * 0.12) + int(cap * 1.8)), C.DIM_TEXT,
                           max_w=x1 - nx - int(24 * u))


__all__ = ["OtherScreens", "pays_text"]
