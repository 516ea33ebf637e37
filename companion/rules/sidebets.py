"""The 12 side bet cards as named predicates over a race's events and states (docs/rules.md section 6).

Each predicate looks at a :class:`Moment`: what one revealed card did and where the mascots stand right after
it, and says whether the card's question has been answered YES by it. The moment is taken after the card is
fully resolved (passing through a space mid-card does not count as sharing it) and before the deck runs out
and the mat is folded (the rulebook's order): on the 15th card of a pass, two mascots fallen or sharing a
space count even when the fold then puts one of them out of bounds. Bets about how the race ends
(out of bounds, any DQ, bottom two) also count what the fold did.
:class:`SideBetTracker` ORs a predicate over the race, card by card; once YES it stays YES.

>>> from companion.rules.race import Race
>>> race, tracker = Race(), SideBetTracker("knockout")
>>> for text in ("GF", "GF"):
...     tracker.observe(race.push_text(text), race)
False
True
>>> tracker.happened
True

The card data (order = label codes ``HS-S01``..``HS-S12``, question texts) is ``data/sidebets.toml``,
loaded by :func:`load_side_bets`.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Callable, Iterator, Mapping, Sequence

from companion.rules.datafile import Checker, read_toml
from companion.rules.errors import UnknownSideBetError
from companion.rules.events import Event, Exit, Finished, Folded, KnockedOut, Moved, OutOfBounds, Placed, Status
from companion.rules.mascots import MASCOTS, Mascot
from companion.rules.race import MascotState, Race
from companion.rules.track import Track


@dataclass(frozen=True, slots=True)
class Moment:
    """One revealed card as a side bet sees it (docs/rules.md 6, checked after each card).

    ``events``: the card's own events (reveal, moves, falls, DQs, placings); ``later``: what the end of the
    pass did after it (fold, DQs under the mat, placings, reshuffle; empty on most cards); ``active``: the
    mascots still racing right after the card, before the fold; ``race``: the race after everything.
    """

    events: tuple[Event, ...]
    later: tuple[Event, ...]
    active: tuple[MascotState, ...]
    race: Race
    track: Track

    @classmethod
    def of(cls, events: Sequence[Event], race: Race, track: Track | None = None) -> "Moment":
        """Split one push's ``events`` at the fold and rebuild who was active before it (a fold moves no
        mascot, it only DQs those under the mat and may end the race for the rest)."""
        cut = next((i for i, e in enumerate(events) if isinstance(e, Folded)), len(events))
        own, later = tuple(events[:cut]), tuple(events[cut:])
        ended_later = {e.mascot for e in later if isinstance(e, Placed)}
        active = tuple(s for s in race.state.mascots if s.status is Status.RACING or s.mascot in ended_later)
        return cls(own, later, active, race, track or race.track)


Predicate = Callable[[Moment], bool]


def _bottom2(mascot: Mascot) -> Predicate:
    def bottom2(m: Moment) -> bool:
        """The mascot is paid as 3rd or 4th (known as soon as it is placed, a fold DQ included)."""
        place = m.race.outcome.placings.get(mascot)
        return place is not None and place >= 3
    bottom2.__name__ = f"bottom2_{mascot.value}"
    return bottom2


def out_of_bounds(m: Moment) -> bool:
    """Any mascot DQ out of bounds: off the back, off the side, or under a fold."""
    return any(isinstance(e, OutOfBounds) for e in m.events + m.later)


def two_fallen(m: Moment) -> bool:
    """After the card (before any fold), 2 or more active mascots are fallen."""
    return sum(s.fallen for s in m.active) >= 2


def knockout(m: Moment) -> bool:
    """Any knockout (a fallen mascot had to fall again)."""
    return any(isinstance(e, KnockedOut) for e in m.events)


def two_on_finish_space(m: Moment) -> bool:
    """After the card (before any fold), 2 or more active mascots are on the finish-line space (any lanes)."""
    return sum(s.space == m.track.finish_space for s in m.active) >= 2


def crawl_final_stretch(m: Moment) -> bool:
    """A fallen mascot crawled a step that starts or ends in the final stretch (green multi cards count)."""
    t = m.track
    return any(isinstance(e, Moved) and e.crawled and (t.in_final_stretch(e.start) or t.in_final_stretch(e.end))
               for e in m.events)


def same_space(m: Moment) -> bool:
    """After the card (before any fold), 2 active mascots share a space (same lane and same space)."""
    spots = [(s.lane, s.space) for s in m.active]
    return len(spots) != len(set(spots))


def empty_final_stretch(m: Moment) -> bool:
    """When the mascot taking 1st place crosses the line, no other active mascot is in the final stretch.

    Checked at that crossing only; a race won without crossing (everyone else DQ) answers NO. Mascots that
    were still racing then but took a remaining place as the race ended on that same card count as active.
    """
    events = m.events
    winner = next((e.mascot for e in events if isinstance(e, Placed) and e.place == 1 and e.exit is Exit.CROSSED),
                  None)
    if winner is None or not any(isinstance(e, Finished) and e.mascot is winner for e in events):
        return False
    ended_now = {e.mascot for e in events if isinstance(e, Placed) and e.exit is Exit.LAST_STANDING}
    others = [s for s in m.race.state.mascots
              if s.mascot is not winner and (s.status is Status.RACING or s.mascot in ended_now)]
    return not any(m.track.in_final_stretch(s.space) for s in others)


def any_dq(m: Moment) -> bool:
    """At least one DQ (knockout or out of bounds, a fold included)."""
    return any(isinstance(e, (KnockedOut, OutOfBounds)) for e in m.events + m.later)


PREDICATES: Mapping[str, Predicate] = MappingProxyType({
    **{f"bottom2-{m.value}": _bottom2(m) for m in MASCOTS},
    "out-of-bounds": out_of_bounds,
    "two-fallen": two_fallen,
    "knockout": knockout,
    "two-on-finish-space": two_on_finish_space,
    "crawl-final-stretch": crawl_final_stretch,
    "same-space": same_space,
    "empty-final-stretch": empty_final_stretch,
    "any-dq": any_dq,
})
"""Every side bet id the engine can answer, in docs/rules.md order."""


@dataclass(frozen=True, slots=True)
class SideBetCard:
    """One side bet card: ``number`` is 1-based (label ``HS-S<nn>``), ``id`` names its predicate."""

    number: int
    id: str
    question: str

    @property
    def code(self) -> str:
        return f"HS-S{self.number:02d}"


@dataclass(frozen=True)
class SideBets:
    """The side bet cards in label-code order."""

    cards: tuple[SideBetCard, ...]

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[SideBetCard]:
        return iter(self.cards)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def by_number(self, number: int) -> SideBetCard:
        """The card labelled ``HS-S<number>``. Raises UnknownSideBetError naming it."""
        if not 1 <= number <= len(self.cards):
            raise UnknownSideBetError(f"unknown side bet card HS-S{number:02d} "
                                      f"(expected HS-S01..HS-S{len(self.cards):02d})", number=number)
        return self.cards[number - 1]

    def by_id(self, card_id: str) -> SideBetCard:
        """The card with this id. Raises UnknownSideBetError naming it and listing the ids."""
        for card in self.cards:
            if card.id == card_id:
                return card
        raise UnknownSideBetError(f"unknown side bet {card_id!r} (expected one of: {', '.join(self.ids)})",
                                  card_id=card_id)


@functools.cache
def default_side_bets() -> SideBets:
    """The packaged side bet cards, read once (a player-count scan reads them from here, not from disk)."""
    return load_side_bets()


def load_side_bets(path: str | Path | None = None) -> SideBets:
    """Load and validate a side bet file (default: the packaged ``data/sidebets.toml``).

    Every card needs a known ``id`` (a key of PREDICATES, each used once) and a non-empty ``question``.
    Raises DataFileError listing every problem with its key path (``card[3].id: ...``).
    """
    data, source = read_toml(path, "sidebets.toml")
    c = Checker(source)
    c.unknown_keys(data, {"card"}, "")
    entries = data.get("card")
    if isinstance(entries, list) and len(entries) > 99:
        c.problem("card", f"{len(entries)} cards (expected at most 99: labels are HS-S01..HS-S99)")
    cards: list[SideBetCard] = []
    seen: set[str] = set()
    for i, path_, entry in c.tables(data, "card", "side bet card"):
        c.unknown_keys(entry, {"id", "question"}, path_)
        card_id = entry.get("id")
        question = entry.get("question")
        ok = True
        if not isinstance(card_id, str) or card_id not in PREDICATES:
            c.problem(path_ + "id", f"{card_id!r} is not a side bet id (expected one of: {', '.join(PREDICATES)})")
            ok = False
        elif card_id in seen:
            c.problem(path_ + "id", f"{card_id!r} is used twice")
            ok = False
        else:
            seen.add(card_id)
        if not isinstance(question, str) or not question.strip():
            c.problem(path_ + "question", f"{question!r} is missing or empty (expected the question text)")
            ok = False
        if ok:
            cards.append(SideBetCard(i + 1, str(card_id), str(question).strip()))
    c.finish()
    return SideBets(tuple(cards))


@dataclass
class SideBetTracker:
    """Answers one side bet card over one race: call :meth:`observe` after every pushed card.

    A plain value (the card id, the track whose final stretch and finish-line space count, default the
    race's, and the answer so far); undo is done by rebuilding it from a replay. ``happened`` is the final answer once the race is over.
    Raises UnknownSideBetError for an unknown ``card_id``.
    """

    card_id: str
    track: Track | None = None
    happened: bool = False

    def __post_init__(self) -> None:
        if self.card_id not in PREDICATES:
            raise UnknownSideBetError(f"unknown side bet {self.card_id!r} (expected one of: "
                                      f"{', '.join(PREDICATES)})", card_id=self.card_id)

    def observe(self, events: Sequence[Event], race: Race) -> bool:
        """Check the card just resolved (all the ``events`` of its push, and ``race`` right after it), as
        the table would after resolving it and before folding the mat (:class:`Moment`).

        Returns True when the answer turned YES with this card (False if it already was YES or still is NO).
        """
        if self.happened:
            return False
        self.happened = bool(PREDICATES[self.card_id](Moment.of(events, race, self.track)))
        return self.happened
