"""Pure screen geometry (no pygame): where each part of a screen goes for one resolution.

Sizes scale with the height (``Layout.unit`` is 1.0 at 1080 lines); text sizes are given as the height of a
capital letter in pixels at 1080p and taken through :meth:`Layout.cap`, which never goes under the smallest
capital of the screen's size class (:class:`Metrics`: small ~800x480, medium ~720p, large 1080p and up).
:func:`space_rect` and :func:`order_rect` say where a track space or a running-order row is drawn, so tests
can look at the right pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.screen.model import ScreenModel, SeatView, TrackView

Rect = tuple[int, int, int, int]
"""``(x, y, width, height)`` in pixels."""

KEY_CAP = 36
"""Capital-letter height in pixels at 1080p of the key information (names, order, money, odds, whose pick)."""


@dataclass(frozen=True)
class Metrics:
    """A size class's smallest text, as capital heights in pixels: ``min_cap`` for every word drawn,
    ``badge_cap`` for the state badges, ``call_cap`` for the race call's lines, ``letter_cap`` for a mascot's
    letter on the track, ``figure_cap`` for the figures read between cards (ticket amounts, odds, panel titles,
    action words)."""

    name: str
    min_cap: float
    badge_cap: float
    call_cap: float
    letter_cap: float = 0.0
    figure_cap: float = 0.0


SMALL = Metrics("small", 24, 24, 24, letter_cap=20, figure_cap=24)
"""The 7-inch panel (800x480, read from 1-2 m): every word at least 24 px, the mascots' letters on the track
20 px; the race screen shows less."""
MEDIUM = Metrics("medium", 18, 20, 20, letter_cap=16, figure_cap=18)
"""720p (1280x720) and sizes like it."""
LARGE = Metrics("large", 20, 28, 28, letter_cap=20, figure_cap=28)
"""1080p and larger: badges, the race call and the figures read between cards at least 28 px."""


def metrics_for(size: tuple[int, int]) -> Metrics:
    """The size class of a ``(width, height)`` screen: small under 600 lines or 1000 columns, medium under
    900 lines, else large."""
    w, h = size
    if h < 600 or w < 1000:
        return SMALL
    return MEDIUM if h < 900 else LARGE


@dataclass(frozen=True)
class Layout:
    """Where each part of a screen goes for one resolution. All rects are ``(x, y, w, h)`` pixels."""

    width: int
    height: int
    lanes: int
    spaces: int
    header: Rect
    track: Rect
    order: Rect
    card: Rect
    log: Rect
    seats: Rect
    bottom: Rect
    metrics: Metrics = LARGE

    @property
    def unit(self) -> float:
        """One 'point': 1.0 at 1080 lines, scales every size and font."""
        return self.height / 1080.0

    @property
    def small(self) -> bool:
        """The 7-inch panel's size class: the screens show less (short forms, fewer panels)."""
        return self.metrics is SMALL

    def cap(self, at_1080: float, role: str = "text") -> float:
        """A capital height in pixels: ``at_1080`` scaled to this screen, not under the size class's floor
        for ``role`` (``text``, ``badge``, ``call``, ``letter`` or ``figure``)."""
        m = self.metrics
        floor = {"badge": m.badge_cap, "call": m.call_cap, "letter": m.letter_cap,
                 "figure": max(m.figure_cap, m.min_cap)}.get(role, m.min_cap)
        return max(at_1080 * self.unit, floor)

    @property
    def podium(self) -> Rect:
        """The running order panel (it shows the podium places as they are taken)."""
        return self.order


def _frac(w: int, h: int, x: float, y: float, fw: float, fh: float) -> Rect:
    return (round(w * x), round(h * y), round(w * fw), round(h * fh))


def layout_for(size: tuple[int, int], track: TrackView = TrackView()) -> Layout:
    """The layout for a ``(width, height)`` screen and a track; raises ValueError for a size under 320x240."""
    w, h = size
    if w < 320 or h < 240:
        raise ValueError(f"screen size {w}x{h} is too small (expected at least 320x240)")
    metrics = metrics_for(size)
    if metrics is SMALL:   # the 7-inch panel: the track first and across, the running order and the money under it
        return Layout(w, h, track.lanes, track.spaces, metrics=metrics,
                      header=_frac(w, h, 0.0, 0.0, 1.0, 0.092),
                      track=_frac(w, h, 0.035, 0.104, 0.96, 0.458),
                      order=_frac(w, h, 0.005, 0.579, 0.578, 0.416),
                      card=(0, 0, 0, 0), log=(0, 0, 0, 0),
                      seats=_frac(w, h, 0.59, 0.579, 0.405, 0.416),
                      bottom=_frac(w, h, 0.0, 0.571, 1.0, 0.429))
    return Layout(w, h, track.lanes, track.spaces, metrics=metrics,
                  header=_frac(w, h, 0.0, 0.0, 1.0, 0.08),
                  track=_frac(w, h, 0.035, 0.105, 0.55, 0.455),
                  order=_frac(w, h, 0.605, 0.1, 0.375, 0.5),
                  card=_frac(w, h, 0.02, 0.62, 0.3, 0.36),
                  log=_frac(w, h, 0.335, 0.62, 0.255, 0.36),
                  seats=_frac(w, h, 0.605, 0.62, 0.375, 0.36),
                  bottom=_frac(w, h, 0.0, 0.608, 1.0, 0.392))   # over the panels whole, under the space numbers


