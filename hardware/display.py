"""The screen device: a pygame-ce display on KMSDRM (a Pi without a desktop), a desktop window, SDL's dummy
driver (tests, screenshots), or none. It hands back a surface to draw on; what is drawn is not its business.

>>> display = open_display("dummy", size=(1280, 720))     # doctest: +SKIP
>>> draw_something_on(display.surface); display.present()  # doctest: +SKIP
>>> off = open_display("none")  # no screen: a NullDisplay, and the race goes on
>>> off.surface is None, off.present()
(True, None)

Both backends follow :class:`hardware.device.Display`. ``present()`` shows the frame and hands each key
pressed in the window to ``on_key(name)`` (pygame's key names: ``"u"``, ``"g"``, ``"space"``), so the
desktop window's keys go through the same press path as the table's buttons; closing the window calls
``on_quit()``, and so does Esc in a desktop window when ``on_key`` did not take it (returned a false value;
the name entry takes Esc to cancel the name being typed, so a second Esc closes). When no display can be opened, :func:`open_display` returns a :class:`NullDisplay` after
one log line: ``surface`` is None, every call does nothing, and the race goes on.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any, Callable

from hardware.device import Device

log = logging.getLogger("hotstreak.display")

KINDS = ("auto", "kmsdrm", "window", "dummy", "none")
DEFAULT_SIZE = (1280, 720)


class NullDisplay(Device):
    """No screen: ``surface`` is None and every call does nothing. ``reason`` says why (logged once)."""

    name = "none"
    size = (0, 0)
    surface = None

    def __init__(self, reason: str = "display disabled"):
        self.reason = reason
        self.on_key: Callable[[str], Any] | None = None
        self.on_quit: Callable[[], Any] | None = None
        log.warning("no display: %s; the race goes on without a screen", reason)

    def present(self) -> None:
        pass

    def poll(self) -> None:
        pass


class PygameDisplay(Device):
    """A pygame-ce display of ``kind`` (``kmsdrm`` full screen, ``window``, ``dummy``).

    ``size`` None: the whole screen for kmsdrm, 1280x720 otherwise. ``on_key(name)`` gets each key pressed
    (on the caller's thread, inside ``present``) and returns True when it took the key; ``on_quit()`` the
    window's close button, and Esc in a ``window`` when ``on_key`` did not take it. Raises
    ``pygame.error`` (a RuntimeError) or ImportError when the display cannot be opened.
    """

    def __init__(self, kind: str, size: tuple[int, int] | None = None, *,
                 on_key: Callable[[str], Any] | None = None, on_quit: Callable[[], Any] | None = None):
        driver = {"kmsdrm": "kmsdrm", "dummy": "dummy"}.get(kind)
        if driver:
            os.environ["SDL_VIDEODRIVER"] = driver
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame
        self._pg = pygame
        self.name = kind
        self.on_key = on_key
        self.on_quit = on_quit
        fullscreen = kind == "kmsdrm"
        pygame.display.init()
        if size is None:
            size = (0, 0) if fullscreen else DEFAULT_SIZE
        self._surface = pygame.display.set_mode(size, pygame.FULLSCREEN if fullscreen else 0)
        pygame.display.set_caption("Hot Streak")
        if fullscreen:
            pygame.mouse.set_visible(False)

    @property
    def surface(self) -> Any:
        """The pygame surface to draw the next frame on."""
        return self._surface

    @property
    def size(self) -> tuple[int, int]:
        width, height = self._surface.get_size()
        return int(width), int(height)

    def present(self) -> None:
        """Show what was drawn (flip), then hand the window's key presses to ``on_key`` (:meth:`poll`)."""
        if self.closed:
            return
        self._pg.display.flip()
        self.poll()

    def poll(self) -> None:
        """Hand the window's key presses to ``on_key`` (and its close to ``on_quit``) without showing a new
        frame: what a screen that did not change calls instead of :meth:`present`."""
        if self.closed:
            return
        pg = self._pg
        for event in pg.event.get():
            if event.type == pg.KEYDOWN:
                name = pg.key.name(event.key)
                taken = self.on_key(name) if self.on_key is not None else False
                if name == "escape" and not taken and self.name == "window" and self.on_quit is not None:
                    self.on_quit()  # Esc closes a desktop window, like its close button
            elif event.type == pg.QUIT and self.on_quit is not None:
                self.on_quit()

    def _release(self) -> None:
        self._pg.display.quit()


def auto_kind() -> str:
    """``window`` where a desktop session is running (DISPLAY or WAYLAND_DISPLAY set) or off Linux, else
    ``kmsdrm`` (the Pi's console)."""
    if not sys.platform.startswith("linux") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return "window"
    return "kmsdrm"


def open_display(kind: str = "auto", size: tuple[int, int] | None = None, *,
                 on_key: Callable[[str], Any] | None = None,
                 on_quit: Callable[[], Any] | None = None) -> PygameDisplay | NullDisplay:
    """A :class:`PygameDisplay` for ``kind`` (one of :data:`KINDS`), or a :class:`NullDisplay` if it cannot
    be opened (or ``kind`` is ``none``). A ``window`` on Linux needs a desktop session. Raises ValueError for
    an unknown kind."""
    if kind not in KINDS:
        raise ValueError(f"unknown display kind {kind!r} (expected one of: {', '.join(KINDS)})")
    if kind == "none":
        return NullDisplay("display is off (kind 'none')")
    if kind == "auto":
        kind = auto_kind()
    if kind == "window" and sys.platform.startswith("linux") and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return NullDisplay("no desktop display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset)")
    try:
        return PygameDisplay(kind, size, on_key=on_key, on_quit=on_quit)
    except (ImportError, RuntimeError, OSError) as exc:  # pygame.error is a RuntimeError
        return NullDisplay(f"cannot open a {kind} display ({exc})")
