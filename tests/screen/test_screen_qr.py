"""The phone page's QR code on the screen: drawn in setup and betting only, and it scans back to the address."""

from __future__ import annotations

import pytest

from companion.screen.model import replace, sample_model
from companion.screen.qr import qr_rows

URL = "http://192.168.1.20:8080/"


def _screen():
    from companion.screen.draw import Screen
    return Screen.offscreen((1280, 720))


def _decode(surface) -> list[str]:
    try:
        from pyzbar.pyzbar import ZBarSymbol, decode
    except ImportError as exc:
        pytest.skip(f"zbar decoder not available ({exc})")
    import pygame
    w, h = surface.get_size()
    grey = pygame.image.tobytes(surface, "RGB")
    pixels = grey[::3]  # the red channel: black and white modules are grey
    return [r.data.decode() for r in decode((pixels, w, h), symbols=[ZBarSymbol.QRCODE])]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", ["setup", "betting"])
def test_the_join_code_scans_back_to_the_page(screen, size):
    from companion.screen.draw import Screen
    s = Screen.offscreen(size)
    s.draw(replace(sample_model(screen), join_url=URL), 0.0)
    assert _decode(s.surface) == [URL]


@pytest.mark.parametrize("screen", ["race", "payouts", "attract"])
def test_no_code_while_racing_or_without_an_address(screen):
    s = _screen()
    s.draw(replace(sample_model(screen), join_url=URL), 0.0)
    assert _decode(s.surface) == []
    s.draw(sample_model("setup"), 0.0)
    assert _decode(s.surface) == []


def test_qr_rows_have_the_quiet_zone():
    rows = qr_rows(URL)
    assert len(rows) == len(rows[0]) and not any(rows[0]) and not any(r[0] for r in rows)


@pytest.mark.parametrize("lang, words", [("en", "code"), ("nl", "toegang"), ("es", "código")])
def test_the_join_code_is_written_under_the_qr_code(lang, words):
    from types import SimpleNamespace
    from companion.screen.qr import _address
    assert _address(SimpleNamespace(lang=lang), URL + "?join=K7M2QX") == f"192.168.1.20:8080 · {words} K7M2QX"
    assert _address(SimpleNamespace(lang=lang), URL) == "192.168.1.20:8080"
