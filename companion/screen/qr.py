"""The phone page's address as a QR code on the screen (setup and betting), so players join by pointing
their phone's camera at it. The code comes from segno; this module only places and paints it.

``draw_qr(painter, model, layout)`` paints ``model.join_url`` (if any: ``http://HOST:PORT/?join=CODE``) in
the right column, below the card / side bet panel, with the address and the join code written under it (a
phone that cannot scan types the address, then the code). :func:`qr_rows` is the pure part: the code's modules
as rows of booleans with the quiet zone included.
"""

from __future__ import annotations

import functools
from typing import Any

QR_SCREENS = ("setup", "betting")
QUIET = 4  # modules of white border around the code (the QR standard's quiet zone)
FOLLOW = "Follow on your phone"  # the English words; the screen says them in its language ("follow")
TEXT, DIM = (235, 235, 240), (200, 200, 210)


@functools.lru_cache(maxsize=8)
def qr_rows(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``url`` (error correction M) as rows of dark (True) / light modules, quiet zone included."""
    import segno
    code = segno.make_qr(url, error="m")
    return tuple(tuple(bool(v) for v in row) for row in code.matrix_iter(scale=1, border=QUIET))


@functools.lru_cache(maxsize=4)
def _surface(url: str, size: int) -> Any:
    import pygame
    rows = qr_rows(url)
    n = len(rows)
    small = pygame.Surface((n, n))
    small.fill((255, 255, 255))
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                small.set_at((x, y), (0, 0, 0))
    side = max(n, size // n * n)  # whole pixels per module keep the code sharp
    return pygame.transform.scale(small, (side, side))


def band_room(screen: Any, model: Any, layout: Any) -> int:
    """How many pixels at the right end of the betting screen's "your pick" band the join code and its words
    take (0 when no code is shown there); the band's prompt is centred in the rest."""
    url = getattr(model, "join_url", None)
    if not url or model.screen != "betting":
        return 0
    return sum(_band_parts(screen, url, layout)) + int(40 * layout.unit)


def _band_parts(screen: Any, url: str, layout: Any) -> tuple[int, int, int]:
    """The betting band's code: (its side, the words' width, the gap between) in pixels."""
    from companion.screen.layout import betting_band
    u = layout.unit
    bh, pad = betting_band(layout)[3], int(8 * u)
    side = _surface(url, bh - 2 * pad).get_width()
    if layout.small:   # the 7-inch panel: the code alone (setup showed its address)
        return side, 0, pad
    cap = screen.cap(16)
    address = _address(screen, url)
    words = max(screen.font(cap).size(t)[0] for t in (_follow(screen), address))
    return side, words, int(12 * u) + pad


def _address(screen: Any, url: str) -> str:
    """The words under the code: ``HOST:PORT`` and, when the URL holds one, ``· code CODE`` (the join code)."""
    from companion.screen.words import say
    base, _, code = url.removeprefix("http://").partition("?join=")
    base = base.rstrip("/")
    return f"{base} · {say(getattr(screen, 'lang', 'en'), 'join_code', code=code)}" if code else base


def _follow(screen: Any) -> str:
    """"Follow on your phone" in the painter's language (``companion.screen.words``)."""
    from companion.screen.words import say
    return say(getattr(screen, "lang", "en"), "follow")


def draw_qr(screen: Any, model: Any, layout: Any) -> None:
    """Paint the join code with ``screen`` (the painter of ``companion.screen.draw``: its ``surface`` and
    ``label``) when the model has a ``join_url`` and shows setup or betting; does nothing otherwise.
    Setup: a tile in the bottom-right corner of the face-up cards panel (its columns fill from the top); on
    the 7-inch panel in the right column instead of the chance to win, its words under the cards panel.
    Betting: at the right end of the "your pick" band, the words to its left (:func:`band_room` keeps the
    prompt clear of them). The code's square is recorded for the measuring hook as a ``qr`` box."""
    url = getattr(model, "join_url", None)
    if not url or model.screen not in QR_SCREENS:
        return
    u, W, H = layout.unit, layout.width, layout.height
    address = _address(screen, url)
    pad = int(8 * u)
    cap = screen.cap(16)
    if model.screen == "betting":  # the "your pick" band (companion.screen.layout.betting_band)
        from companion.screen.layout import betting_band
        bx, by, bw, bh = betting_band(layout)
        image = _surface(url, bh - 2 * pad)
        side = image.get_width()
        left, top = bx + bw - side - pad - int(6 * u), by + (bh - side) // 2
        screen.surface.blit(image, (left, top))
        screen.record((left, top, side, side), url, 0, kind="qr")
        if layout.small:
            return
        screen.label(_follow(screen), cap, (left - int(12 * u), by + bh // 2 - int(2 * u)), TEXT, "bottomright")
        screen.label(address, cap, (left - int(12 * u), by + bh // 2 + int(2 * u)), DIM, "topright")
        return
    if layout.small:   # the 7-inch panel: the code in the right column, its words under the cards panel
        x, y, w, h = round(W * 0.64), round(H * 0.1), round(W * 0.34), round(H * 0.36)
        screen.pg.draw.rect(screen.surface, (20, 26, 44), (x, y, w, h), border_radius=int(10 * u))
        image = _surface(url, h - 2 * pad)
        side = image.get_width()
        screen.surface.blit(image, (x + (w - side) // 2, y + (h - side) // 2))
        screen.record((x + (w - side) // 2, y + (h - side) // 2, side, side), url, 0, kind="qr")
        wx, wy = round(W * 0.02) + int(18 * u), round(H * 0.82)
        first = screen.label(_follow(screen), cap, (wx, wy), TEXT, max_w=round(W * 0.58))
        screen.label(address, cap, (wx, first[1] + first[3] + int(6 * u)), DIM, max_w=round(W * 0.58))
        return
    px, py, pw, ph = round(W * 0.02), round(H * 0.1), round(W * 0.62), round(H * 0.6)  # the face-up panel
    size, text_h = int(0.2 * H), int(cap * 1.6)
    words = max(screen.font(cap).size(t)[0] for t in (_follow(screen), address))
    w, h = max(size, words) + 2 * pad, size + 2 * text_h + 2 * pad
    x, y = px + pw - w - pad, py + ph - h - pad
    screen.pg.draw.rect(screen.surface, (20, 26, 44), (x, y, w, h), border_radius=int(10 * u))
    image = _surface(url, size)
    side = image.get_width()
    top = y + pad + text_h
    screen.label(_follow(screen), cap, (x + w // 2, y + pad), TEXT, "midtop", max_w=w - 2 * pad)
    screen.surface.blit(image, (x + (w - side) // 2, top))
    screen.record((x + (w - side) // 2, top, side, side), url, 0, kind="qr")
    screen.label(address, cap, (x + w // 2, top + side + int(4 * u)), DIM, "midtop", max_w=w - 2 * pad)
