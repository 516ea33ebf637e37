"""The open variant's bets on the betting screen (docs/rules.md 7): per seat what it has bet so far and what
it still has to bet, read from the view's seats (:class:`companion.view.table_view.SeatView` ``bet``).

>>> bet = OpenBetView("Ann", "mum", None, need_answer=True)
>>> bet.complete, bet.started
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from companion.view.table_view import TableView


@dataclass(frozen=True)
class OpenBetView:
    """One seat's open bet: its ``name`` as shown (with `` · <code>`` when a phone may claim the seat with that
    consent code), the ``mascot`` named (lower-case, None: not yet), the YES/NO
    ``answer`` (True YES, False NO, None: not yet), the circled ``double`` (``"mascot"`` | ``"side"`` | None);
    ``need_answer`` when the race has a side bet, ``need_double`` in the double race (race 3); ``money`` the
    seat's dollars now (None: not shown)."""

    name: str
    mascot: str | None = None
    answer: bool | None = None
    double: str | None = None
    need_answer: bool = False
    need_double: bool = False
    money: int | None = None

    @property
    def started(self) -> bool:
        """True once any part of the bet is in."""
        return self.mascot is not None or self.answer is not None

    @property
    def complete(self) -> bool:
        """True when nothing is missing: a mascot, the answer when needed, the double in the double race."""
        return (self.mascot is not None and (self.answer is not None or not self.need_answer)
                and (self.double is not None or not self.need_double))


def open_bet_views(view: TableView, name: Callable[[int], str]) -> tuple[OpenBetView, ...]:
    """Each seat's open bet in seat order (``name`` gives a 0-based seat's name as shown, with its consent code
    where the screen shows one); empty outside the
    open variant's betting phase."""
    game = view.game
    if game is None or game.variant.value != "open" or view.phase.value != "betting":
        return ()
    out = []
    for s in view.seats:
        bet = s.bet or game.open_bets.get(s.seat)
        out.append(OpenBetView(name(s.seat), bet.mascot.value if bet and bet.mascot else None,
                               bet.answer if bet else None, bet.double if bet else None,
                               need_answer=game.side_bet is not None, need_double=game.is_double_race,
                               money=s.money))
    return tuple(out)


__all__ = ["OpenBetView", "open_bet_views"]
