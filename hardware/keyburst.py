"""A keyboard scanner typing into the desktop window: telling its bursts from a person's key presses.

Most USB barcode scanners ship in keyboard (HID wedge) mode: they type the label's text a few milliseconds a
key and end with Enter. Point-of-sale software tells them from a typing person by the time between keys, and so
does :class:`BurstDecoder`. It is pure (no pygame, no clock of its own): feed it each key press with the time it
was pressed, and call :meth:`BurstDecoder.tick` as time passes (only ``tick`` decides by time: a loop that
reads keys in batches ticks when a read finds none, so a slow frame between two reads never splits a burst); it
answers with what the keys meant:

- :class:`Press`: a person's single key (``u`` undo, ``g`` GO, ``n`` names...), handed on as before;
- :class:`Scan`: one scanned code, cleaned exactly as a serial scanner's line is
  (:class:`hardware.scanner.ScanParser`: control bytes, AIM prefix, ASCII only, length cap, repeat window);
- :class:`Slow`: a code typed by hand, too slowly for a scan (its keys were a person's presses, handed on as
  such; ``Slow`` only lets the table learn why nothing was scanned).

A key is held for up to ``window`` seconds (default 0.045) before it is decided. Keys each within ``window`` of
the last and ended by Enter are a burst: with at least ``min_length`` characters it is one scan. A burst never
becomes presses outside name entry, so a code with a g, u or n in it never presses GO or undo or opens the name
entry. A second press of the same key within a few ms can reach the window without a key press of its own (SDL's
X11 backend takes a release and a press within 2 ms for the key's auto-repeat, and pygame drops repeats; only its
character comes, as text input): ``feed(..., repeat=True)`` counts it inside a burst and ignores it outside one
(there it is a held key's auto-repeat). A burst that stops without Enter is dropped (counted in ``dropped``, and
logged, once the ``rejoin`` time below has passed without the rest of it), unless ``typing()`` says a name is
being typed: then its keys are a quick typist's letters and come out as presses. A shorter burst ended by Enter
is settled the same way (one key and Enter: a person's quick presses). A dropped burst is not lost at once:
when the rest of it follows within ``rejoin`` seconds (0.3) and ends with Enter, the two are one scan (a scanner
paused by a busy computer). Modifier keys (shift, ctrl, alt, caps
lock) are ignored; any other key without a character (Esc, Tab, Backspace, F2, arrows) first settles the keys
held, then comes out as a press at once. Keys a person pressed one by one (each more than ``window`` but at most
``SLOW_GAP`` apart, outside name entry; a few of them read together after a busy frame count too, though they
are dropped as a burst), beginning with ``prefix`` and ended by Enter with ``min_length`` or more characters, add
a :class:`Slow` after their presses.

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

__all__ = ["ENTER_KEYS", "MODIFIER_KEYS", "REJOIN", "SLOW_GAP", "WINDOW", "BurstDecoder", "Press", "Scan", "Slow"]

log = logging.getLogger(__name__)

WINDOW = 0.045
"""Seconds: the most time between two keys of one scanner burst. Scanners type a key every 1-10 ms; a person's
keys are 80 ms or more apart. The contract says "about 30 ms"; the margin keeps a scanner's burst whole on a busy
machine."""

REJOIN = 0.3
"""Seconds: a burst that stops without Enter (dropped) is joined by the rest of it when that starts within this
time and ends with Enter: a scanner's burst paused by a busy computer is still one scan."""

SLOW_GAP = 1.5
"""Seconds: the most time between two keys of a code typed by hand (:class:`Slow`)."""

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


@dataclass(frozen=True)
class Slow:
    """A code typed by hand too slowly for a scan, as typed (``"HS01"``): its keys were presses, nothing was
    scanned."""

    text: str


Decoded = Press | Scan | Slow


