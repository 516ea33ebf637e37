"""Open-variant bets of one race, entered at the table (docs/rules.md 7): per seat a mascot, a YES/NO answer
and, in the double race, which of the two is circled to pay double.

Bets arrive as :class:`companion.rules.codes.OpenBetCode` (``HS-BET-<seat>-<CHOICE>[-DOUBLE]``, from the bet
sheet or a phone). A seat may change its mind until the race starts: a later code for the same bet replaces
the earlier one. The pots are split by :func:`companion.rules.betting.open_gains` at the end of the race.

>>> from companion.rules.codes import OpenBetCode
>>> book = OpenBook(3)
>>> book.place(OpenBetCode(2, "dangle"), race_no=3, double_race=3).type
'open_bet_placed'
>>> book.place(OpenBetCode(2, "no", double=True), race_no=3, double_race=3).double
'side'
>>> book.missing(double_race=True)
'seat 1 has no mascot bet yet (expected HS-BET-1-<GOBBLER|HURLEY|DANGLE|MUM>)'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.rules.betting import OpenBet
from companion.rules.codes import OpenBetCode
from companion.rules.errors import Reason, RefusedError
from companion.rules.game_events import OpenBetPlaced
from companion.rules.mascots import Mascot


@dataclass(frozen=True, slots=True)
class SeatBet:
    """What one seat has bet so far: ``mascot`` (None: not yet), ``answer`` True YES / False NO / None,
    ``double`` ``"mascot"`` | ``"side"`` | None."""

    mascot: Mascot | None = None
    answer: bool | None = None
    double: str | None = None

    @property
    def complete(self) -> bool:
        return self.mascot is not None and self.answer is not None

    def to_bet(self, no_answer: bool = False) -> OpenBet:
        """The bet to settle; a seat without an answer (no side bet this race) counts as ``no_answer``
        (pass the wrong answer so it takes no share of the side pot)."""
        assert self.mascot is not None
        return OpenBet(self.mascot, self.answer if self.answer is not None else no_answer, self.double)

    def to_dict(self) -> dict[str, Any]:
        """The ``hotstreak settle`` open-variant shape: mascot, answer "yes"/"no", double."""
        return {"mascot": self.mascot.value if self.mascot else None,
                "answer": None if self.answer is None else ("yes" if self.answer else "no"), "double": self.double}


class OpenBook:
    """The open bets of ``players`` seats for one race (seat keys are 0-based)."""

    def __init__(self, players: int):
        self.players = players
        self.bets: dict[int, SeatBet] = {}

    @property
    def tracked(self) -> bool:
        """True once any bet was entered this race (the kiosk then settles the pots)."""
        return bool(self.bets)

    def place(self, code: OpenBetCode, race_no: int, double_race: int, side_bet: str | None = None,
              need_side_bet: bool = False) -> OpenBetPlaced:
        """Enter one bet. Raises RefusedError (nothing changed) for a seat not at the table, a double outside
        the double race, a YES/NO answer with no side bet (``need_side_bet``), or a bet equal to what the
        seat already has."""
        text = code.code()
        if code.seat > self.players:
            raise RefusedError(f"{text}: seat {code.seat} is not at this table (expected a seat 1..{self.players})",
                               Reason.SEAT, code=text, seat=code.seat)
        if code.double and race_no != double_race:
            raise RefusedError(f"{text}: only race {double_race} has doubles (now race {race_no}; expected "
                               f"{OpenBetCode(code.seat, code.choice).code()})",
                               Reason.NO_DOUBLE, code=text, race=race_no)
        if code.is_side and need_side_bet and side_bet is None:
            raise RefusedError(f"{text}: no side bet card yet (expected the side bet card HS-S.. first)",
                               Reason.SIDE_BET_FIRST, code=text)
        seat = code.seat - 1
        old = self.bets.get(seat, SeatBet())
        kind = "side" if code.is_side else "mascot"
        double = kind if code.double else old.double
        if code.is_side:
            new = SeatBet(old.mascot, code.choice == "yes", double)
        else:
            new = SeatBet(Mascot(code.choice), old.answer, double)
        if new == old:
            raise RefusedError(f"{text}: seat {code.seat} already has this bet", Reason.ALREADY, code=text,
                               seat=code.seat)
        self.bets[seat] = new
        return OpenBetPlaced(seat, kind, code.choice, new.double, race_no)

    def missing(self, double_race: bool, need_answer: bool = True) -> str | None:
        """Why the bets are not complete yet (every seat needs a mascot, an answer when there is a side bet
        (``need_answer``), and in the double race a circled bet), or None."""
        for seat in range(self.players):
            bet = self.bets.get(seat, SeatBet())
            n = seat + 1
            if bet.mascot is None:
                return f"seat {n} has no mascot bet yet (expected HS-BET-{n}-<GOBBLER|HURLEY|DANGLE|MUM>)"
            if bet.answer is None and need_answer:
                return f"seat {n} has no YES/NO answer yet (expected HS-BET-{n}-YES or HS-BET-{n}-NO)"
            if double_race and bet.double is None:
                return (f"seat {n} has not circled a bet to double (expected HS-DOUBLE then one of their bets, "
                        f"or HS-BET-{n}-<bet>-DOUBLE)")
        return None

    def to_list(self) -> list[OpenBet]:
        return [self.bets[s].to_bet() for s in range(self.players)]

    def seat(self, seat: int) -> SeatBet:
        return self.bets.get(seat, SeatBet())
