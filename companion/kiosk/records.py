"""The games the journal keeps, seen from the controller: a finished game's summary stored with its last
input, a game left behind by a new one summarised once, older games without a summary summarised one per idle
loop pass, and the mascot form line of the attract and setup screens (``companion.kiosk.history`` holds the
summaries themselves; a part of :class:`companion.kiosk.controller.Controller`, kept here to keep it small)."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Callable, Sequence

from companion.kiosk import history
from companion.kiosk.errors import JournalError
from companion.kiosk.journal import Entry, Journal
from companion.rules.deck import Deck
from companion.rules.events import Event
from companion.rules.game_events import GameOver
from companion.rules.table import NewGame
from companion.rules.track import Track
from companion.view.table_view import TableView

log = logging.getLogger("companion.kiosk.controller")


class GameRecords:
    """Keeps ``entries`` (the current game's inputs) and ``form`` up to date with the journal's games."""

    journal: Journal
    track: Track | None
    deck: Deck | None
    language: str
    entries: list[Entry]
    skipped: dict[int, str]
    problem: str | None
    form: str | None
    view: TableView
    summarising: bool
    _recorded: int | None

    def _summary(self, events: Sequence[Event]) -> Callable[[Entry], dict[str, Any]] | None:
        """The summary to store with the input of ``events`` when it ends the game, else None."""
        if not any(isinstance(e, GameOver) for e in events):
            return None
        return lambda e: history.summarise([*self.entries, e], self.track, self.deck)

    def _kept(self, entry: Entry, events: Sequence[Event]) -> None:
        """``entry`` (journaled, with its ``events``) joins the current game; a new game records the one left
        behind (once) and starts a fresh list; a game's end refreshes the form line."""
        if any(isinstance(e, NewGame) for e in events):
            if self.entries and self.entries[0].id != self._recorded:  # the game left behind, once
                history.record(self.journal, self.entries, self.track, self.deck)
            self.entries, self.skipped = [], {}
        self.entries.append(entry)
        if any(isinstance(e, GameOver) for e in events):  # its summary was stored with the input (history
            self._recorded = self.entries[0].id             # shows it even after a kill right now)
            self._refresh_history()

    def _refresh_history(self) -> None:
        try:
            self.form = history.form_line(self.journal.games(limit=history.FORM_RACES), language=self.language)
        except JournalError as exc:
            if self.problem is None:  # else already said
                log.warning("no mascot form (%s)", exc)

    def _summarise_one(self) -> None:
        try:
            if history.backfill(self.journal, self.track, self.deck, limit=1) == 0:
                self.summarising = False
                self._refresh_history()
                if self.form != self.view.form:
                    self.view = dataclasses.replace(self.view, form=self.form)
        except JournalError as exc:
            if self.problem is None:
                log.warning("older games not summarised (%s)", exc)
            self.summarising = False
