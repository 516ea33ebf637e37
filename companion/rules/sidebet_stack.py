"""The face-up stack of side bet cards through one game, as the table keeps it (docs/rules.md 6).

At setup the Dealer shuffles the 12 side bet cards into one face-up stack; the top card is the question of
race 1. Before each later race the previous card goes to the bottom of the stack and the next one shows, so
a card asked once never comes back within a game. The kiosk does not see the real shuffle: it keeps its own
realised order (drawn at new game and journaled) and follows the table:

- the first side bet card scanned in a race is that race's question, but only before the first ticket (or
  open bet) of the race; a second card is refused (HS-UNDO takes the first back), the same card again too (a double read);
- a card already asked in an earlier race of this game is refused: it lies at the bottom of the stack;
- with no scan, the next card of the kiosk's order not asked yet is assumed, and flagged as assumed so the
  screen can show which card the kiosk answers (the Dealer checks it against the stack, or scans the real one).

>>> from companion.rules.sidebets import load_side_bets
>>> stack = SideBetStack(load_side_bets(), ["knockout", "any-dq", "two-fallen"])
>>> stack.begin_race(); stack.current, stack.scanned
('knockout', False)
>>> _ = stack.scan(7, race_no=1, locked=None); stack.scanned
True
>>> stack.end_race(); stack.begin_race(); stack.current
'any-dq'
"""

from __future__ import annotations

from companion.rules.errors import Reason, RefusedError
from companion.rules.game_events import SideBetShown
from companion.rules.sidebets import SideBetCard, SideBets


class SideBetStack:
    """The side bet cards of one game: ``order`` is the kiosk's realised shuffle of card ids (may be empty:
    then a race has no question until a card is scanned). ``asked`` lists the question of every finished race
    in race order; ``current`` is this race's question (None: none yet) and ``scanned`` whether the table
    confirmed it by scanning the card (False: assumed from the kiosk's order)."""

    def __init__(self, cards: SideBets, order: list[str]):
        self.cards = cards
        self.order = list(order)
        for card_id in self.order:
            cards.by_id(card_id)  # raises UnknownSideBetError naming a bad id
        self.asked: list[str] = []
        self.current: str | None = None
        self.scanned = False

    def next_card(self) -> str | None:
        """The first card of the kiosk's order not asked yet in this game, or None."""
        return next((c for c in self.order if c not in self.asked), None)

    def begin_race(self) -> None:
        """A new race's betting begins: assume the next card not asked yet."""
        self.current = self.next_card()
        self.scanned = False

    def end_race(self) -> None:
        """The race was run: its card goes to the bottom of the stack (never asked again this game)."""
        if self.current is not None and self.current not in self.asked:
            self.asked.append(self.current)

    def card(self) -> SideBetCard | None:
        return self.cards.by_id(self.current) if self.current else None

    def shown(self, race_no: int) -> list[SideBetShown]:
        card = self.card()
        return [SideBetShown(card.id, card.number, card.question, race_no, self.scanned)] if card else []

    def scan(self, number: int, race_no: int, locked: str | None) -> list[SideBetShown]:
        """The Dealer scanned ``HS-S<number>``. ``locked`` says why the question can no longer change (e.g. the
        first ticket of the race is drafted), or None. Returns the SideBetShown event; raises RefusedError
        (nothing changed) for an unknown card, a card asked earlier this game, a second card this race, or a
        card other than the assumed one after the lock."""
        card = self.cards.by_number(number)  # UnknownSideBetError: a refusal (reason unknown)
        if card.id in self.asked:
            race = self.asked.index(card.id) + 1
            raise RefusedError(f"side bet card {card.code} ({card.id}) was the question of race {race}: it went to "
                               "the bottom of the stack and does not come back this game (expected the card now "
                               "on top of the side bet stack)", Reason.ALREADY, code=card.code, race=race)
        if locked is not None and card.id != self.current:
            raise RefusedError(f"side bet card {card.code} comes too late: {locked}, so race {race_no}'s question "
                               f"stays {self.current or 'unset'} (expected the card before the first bet)",
                               Reason.WRONG_TIME, code=card.code, race=race_no)
        if self.scanned:
            now = self.card()
            assert now is not None
            if now.id == card.id:  # a double read or a second scan: refused, so one undo takes back one scan
                raise RefusedError(f"side bet card {card.code} is already race {race_no}'s question, scanned "
                                   "(nothing to do; expected the tickets next)", Reason.ALREADY, code=card.code,
                                   race=race_no)
            raise RefusedError(f"side bet card {card.code}: race {race_no}'s question is already {now.code} "
                               f"({now.id}), scanned first (expected HS-UNDO first to take that scan back)",
                                   Reason.ALREADY, code=card.code, race=race_no)
        self.current, self.scanned = card.id, True
        return self.shown(race_no)

    def to_dict(self) -> dict[str, object]:
        card = self.card()
        return {"card": self.current, "code": card.code if card else None, "scanned": self.scanned,
                "asked": list(self.asked)}