class BurstDecoder:
    """Decide, key by key, between a person's presses and a keyboard scanner's bursts (see the module).

    ``feed(key, char, t, repeat=False)`` takes one key press: pygame's key name, the character it typed (``event.unicode``,
    "" for none) and the time in seconds (any monotonic clock, the same for :meth:`tick`). ``tick(t)`` decides
    the keys held when the last of them is more than ``window`` before ``t``; call it before feeding a key that
    came later (``feed`` itself never decides by time). Both return the presses and scans decided, in the order
    typed. ``min_length`` characters make a scan (every code of
    the game has 4 or more); ``max_length`` and ``repeat_window`` are the serial reader's (a longer line is
    dropped; the same code again within ``repeat_window`` s is dropped as a re-read). ``typing()`` is asked when
    a burst stops without Enter. ``repeat`` True: a character the window got without a key press of its own
    (counted only while keys are held, see the module). ``prefix`` (case ignored) begins every code typed by
    hand that earns a :class:`Slow`. Raises ValueError for a window that is not positive or a ``min_length`` below 1.
    """

    def __init__(self, window: float = WINDOW, *, min_length: int = 3, max_length: int = 64,
                 repeat_window: float = 0.8, rejoin: float = REJOIN, typing: Callable[[], bool] = lambda: False,
                 prefix: str = "HS"):
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
        self.prefix = prefix.upper()
        self._slow = ""                           # a person's character keys since the last Enter or other key
        self._slow_at = 0.0                       # when the last of them was pressed
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

    def feed(self, key: str, char: str, t: float, *, repeat: bool = False) -> list[Decoded]:
        """One key press at ``t`` seconds; returns what is decided now (see the class)."""
        if key in MODIFIER_KEYS:
            return []
        if repeat and not self._held:  # a held key's auto-repeat, not a scanner's doubled character
            return []
        if key in ENTER_KEYS:
            return self._enter(t)
        if len(char) != 1 or not char.isprintable():  # Esc, Tab, Backspace, F2...: a person's, at once
            self._slow = ""
            return self._settle() + [Press(key)]
        if not self._held:
            self._expire(t)
            self._first = t
        self._held.append((key, char))
        self._last = t
        return []

    def tick(self, t: float) -> list[Decoded]:
        """The time is now ``t``: keys held longer than ``window`` since the last one are decided."""
        if self._held and t - self._last > self.window:
            return self._settle()
        if not self._held:
            self._expire(t)
        return []

    def _expire(self, t: float) -> None:
        """A burst dropped without Enter whose rest did not follow within ``rejoin``: dropped for good."""
        if self._fragment and t - self._fragment_end > self.rejoin:
            self._drop_fragment()

    def _drop_fragment(self) -> None:
        if self._fragment:
            self.dropped += 1
            log.info("keyboard: %d keys typed faster than a person without Enter were dropped (%r)",
                     len(self._fragment), self._fragment)
        self._fragment = ""

    def _enter(self, t: float) -> list[Decoded]:
        chars = "".join(c for _, c in self._held)
        start = self._first if self._held else t
        joined = bool(self._fragment) and start - self._fragment_end <= self.rejoin  # a burst a busy computer paused
        if joined:
            chars = self._fragment + chars
            self._fragment = ""
        else:
            self._drop_fragment()
        if len(chars) < self.min_length:
            if joined:  # two quick keys dropped, then Enter alone: only the Enter is a person's
                self._held.clear()
                return [Press("return")]
            decided = self._settle()
            slow, self._slow = self._slow, ""
            if len(slow) >= self.min_length and slow.upper().startswith(self.prefix) and not self.typing():
                decided.append(Slow(slow))
                log.warning("keyboard: %r was typed too slowly for a scan (a person's keys, each more than %g ms "
                            "apart): use the scanner, or n to name a seat", slow, self.window * 1000)
            return decided + [Press("return")]
        self._held.clear()
        self._slow = ""
        self._now = t
        codes = self.parser.feed(chars.encode("utf-8") + b"\r")  # non-ASCII: garbage, as on a serial line
        self.scans += len(codes)
        return [Scan(code) for code in codes]

    def _settle(self) -> list[Decoded]:
        """The held keys stopped without Enter: one key is a person's press; more are a burst, dropped unless
        a name is being typed. Outside name entry their characters also join the code being typed by hand
        (a person's keys read together after a busy frame look like a burst)."""
        held, self._held = self._held, []
        if not held:
            return []
        typing = self.typing()
        chars = "".join(c for _, c in held)
        if typing:
            self._slow = ""
        else:
            fresh = not self._slow or self._first - self._slow_at > SLOW_GAP
            self._slow = (chars if fresh else self._slow + chars)[-self.parser.max_length:]
            self._slow_at = self._last
        if len(held) == 1 or typing:
            self._drop_fragment()
            return [Press(key) for key, _ in held]
        recent = self._fragment and self._first - self._fragment_end <= self.rejoin
        if not recent:
            self._drop_fragment()
        self._fragment += chars
        self._fragment_end = self._last
        return []
