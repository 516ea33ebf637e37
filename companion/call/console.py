"""The console's sink: the printed race call and refusals on a text stream; every accepted input prints at
least one line, so a table with no screen and no sound still sees each scan taken. Its words are the phrase
catalogue's ``[console]`` lines (``sounds/phrases/en.toml``, :mod:`companion.catalogue`), English only."""

from __future__ import annotations

import sys
from typing import Any, Sequence, TextIO

from companion.call.words import load_catalogue, refusal_line
from companion.rules.codes import SideBetCode, parse_code
from companion.rules.errors import InvalidCodeError, RefusedError
from companion.rules.events import Event, Revealed
from companion.rules.game_events import CardLearned
from companion.rules.table import SeatNamed, VariantChosen
from companion.view.sink import NullSink
from companion.view.status import status_line
from companion.view.table_view import TableView


def say(key: str, **fields: Any) -> str:
    """The console's line ``console-<key>`` filled from ``fields``. Raises KeyError for an unknown key."""
    return load_catalogue("en").console["console-" + key].format(**fields)


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
                print(say("last-of-pass"), file=self.out, flush=True)

    def refused(self, error: RefusedError, view: TableView, now: float) -> None:
        """The refused text, its reason in a few words (from the error's code) and the engine's whole detail."""
        text = view.input.text if view.input is not None else "?"
        print(say("refused", text=text, line=refusal_line(error, "en"), detail=error), file=self.out, flush=True)

    def reset(self, view: TableView, now: float) -> None:
        """After a start from the journal or an undo: where the table is now."""
        if view.game is not None:
            print(say("table", status=status_line(view, {})), file=self.out, flush=True)


def taken_line(events: Sequence[Event], view: TableView) -> str:
    """The console's one line for an accepted input that has no race call line (a face-up card, a seat's name,
    the variant, a side bet card before betting): ``  Took 'HS02': face-up card 1 of 15 (GR+2)``."""
    text = view.input.text if view.input is not None else "?"
    return say("took", text=text, what=_what(events, view, text))


def _what(events: Sequence[Event], view: TableView, text: str) -> str:
    for e in events:
        if isinstance(e, CardLearned):
            game = view.game
            if game is None:
                return say("took-face-up", card=e.card.notation())
            return say("took-face-up-count", known=len(game.known_cards), face_up=game.figures.face_up,
                       card=e.card.notation())
        if isinstance(e, SeatNamed):
            return say("took-seat-named" if e.name else "took-seat-unnamed", seat=e.seat, name=e.name)
        if isinstance(e, VariantChosen):
            return say("took-variant", variant=e.variant)
    try:
        code = parse_code(text)
    except InvalidCodeError:
        return say("took-other")
    if isinstance(code, SideBetCode):
        return say("took-side-bet", number=code.number)
    return say("took-other")
