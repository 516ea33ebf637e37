"""Typing player names on the desktop keyboard (the kiosk window): ``n``, a name, Enter.

Pure (no pygame): feed :meth:`NameEntry.key` each key press as pygame names it (``pygame.key.name``: ``"n"``,
``"return"``, ``"backspace"``, ``"tab"``, ``"escape"``) with the character it typed (``event.unicode``). Enter
gives the input to submit to the controller, ``HS-NAME-<seat>:<name>``, journaled like a scan
(``companion.rules.codes.SeatNameCode``). While a name is being typed every key belongs to the entry, so
``u`` and ``g`` type letters instead of pressing undo and go. Esc cancels the name being typed (the entry
takes it); with no name being typed the entry does not take Esc, and the desktop window closes
(``hardware.display``): so while typing, a first Esc cancels and a second one closes.

>>> entry = NameEntry()
>>> [entry.key(k, t, seats=4) for k, t in [("n", "n"), ("a", "A"), ("n", "n"), ("n", "n")]][-1]
(True, None)
>>> entry.key("return", "\\r", seats=4)
(True, 'HS-NAME-1:Ann')
>>> [entry.key(k, t, seats=4) for k, t in [("b", "b"), ("o", "o"), ("return", "")]][-1]
(True, 'HS-NAME-2:Bo')
>>> entry.view()
(3, 4, '')
"""

from __future__ import annotations

from companion.rules.codes import NAME_LENGTH


class NameEntry:
    """The name being typed, if any: ``seat`` (1-based) or None when closed, and the ``text`` so far."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.text = ""
        self.seats = 0

    @property
    def active(self) -> bool:
        return self.seat is not None

    def key(self, key: str, text: str = "", *, seats: int) -> tuple[bool, str | None]:
        """Handle one key press at a table of ``seats`` players (0: no game yet, names cannot be typed).

        Returns ``(consumed, submit)``: whether the key belonged to the name entry, and the input text to
        submit (``HS-NAME-2:Bram``) when Enter finished a name, else None.
        """
        self.seats = seats
        if self.seat is None:
            if key == "n" and seats > 0:
                self.seat, self.text = 1, ""
                return True, None
            return False, None
        if seats <= 0 or key == "escape":
            self.seat, self.text = None, ""
            return True, None
        if key in ("return", "enter", "keypad enter"):
            name, seat = " ".join(self.text.split()), self.seat
            if name.islower():  # typed without shift (a window that gives key names only): "ann" -> "Ann"
                name = name[0].upper() + name[1:]
            self._next(seats)
            return True, (f"HS-NAME-{seat}:{name}" if name else None)
        if key == "tab":
            self._next(seats, wrap=True)
        elif key == "backspace":
            self.text = self.text[:-1]
        elif len(text) == 1 and text.isprintable() and len(self.text) < NAME_LENGTH:
            self.text += text
        return True, None

    def _next(self, seats: int, wrap: bool = False) -> None:
        assert self.seat is not None
        nxt = self.seat + 1
        self.seat = (1 if wrap else None) if nxt > seats else nxt
        self.text = ""

    def view(self) -> tuple[int, int, str] | None:
        """``(seat, seats, text so far)`` for the screen model, or None when closed."""
        if self.seat is None:
            return None
        return (self.seat, self.seats, self.text)


__all__ = ["NameEntry"]
