"""The table's two push buttons: undo and go.

Wiring: each button between its GPIO pin and ground (GPIO17 = pin 11 undo, GPIO27 = pin 13 go); the Pi's
internal pull-up holds the pin high, a press pulls it low. No resistors needed.

>>> from gpiozero.pins.mock import MockFactory
>>> factory = MockFactory()
>>> pressed = []
>>> buttons = Buttons(pressed.append, pin_factory=factory, clock=lambda: 0.0)
>>> factory.pin(17).drive_low()
>>> pressed
['undo']
>>> buttons.close()

:class:`Buttons` uses gpiozero (imported lazily); the mock path is gpiozero's own ``MockFactory``.
:class:`KeyButtons` maps keys to the same names on a desktop (``u`` undo, ``g`` or space go); a desktop window
hands its keys to ``KeyButtons.key``, which presses through the same ``press`` path as a pin.
Debounce is done here, by an injected clock, so it is the same for every pin backend. It watches both edges:
a press counts only when the button has been quiet (no press and no release edge) for the debounce window,
so contact bounce on the way down *and* on the way up (after a long hold) gives no extra press.
Every class here follows :class:`hardware.device.ButtonPanel` (``press``, ``history``, ``close()``,
``closed``, a context manager).
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable, Mapping

from hardware.device import Device

log = logging.getLogger(__name__)

DEFAULT_PINS: dict[str, int] = {"undo": 17, "go": 27}
DEFAULT_KEYS: dict[str, str] = {"u": "undo", "g": "go", "space": "go", " ": "go"}


class Debouncer:
    """Both-edge debounce per button name, by ``clock`` (seconds).

    ``accept(name)`` (a press edge) is True unless a press was accepted, or any release edge was seen
    (``released(name)``), less than ``window`` seconds before. Every release edge restarts the quiet time, so
    the bounce of a release (even after a long hold) cannot count as a press. Raises ValueError for a
    negative window.
    """

    def __init__(self, window: float, clock: Callable[[], float]):
        if window < 0:
            raise ValueError(f"debounce {window!r} must be 0 or more seconds")
        self.window = window
        self.clock = clock
        self._last: dict[str, float] = {}
        self._released: dict[str, float] = {}

    def accept(self, name: str) -> bool:
        now = self.clock()
        for edges in (self._last, self._released):
            last = edges.get(name)
            if last is not None and now - last < self.window:
                return False
        self._last[name] = now
        return True

    def released(self, name: str) -> None:
        """A release edge of ``name`` (bounces included)."""
        self._released[name] = self.clock()


def _deliver(name: str, debounce: Debouncer, history: list[str], on_press: Callable[[str], Any]) -> bool:
    """Pass a press of ``name`` through the debounce to ``on_press`` (a failing handler is logged);
    True if it was accepted."""
    if not debounce.accept(name):
        return False
    history.append(name)
    _call(on_press, name)
    return True


def _call(handler: Callable[..., Any] | None, name: str | None) -> None:
    """``handler(name)`` (``handler()`` for None), a failure logged."""
    try:
        if handler is not None:
            handler() if name is None else handler(name)
    except Exception:
        log.exception("buttons: handler failed for %r", name or "the chord")


class Buttons(Device):
    """Buttons on GPIO pins (``pins``: name -> BCM number), each a gpiozero ``DigitalInputDevice(pin,
    pull_up=True)`` (a ``Button`` less its hold thread, which wakes 10 times a second per button; the chord's hold
    is timed here).

    ``on_press(name)`` is called (on gpiozero's thread) for each accepted press; a press within ``debounce``
    seconds of the last accepted press of the same button is dropped. ``pin_factory`` is passed to gpiozero
    (a ``MockFactory`` on a desktop or in tests; None = gpiozero's default for the board). ``history``
    lists accepted presses in order. Raises ValueError for a bad pin map, and whatever gpiozero raises when
    the pins cannot be used (the hardware factory turns that into a no-op with a status line).

    With ``on_chord``, holding every button together for ``hold`` seconds is one more gesture (the service
    mode's way in and out): a pin's press is then delivered when the button is let go, so a button pressed
    while another is held is part of the chord and neither press reaches ``on_press``; ``on_chord()`` is
    called at the first release after the buttons were held together ``hold`` s. (A desktop key, through
    :meth:`press`, is delivered at once as before.)
    """

    def __init__(self, on_press: Callable[[str], Any], pins: Mapping[str, int] | None = None, *,
                 debounce: float = 0.05, clock: Callable[[], float] = time.monotonic, pin_factory: Any = None,
                 on_chord: Callable[[], Any] | None = None, hold: float = 3.0):
        pins = dict(DEFAULT_PINS if pins is None else pins)
        numbers = list(pins.values())
        if not pins or any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= 27 for p in numbers):
            raise ValueError(f"button pins {pins!r} must map names to BCM GPIO numbers 0-27")
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"button pins {pins!r} use one pin twice")
        self.on_press = on_press
        self.pins = pins
        self.history: list[str] = []
        self._debounce = Debouncer(debounce, clock)
        self.clock, self.on_chord, self.hold = clock, on_chord, hold
        self._held: dict[str, float] = {}   # chord mode: button -> when its accepted press began
        self._chorded: set[str] = set()     # ... the buttons of a chord now held
        self._chord_at: float | None = None  # ... when every button was held together
        from gpiozero import DigitalInputDevice  # lazy: gpiozero picks its pin backend on first use
        self._devices: dict[str, Any] = {}
        try:
            for name, pin in pins.items():
                device = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
                device.when_activated = self._handler(name)
                device.when_deactivated = self._release_handler(name)
                self._devices[name] = device
        except Exception:
            self.close()
            raise
        self.status = "buttons: " + ", ".join(f"{name} on GPIO{pin}" for name, pin in pins.items())

    def _handler(self, name: str) -> Callable[[], None]:
        def pressed() -> None:
            if self.on_chord is None:
                self.press(name)
            elif self._debounce.accept(name):
                self._held[name] = self.clock()
                if len(self._held) == len(self.pins):
                    self._chord_at, self._chorded = self.clock(), set(self._held)
        return pressed

    def _release_handler(self, name: str) -> Callable[[], None]:
        def released() -> None:
            self._debounce.released(name)
            if self.on_chord is not None and self._held.pop(name, None) is not None:
                self._let_go(name)
        return released

    def _let_go(self, name: str) -> None:
        """Chord mode: ``name`` was let go after an accepted press: a press, or part of the chord."""
        if name not in self._chorded:
            self.history.append(name)
            _call(self.on_press, name)
            return
        if self._chord_at is not None and self.clock() - self._chord_at >= self.hold:
            self.history.append("chord")
            _call(self.on_chord, None)
        self._chord_at = None
        self._chorded.discard(name)

    def press(self, name: str) -> bool:
        """Register a press of ``name`` (what the pin callback does); True if accepted."""
        return _deliver(name, self._debounce, self.history, self.on_press)

    def _release(self) -> None:
        for device in self._devices.values():
            try:
                device.close()
            except Exception:
                pass
        self._devices.clear()


class KeyButtons(Device):
    """Desktop buttons: ``key(name)`` with a key name (pygame's ``u``, ``g``, ``space``, or a typed
    character) maps through ``keys`` to a button name and presses it (``press(button)``), with the same
    debounce as :class:`Buttons`. Unmapped keys are ignored (``key`` returns False)."""

    def __init__(self, on_press: Callable[[str], Any], keys: Mapping[str, str] | None = None, *,
                 debounce: float = 0.05, clock: Callable[[], float] = time.monotonic):
        self.on_press = on_press
        self.keys = dict(DEFAULT_KEYS if keys is None else keys)
        self.history: list[str] = []
        self._debounce = Debouncer(debounce, clock)
        self.status = "buttons: keys " + ", ".join(f"{k!r}={v}" for k, v in self.keys.items() if k != " ")

    def key(self, key: str) -> bool:
        """Press the button mapped to ``key``; True if a press was accepted."""
        name = self.keys.get(key) or self.keys.get(key.lower())
        return name is not None and self.press(name)

    def press(self, name: str) -> bool:
        """Press button ``name`` (``undo``/``go``); True if accepted."""
        return _deliver(name, self._debounce, self.history, self.on_press)


class NullButtons(Device):
    """No buttons (they failed to start); ``status`` says why."""

    def __init__(self, reason: str):
        self.reason = reason
        self.status = f"buttons off: {reason}"
        self.history: list[str] = []

    def press(self, name: str) -> bool:
        return False
