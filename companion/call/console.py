"""The console's sink: the printed race call and refusals on a text stream; every accepted input prints at
least one line, so a table with no screen and no sound still sees each scan taken."""

from __future__ import annotations

import sys
from typing import Sequence, TextIO

from companion.call.words import refusal_line
from companion.rules.codes import SideBetCode, parse_code
from companion.rules.errors import InvalidCodeError, RefusedError
from companion.rules.events import Event, Revealed
from companion.rules.game_events import CardLearned
from companion.rules.table import SeatNamed, VariantChosen
from companion.view.sink import NullSink
from companion.view.status import status_line
from companion.view.table_view import TableView


class ConsoleSink(NullSink):
    """Prints the race call (the view's ``call`` lines) and every refusal to a text stream (the headless demo,
    a desktop terminal)."""

    def __init__(self, out: TextIO = sys.stdout):
        self.out = out

    def events(self, events: Sequence[Event], view: TableView, now: float) -> None:
        for text in view.call or [taken_line(events, view)]:
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


def taken_line(events: Sequence[Event], view: TableView) -> str:
    """The console's one line for an accepted input that has no race call line (a face-up card, a seat's name,
    the variant, a side bet card before betting): ``  Took 'HS02': face-up card 1 of 15 (GR+2)``."""
    text = view.input.text if view.input is not None else "?"
    return f"  Took {text!r}: {_what(events, view, text)}"


def _what(events: Sequence[Event], view: TableView, text: str) -> str:
    for e in events:
        if isinstance(e, CardLearned):
            game = view.game
            count = f" {len(game.known_cards)} of {game.figures.face_up}" if game is not None else ""
            return f"face-up card{count} ({e.card.notation()})"
        if isinstance(e, SeatNamed):
            return f"seat {e.seat} is {e.name}" if e.name else f"seat {e.seat} has no name now"
        if isinstance(e, VariantChosen):
            return f"the {e.variant} variant"
    try:
        code = parse_code(text)
    except InvalidCodeError:
        return "taken"
    if isinstance(code, SideBetCode):
        return f"side bet card {code.number}, shown when betting opens"
    return "taken"
