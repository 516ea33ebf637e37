"""The phone page's address as a QR code on the screen (setup and betting), so players join by pointing
their phone's camera at it. The code comes from segno; this module only places and paints it.

``draw_qr(painter, model, layout)`` paints ``model.join_url`` (if any) in the right column, below the card /
side bet panel, with the address written under it. :func:`qr_rows` is the pure part: the code's modules
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


def _follow(screen: Any) -> str:
    """"Follow on your phone" in the painter's language (``companion.screen.words``)."""
    from companion.screen.words import say
    return say(getattr(screen, "lang", "en"), "follow")


def draw_qr(screen: Any, model: Any, layout: Any) -> None:
    """Paint the join code with ``screen`` (the painter of ``companion.screen.draw``: its ``surface`` and
    ``label``) when the model has a ``join_url`` and shows setup or betting; does nothing otherwise.
    Setup: a tile in the bottom-right corner of the face-up cards panel (its columns fill from the top).
    Betting: at the right end of the "your pick" band, the words to its left."""
    url = getattr(model, "join_url", None)
    if not url or model.screen not in QR_SCREENS:
        return
    u, W, H = layout.unit, layout.width, layout.height
    address = url.removeprefix("http://").rstrip("/")
    pad = int(8 * u)
    if model.screen == "betting":  # the band: (0.02, 0.1, 0.96, 0.14) of the screen
        bx, by, bw, bh = round(W * 0.02), round(H * 0.1), round(W * 0.96), round(H * 0.14)
        image = _surface(url, bh - 2 * pad)
        side = image.get_width()
        left, top = bx + bw - side - pad - int(6 * u), by + (bh - side) // 2
        screen.surface.blit(image, (left, top))
        screen.label(_follow(screen), 16 * u, (left - int(12 * u), by + bh // 2 - int(4 * u)), TEXT, "bottomright")
        screen.label(address, 16 * u, (left - int(12 * u), by + bh // 2 + int(4 * u)), DIM, "topright")
        return
    px, py, pw, ph = round(W * 0.02), round(H * 0.1), round(W * 0.62), round(H * 0.6)  # the face-up panel
    size, text_h = int(0.2 * H), int(24 * u)
    w, h = size + 2 * pad, size + 2 * text_h + 2 * pad
    x, y = px + pw - w - pad, py + ph - h - pad
    screen.pg.draw.rect(screen.surface, (20, 26, 44), (x, y, w, h), border_radius=int(10 * u))
    image = _surface(url, size)
    side = image.get_width()
    top = y + pad + text_h
    screen.label(_follow(screen), 15 * u, (x + w // 2, y + pad), TEXT, "midtop", max_w=w - 2 * pad)
    screen.surface.blit(image, (x + (w - side) // 2, top))
    screen.label(address, 15 * u, (x + w // 2, top + side + int(8 * u)), DIM, "midtop", max_w=w - 2 * pad)
