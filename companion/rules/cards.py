"""Race cards and their notation (docs/rules.md section 2).

Notation: one token for who (``G`` ``H`` ``D`` ``M`` or ``A`` for a green multi card), then actions applied
left to right: ``R`` recover, ``+n``/``-n`` move, ``*`` next star, ``T`` turn around, ``F`` fall down,
``<``/``>`` swerve left/right as seen by the mascot. Case-insensitive, no spaces.

>>> Card.parse("g+2>").notation()
'G+2>'
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import NamedTuple

from companion.rules.errors import InvalidCardError
from companion.rules.mascots import Mascot


class Act(enum.Enum):
    """One kind of action on a card."""

    RECOVER = "R"
    MOVE = "move"
    STAR = "*"
    TURN = "T"
    FALL = "F"
    SWERVE_LEFT = "<"
    SWERVE_RIGHT = ">"


class Action(NamedTuple):
    """An action; ``amount`` is the signed number of spaces for MOVE, 0 otherwise."""

    act: Act
    amount: int = 0

    def notation(self) -> str:
        if self.act is Act.MOVE:
            return f"{self.amount:+d}"
        return str(self.act.value)


_TOKEN = re.compile(r"R|[+-][0-9]+|\*|T|F|<|>")
EXPECTED = "expected who (G, H, D, M or A) then actions R, +n, -n, *, T, F, <, > (e.g. H+3, GR+2, D+1<, A-2)"


@dataclass(frozen=True, slots=True)
class Card:
    """A race card: ``who`` is the mascot named, or None for a green multi card (all mascots)."""

    who: Mascot | None
    actions: tuple[Action, ...]

    @property
    def is_green(self) -> bool:
        """True for a green multi card (``A...``), which moves every mascot at once (docs/rules.md 3)."""
        return self.who is None

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse card notation (case-insensitive); ``Card.parse("h+03") == Card.parse("H+3")``.

        Raises InvalidCardError naming the text and the expected form.
        """
        raw = text.strip().upper()
        if not raw or raw[0] not in "GHDMA":
            raise InvalidCardError(f"{text!r} is not a card: {EXPECTED}", card=text)
        who = None if raw[0] == "A" else Mascot.from_letter(raw[0])
        actions: list[Action] = []
        pos = 1
        while pos < len(raw):
            match = _TOKEN.match(raw, pos)
            if not match:
                raise InvalidCardError(f"{text!r} is not a card: unexpected {raw[pos:]!r}; {EXPECTED}", card=text)
            token = match.group()
            if token[0] in "+-":
                amount = int(token)
                if amount == 0 or abs(amount) > 99:
                    raise InvalidCardError(f"{text!r} is not a card: a move must be 1..99 spaces; {EXPECTED}",
                                           card=text)
                actions.append(Action(Act.MOVE, amount))
            else:
                actions.append(Action(Act(token)))
            pos = match.end()
        if not actions:
            raise InvalidCardError(f"{text!r} is not a card: no action; {EXPECTED}", card=text)
        return cls(who, tuple(actions))

    def notation(self) -> str:
        """The canonical notation, e.g. ``GR+2``; ``Card.parse(c.notation()) == c``."""
        return ("A" if self.who is None else self.who.letter) + "".join(a.notation() for a in self.actions)

    def __str__(self) -> str:
        return self.notation()
