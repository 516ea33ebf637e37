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


def draw_qr(screen: Any, model: Any, layout: Any) -> None:
    """Paint the join code with ``screen`` (the painter of ``companion.screen.draw``: its ``surface`` and
    ``blit_text``) when the model has a ``join_url`` and shows setup or betting; does nothing otherwise."""
    url = getattr(model, "join_url", None)
    if not url or model.screen not in QR_SCREENS:
        return
    x, y, w, h = layout.podium
    u = layout.unit
    text_h = int(30 * u)
    size = int(min(w, h - 2 * text_h))
    image = _surface(url, size)
    side = image.get_width()
    left = x + (w - side) // 2
    top = y + text_h
    screen.blit_text("Follow on your phone", 26 * u, (x + w // 2, y), (230, 230, 230), bold=True, anchor="midtop")
    screen.surface.blit(image, (left, top))
    screen.blit_text(url.removeprefix("http://").rstrip("/"), 24 * u, (x + w // 2, top + side + int(4 * u)),
                     (200, 200, 200), anchor="midtop")
