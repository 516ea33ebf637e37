"""The four mascots (docs/rules.md section 1)."""

from __future__ import annotations

import enum
from types import MappingProxyType


class Mascot(enum.Enum):
    """A mascot; ``value`` is its lower-case name as used in JSON and data files."""

    GOBBLER = "gobbler"
    HURLEY = "hurley"
    DANGLE = "dangle"
    MUM = "mum"

    @property
    def letter(self) -> str:
        """The one-letter card token (``G``, ``H``, ``D``, ``M``)."""
        return self.value[0].upper()

    @property
    def title(self) -> str:
        """The display name (``Gobbler``)."""
        return self.value.capitalize()

    @classmethod
    def from_letter(cls, letter: str) -> "Mascot":
        """The mascot for a card letter; raises KeyError for anything else."""
        return _BY_LETTER[letter.upper()]

    @classmethod
    def from_name(cls, name: str) -> "Mascot":
        """The mascot for a name, any case; raises ValueError naming the bad value."""
        try:
            return cls(name.strip().lower())
        except ValueError:
            raise ValueError(f"unknown mascot {name!r} (expected one of: gobbler, hurley, dangle, mum)") from None


MASCOTS: tuple[Mascot, ...] = tuple(Mascot)
_BY_LETTER = MappingProxyType({m.letter: m for m in Mascot})
