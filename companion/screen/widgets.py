"""Drawing primitives for the screens: text sized by capital height that shrinks to fit (never cut, never below
the size class's smallest capital), wrapped sentences, panels, badges, the mascot figure, stars, arrows and the
card-action pictograms.

Sizes are in pixels at the surface's own resolution; the screens take them from ``Layout.cap``. pygame is
imported lazily by :class:`Widgets`.

The measuring hook: with ``boxes`` set to a list, every text box drawn (a label, a badge, the QR code) is
appended to it as a :class:`TextBox`, so tests can check that no two overlap, none is smaller than the size
class allows and all are inside the window. It is None (off) by default and costs nothing then.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion import colours as C
from companion.colours import RGB
from companion.screen.layout import Layout, Rect
from companion.screen.words import action, say

if TYPE_CHECKING:
    import pygame

Point = tuple[float, float]

# pygame's default font at each size, and rendered texts (at most 1,500, then all dropped): kept for the process, as a
# process draws on one screen at a time and the same words again and again (a new screen, the panel's second page or
# a test's, starts warm). Never changed after they are made: the screens only blit them.
_FONTS: dict[int, "pygame.font.Font"] = {}
_TEXTS: dict[tuple[str, int, RGB], "pygame.Surface"] = {}
_CAP_RATIO: list[float] = []  # the default font's capital height over its size, measured once
"""``(x, y)`` in pixels."""


@dataclass(frozen=True)
class TextBox:
    """One text box drawn in a frame: its ``rect`` (x, y, w, h pixels), the ``text``, its capital height
    ``cap`` in pixels, ``fits`` (False when it is wider than the room it was given even at the smallest
    capital allowed), and the ``layer``: ``"screen"``, or the overlay drawn on top on purpose (``"message"``,
    ``"name"``, ``"fold"``...). ``kind`` is ``"text"``, ``"qr"`` for the join code's picture, or ``"band"`` for
    a band drawn over the screen (a big moment, the fold: what it covers must be covered whole); ``role`` is
    ``"text"``, ``"badge"`` (a state badge), ``"call"`` (a race call line), ``"letter"`` (a mascot's letter on
    the track) or ``"figure"`` (a figure read between cards): the size classes set each a floor."""

    rect: Rect
    text: str
    cap: float
    fits: bool = True
    layer: str = "screen"
    kind: str = "text"
    role: str = "text"


def action_words(act: str, lang: str = "en") -> str:
    """Words for one card action (docs/rules.md 2) in capitals: ``"+2"`` -> ``"2 AHEAD"``."""
    return action(lang, act).upper()


EDGE: RGB = C.TEXT
"""A mascot's edge and fallen mark: light, so that the figure keeps at least 3:1 contrast against every track
colour under simulated deuteranopia, protanopia and tritanopia (tests/screen/test_fallen_mascot.py)."""


MARK_AT, MARK_SIZE = 0.72, 0.46
"""The fallen mark's centre, back and down from the figure's centre, and its radius, as shares of the body's."""
FALLEN_NOSE = 60.0
"""How far a fallen mascot's nose points down from ahead, in degrees (its letter stays upright)."""


def _inset(points: list[tuple[int, int]], centre: tuple[int, int], by: int) -> list[tuple[int, int]]:
    """A polygon's ``points`` pulled ``by`` pixels toward ``centre`` (pushed away for a negative ``by``: the
    edge drawn round the body)."""
    out = []
    for x, y in points:
        dx, dy = x - centre[0], y - centre[1]
        dist = math.hypot(dx, dy) or 1.0
        k = max(0.0, (dist - by) / dist)
        out.append((round(centre[0] + dx * k), round(centre[1] + dy * k)))
    return out


def shade(colour: RGB, k: float) -> RGB:
    """``colour`` scaled by ``k`` (0 black .. 1 itself)."""
    r, g, b = (max(0, min(255, int(c * k))) for c in colour)
    return (r, g, b)


def ink_on(colour: RGB) -> RGB:
    """Dark or light text, whichever reads better on ``colour``."""
    r, g, b = colour
    return C.BACKGROUND if 0.299 * r + 0.587 * g + 0.114 * b > 120 else C.TEXT


