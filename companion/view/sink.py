"""The sink contract: something that shows or says what happens at the table (LED strip, screen, voice,
console, phone page, odds, status line).

The controller calls every sink directly, in order, each call in its own ``try`` (a failing sink is logged and
the others go on). Every method must return quickly: the main loop and its watchdog wait for them. A sink reads
only the :class:`~companion.view.table_view.TableView` it is handed (and the events), never the table itself,
and never another sink.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

from companion.rules.errors import RefusedError
from companion.rules.events import Event
from companion.view.table_view import TableView


@dataclass(frozen=True, slots=True)
class Undone(Event):
    """``HS-UNDO`` (or the undo button) took back the input ``text``."""

    text: str


class Sink(Protocol):
    """The contract every sink implements (subclass :class:`NullSink` to implement only a part)."""

    def events(self, events: Sequence[Event], view: TableView, now: float) -> None:
        """An input was accepted and journaled: its ``events`` in order; ``view`` is the table after it (its
        ``call`` holds the printed race call lines of these events); ``now`` monotonic seconds."""

    def refused(self, error: RefusedError, view: TableView, now: float) -> None:
        """An input was refused (nothing changed): ``str(error)`` is the one-line reason (an engine error
        other than RefusedError arrives as a RefusedError caused by it); ``view.input`` is the input."""

    def reset(self, view: TableView, now: float) -> None:
        """The table was rebuilt (an undo, a start from the journal, a journal reopened): show ``view`` afresh."""

    def render(self, view: TableView, now: float) -> None:
        """Called on every pass of the main loop (about 30 a second): draw, play, refresh."""

    def notice(self, message: str, view: TableView, now: float) -> None:
        """A one-off line from the kiosk (a journal moved aside, saving again)."""

    def close(self) -> None:
        """The kiosk stops: release the device."""


class NullSink:
    """A sink that does nothing: subclass it and override what you need."""

    def events(self, events: Sequence[Event], view: TableView, now: float) -> None:
        pass

    def refused(self, error: RefusedError, view: TableView, now: float) -> None:
        pass

    def reset(self, view: TableView, now: float) -> None:
        pass

    def render(self, view: TableView, now: float) -> None:
        pass

    def notice(self, message: str, view: TableView, now: float) -> None:
        pass

    def close(self) -> None:
        pass


__all__ = ["NullSink", "RefusedError", "Sink", "Undone"]
