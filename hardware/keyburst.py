"""A keyboard scanner typing into the desktop window: telling its bursts from a person's key presses.

Most USB barcode scanners ship in keyboard (HID wedge) mode: they type the label's text a few milliseconds a
key and end with Enter. Point-of-sale software tells them from a typing person by the time between keys, and so
does :class:`BurstDecoder`. It is pure (no pygame, no clock of its own): feed it each key press with the time it
was pressed, and call :meth:`BurstDecoder.tick` as time passes (only ``tick`` decides by time: a loop that
reads keys in batches ticks when a read finds none, so a slow frame between two reads never splits a burst); it
answers with what the keys meant:

- :class:`Press`: a person's single key (``u`` undo, ``g`` GO, ``n`` names...), handed on as before;
- :class:`Scan`: one scanned code, cleaned exactly as a serial scanner's line is
  (:class:`hardware.scanner.ScanParser`: control bytes, AIM prefix, ASCII only, length cap, repeat window).

A key is held for up to ``window`` seconds (default 0.045) before it is decided. Keys each within ``window`` of
the last and ended by Enter are a burst: with at least ``min_length`` characters it is one scan. A burst never
becomes presses outside name entry, so a code with a g, u or n in it never presses GO or undo or opens the name
entry. A burst that stops without Enter is dropped (counted in ``dropped``), unless ``typing()`` says a name is
being typed: then its keys are a quick typist's letters and come out as presses. A shorter burst ended by Enter
is settled the same way (one key and Enter: a person's quick presses). A dropped burst is not lost at once:
when the rest of it follows within ``rejoin`` seconds (0.3) and ends with Enter, the two are one scan (a scanner
paused by a busy computer). Modifier keys (shift, ctrl, alt, caps
lock) are ignored; any other key without a character (Esc, Tab, Backspace, F2, arrows) first settles the keys
held, then comes out as a press at once.

>>> d = BurstDecoder(window=0.04)
>>> t = 0.0
>>> for ch in "HS-GO":
...     assert d.feed(ch.lower(), ch, t) == []
...     t += 0.005
>>> d.feed("return", "\\r", t)
[Scan(text='HS-GO')]
>>> d.feed("g", "g", 1.0), d.tick(1.02), d.tick(1.05)
([], [], [Press(key='g')])
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

from hardware.scanner import ScanParser

__all__ = ["ENTER_KEYS", "MODIFIER_KEYS", "REJOIN", "WINDOW", "BurstDecoder", "Press", "Scan"]

log = logging.getLogger(__name__)

WINDOW = 0.045
"""Seconds: the most time between two keys of one scanner burst. Scanners type a key every 1-10 ms; a person's
keys are 80 ms or more apart. The contract says "about 30 ms"; the margin keeps a scanner's burst whole on a busy
machine."""

REJOIN = 0.3
"""Seconds: a burst that stops without Enter (dropped) is joined by the rest of it when that starts within this
time and ends with Enter: a scanner's burst paused by a busy computer is still one scan."""

ENTER_KEYS = frozenset({"return", "enter", "keypad enter"})
MODIFIER_KEYS = frozenset({"left shift", "right shift", "left ctrl", "right ctrl", "left alt", "right alt",
                           "left meta", "right meta", "left gui", "right gui", "caps lock", "mode", "alt gr"})


@dataclass(frozen=True)
class Press:
    """A person's key press: pygame's key name (``"g"``, ``"space"``, ``"return"``, ``"escape"``)."""

    key: str


@dataclass(frozen=True)
class Scan:
    """One code a keyboard scanner typed, cleaned as a serial line (``"HS-PLAYERS-4"``)."""

    text: str


Decoded = Press | Scan