class Widgets:
    """Primitives on ``self.surface`` (a pygame surface)."""

    def __init__(self, surface: pygame.Surface) -> None:
        import pygame
        self.pg = pygame
        pygame.font.init()
        self.surface = surface
        self.lang = "en"
        self.min_cap = 0.0            # no text is shrunk below this capital height (set per frame by the size class)
        self.boxes: list[TextBox] | None = None   # the measuring hook: a list to record text boxes in, or None
        self.layer = "screen"
        self.layout: Layout | None = None   # the frame's layout: its size class sets the smallest text
        self._fonts, self._texts = _FONTS, _TEXTS  # shared by every screen of the process (see below)
        self.drawn_texts: list[str] = []  # every text drawn in the current frame, in order (tests read it)
        if not _CAP_RATIO:
            probe = pygame.font.Font(None, 200).render("H", True, (255, 255, 255)).get_bounding_rect()
            _CAP_RATIO.append(probe.h / 200.0)
        self._cap_ratio = _CAP_RATIO[0]

    # --- text ---
    def w(self, key: str, **values: object) -> str:
        """The screen's word for ``key`` in the model's language, in capitals (``companion.screen.words``)."""
        return say(self.lang, key, **values).upper()

    def cap(self, at_1080: float, role: str = "text") -> float:
        """A capital height in pixels for this frame's layout (:meth:`Layout.cap`: scaled, not under the size
        class's floor for ``role``); ``at_1080`` itself when no layout is set."""
        return at_1080 if self.layout is None else self.layout.cap(at_1080, role)

    def font(self, cap: float) -> pygame.font.Font:
        """The font whose capital letters are ``cap`` pixels high."""
        size = max(6, int(round(cap / self._cap_ratio)))
        f = self._fonts.get(size)
        if f is None:
            f = self._fonts[size] = self.pg.font.Font(None, size)
        return f

    def text(self, s: str, cap: float, colour: RGB = C.TEXT) -> pygame.Surface:
        """``s`` rendered with capitals ``cap`` high in ``colour`` (cached); noted in :attr:`drawn_texts`."""
        self.drawn_texts.append(s)
        key = (s, int(cap * 4), colour)
        t = self._texts.get(key)
        if t is None:
            if len(self._texts) > 1500:
                self._texts.clear()
            t = self._texts[key] = self.font(cap).render(s, True, colour)
        return t

    def fit_cap(self, s: str, cap: float, max_w: int | None, floor: float | None = None) -> float:
        """The capital height at most ``cap`` (and not under ``floor``, else :attr:`min_cap`) at which ``s`` is
        no wider than ``max_w`` (as near as it gets at the floor)."""
        floor = max(4.0, min(cap, self.min_cap if floor is None else floor))
        if max_w is None:
            return cap
        width = self.font(cap).size(s)[0]
        while width > max_w and cap > floor:
            cap = max(floor, cap * max_w / width * 0.98)
            width = self.font(cap).size(s)[0]
        return cap

    def shortened(self, s: str, cap: float, max_w: int) -> str:
        """``s``, or as much of it as fits ``max_w`` pixels at the smallest capital height it may take (from
        ``cap`` down to :attr:`min_cap`), ending in an ellipsis."""
        font = self.font(self.fit_cap(s, cap, max_w))
        if font.size(s)[0] <= max_w:
            return s
        while len(s) > 1 and font.size(s + "\u2026")[0] > max_w:
            s = s[:-1].rstrip()
        return s + "\u2026"

    def record(self, rect: Rect, text: str, cap: float, fits: bool = True, kind: str = "text",
               role: str = "text") -> None:
        """Note a drawn text box for the measuring hook (nothing when :attr:`boxes` is None)."""
        if self.boxes is not None:
            x, y, w, h = (int(v) for v in rect)
            self.boxes.append(TextBox((x, y, w, h), text, cap, fits, self.layer, kind, role))

    def label(self, s: str, cap: float, pos: tuple[int, int], colour: RGB = C.TEXT, anchor: str = "topleft",
              max_w: int | None = None, role: str = "text") -> Rect:
        """Draw ``s`` with capitals ``cap`` high (smaller if needed to fit ``max_w``, not under
        :attr:`min_cap`; never cut)."""
        fitted = self.fit_cap(s, cap, max_w, self.cap(0, role) if role != "text" else None)
        surf = self.text(s, fitted, colour)
        r = surf.get_rect(**{anchor: pos})
        self.surface.blit(surf, r)
        rect = (r.x, r.y, r.w, r.h)
        if self.boxes is not None:
            self.record(self._ink(rect, fitted), s, fitted, max_w is None or r.w <= max_w + 1, role=role)
        return rect

    def _ink(self, rect: Rect, cap: float) -> Rect:
        """The part of a label's box its letters use (the font's line box has room above and below)."""
        x, y, w, h = rect
        pad = max(0, int((h - cap * 1.45) / 2))
        return (x, y + pad, w, h - 2 * pad)

    def lines_for(self, text: str, cap: float, width: int) -> list[str]:
        """``text`` broken into lines no wider than ``width`` at capital height ``cap``."""
        font = self.font(cap)
        lines: list[str] = []
        line = ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if line and font.size(trial)[0] > width:
                lines.append(line)
                line = word
            else:
                line = trial
        if line:
            lines.append(line)
        return lines

    def fit_wrap(self, text: str, cap: float, width: int, height: int, min_cap: float = 8
                 ) -> tuple[float, list[str]]:
        """The largest capital height up to ``cap`` (not under ``min_cap`` nor :attr:`min_cap`) at which
        ``text`` wraps into ``width`` x ``height``."""
        min_cap = min(cap, max(min_cap, self.min_cap))
        while True:
            lines = self.lines_for(text, cap, width)
            widest = max((self.font(cap).size(s)[0] for s in lines), default=0)
            if (len(lines) * cap * 1.75 <= height and widest <= width) or cap <= min_cap:
                return cap, lines
            cap = max(min_cap, cap * 0.92)

    def wraps_in(self, text: str, cap: float, width: int, height: int) -> bool:
        """True when ``text`` wraps into ``width`` x ``height`` at a capital height not under :attr:`min_cap`."""
        cap, lines = self.fit_wrap(text, cap, width, height)
        widest = max((self.font(cap).size(s)[0] for s in lines), default=0)
        return len(lines) * cap * 1.75 <= height and widest <= width

    def wrap(self, text: str, cap: float, rect: Rect, colour: RGB = C.TEXT, align: str = "left") -> int:
        """Draw ``text`` wrapped into ``rect`` (shrunk until it all fits); returns the height used."""
        x, y, w, h = rect
        cap, lines = self.fit_wrap(text, cap, w, h)
        step = int(cap * 1.75)
        for i, line in enumerate(lines):
            if align == "center":
                self.label(line, cap, (x + w // 2, y + i * step), colour, "midtop", w)
            else:
                self.label(line, cap, (x, y + i * step), colour, "topleft", w)
            if self.boxes is not None and y + i * step + cap * 1.45 > y + h:   # a line below the rect: not fitted
                self.boxes[-1] = dataclasses.replace(self.boxes[-1], fits=False)
        return len(lines) * step

    # --- shapes ---
    def panel(self, rect: Rect, title: str | None, u: float, colour: RGB = C.PANEL, upper: bool = True) -> Rect:
        """A rounded panel with an optional small title (in capitals, or as given with ``upper`` False);
        returns the inner rect."""
        self.pg.draw.rect(self.surface, colour, rect, border_radius=int(14 * u))
        x, y, w, h = rect
        pad = int(18 * u)
        if title:
            cap = self.cap(20, "figure")
            top = self.label(title.upper() if upper else title, cap, (x + pad, y + int(16 * u)), C.DIM_TEXT,
                             max_w=w - 2 * pad, role="figure")
            below = max(y + int(52 * u), top[1] + top[3] + int(6 * u))
            return (x + pad, below, w - 2 * pad, y + h - pad - below)
        return (x + pad, y + pad, w - 2 * pad, h - 2 * pad)

    def pill(self, text: str, cap: float, pos: tuple[int, int], fill: RGB, ink: RGB | None = None,
             anchor: str = "midleft", role: str = "text") -> Rect:
        """A rounded badge with ``text`` in it."""
        ink = ink or ink_on(fill)
        surf = self.text(text, cap, ink)
        pad_x, pad_y = int(cap * 0.55), int(cap * 0.42)
        r = self.pg.Rect(0, 0, surf.get_width() + 2 * pad_x, int(cap * 1.0) + 2 * pad_y)
        setattr(r, anchor, pos)
        self.pg.draw.rect(self.surface, fill, r, border_radius=r.h // 2)
        self.surface.blit(surf, surf.get_rect(center=(r.centerx, r.centery + 1)))
        self.record((r.x, r.y, r.w, r.h), text, cap, role=role)
        return (r.x, r.y, r.w, r.h)

    def pill_lines(self, texts: list[str], cap: float, width: int, u: float) -> list[list[tuple[int, int]]]:
        """Badges ``texts`` laid left to right in lines no wider than ``width``: per line ``(index, x)``
        pairs; an empty list when one is wider than ``width`` on its own (or there are none)."""
        lines: list[list[tuple[int, int]]] = []
        x = width + 1
        for k, text in enumerate(texts):
            wd = self.font(cap).size(text)[0] + 2 * int(cap * 0.55)
            if wd > width:
                return []
            if x + wd > width:
                lines.append([])
                x = 0
            lines[-1].append((k, x))
            x += wd + int(10 * u)
        return lines

    def star(self, cx: float, cy: float, r: float, colour: RGB = C.STAR) -> None:
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.45
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        self.pg.draw.polygon(self.surface, colour, pts)

    def arrow(self, start: Point, end: Point, colour: RGB, width: int, head: float) -> None:
        """A straight arrow from ``start`` to ``end`` with a triangular head ``head`` pixels long."""
        (x0, y0), (x1, y1) = start, end
        ang = math.atan2(y1 - y0, x1 - x0)
        bx, by = x1 - head * math.cos(ang), y1 - head * math.sin(ang)
        self.pg.draw.line(self.surface, colour, (x0, y0), (bx, by), width)
        left = (bx + head * 0.6 * math.cos(ang + math.pi / 2), by + head * 0.6 * math.sin(ang + math.pi / 2))
        right = (bx + head * 0.6 * math.cos(ang - math.pi / 2), by + head * 0.6 * math.sin(ang - math.pi / 2))
        self.pg.draw.polygon(self.surface, colour, [(x1, y1), left, right])

    def mascot(self, name: str, cx: int, cy: int, r: int, fallen: bool = False, facing: str = "forward",
               out: bool = False, ring: RGB | None = None, letter_cap: float | None = None,
               tip: float = 0.0) -> None:
        """A mascot: a body in its colour with a light edge (it stands out from the track for every colour
        vision), a nose toward where it faces and its letter, upright; fallen: the nose points to the ground
        (:data:`FALLEN_NOSE` degrees down) and a fallen mark (a light disc with a dark arrow down) sits at its
        back foot; grey with a red cross if out (DQ); a ring in ``ring`` colour if given. ``tip`` (0..1): how
        far a standing mascot is through tipping over, its nose that share of the way down (the motion of a
        fall). ``letter_cap``: the letter's smallest capital height in pixels (the track's figures; the letter
        is then recorded by the measuring hook, role ``letter``)."""
        pg, s = self.pg, self.surface
        col = C.OUT if out else C.colour(name)
        d = 1 if facing == "forward" else -1
        cap = r * 0.95 if letter_cap is None else max(r * 0.95, letter_cap)
        r = max(r, int(cap * 0.74))   # a letter at its floor keeps its body round it
        edge = max(2, r // 6)
        angle = math.radians(FALLEN_NOSE * (1.0 if fallen else min(1.0, max(0.0, tip))))   # down, ahead
        nose = [(cx + d * round(x * math.cos(angle) - y * math.sin(angle)),
                 cy + round(x * math.sin(angle) + y * math.cos(angle)))
                for x, y in ((r * 0.75, -r * 0.55), (r * 1.45, 0.0), (r * 0.75, r * 0.55))]
        pg.draw.polygon(s, EDGE, _inset(nose, (cx, cy), -edge))
        pg.draw.circle(s, EDGE, (cx, cy), r + edge)
        pg.draw.polygon(s, col, nose)
        pg.draw.circle(s, col, (cx, cy), r)
        letter = self.text(name[0].upper(), cap, C.BACKGROUND)
        box = letter.get_rect(center=(cx, cy + r // 14))
        s.blit(letter, box)
        if letter_cap is not None:
            ink = (box.x, round(cy + r / 14 - cap / 2), box.w, round(cap))   # a capital's ink is cap high
            self.record(ink, name[0].upper(), cap, role="letter")
        if ring:
            pg.draw.circle(s, ring, (cx, cy), int(r * 1.22), width=max(2, r // 7))
        if fallen:   # the fallen mark, on top: a light disc at the back foot with a dark arrow pointing down
            mr = max(5, int(r * MARK_SIZE))
            mx, my = cx - d * int(r * MARK_AT), cy + int(r * MARK_AT)
            pg.draw.circle(s, C.BACKGROUND, (mx, my), mr + max(1, edge // 2))
            pg.draw.circle(s, EDGE, (mx, my), mr)
            self.arrow((mx, my - mr * 0.62), (mx, my + mr * 0.68), C.BACKGROUND, max(2, mr // 3), mr * 0.7)
        if out:
            k = int(r * 0.95)
            wd = max(3, r // 5)
            pg.draw.line(s, C.OUT_MARK, (cx - k, cy - k), (cx + k, cy + k), wd)
            pg.draw.line(s, C.OUT_MARK, (cx - k, cy + k), (cx + k, cy - k), wd)

    def action_icon(self, action: str, rect: Rect, ink: RGB) -> None:
        """A pictogram of one card action (docs/rules.md 2) inside ``rect``, drawn in ``ink``.

        ``+n``/``-n``: an arrow ahead/back with n on it; ``*``: a star; ``T``: a U-turn; ``F``: a figure
        tipping over; ``R``: a figure standing up; ``<``/``>``: an arrow bending to the left/right lane."""
        pg, s = self.pg, self.surface
        x, y, w, h = rect
        cx, cy = x + w // 2, y + h // 2
        k = min(w, h)
        wd = max(3, k // 11)
        if action[:1] in "+-":
            d = 1 if action[0] == "+" else -1
            self.arrow((cx - d * k * 0.42, cy), (cx + d * k * 0.46, cy), ink, int(k * 0.3), k * 0.36)
            num = self.text(action[1:], k * 0.26, shade(ink, 0) if ink != C.BACKGROUND else C.TEXT)
            s.blit(num, num.get_rect(center=(cx - d * k * 0.12, cy + 1)))
        elif action == "*":
            self.star(cx, cy, k * 0.46, ink)
        elif action == "T":
            rr = k * 0.26
            pg.draw.arc(s, ink, (cx - rr, cy - rr * 1.3, 2 * rr, 2 * rr), 0, math.pi, wd)
            pg.draw.line(s, ink, (cx + rr, cy - rr * 0.3), (cx + rr, cy + rr * 0.9), wd)
            pg.draw.line(s, ink, (cx - rr, cy - rr * 0.3), (cx - rr, cy + rr * 0.3), wd)
            self.arrow((cx - rr, cy + rr * 0.2), (cx - rr, cy + rr * 1.1), ink, wd, k * 0.2)
        elif action in ("F", "R"):
            ground = cy + k * 0.36
            pg.draw.line(s, ink, (x + k * 0.1, ground), (x + w - k * 0.1, ground), wd)
            if action == "F":
                body = pg.Rect(0, 0, int(k * 0.62), int(k * 0.3))
                body.midbottom = (cx + int(k * 0.08), int(ground - wd))
                pg.draw.ellipse(s, ink, body)
                self.arrow((cx - k * 0.3, cy - k * 0.4), (cx - k * 0.3, cy + k * 0.05), ink, wd, k * 0.16)
            else:
                pg.draw.circle(s, ink, (int(cx + k * 0.12), int(ground - k * 0.24)), int(k * 0.2))
                self.arrow((cx - k * 0.28, cy + k * 0.26), (cx - k * 0.28, cy - k * 0.42), ink, wd, k * 0.16)
        elif action in ("<", ">"):
            d = -1 if action == "<" else 1  # the mascot's left is up the screen (toward lane 1)
            y0, y1 = cy - d * k * 0.28, cy + d * k * 0.3
            pg.draw.line(s, ink, (cx - k * 0.42, y0), (cx - k * 0.05, y0), wd + 2)
            self.arrow((cx - k * 0.08, y0), (cx + k * 0.42, y1), ink, wd + 2, k * 0.24)
        else:
            self.label(action, k * 0.4, (cx, cy), ink, "center")


__all__ = ["EDGE", "FALLEN_NOSE", "MARK_AT", "MARK_SIZE", "TextBox", "Widgets", "action_words", "ink_on", "shade"]
