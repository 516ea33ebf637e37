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

A desktop window given a ``burst`` decoder (:mod:`hardware.keyburst`) tells a keyboard scanner's codes from a
person's keys: a code goes to ``on_scan(text)`` as one scan, a person's key to ``on_key`` as before, and a code
typed by hand too slowly for a scan to ``on_slow(text)`` (after its keys went to ``on_key``). The characters are
counted from SDL's text input as well as its key presses: SDL's X11 backend takes a key released and pressed
again within 2 ms (a scanner's doubled character, ``HS11``) for the key's auto-repeat and pygame drops the
second press, but its text still comes.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import Any, Callable

from hardware.device import Device
from hardware.display_thread import DisplayThread
from hardware.keyburst import BurstDecoder, Scan, Slow

log = logging.getLogger("hotstreak.display")

KINDS = ("auto", "kmsdrm", "window", "dummy", "none")
KEY_WAIT = 0.25   # s: the most one poll waits on keys held by the burst decoder (a scanner's burst is ~0.1 s)
KEY_WAITS = 100   # and the most waits it makes, whatever the clock says
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
        self.burst: BurstDecoder | None = None        # a keyboard scanner's bursts told from a person's keys
        self.on_scan: Callable[[str], Any] | None = None
        self.on_slow: Callable[[str], Any] | None = None  # a code typed by hand too slowly for a scan
        self.clock: Callable[[], float] = time.monotonic  # the keys' times for ``burst`` (tests: a fake clock)
        self._typed: dict[str, str] = {}                  # character -> the key name that last typed it
        self.key_wait = KEY_WAIT                           # s a poll may wait for the held keys' decision
        self.thread: DisplayThread | None = None  # the display's own thread, when it was opened on one
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
        self._on_thread(self._present)

    def _present(self) -> None:
        self._pg.display.flip()
        self._poll()

    def _on_thread(self, call: Callable[[], None]) -> None:
        """``call()`` on the display's own thread when it has one (SDL is called from one thread only)."""
        if self.thread is None:
            call()
        else:
            self.thread.run(call)

    def poll(self) -> None:
        """Hand the window's key presses to ``on_key`` (and its close to ``on_quit``) without showing a new
        frame: what a screen that did not change calls instead of :meth:`present`.

        With a ``burst`` decoder (:class:`hardware.keyburst.BurstDecoder`, a desktop window), every key goes
        through it first: a keyboard scanner's code goes to ``on_scan(text)``, a person's keys to ``on_key``.
        SDL gives key events no time, so the keys found here carry the time they were read: those waiting since
        the last poll the time of this one (a slow frame between two polls never splits a burst); then, while
        the decoder holds keys, the display waits for the next key (at most ``key_wait`` s, without spinning)
        and stamps each as it comes, so a person's keys are told apart within about a frame."""
        if self.closed:
            return
        self._on_thread(self._poll)

    def _poll(self) -> None:
        pg = self._pg
        now = self.clock()
        found = self._events(pg.event.get(), now)
        burst = self.burst
        if burst is None:
            return
        if not found:
            self._decoded(burst.tick(now))
        end = now + self.key_wait
        for _ in range(KEY_WAITS):
            deadline = burst.deadline
            now = self.clock()
            if deadline is None or now >= end:
                break
            if now > deadline:
                self._decoded(burst.tick(now))
                continue
            event = pg.event.wait(int((deadline - now) * 1000) + 2)
            self._events([event, *pg.event.get()], self.clock())

    def _events(self, events: list[Any], stamp: float) -> bool:
        """Hand on ``events`` read at ``stamp``; True when there was a key among them.

        With a decoder, a character key's text input (it follows its key press) is matched to that press; a
        character that comes without a press of its own (the second of two presses of one key within 2 ms,
        which SDL took for an auto-repeat) is fed as ``repeat``, named after the last key that typed it. A window
        that was covered and is shown again (an expose event) gets its last frame again at once: the screen draws
        only what changes, and a window system without a compositor keeps nothing of a covered window."""
        pg = self._pg
        found = exposed = False
        expected: list[str] = []   # the characters of this batch's key presses, whose text input follows
        for event in events:
            if event.type == pg.KEYDOWN:
                name = pg.key.name(event.key)
                if self.burst is None:
                    self._press(name)
                else:
                    found = True
                    char = getattr(event, "unicode", "")
                    if len(char) == 1 and char.isprintable():
                        expected.append(char)
                        self._typed[char] = name
                    self._decoded(self.burst.feed(name, char, stamp))
            elif event.type == pg.TEXTINPUT and self.burst is not None:
                for char in event.text:
                    if char in expected:
                        expected.remove(char)
                    elif len(char) == 1 and char.isprintable():
                        found = True
                        name = self._typed.get(char, char.lower())
                        self._decoded(self.burst.feed(name, char, stamp, repeat=True))
            elif event.type == pg.QUIT and self.on_quit is not None:
                self.on_quit()
            elif event.type in (pg.WINDOWEXPOSED, pg.VIDEOEXPOSE):
                exposed = True
        if exposed:
            pg.display.flip()  # the display surface still holds the last frame
        return found

    def _press(self, name: str) -> None:
        taken = self.on_key(name) if self.on_key is not None else False
        if name == "escape" and not taken and self.name == "window" and self.on_quit is not None:
            self.on_quit()  # Esc closes a desktop window, like its close button

    def _decoded(self, decided: list[Any]) -> None:
        for item in decided:
            if isinstance(item, Scan):
                if self.on_scan is not None:
                    self.on_scan(item.text)
            elif isinstance(item, Slow):
                if self.on_slow is not None:
                    self.on_slow(item.text)
            else:
                self._press(item.key)

    def _release(self) -> None:
        if self.thread is None:
            self._pg.display.quit()
            return
        try:
            self.thread.run(self._pg.display.quit)
        except RuntimeError:
            pass  # a display given up: its thread is left behind (a daemon)
        self.thread.stop()


def auto_kind() -> str:
    """``window`` where a desktop session is running (DISPLAY or WAYLAND_DISPLAY set) or off Linux, else
    ``kmsdrm`` (the Pi's console)."""
    if not sys.platform.startswith("linux") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return "window"
    return "kmsdrm"


def open_display(kind: str = "auto", size: tuple[int, int] | None = None, *,
                 on_key: Callable[[str], Any] | None = None, on_quit: Callable[[], Any] | None = None,
                 start_timeout: float | None = None) -> PygameDisplay | NullDisplay:
    """A :class:`PygameDisplay` for ``kind`` (one of :data:`KINDS`), or a :class:`NullDisplay` if it cannot
    be opened (or ``kind`` is ``none``). A ``window`` on Linux needs a desktop session. With ``start_timeout``
    (seconds) the display is opened and driven on a thread of its own (:mod:`hardware.display_thread`: KMSDRM's
    EGL context belongs to one thread, and a hung mode set must not hold the caller): one that takes longer to
    open is a NullDisplay saying so. Raises ValueError for an unknown kind."""
    if kind not in KINDS:
        raise ValueError(f"unknown display kind {kind!r} (expected one of: {', '.join(KINDS)})")
    if kind == "none":
        return NullDisplay("display is off (kind 'none')")
    if kind == "auto":
        kind = auto_kind()
    if kind == "window" and sys.platform.startswith("linux") and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return NullDisplay("no desktop display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset)")
    if start_timeout is not None:
        thread = DisplayThread()
        late = f"the {kind} display did not start within {start_timeout:g} s (a hung mode set?)"
        try:
            display = thread.start(lambda: PygameDisplay(kind, size, on_key=on_key, on_quit=on_quit), start_timeout,
                                   late)
        except (ImportError, RuntimeError, OSError) as exc:  # pygame.error is a RuntimeError
            thread.stop()
            return NullDisplay(late if thread.gone == late else f"cannot open a {kind} display ({exc})")
        display.thread = thread
        return display  # type: ignore[no-any-return]
    try:
        return PygameDisplay(kind, size, on_key=on_key, on_quit=on_quit)
    except (ImportError, RuntimeError, OSError) as exc:  # pygame.error is a RuntimeError
        return NullDisplay(f"cannot open a {kind} display ({exc})")
