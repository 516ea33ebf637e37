"""The current game as the journal holds it, seen from the controller: the table replayed from its inputs
(``entries``), the inputs that no longer apply kept, marked and reported (``skipped``), and the view's
``journaled`` list made once per entry (a part of :class:`companion.kiosk.controller.Controller`, kept here to
keep that module small)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from companion.kiosk.errors import JournalError
from companion.kiosk.inputs import replay
from companion.kiosk.journal import Entry, Journal
from companion.kiosk.notices import Notice
from companion.rules.deck import Deck
from companion.rules.table import Table
from companion.rules.track import Track
from companion.view.table_view import Journaled

log = logging.getLogger("companion.kiosk.controller")


class CurrentGame:
    """The table of the journal's current game (:meth:`_load`) and the view's list of its inputs."""

    journal: Journal
    track: Track | None
    deck: Deck | None
    names: tuple[str, ...]
    notices: list[str]
    entries: list[Entry]
    skipped: dict[int, str]
    _made: tuple[list[Entry], dict[int, str], list[Journaled]]

    if TYPE_CHECKING:  # the controller's (companion.kiosk.rescue)
        def _trouble(self, exc: JournalError) -> None: ...

    def _journaled(self) -> tuple[Journaled, ...]:
        """The view's ``journaled`` of :attr:`entries`: each entry's Journaled made once (a game of 65,000 phone
        inputs costs a tuple copy per input, not 65,000 new objects); made anew when the list or skips change."""
        made, entries = self._made, self.entries
        if made[0] is not entries or made[1] is not self.skipped or len(made[2]) > len(entries):
            made = self._made = (entries, self.skipped, [])
        made[2].extend(Journaled(e.id, e.source, e.text, bool(e.skipped) or e.id in self.skipped)
                       for e in entries[len(made[2]):])
        return tuple(made[2])

    def _replay(self, entries: list[Entry]) -> Table:
        skipped: dict[int, str] = {}
        table = replay(entries, self.track, self.deck, lambda e, why: skipped.__setitem__(e.id, why))
        table.default_names = self.names
        self.skipped = skipped
        return table

    def _load(self, report: bool = False) -> Table:
        """The table from the journal's current game. Inputs that no longer apply are kept and marked (and,
        with ``report``, logged and shown once); a journal that cannot be read gives a new-game table."""
        try:
            self.entries = self.journal.current()
        except JournalError as exc:
            self._trouble(exc)
            self.entries = []
        before = {e.id for e in self.entries if e.skipped}
        table = self._replay(self.entries)
        if report:
            for entry in self.entries:
                if entry.id in self.skipped:
                    log.warning("journal %s: input #%d %r (%s) no longer applies: %s; kept in the journal, it "
                                "comes back when it applies again (the data files it was scanned with?)",
                                self.journal.path, entry.id, entry.text, entry.source, self.skipped[entry.id])
            if self.skipped:
                first = next(e for e in self.entries if e.id in self.skipped)
                more = f" and {len(self.skipped) - 1} more" if len(self.skipped) > 1 else ""
                self.notices.append(Notice(f"{first.text}{more} no longer applies (kept): {self.skipped[first.id]}",
                                           "skipped"))
        if self.skipped or before:
            self.journal.mark(self.skipped, before - set(self.skipped))
        return table
