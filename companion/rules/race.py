"""One race: push revealed cards, get typed events, pop to undo (docs/rules.md sections 3-5).

>>> race = Race()
>>> [e.type for e in race.push_text("H+3")]
['revealed', 'moved']
>>> race.position()
'G1.3 H2.6 D3.3 M4.3 fold:0 pass:1 rev:1 cards:-'
>>> race.pop()
(Card(who=<Mascot.HURLEY: 'hurley'>, actions=(Action(act=<Act.MOVE: 'move'>, amount=3),)), None)

The race counts reveals and passes, folds the track when a pass ends (section 4) and keeps the undo history; the
mascots on the track and the podium places are its :class:`~companion.rules.field.Field`, which resolves each card
(sections 3 and 5). It never does I/O, reads no clock and uses no randomness. The values it hands out
(:class:`MascotState`, :class:`RaceState`, :class:`Outcome`) live in :mod:`companion.rules.race_state`, the position
string in :mod:`companion.rules.position`; both are importable from here as before.
"""

from __future__ import annotations

import functools
from typing import Any, Iterable

from companion.rules.cards import Card
from companion.rules.deck import Deck, load_deck
from companion.rules.errors import IllegalRevealError, Reason
from companion.rules.events import Event, Exit, Folded, Reshuffled, Revealed
from companion.rules.field import Field, behind
from companion.rules.mascots import MASCOTS, Mascot
from companion.rules.position import format_position, parse_position
from companion.rules.race_state import RACING, MascotState, Outcome, RaceState, mascot_state
from companion.rules.track import Track, load_track

__all__ = ["MascotState", "Outcome", "Race", "RaceState", "default_deck", "default_track", "play"]

Snapshot = tuple[Any, ...]  # (rows, folds, pass, revealed, codes of the pass, open places, over): see _snapshot
Cards = dict[str | int, Card | None]  # a pass's cards in order, by label code or (a card in notation) reveal number


@functools.cache
def default_track() -> Track:
    """The packaged track (``data/track.toml``), read once: a Track is a frozen value."""
    return load_track()


@functools.cache
def default_deck() -> Deck:
    """The packaged race deck (``data/deck.toml``), read once: a Deck is a frozen value."""
    return load_deck()