def space_rect(lane: int, space: int, layout: Layout) -> Rect:
    """The rect of ``space`` (1 = back) in ``lane`` (1 = top: the mascots' left, facing the finish on the right).

    Raises ValueError for a lane or space off the track.
    """
    if not (1 <= lane <= layout.lanes and 1 <= space <= layout.spaces):
        raise ValueError(f"lane {lane}, space {space} is off the track "
                         f"(expected lane 1..{layout.lanes}, space 1..{layout.spaces})")
    x, y, w, h = layout.track
    x0 = x + (space - 1) * w // layout.spaces
    x1 = x + space * w // layout.spaces
    y0 = y + (lane - 1) * h // layout.lanes
    y1 = y + lane * h // layout.lanes
    return (x0, y0, x1 - x0, y1 - y0)


def order_rect(row: int, layout: Layout) -> Rect:
    """The rect of running-order row ``row`` (0-based, first place first; four rows)."""
    x, y, w, h = layout.order
    if layout.small:   # the compact order: a caption line, then four rows of one line each
        title = round(layout.metrics.min_cap * 1.45) + 10
        row_h = (h - title - 4) // 4
        return (x, y + title + row * row_h, w, row_h)
    title = round(h * {"medium": 0.12}.get(layout.metrics.name, 0.11))   # the odds header: two lines
    row_h = (h - title - round(14 * layout.unit)) // 4
    return (x, y + title + row * row_h, w, row_h)


podium_rect = order_rect


def mascot_spots(rect: Rect, count: int) -> list[tuple[int, int, int]]:
    """Centres and radius ``(cx, cy, r)`` of ``count`` mascots sharing one space rect, in the grid of columns
    and rows that gives the largest figures (a figure with its nose is 2.9 r wide and 2 r high); figures never
    overlap, and all have the same radius. One mascot alone is drawn as large as the space allows."""
    x, y, w, h = rect
    if count <= 0:
        return []
    if count == 1:   # alone: as large as the space allows (the nose may reach the space ahead)
        return [(x + w // 2, y + h // 2, int(min(w / 2.5, h * 0.34)))]
    best = (0.0, 1, 1)
    for cols in range(1, count + 1):
        rows = -(-count // cols)
        r = min(w / cols / 2.9, h / rows / 2.2)
        if r > best[0]:
            best = (r, cols, rows)
    r, cols, rows = best
    spots = []
    for j in range(count):
        c, row = j % cols, j // cols
        spots.append((x + round(w * (c + 0.5) / cols), y + round(h * (row + 0.5) / rows), int(r)))
    return spots


def space_centre(lane: int, space: int, layout: Layout) -> tuple[int, int]:
    """The centre of a space, with lane and space clamped onto the track (for moves that left it)."""
    lane = min(max(lane, 1), layout.lanes)
    space = min(max(space, 1), layout.spaces)
    x, y, w, h = space_rect(lane, space, layout)
    return (x + w // 2, y + h // 2)


def card_tile_rect(layout: Layout) -> Rect:
    """The last card's tile inside the last-card panel (the card drawn whole, in its colour)."""
    u = layout.unit
    x, y, w, h = layout.card
    pad = int(18 * u)
    ix, iy, iw, ih = x + pad, y + int(52 * u), w - 2 * pad, h - int(52 * u) - pad
    return (ix, iy, min(int(ih * 0.7), int(iw * 0.44)), ih)


def standing_rect(row: int, rows: int, layout: Layout) -> Rect:
    """The rect of final-standing row ``row`` (0-based) of ``rows`` on the game-over screen."""
    u, w, h = layout.unit, layout.width, layout.height
    top, bottom = int(h * 0.23), int(h * 0.97)
    step = min(int(200 * u), (bottom - top) // max(1, rows))
    x0, x1 = int(w * 0.06), int(w * 0.94)
    return (x0, top + row * step, x1 - x0, step - int(14 * u))


def betting_band(layout: Layout) -> Rect:
    """The betting screen's "your pick" band across the top (the join code sits at its right end)."""
    w, h = layout.width, layout.height
    return _frac(w, h, 0.02, 0.1, 0.96, 0.19 if layout.small else 0.16)


def seat_rows(model: ScreenModel) -> list[SeatView]:
    """The seats ranked by money, most first (ties keep seat order)."""
    return sorted(model.seats, key=lambda s: -s.money)


__all__ = ["KEY_CAP", "LARGE", "Layout", "MEDIUM", "Metrics", "Rect", "SMALL", "betting_band", "card_tile_rect",
           "layout_for", "mascot_spots", "metrics_for", "order_rect", "podium_rect", "seat_rows", "space_centre",
           "space_rect", "standing_rect"]
