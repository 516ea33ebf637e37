"""Display backend choice: pygame-ce on KMSDRM (a Pi without a desktop), a desktop window, SDL's dummy driver
(tests, screenshots), or none.

>>> screen = open_display("dummy", size=(1280, 720))     # doctest: +SKIP
>>> screen.draw(model, now); screen.present()              # doctest: +SKIP

When no display can be opened, :func:`open_display` returns a :class:`NullDisplay` after one log line: it takes
the same calls and does nothing, and the race goes on.
"""

from __future__ import annotations

import logging
import os
import sys

log = logging.getLogger("hotstreak.display")

KINDS = ("auto", "kmsdrm", "window", "dummy", "none")


class NullDisplay:
    """No screen: every call does nothing. ``reason`` says why (logged once when made)."""

    name = "none"
    size = (0, 0)

    def __init__(self, reason: str = "display disabled"):
        self.reason = reason
        log.warning("no display: %s; the race goes on without a screen", reason)

    def draw(self, model, now: float):
        return None

    def present(self) -> None:
        pass

    def poll(self) -> list:
        return []

    def close(self) -> None:
        pass


def auto_kind() -> str:
    """``window`` where a desktop session is running (DISPLAY or WAYLAND_DISPLAY set) or off Linux, else
    ``kmsdrm`` (the Pi's console)."""
    if not sys.platform.startswith("linux") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return "window"
    return "kmsdrm"


def open_display(kind: str = "auto", size: tuple[int, int] | None = None):
    """A :class:`companion.screen.draw.Screen` for ``kind`` (one of :data:`KINDS`), or a :class:`NullDisplay` if it
    cannot be opened (or ``kind`` is ``none``). ``size`` None: the whole screen for kmsdrm, 1280x720 otherwise.
    Raises ValueError for an unknown kind."""
    if kind not in KINDS:
        raise ValueError(f"unknown display kind {kind!r} (expected one of: {', '.join(KINDS)})")
    if kind == "none":
        return NullDisplay("display is off (kind 'none')")
    if kind == "auto":
        kind = auto_kind()
    try:
        from companion.screen.draw import Screen
        if kind == "kmsdrm":
            screen = Screen(size, fullscreen=True, driver="kmsdrm")
        elif kind == "dummy":
            screen = Screen(size or (1280, 720), driver="dummy")
        else:
            screen = Screen(size or (1280, 720))
    except (ImportError, RuntimeError, OSError) as exc:  # pygame.error is a RuntimeError
        return NullDisplay(f"cannot open a {kind} display ({exc})")
    screen.name = kind
    return screen
