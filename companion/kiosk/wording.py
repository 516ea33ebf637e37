"""The race call's words of one accepted input, made once for the view: the printed race call (English, for
the console), the screen's call panel lines in the table's language and the announcer's varied phrasing (for
the phone page). The voice words its own spoken lines (``companion.call.caller``)."""

from __future__ import annotations

import dataclasses
import random
from typing import Sequence

from companion.kiosk.inputs import table_words
from companion.rules.events import Event
from companion.view.table_view import TableView


class CallWords:
    """The words of a table in ``language`` (en, nl, es); ``seat_word`` names an unnamed seat ("Seat")."""

    def __init__(self, language: str) -> None:
        from companion.call.announcer import Announcer
        self.seat_word, self._printed, self._local = table_words(language)
        self._announcer = Announcer(language, random.Random(0))  # the phone page's varied race call

    def worded(self, view: TableView, events: Sequence[Event]) -> TableView:
        """``view`` with ``call``, ``lines`` and ``announced`` of ``events`` (``view`` itself when none)."""
        if not events:
            return view
        printed = tuple(self._printed(events, view.seat_name))
        local = tuple(self._local(events, view.seat_name, view.deck))
        announced = tuple(line for line in self._announcer.lines(events, view.seat_name) if line)
        return dataclasses.replace(view, call=printed, lines=local, announced=announced)
