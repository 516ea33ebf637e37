"""What is known of a race deck before and during a race (docs/rules.md 4, 7): the face-up cards, the cards revealed
so far, the count of cards the players add face down, and the pool the unknown cards come from.

>>> from companion.rules import Race
>>> info = deck_knowledge(["HS02", "HS13"], players=4, race=Race())
>>> info.known, info.unknown, len(info.pool)
(('HS02', 'HS13'), 16, 51)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from companion.rules.deck import Deck
from companion.rules.errors import InvalidCardError
from companion.rules.race import Race

MIN_PLAYERS, MAX_PLAYERS = 2, 12


def hidden_cards(players: int) -> int:
    """Cards the players add face down before a race (docs/rules.md 7): 2 each with 2 players, 1 each with 3-8,
    none with 9 or more (the open variant). Raises ValueError outside 2..12."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"player count {players!r} is out of range (expected {MIN_PLAYERS}..{MAX_PLAYERS})")
    if players == 2:
        return 4
    return players if players <= 8 else 0



@dataclass(frozen=True)
class DeckKnowledge:
    """What is known of the race deck: ``known`` label codes in it (face-up cards and every card revealed
    so far; those revealed in the current pass come first, ``in_pass`` of them), the ``pool`` of codes the
    ``unknown`` other cards are drawn from."""

    known: tuple[str, ...]
    in_pass: int
    pool: tuple[str, ...]
    unknown: int


def deck_knowledge(known: Sequence[str], players: int, race: Race, hidden: int | None = None) -> DeckKnowledge:
    """Work out the known cards and the pool (docs/rules.md 7). ``known`` are label codes or notation (a notation
    stands for the first card with it not given yet). Raises ValueError / InvalidCardError naming the bad
    value: an unknown card, a card given twice, more face-up cards than the player count leaves room for,
    a revealed card that is not in the deck."""
    deck, size = race.deck, race.track.deck_size
    hidden = hidden_cards(players) if hidden is None else hidden
    if not 0 <= hidden <= size:
        raise ValueError(f"hidden card count {hidden} is out of range (expected 0..{size})")
    faceup: list[str] = []
    for text in known:
        faceup.append(_physical(deck, text, faceup))
    if len(faceup) > size - hidden:
        raise ValueError(f"{len(faceup)} face-up cards is more than a race deck of {size} shows with "
                         f"{players} players (expected at most {size - hidden})")
    in_deck = list(faceup)
    in_pass = list(race.state.codes_in_pass)  # label codes revealed in this pass
    in_deck += [c for c in in_pass if c not in in_deck]
    pushed = race.cards  # the history; shorter for a race rebuilt from a position string
    this_pass = pushed[max(0, len(pushed) - race.revealed):]
    for card, code in pushed[:len(pushed) - len(this_pass)]:  # earlier passes: these cards are in the deck
        code = code or _same_card(deck, card.notation(), in_deck, ())
        if code not in in_deck:
            in_deck.append(code)
    uncoded = [card for card, code in this_pass if code is None]
    if len(in_pass) + len(uncoded) != race.revealed:
        raise ValueError(f"the race has {race.revealed} reveals in this pass but only {len(in_pass) + len(uncoded)} "
                         "are known (expected the label code of every card revealed in this pass)")
    for card in uncoded:  # notation only: a card of the deck with that notation, not yet revealed this pass
        code = _same_card(deck, card.notation(), in_deck, in_pass)
        in_pass.append(code)
        if code not in in_deck:
            in_deck.append(code)
    if len(in_deck) > size:
        raise ValueError(f"{len(in_deck)} cards known in a race deck of {size}: {' '.join(in_deck)}")
    ordered = in_pass + [c for c in in_deck if c not in in_pass]
    pool = tuple(dc.code for dc in deck if dc.code not in in_deck)
    unknown = size - len(in_deck)
    if unknown > len(pool):
        raise ValueError(f"the deck has {len(pool)} cards left for {unknown} unknown race deck cards")
    return DeckKnowledge(tuple(ordered), len(in_pass), pool, unknown)


def _same_card(deck: Deck, notation: str, in_deck: Sequence[str], in_pass: Sequence[str]) -> str:
    """The physical card behind a card revealed by notation: one known in the deck (not revealed in this
    pass), else a new one of the deck."""
    for code in in_deck:
        if code not in in_pass and deck.by_code(code).card.notation() == notation:
            return code
    return _physical(deck, notation, in_deck)


def _physical(deck: Deck, text: str, taken: Sequence[str]) -> str:
    card, code = deck.lookup(text)
    if code is not None:
        if code in taken:
            raise ValueError(f"card {code} is given twice (expected each physical card once)")
        return code
    notation = card.notation()
    for dc in deck:
        if dc.card.notation() == notation and dc.code not in taken:
            return dc.code
    raise InvalidCardError(f"no card {notation!r} left in the deck (expected a card of the deck, each once)")

def deck_ids(deck: Deck, codes: Sequence[str]) -> np.ndarray:
    index = {dc.code: i for i, dc in enumerate(deck)}
    return np.array([index[c] for c in codes], dtype=np.int16)

