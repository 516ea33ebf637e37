"""What the service screen shows, as plain frozen data: the service mode fills it, ``companion.screen`` draws it.

Every text is already in the table's language (``companion.service.words``); pixels are ``(r, g, b)`` 0..255
before the strip's brightness cap; pixel numbers count from 0 at the strip's data input.
"""

from __future__ import annotations

from dataclasses import dataclass

Pixel = tuple[int, int, int]

PAGES: tuple[str, ...] = ("leds", "scanner", "buttons", "sound", "screen", "calibrate")
"""The service mode's tests in the order GO walks them (UNDO walks back; both wrap around, so the LED
calibration is one UNDO away from the LED test the service mode starts on)."""


@dataclass(frozen=True)
class ServicePage:
    """One frame of the service screen.

    ``page`` is one of :data:`PAGES`, ``number`` its place (1-based) of ``pages``; ``title`` its name;
    ``big`` the one line to read from across the room (a lane and space, a button that works), or None;
    ``lines`` the details, ``alert`` a line to show in the message colour (a problem), ``keys`` what GO and
    UNDO do now. ``strip`` mirrors the LED strip's frame, ``light`` is the running light's pixel (or None).
    ``colours`` are the lanes' mascot colours (lane 1 first), for the screen test's patches."""

    page: str
    title: str
    number: int = 1
    pages: int = len(PAGES)
    big: str | None = None
    lines: tuple[str, ...] = ()
    alert: str | None = None
    keys: str = ""
    strip: tuple[Pixel, ...] = ()
    light: int | None = None
    colours: tuple[Pixel, ...] = ()


__all__ = ["PAGES", "Pixel", "ServicePage"]