class BurstDecoder:
    """Decide, key by key, between a person's presses and a keyboard scanner's bursts (see the module).

    ``feed(key, char, t)`` takes one key press: pygame's key name, the character it typed (``event.unicode``,
    "" for none) and the time in seconds (any monotonic clock, the same for :meth:`tick`). ``tick(t)`` decides
    the keys held when the last of them is more than ``window`` before ``t``; call it before feeding a key that
    came later (``feed`` itself never decides by time). Both return the presses and scans decided, in the order
    typed. ``min_length`` characters make a scan (every code of
    the game has 4 or more); ``max_length`` and ``repeat_window`` are the serial reader's (a longer line is
    dropped; the same code again within ``repeat_window`` s is dropped as a re-read). ``typing()`` is asked when
    a burst stops without Enter. Raises ValueError for a window that is not positive or a ``min_length`` below 1.
    """

    def __init__(self, window: float = WINDOW, *, min_length: int = 3, max_length: int = 64,
                 repeat_window: float = 0.8, rejoin: float = REJOIN, typing: Callable[[], bool] = lambda: False):
        if not window > 0:
            raise ValueError(f"window {window!r} must be more than 0 seconds")
        if min_length < 1:
            raise ValueError(f"min_length {min_length!r} must be at least 1")
        self.window = window
        self.min_length = min_length
        self.typing = typing
        self._now = 0.0
        self.parser = ScanParser(max_length=max_length, repeat_window=repeat_window, clock=lambda: self._now,
                                 on_reject=lambda reason: log.warning("keyboard scanner: %s", reason))
        self._held: list[tuple[str, str]] = []   # (key, char) of the keys not decided yet
        self._first = 0.0                         # when the first held key was pressed
        self._last = 0.0                          # when the last held key was pressed
        self._fragment = ""                       # a burst dropped without Enter, which the rest may follow
        self._fragment_end = 0.0
        self.rejoin = rejoin
        self.scans = 0                            # bursts that became a scan
        self.dropped = 0                          # bursts that stopped without Enter, outside name entry

    @property
    def holding(self) -> bool:
        """True while keys wait for a decision (the caller should :meth:`tick`)."""
        return bool(self._held)

    @property
    def deadline(self) -> float | None:
        """When the keys held will be decided if no key comes first (a :meth:`tick` after it), or None."""
        return self._last + self.window if self._held else None

    def feed(self, key: str, char: str, t: float) -> list[Decoded]:
        """One key press at ``t`` seconds; returns what is decided now (see the class)."""
        if key in MODIFIER_KEYS:
            return []
        if key in ENTER_KEYS:
            return self._enter(t)
        if len(char) != 1 or not char.isprintable():  # Esc, Tab, Backspace, F2...: a person's, at once
            return self._settle() + [Press(key)]
        if not self._held:
            self._first = t
        self._held.append((key, char))
        self._last = t
        return []

    def tick(self, t: float) -> list[Decoded]:
        """The time is now ``t``: keys held longer than ``window`` since the last one are decided."""
        if self._held and t - self._last > self.window:
            return self._settle()
        return []

    def _enter(self, t: float) -> list[Decoded]:
        chars = "".join(c for _, c in self._held)
        start = self._first if self._held else t
        joined = bool(self._fragment) and start - self._fragment_end <= self.rejoin  # a burst a busy computer paused
        if joined:
            chars = self._fragment + chars
        self._fragment = ""
        if len(chars) < self.min_length:
            if joined:  # two quick keys dropped, then Enter alone: only the Enter is a person's
                self._held.clear()
                return [Press("return")]
            return self._settle() + [Press("return")]
        self._held.clear()
        self._now = t
        codes = self.parser.feed(chars.encode("utf-8") + b"\r")  # non-ASCII: garbage, as on a serial line
        self.scans += len(codes)
        return [Scan(code) for code in codes]

    def _settle(self) -> list[Decoded]:
        """The held keys stopped without Enter: one key is a person's press; more are a burst, dropped unless
        a name is being typed."""
        held, self._held = self._held, []
        if len(held) == 1 or (held and self.typing()):
            self._fragment = ""
            return [Press(key) for key, _ in held]
        if held:
            chars = "".join(c for _, c in held)
            recent = self._fragment and self._first - self._fragment_end <= self.rejoin
            self._fragment = (self._fragment if recent else "") + chars
            self._fragment_end = self._last
            self.dropped += 1
            log.info("keyboard: %d keys typed faster than a person without Enter were dropped (%r)",
                     len(held), chars)
        return []
