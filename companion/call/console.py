"""The console's sink: the printed race call and refusals on a text stream."""

from __future__ import annotations

import sys
from typing import Sequence, TextIO

from companion.call.words import refusal_line
from companion.rules.errors import RefusedError
from companion.rules.events import Event, Revealed
from companion.view.sink import NullSink
from companion.view.status import status_line
from companion.view.table_view import TableView


class ConsoleSink(NullSink):
    """Prints the race call (the view's ``call`` lines) and every refusal to a text stream (the headless demo,
    a desktop terminal)."""

    def __init__(self, out: TextIO = sys.stdout):
        self.out = out

    def events(self, events: Sequence[Event], view: TableView, now: float) -> None:
        for text in view.call:
            print(text, file=self.out, flush=True)
        race = view.race
        if race is not None and not race.is_over and any(isinstance(e, Revealed) for e in events):
            if race.revealed == race.track.reveals_per_pass - 1:
                print("  Last card of this pass coming up!", file=self.out, flush=True)

    def refused(self, error: RefusedError, view: TableView, now: float) -> None:
        """The refused text, its reason in a few words (from the error's code) and the engine's whole detail."""
        text = view.input.text if view.input is not None else "?"
        print(f"  Refused {text!r}: {refusal_line(error, 'en')} ({error})", file=self.out, flush=True)

    def reset(self, view: TableView, now: float) -> None:
        """After a start from the journal or an undo: where the table is now."""
        if view.game is not None:
            print(f"Table: {status_line(view, {})}", file=self.out, flush=True)
