"""The console's sink: the printed race call and refusals on a text stream."""

from __future__ import annotations

import sys
from typing import TextIO

from companion.call import racecall
from companion.call.words import refusal_line
from companion.kiosk.controller import BaseSink
from companion.kiosk.status import status_line
from companion.rules.events import Event, Revealed
from companion.rules.table import Table, shown_race


class ConsoleSink(BaseSink):
    """Prints the race call and every refusal to a text stream (the headless demo, a desktop terminal)."""

    def __init__(self, out: TextIO = sys.stdout):
        self.out = out

    def events(self, events: list[Event], table: Table, now: float) -> None:
        for text in racecall.call(events, table.seat_name):
            print(text, file=self.out, flush=True)
        race = shown_race(table)
        if race is not None and not race.is_over and any(isinstance(e, Revealed) for e in events):
            if race.revealed == race.track.reveals_per_pass - 1:
                print("  Last card of this pass coming up!", file=self.out, flush=True)

    def refused(self, text: str, message: str, table: Table, now: float) -> None:
        """The refused text, its reason in a few words (from the error the message carries), the whole detail."""
        print(f"  Refused {text!r}: {refusal_line(message, 'en')} ({message})", file=self.out, flush=True)

    def reset(self, table: Table, now: float) -> None:
        """After a start from the journal or an undo: where the table is now."""
        if table.game is not None:
            print(f"Table: {status_line(table, {})}", file=self.out, flush=True)
