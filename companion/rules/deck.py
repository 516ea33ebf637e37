"""The race deck data: every physical card with its label code (docs/rules.md section 2).

``load_deck()`` reads the packaged ``data/deck.toml``; ``load_deck(path)`` a user's own. Label codes map to
cards through this data, never through code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from companion.rules.cards import Card
from companion.rules.datafile import Checker, read_toml
from companion.rules.errors import InvalidCardError

CODE_PATTERN = re.compile(r"^HS[0-9]{2,3}$")


@dataclass(frozen=True, slots=True)
class DeckCard:
    """One physical card: its label code (``HS15``), what it does, and whether it is a starting card."""

    code: str
    card: Card
    starting: bool = False


@dataclass(frozen=True)
class Deck:
    """All physical race cards, in label-code order."""

    cards: tuple[DeckCard, ...]
    _by_code: dict[str, DeckCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_code", {c.code: c for c in self.cards})

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[DeckCard]:
        return iter(self.cards)

    def __contains__(self, code: object) -> bool:
        return isinstance(code, str) and code.upper() in self._by_code

    def by_code(self, code: str) -> DeckCard:
        """The card with this label code (any case). Raises InvalidCardError naming the code."""
        try:
            return self._by_code[code.strip().upper()]
        except KeyError:
            first, last = self.cards[0].code, self.cards[-1].code
            raise InvalidCardError(f"unknown card code {code!r} (expected {first}..{last})", code=code) from None

    @property
    def starting_cards(self) -> tuple[DeckCard, ...]:
        return tuple(c for c in self.cards if c.starting)

    def lookup(self, text: str) -> tuple[Card, str | None]:
        """A label code (``HS15``) or a notation (``H+3``) -> (card, code or None).

        Raises InvalidCardError naming the text when it is neither.
        """
        raw = text.strip().upper()
        if CODE_PATTERN.match(raw):
            dc = self.by_code(raw)
            return dc.card, dc.code
        return Card.parse(raw), None


def load_deck(path: str | Path | None = None) -> Deck:
    """Load and validate a deck file (default: the packaged ``data/deck.toml``).

    Raises DataFileError listing every problem with its key path (``card[4].notation: ...``).
    """
    data, source = read_toml(path, "deck.toml")
    c = Checker(source)
    c.unknown_keys(data, {"card"}, "")
    cards: list[DeckCard] = []
    seen: set[str] = set()
    for i, path_, entry in c.tables(data, "card", "physical card"):
        c.unknown_keys(entry, {"code", "notation", "starting"}, path_)
        code = entry.get("code")
        if not isinstance(code, str) or not CODE_PATTERN.match(code):
            c.problem(path_ + "code", f"{code!r} is not a label code (expected HS followed by 2-3 digits)")
            code = None
        elif code in seen:
            c.problem(path_ + "code", f"{code!r} is used twice")
        else:
            seen.add(code)
        notation = entry.get("notation")
        card = None
        try:
            card = Card.parse(notation) if isinstance(notation, str) else None
            if card is None:
                c.problem(path_ + "notation", f"{notation!r} is missing or not a string")
        except InvalidCardError as exc:
            c.problem(path_ + "notation", str(exc))
        starting = entry.get("starting", False)
        if not isinstance(starting, bool):
            c.problem(path_ + "starting", f"{starting!r} is not true/false")
        if code and card:
            cards.append(DeckCard(code, card, bool(starting)))
    c.finish()
    return Deck(tuple(cards))
