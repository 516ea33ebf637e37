"""One typed interface per device of the table, gpiozero-style: ``close()``, ``closed``, a context manager.

Every backend (real, mock, null) of a device implements its protocol here; most build on :class:`Device`,
which makes ``close()`` idempotent and gives ``closed`` and ``with`` for free (a subclass releases its
resources in ``_release``). Pixels are ``(red, green, blue)`` ints 0-255.

>>> class Lamp(Device):
...     def _release(self) -> None:
...         print("released")
>>> with Lamp() as lamp:
...     pass
released
>>> lamp.closed, lamp.close()
(True, None)
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self, Sequence, runtime_checkable

Pixel = tuple[int, int, int]

__all__ = ["AudioOut", "ButtonPanel", "Closeable", "Device", "Display", "Pixel", "Scanner", "Strip"]


class Device:
    """Base of the device backends: ``close()`` runs ``_release()`` once; ``closed`` says whether it ran."""

    _closed: bool = False

    @property
    def closed(self) -> bool:
        """True once ``close()`` has been called."""
        return self._closed

    def close(self) -> None:
        """Release the device; calling it again does nothing."""
        if self._closed:
            return
        self._closed = True
        self._release()

    def _release(self) -> None:
        """Free what the backend holds (ports, pins, memory); called once by ``close``."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


@runtime_checkable
class Closeable(Protocol):
    """What every device has: ``close()`` (idempotent), ``closed``, use as a context manager."""

    @property
    def closed(self) -> bool: ...

    def close(self) -> None: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


@runtime_checkable
class Scanner(Closeable, Protocol):
    """A barcode scanner: after ``start()`` it calls its ``on_line(text)`` (on its own thread) for each
    accepted code. ``stop(timeout)`` ends the reader within ``timeout`` seconds (True if it did) and closes
    it; ``connected`` and ``status`` (one line) describe it."""

    @property
    def connected(self) -> bool: ...

    @property
    def status(self) -> str: ...

    def start(self) -> None: ...

    def stop(self, timeout: float = 2.0) -> bool: ...


@runtime_checkable
class Strip(Closeable, Protocol):
    """An LED strip of ``count`` pixels: ``show(pixels)`` one full frame (raises ValueError for a bad frame),
    ``off()``; ``close()`` turns it off, then releases it; nothing is written after that."""

    @property
    def count(self) -> int: ...

    @property
    def status(self) -> str: ...

    def show(self, pixels: Sequence[Pixel]) -> None: ...

    def off(self) -> None: ...


@runtime_checkable
class ButtonPanel(Closeable, Protocol):
    """The table's push buttons (``undo``, ``go``): ``press(name)`` is the one press path (pins and keys
    call it); True when the press was accepted. ``history`` lists the accepted presses in order."""

    @property
    def status(self) -> str: ...

    @property
    def history(self) -> list[str]: ...

    def press(self, name: str) -> bool: ...


@runtime_checkable
class AudioOut(Closeable, Protocol):
    """Sound out: a voice channel (one line at a time) and effects on the other channels."""

    @property
    def name(self) -> str: ...

    def play_voice(self, path: str | Path) -> None: ...

    def voice_busy(self) -> bool: ...

    def stop_voice(self) -> None: ...

    def play_effect(self, name: str) -> None: ...


@runtime_checkable
class Display(Closeable, Protocol):
    """A screen: ``surface`` is the pygame surface to draw on (None when there is no screen), ``present()``
    shows what was drawn and hands the window's key presses to the display's ``on_key``."""

    @property
    def name(self) -> str: ...

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def surface(self) -> Any: ...

    def present(self) -> None: ...
