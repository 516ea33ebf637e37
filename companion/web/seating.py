"""Who holds which seat, folded from the current game's journal one input at a time.

The phone page needs four things from the journal: which phone holds which seat (the claims), which seats
the table itself plays (named at the kiosk or bet for from the bet sheet: they need a consent code), which
seats the Dealer took back from a phone, and where the game started (its first entry id: the join and
consent codes are made from it). :class:`Seating` keeps them and takes each new journal entry as it comes
(:meth:`Seating.fold`, O(1)); only an undo, a restart or a journal reopened rebuilds it from the game's
entries (:meth:`Seating.sync` notices which it is). A kiosk that has taken 65,000 phone inputs answers the
next scan as fast as one that has taken ten.

The rules (docs/phone.md):

- a web ``HS-NAME-N:<name>`` for a seat no phone holds claims it; its entry id is the claim's ``epoch``;
  a later one from its owner renames it and keeps the claim; a web ``HS-NAME-N:`` frees it;
- an ``HS-NAME-N`` from the kiosk (scanner, keyboard: any source but ``web``), with a name or without, ends
  any phone's hold on seat N: the Dealer always wins. The seat is ``taken_back`` until a phone claims it
  again; with a name it is one the table plays;
- a bet from the bet sheet (a non-web ``HS-BET-N-...``) makes seat N one the table plays;
- ``HS-NEW`` and ``HS-PLAYERS-n`` start over with every seat free;
- an entry that replay skipped (it no longer applies) counts for nothing.

Entries are objects with ``id``, ``source``, ``text`` and maybe ``skipped`` (``TableView.journaled``,
``Controller.entries``, journal rows), oldest first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from companion.rules.codes import Control, OpenBetCode, SeatNameCode, parse_code
from companion.rules.errors import HotStreakError

WEB = "web"  # the journal source of inputs from a phone


@dataclass
class Seating:
    """The seats of the current game as the phone page sees them (1-based seat numbers)."""

    start: int = 0                                        # the game's first entry id (0: no entry yet)
    last: int = 0                                         # the id of the newest entry folded in
    count: int = 0                                        # entries folded in since ``start``
    claims: dict[int, int] = field(default_factory=dict)  # seat -> epoch (entry id of the phone's claim)
    named: set[int] = field(default_factory=set)          # named at the kiosk, not cleared since
    betting: set[int] = field(default_factory=set)        # bet for from the bet sheet
    taken_back: set[int] = field(default_factory=set)     # the Dealer named or freed it while a phone held it

    @classmethod
    def of(cls, entries: Iterable[object]) -> "Seating":
        """The seating after ``entries`` (a whole game's, oldest first)."""
        seating = cls()
        for entry in entries:
            seating.fold(entry)
        return seating

    def table_seats(self) -> set[int]:
        """Seats the table itself plays (named at the kiosk or bet for from the bet sheet)."""
        return self.named | self.betting

    def fold(self, entry: object) -> None:
        """Take in one more journal entry (newer than every one before)."""
        ident = int(getattr(entry, "id"))
        if not self.count:
            self.start = ident
        self.last, self.count = ident, self.count + 1
        text = getattr(entry, "text")
        if getattr(entry, "skipped", None) or not text[:3].upper() == "HS-":
            return
        try:
            code = parse_code(text)
        except HotStreakError:
            return
        web = getattr(entry, "source") == WEB
        if isinstance(code, Control) and code.action in ("new", "players"):
            self.claims.clear()
            self.named.clear()
            self.betting.clear()
            self.taken_back.clear()
        elif isinstance(code, SeatNameCode):
            seat = code.seat
            if web:
                if not code.name:
                    self.claims.pop(seat, None)
                elif seat not in self.claims:
                    self.claims[seat] = ident
                    self.taken_back.discard(seat)
                return
            if self.claims.pop(seat, None) is not None:  # the Dealer always wins
                self.taken_back.add(seat)
            if code.name:
                self.named.add(seat)
            else:
                self.named.discard(seat)
        elif isinstance(code, OpenBetCode) and not web:
            self.betting.add(code.seat)

    def sync(self, entries: Sequence[object]) -> bool:
        """Catch up with ``entries``, the current game's (``TableView.journaled``): fold in the entries newer
        than :attr:`last`, or rebuild from all of them when they are another game's or an undo took some
        back. Returns True when it rebuilt. Cheap when nothing or one entry is new."""
        if not entries:
            if self.count:
                self._replace(Seating())
                return True
            return False
        first, newest = int(getattr(entries[0], "id")), int(getattr(entries[-1], "id"))
        if self.count and first == self.start and newest == self.last and len(entries) == self.count:
            return False
        new = 0
        while new < len(entries) and int(getattr(entries[len(entries) - 1 - new], "id")) > self.last:
            new += 1
        if not self.count or first != self.start or len(entries) - new != self.count:
            self._replace(Seating.of(entries))
            return True
        for entry in entries[len(entries) - new:]:
            self.fold(entry)
        return False

    def _replace(self, other: "Seating") -> None:
        self.__dict__.update(other.__dict__)


def claims_from_entries(entries: Iterable[object]) -> dict[int, int]:
    """Claims of the current game: ``{seat (1-based): epoch (journal entry id)}`` (see the module docstring)."""
    return Seating.of(entries).claims


def table_seats(entries: Iterable[object]) -> set[int]:
    """Seats (1-based) the table itself plays in the current game: named at the kiosk (a non-web ``HS-NAME``
    with a name, not cleared since) or with a bet from the bet sheet (a non-web ``HS-BET``)."""
    return Seating.of(entries).table_seats()
