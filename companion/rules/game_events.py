"""Typed events of a whole game (``Game.apply``), beside the race events of :mod:`companion.rules.events`.

Frozen dataclasses deriving :class:`companion.rules.events.Event`: ``type`` is the snake-case name and
``to_dict()`` a JSON-ready dict. Seats are 0-based indexes (seat ``i`` is "seat i+1" in text); money is in
whole dollars.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.cards import Card
from companion.rules.events import Event
from companion.rules.phases import Phase


@dataclass(frozen=True, slots=True)
class PhaseChanged(Event):
    """The game entered ``phase``; ``race_no`` is the race it belongs to (1..3); ``open_bets`` is True when
    betting opens in the open variant (bets on a mascot and YES/NO instead of a ticket draft)."""

    phase: Phase
    race_no: int
    open_bets: bool = False


@dataclass(frozen=True, slots=True)
class CardLearned(Event):
    """A card became known: scanned face up in setup (or shown between races), or revealed in a race."""

    code: str
    card: Card


@dataclass(frozen=True, slots=True)
class SideBetShown(Event):
    """This race's side bet card: ``card_id`` (e.g. ``any-dq``), its label number 1..12 and question;
    ``scanned`` when the table scanned the card, False while the kiosk assumes it from its own order."""

    card_id: str
    number: int
    question: str
    race_no: int
    scanned: bool = False


@dataclass(frozen=True, slots=True)
class TicketDrafted(Event):
    """Seat ``seat`` drafted ``ticket`` (``gobbler-top``) on ``side``; ``pick`` is 1-based in the draft."""

    seat: int
    ticket: str
    side: str
    pick: int
    race_no: int


@dataclass(frozen=True, slots=True)
class DoubleMarked(Event):
    """In the double race, seat ``seat`` marked ``ticket`` to pay double (replacing ``previous`` if any)."""

    seat: int
    ticket: str
    previous: str | None


@dataclass(frozen=True, slots=True)
class DoubleArmed(Event):
    """``HS-DOUBLE`` was scanned in the double race: the next ticket (or open bet) scanned pays double."""

    race_no: int


@dataclass(frozen=True, slots=True)
class OpenBetPlaced(Event):
    """Open variant: seat ``seat`` bet ``choice`` (a mascot name, or ``yes``/``no`` when ``kind`` is
    ``side``); ``double`` is which of the seat's two bets pays double now (``mascot``/``side``/None)."""

    seat: int
    kind: str
    choice: str
    double: str | None
    race_no: int


@dataclass(frozen=True, slots=True)
class SideBetHappened(Event):
    """During the race, the side bet's answer turned YES (it stays YES)."""

    card_id: str


@dataclass(frozen=True, slots=True)
class SideBetAnswered(Event):
    """At the race's end: the side bet's final answer."""

    card_id: str
    happened: bool


@dataclass(frozen=True, slots=True)
class Settled(Event):
    """One seat's tickets of race ``race_no`` settled together: money ``before`` -> ``after`` (floor $0);
    ``change`` = after - before; ``amounts`` is each ticket's amount in draft order (doubles applied); in the
    open variant the seat's share of its mascot's pot, then of the side bet pot."""

    seat: int
    race_no: int
    before: int
    after: int
    change: int
    amounts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """A seat's final result: ``place`` 1-based (equal money shares a place), money, a life-outcome line."""

    seat: int
    place: int
    money: int
    line: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "place": self.place, "money": self.money, "line": self.line}


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The third race is paid out; ``standings`` best first."""

    standings: tuple[Standing, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "standings": [s.to_dict() for s in self.standings]}


GAME_EVENT_TYPES: tuple[type[Event], ...] = (PhaseChanged, CardLearned, SideBetShown, TicketDrafted, DoubleArmed,
                                             DoubleMarked, OpenBetPlaced, SideBetHappened, SideBetAnswered, Settled,
                                             GameOver)
