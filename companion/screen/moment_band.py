"""The big moment band of the race screen (a mixin of the screen's Painter): a fall, a knockout, out of
bounds, a finish, the winner or the side bet's answer as a full-width band over the bottom panels.

The band covers the last card, the race call and the money for a few seconds (on the 7-inch panel the
running order and the money, whole); the track and, on larger screens, the running order above it stay in
view (they are what the next card needs). On the left the mascot's disc (with the fallen mark for a fall,
crossed out for a DQ, ringed in gold for a finish), in the middle the big words and a short note saying what
to do with the figure, on the right the paid place. The winner's band shows the podium.
"""

from __future__ import annotations

from companion import colours as C
from companion.screen.layout import KEY_CAP, Layout, Rect
from companion.screen.model import ScreenModel
from companion.screen.moments import Moment
from companion.screen.widgets import Widgets, shade
from companion.screen.words import place, say

BAND_SHADE = 0.32
"""The band's fill: its mascot's colour at this brightness (white words read on every one)."""


class MomentBand(Widgets):
    """Draws a :class:`companion.screen.moments.Moment` (a mixin of the screen's Painter)."""

    def moment_names(self, mascots: tuple[str, ...]) -> str:
        """``("hurley", "dangle")`` -> ``"HURLEY AND DANGLE"`` (``"A, B AND C"``) in the model's language."""
        upper = [m.upper() for m in mascots]
        if len(upper) < 2:
            return "".join(upper)
        return ", ".join(upper[:-1]) + say(self.lang, "and").upper() + upper[-1]

    def moment_words(self, moment: Moment, race_no: int = 1) -> tuple[str, str]:
        """The band's title and note in capitals, in the model's language."""
        names = self.moment_names(moment.mascots)
        kind = moment.kind
        if kind == "fall":
            title = self.w("moment_fall_many" if len(moment.mascots) > 1 else "moment_fall", names=names)
            return title, self.w("moment_fall_note", names=names)
        if kind == "knockout":
            return self.w("moment_knockout", names=names), self.w("moment_knockout_note")
        if kind == "out":
            return self.w("moment_out", names=names), self.w(f"moment_out_{moment.way}" if moment.way
                                                              else "moment_out_note")
        if kind == "finish":
            return self.w("moment_finish", names=names), self.w("moment_finish_note")
        if kind == "winner":
            return self.w("moment_winner", names=names), self.w("moment_winner_note", n=race_no)
        title = self.w("moment_side_yes" if moment.answer else "moment_side_no")
        return title, (self.question(moment) or "").upper()

    def question(self, moment: Moment) -> str | None:
        """The side bet's question in the model's language (the phrase catalogue's), or None."""
        if not moment.card_id:
            return None
        from companion.call.words import load_catalogue
        try:
            return load_catalogue(self.lang).sidebets.get(moment.card_id)
        except ValueError:
            return None

    def moment_band(self, model: ScreenModel, L: Layout, moment: Moment) -> list[tuple[str, Rect]]:
        """Draw ``moment`` over ``L.bottom``; returns what was drawn where: ``("title" | "note" | "place" |
        "podium" | "disc", rect)``, so tests can check that it all fits inside the band."""
        u = L.unit
        x, y, w, h = L.bottom
        lead = moment.mascots[0] if moment.mascots else None
        colour = C.colour(lead) if lead is not None else C.GOLD
        stripe = max(4, int(8 * u))
        self.pg.draw.rect(self.surface, shade(colour, BAND_SHADE), (x, y, w, h))
        self.record((x, y, w, h), "", 0.0, kind="band")   # the measuring hook: what it covers is covered whole
        self.pg.draw.rect(self.surface, C.GOLD if moment.kind in ("finish", "winner") else colour,
                          (x, y, w, stripe))
        drawn: list[tuple[str, Rect]] = []
        pad = int(40 * u)
        top, bottom = y + stripe, y + h
        cy = (top + bottom) // 2
        left = x + pad
        right = x + w - pad
        # the discs on the left
        count = max(1, len(moment.mascots))
        r = int(min((bottom - top) * 0.24, 78 * u, w * 0.26 / (count * 2.6)))
        if moment.mascots:
            for i, name in enumerate(moment.mascots):
                cx = left + int(r * 1.3) + i * int(r * 2.6)
                self.moment_disc(moment, name, cx, cy, r)
                drawn.append(("disc", (cx - int(r * 1.3), cy - int(r * 1.3), int(r * 2.6), int(r * 2.6))))
            left += count * int(r * 2.6) + pad // 2
        else:  # the side bet: a tick or a cross
            cx = left + int(r * 1.3)
            self.answer_disc(bool(moment.answer), cx, cy, r)
            drawn.append(("disc", (cx - int(r * 1.3), cy - int(r * 1.3), int(r * 2.6), int(r * 2.6))))
            left += int(r * 2.6) + pad // 2
        # the paid place on the right
        if moment.place is not None and moment.kind in ("finish", "knockout", "out"):
            ink = C.GOLD if moment.kind == "finish" else C.OUT_MARK
            text = place(self.lang, moment.place).upper()
            cap = self.fit_cap(text, 90 * u, max(1, (right - left) // 4))
            rect = self.label(text, cap, (right, cy), ink, "midright")
            drawn.append(("place", rect))
            right = rect[0] - pad // 2
        title, note = self.moment_words(moment, model.race_no)
        width = max(1, right - left)
        inner = bottom - top - 2 * int(14 * u)
        if L.small and moment.kind != "winner":
            note = ""   # the 7-inch panel: the big words only, every word at its size class's floor or more
        tcap, tlines = self.fit_wrap(title, self.cap(80), width, int(inner * 0.5))
        ncap, nlines = self.fit_wrap(note, self.cap(34), width, int(inner * 0.3)) if note else (self.cap(34), [])
        tstep, nstep = int(tcap * 1.75), int(ncap * 1.75)
        podium = moment.podium if moment.kind == "winner" else ()
        row = int(min(inner * 0.3, 52 * u * 1.75)) if podium else 0
        gap = int(10 * u)
        total = len(tlines) * tstep + gap + len(nlines) * nstep + (gap + row if podium else 0)
        ty = top + max(0, (bottom - top - total) // 2)
        if podium:  # the winner: the race over, small, above the title
            ty = self._lines(drawn, "note", nlines, ncap, nstep, left, ty, shade(C.TEXT, 0.85), width) + gap
            ty = self._lines(drawn, "title", tlines, tcap, tstep, left, ty, C.TEXT, width) + gap
            self._podium(drawn, podium, (left, ty, width, row), u)
        else:
            ty = self._lines(drawn, "title", tlines, tcap, tstep, left, ty, C.TEXT, width) + gap
            self._lines(drawn, "note", nlines, ncap, nstep, left, ty, shade(C.TEXT, 0.85), width)
        return drawn

    def _lines(self, drawn: list[tuple[str, Rect]], part: str, lines: list[str], cap: float, step: int, x: int,
               y: int, colour: tuple[int, int, int], width: int) -> int:
        """Draw wrapped ``lines`` from ``y``; returns the y below them."""
        for i, line in enumerate(lines):
            drawn.append((part, self.label(line, cap, (x, y + i * step), colour, max_w=width)))
        return y + len(lines) * step

    def _podium(self, drawn: list[tuple[str, Rect]], podium: tuple[tuple[str, int], ...], rect: Rect,
                u: float) -> None:
        """The podium as a row: place, then the mascot's disc, for each mascot best first."""
        x, y, w, h = rect
        slot = w // max(1, len(podium))
        cap = max(self.min_cap, min(KEY_CAP * u, h * 0.45))   # the places at the size class's floor or more
        r = int(min(h * 0.38, slot * 0.16))
        cy = y + h // 2
        for i, (name, paid) in enumerate(podium):
            sx = x + i * slot
            text = place(self.lang, paid).upper()
            cap_i = self.fit_cap(text, cap, slot - int(r * 3.2) - int(8 * u))
            rect_i = self.label(text, cap_i, (sx, cy), C.GOLD if paid == 1 else C.TEXT, "midleft")
            cx = rect_i[0] + rect_i[2] + int(6 * u) + int(r * 1.3)
            self.mascot(name, cx, cy, r, ring=C.GOLD if paid == 1 else None)
            drawn.append(("podium", rect_i))
            drawn.append(("disc", (cx - int(r * 1.3), cy - int(r * 1.3), int(r * 2.6), int(r * 2.6))))

    def moment_disc(self, moment: Moment, name: str, cx: int, cy: int, r: int) -> None:
        """A mascot's disc for its moment: with the fallen mark for a fall, crossed out for a DQ, ringed for a
        finish."""
        self.mascot(name, cx, cy, r, fallen=moment.kind == "fall",
                    ring=C.GOLD if moment.kind in ("finish", "winner") else None)
        if moment.kind in ("knockout", "out"):
            k, wd = int(r * 0.95), max(3, r // 5)
            self.pg.draw.line(self.surface, C.OUT_MARK, (cx - k, cy - k), (cx + k, cy + k), wd)
            self.pg.draw.line(self.surface, C.OUT_MARK, (cx - k, cy + k), (cx + k, cy - k), wd)

    def answer_disc(self, yes: bool, cx: int, cy: int, r: int) -> None:
        """The side bet's answer as a disc: a tick on gold for yes, a cross on red for no."""
        pg, s = self.pg, self.surface
        pg.draw.circle(s, C.GOLD if yes else C.MESSAGE, (cx, cy), r)
        wd = max(3, r // 5)
        ink = C.BACKGROUND if yes else C.TEXT
        if yes:
            pg.draw.lines(s, ink, False, [(cx - r * 0.5, cy), (cx - r * 0.12, cy + r * 0.4),
                                          (cx + r * 0.52, cy - r * 0.42)], wd)
        else:
            k = int(r * 0.45)
            pg.draw.line(s, ink, (cx - k, cy - k), (cx + k, cy + k), wd)
            pg.draw.line(s, ink, (cx - k, cy + k), (cx + k, cy - k), wd)


__all__ = ["BAND_SHADE", "MomentBand"]