class Race:
    """A race in progress on ``track`` (default data) with label codes from ``deck`` (default data).

    ``is_over`` tells whether the race has ended.
    """

    __slots__ = ("track", "deck", "field", "_folds", "_pass", "_revealed", "_cards", "_passes")

    def __init__(self, track: Track | None = None, deck: Deck | None = None):
        self.track = track or default_track()
        self.deck = deck or default_deck()
        self.field = Field(self.track)
        self._folds = 0
        self._pass = 1
        self._revealed = 0
        self._cards: Cards = {}  # this pass's cards: the refusal of a code seen twice and the undo history read it
        self._passes: list[tuple[Snapshot, Cards]] = [(self._snapshot(), self._cards)]
        # the undo history: per pass, the snapshot at its start and the dict of its cards (see pop)

    # ----- public API -------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.field.over

    @property
    def cards(self) -> tuple[tuple[Card, str | None], ...]:
        """Every card pushed so far, with its label code (None for plain notation)."""
        return tuple(item for snapshot, cards in self._passes for item in _pushed(snapshot, cards))

    @property
    def folds(self) -> int:
        return self._folds

    @property
    def pass_no(self) -> int:
        return self._pass

    @property
    def revealed(self) -> int:
        """Cards revealed so far in the current pass (0..reveals_per_pass-1 between cards)."""
        return self._revealed

    @property
    def state(self) -> RaceState:
        return RaceState(tuple(self.mascot(m) for m in MASCOTS), self._folds, self._pass, self._revealed,
                         self._pass_codes(), self.is_over)

    def mascot(self, mascot: Mascot) -> MascotState:
        return mascot_state(mascot, self.field.runners[MASCOTS.index(mascot)].row())

    @property
    def outcome(self) -> Outcome:
        placings: dict[Mascot, int] = {}
        exits: dict[Mascot, Exit] = {}
        for m, r in zip(MASCOTS, self.field.runners):
            if r.exit is not None:
                placings[m] = r.place
                exits[m] = r.exit
        return Outcome(placings, exits, self.is_over)

    def placings_if_ended(self) -> dict[Mascot, int]:
        """Each mascot's paid place (1-4) if the race ended after the cards so far: the placed keep their
        places, the ones still racing take the open places by how far ahead they are, as at the race's end
        (docs/rules.md 5). The race itself is not changed."""
        placings = self.outcome.placings
        racing = sorted([r for r in self.field.runners if r.status is RACING], key=behind)
        placings.update((MASCOTS[r.index], place) for r, place in zip(racing, self.field.open))
        return placings

    def check(self, card: Card, code: str | None = None) -> None:
        """Raise IllegalRevealError if ``card`` cannot be revealed now (race over, or code seen this pass)."""
        if self.is_over:
            raise IllegalRevealError(f"cannot reveal {card.notation()}: the race is over", Reason.RACE_OVER,
                                     code=code, card=card.notation())
        if code is not None and code in self._cards:
            raise IllegalRevealError(
                f"card {code} ({card.notation()}) was already revealed in pass {self._pass}; "
                "expected a card not yet revealed this pass", Reason.ALREADY, code=code, card=card.notation(),
                pass_no=self._pass)

    def push_text(self, text: str) -> list[Event]:
        """Reveal a card given as a label code (``HS15``) or notation (``H+3``). See :meth:`push`."""
        card, code = self.deck.lookup(text)
        return self.push(card, code)

    def push(self, card: Card, code: str | None = None) -> list[Event]:
        """Reveal ``card`` (label ``code``, or None for notation) and resolve it (docs/rules.md 3), then the end of
        the pass if it was the last (docs/rules.md 4). Returns the events in order. Raises IllegalRevealError
        (state unchanged) if the race is over or the label ``code`` was already revealed in this pass.
        """
        if self.field.over or code in self._cards:
            self.check(card, code)  # raises
        self._revealed += 1
        self._cards[code if code is not None else self._revealed] = card
        events = self.field.events = [Revealed(card, code, self._pass, self._revealed)]
        self.field.resolve(card)
        if self._revealed == self.track.reveals_per_pass and not self.field.over:
            self._end_pass()
        return events

    def pop(self) -> tuple[Card, str | None]:
        """Undo the last push, restoring the exact earlier state; returns the card and code taken back.

        The race keeps a snapshot at the start of every pass with the cards pushed since; undo restores the
        snapshot of the last card's pass and pushes that pass's cards before it again, at most a pass less one (the
        engine is deterministic, so that lands on the very state the race had). Raises IndexError if nothing has
        been pushed.
        """
        passes = self._passes
        while len(passes) > 1 and not _pushed(*passes[-1]):  # a pass that has just begun: undo reaches back
            passes.pop()
        snapshot, cards = passes[-1]
        again = _pushed(snapshot, cards)
        if not again:
            raise IndexError("nothing to undo: no card has been revealed in this race")
        taken = again.pop()
        self._restore(snapshot)
        passes[-1] = (snapshot, self._cards)
        for card, code in again:
            self.push(card, code)
        return taken

    def copy(self) -> "Race":
        """An independent race in the same state, with its own undo history."""
        other = Race.__new__(Race)
        other.track, other.deck = self.track, self.deck
        other.field = Field(self.track)
        other._restore(self._snapshot())
        other._passes = [(snapshot, dict(cards)) for snapshot, cards in self._passes]
        other._cards = other._passes[-1][1]
        return other

    # ----- position string --------------------------------------------------------------------------
    def position(self) -> str:
        """A one-line string of the whole state; ``Race.from_position(r.position()).position()`` is equal.

        Racing mascot: letter, lane ``.`` space, ``f`` if fallen, ``t`` if turned around (``H2.6ft``).
        Placed: letter then ``=`` crossed, ``r`` remaining at the end, ``k`` knockout, ``o`` out of bounds,
        then the paid place (``M=1``, ``Gk4``). Then ``fold:N pass:N rev:N cards:CODES|-``.
        """
        return format_position(self.field.rows(), self._folds, self._pass, self._revealed, self._pass_codes())

    @classmethod
    def from_position(cls, text: str, track: Track | None = None, deck: Deck | None = None) -> "Race":
        """Rebuild a race (without undo history) from :meth:`position` text.

        Raises InvalidPositionError naming the bad part and the expected form.
        """
        race = cls(track, deck)
        pos = parse_position(text, race.track, race.field.rows(), race.position())
        race._restore((pos.rows, pos.folds, pos.pass_no, pos.revealed, pos.codes, pos.open_places, pos.over))
        race._passes = [(race._snapshot(), race._cards)]
        return race

    # ----- internals -------------------------------------------------------------------------------
    def _pass_codes(self) -> tuple[str, ...]:
        """The label codes revealed in this pass, in order (a card given in notation has none)."""
        return tuple(key for key in self._cards if isinstance(key, str))

    def _snapshot(self) -> Snapshot:
        return (self.field.rows(), self._folds, self._pass, self._revealed, self._pass_codes(),
                tuple(self.field.open), self.is_over)

    def _restore(self, snapshot: Snapshot) -> None:
        rows, self._folds, self._pass, self._revealed, codes, open_places, over = snapshot
        self.field.set_rows(rows, open_places, self.track.back_edge(self._folds), over)
        self._cards = dict.fromkeys(codes)

    def _end_pass(self) -> None:
        """The deck ran out: fold at the next fold line, DQ mascots under the mat, reshuffle (docs/rules.md 4)."""
        if self._folds < len(self.track.fold_lines):
            self._folds += 1
            edge = self.track.back_edge(self._folds)
            self.field.events.append(Folded(self._folds, edge))
            self.field.fold(edge)
        if not self.is_over:
            self._pass += 1
            self._revealed = 0
            self._cards = {}
            self.field.events.append(Reshuffled(self._pass))
            self._passes.append((self._snapshot(), self._cards))


def _pushed(snapshot: Snapshot, cards: Cards) -> list[tuple[Card, str | None]]:
    """The cards pushed in one pass of the undo history, with their label codes: the ones after ``snapshot``
    (which holds the codes a race rebuilt from a position string had already seen in its pass)."""
    items = list(cards.items())[len(snapshot[4]):]
    return [(card, key if isinstance(key, str) else None) for key, card in items if card is not None]


def play(cards: Iterable[str], track: Track | None = None, deck: Deck | None = None) -> tuple[Race, list[Event]]:
    """Resolve card texts (codes or notation) as one race from the start; cards after the end are ignored.

    Returns the race and all events. Raises InvalidCardError / IllegalRevealError for a bad card.
    """
    race = Race(track, deck)
    events: list[Event] = []
    for text in cards:
        if race.is_over:
            break
        events.extend(race.push_text(text))
    return race, events
