"""The money questions a sink asks, answered once per view from the rules (docs/rules.md 5-7): the ticket
stacks and what each top ticket pays, what every seat's tickets would pay if the race ended now and what they
paid once it is over, the paid places if the race ended now, and the open variant's pots as each seat's bet
would share them. Sinks format these values; none calls a rules function to compute money, places or stacks.

"If the race ended now" (docs/rules.md 5): the mascots already placed keep their paid places; the ones still
racing take the open places by how far ahead they are, as the engine places them at the race's end. A YES/NO
ticket counts the side bet as answered so far: YES once it happened, else NO.

Money is whole dollars; places are paid places 1-4; seats are 0-based; mascots are lower-case names.

>>> from companion.rules import Race
>>> race = Race()
>>> _ = race.push_text("H+3")
>>> placings_now(race)["hurley"]
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from companion.rules.betting import (LEVELS, SIDES, STACKS, Bet, Ticket, TicketTable, bet_amount, open_gains,
                                     pot_share)
from companion.rules.mascots import Mascot
from companion.rules.open_bets import SeatBet
from companion.rules.race import Race

SIDE_STACKS = ("yes", "no")
"""The stacks of YES/NO tickets (the side bet's); the others are the mascots' stacks."""


@dataclass(frozen=True, slots=True)
class StackOffer:
    """One ticket stack of the draft now (docs/rules.md 6): ``left`` tickets, the ``top`` one's level (None when
    empty), what it pays on each side (``safe``, ``risky``: a mascot stack's dollars by paid place 1st..4th, a
    YES/NO stack's ``(right, wrong)``; empty when the stack is) and ``answered``: side -> what the top YES/NO
    ticket pays with the side bet's answer as far as known (empty for a mascot stack or an unknown answer)."""

    stack: str
    left: int
    top: str | None
    safe: tuple[int, ...] = ()
    risky: tuple[int, ...] = ()
    answered: Mapping[str, int] | None = None

    @property
    def is_side(self) -> bool:
        return self.stack in SIDE_STACKS

    def pays(self, side: str) -> tuple[int, ...]:
        """What the top ticket pays on ``side`` ("safe" or "risky"); KeyError for another side."""
        return {"safe": self.safe, "risky": self.risky}[side]


@dataclass(frozen=True, slots=True)
class TicketMoney:
    """One drafted ticket's money: ``pays`` (a mascot ticket: dollars by paid place 1st..4th; YES/NO:
    ``(right, wrong)``) before the double, ``factor`` the double's (1 when not doubled), ``if_ended`` what it
    would pay if the race ended now (doubled; None when no race is running), ``answered`` a YES/NO ticket's pay
    with the side bet's answer as far as known (doubled; None otherwise) and ``paid`` what it paid once the race
    is over (doubled; None before, and for a YES/NO ticket whose answer is not known)."""

    bet: Bet
    pays: tuple[int, ...]
    factor: int = 1
    if_ended: int | None = None
    answered: int | None = None
    paid: int | None = None


@dataclass(frozen=True, slots=True)
class PotShare:
    """One seat's open-variant bet against the pots (docs/rules.md 7): ``places`` the dollars it would take if its
    mascot were paid 1st, 2nd, 3rd (each place pot split among the bets on that mascot), times ``factor`` (the
    double's when the mascot is doubled, else 1); ``side`` what its answer takes of the side pot once the answer
    is known (0 when wrong; None when there is no answer or it is not known); ``if_ended`` what the bet would
    take of both pots if the race being run ended now (None when no race is run or the bet names no mascot)."""

    places: tuple[int, ...] = ()
    factor: int = 1
    side: int | None = None
    if_ended: int | None = None


def placings_now(race: Race) -> dict[str, int]:
    """Each mascot's paid place (1-4) if ``race`` ended after the cards revealed so far, by mascot name
    (:meth:`companion.rules.race.Race.placings_if_ended`)."""
    return {m.value: p for m, p in race.placings_if_ended().items()}


def stack_offers(taken: Mapping[str, int], table: TicketTable, answer: bool | None) -> tuple[StackOffer, ...]:
    """Every stack of the draft with ``taken`` tickets taken from it (stack -> count); ``answer`` the side bet's
    answer as far as known."""
    out = []
    for stack in STACKS:
        gone = min(taken.get(stack, 0), len(LEVELS))
        top = LEVELS[gone] if gone < len(LEVELS) else None
        if top is None:
            out.append(StackOffer(stack, 0, None))
            continue
        pays = table.side if stack in SIDE_STACKS else table.mascot
        safe, risky = tuple(pays[(top, "safe")]), tuple(pays[(top, "risky")])
        answered = None
        if stack in SIDE_STACKS and answer is not None:  # the rules' own amount (race 1: no double to check)
            answered = {side: bet_amount(Bet(Ticket(stack, top), side), {}, answer, table, 1) for side in SIDES}
        out.append(StackOffer(stack, len(LEVELS) - gone, top, safe, risky, answered))
    return tuple(out)


def ticket_money(bets: Iterable[Bet], table: TicketTable, race_no: int, race: Race | None, running: bool,
                 answer: bool | None) -> tuple[TicketMoney, ...]:
    """The money of a seat's drafted ``bets`` in race ``race_no``: ``race`` the race being run or just run
    (None: none), ``running`` when it is being run (then ``if_ended`` is given), ``answer`` the side bet's
    answer as far as known."""
    now = {Mascot(k): v for k, v in placings_now(race).items()} if race is not None and running else None
    over = dict(race.outcome.placings) if race is not None and race.is_over else None
    out = []
    for bet in bets:
        side = bet.ticket.is_side
        factor = table.double_factor if bet.double else 1
        pays = tuple(table.side[(bet.ticket.level, bet.side)] if side else table.mascot[(bet.ticket.level, bet.side)])
        answered = bet_amount(bet, {}, answer, table, race_no) if side and answer is not None else None
        if_ended = bet_amount(bet, now, bool(answer), table, race_no) if now is not None else None
        paid = (bet_amount(bet, over, answer, table, race_no)
                if over is not None and (not side or answer is not None) else None)
        out.append(TicketMoney(bet, pays, factor, if_ended, answered, paid))
    return tuple(out)


def pot_shares(bets: Mapping[int, SeatBet], table: TicketTable, answer: bool | None, race: Race | None = None,
               race_no: int = 1) -> dict[int, PotShare]:
    """Each seat's share of the open variant's pots with the ``bets`` as they stand (seat -> bet); ``answer``
    the side bet's answer as far as known; ``race`` the race being run in race ``race_no`` (None: none), for
    ``if_ended`` (settled as the rules settle the race's end: a seat without an answer takes no side share)."""
    ended: dict[int, int] = {}
    if race is not None:
        happened = bool(answer)
        seats = [s for s, b in bets.items() if b.mascot is not None]
        gains = open_gains([bets[s].to_bet(no_answer=not happened) for s in seats], race.placings_if_ended(),
                           happened, table, race_no)
        ended = {s: mascot + side for s, (mascot, side) in zip(seats, gains)}
    out = {}
    for seat, bet in bets.items():
        places: tuple[int, ...] = ()
        factor = table.double_factor if bet.double == "mascot" else 1
        if bet.mascot is not None:
            same = sum(b.mascot == bet.mascot for b in bets.values())
            places = tuple(pot_share(pot, same, False, table) for pot in table.place_pots)
        side = None
        if bet.answer is not None and answer is not None:
            right = sum((b.answer is not None and b.answer == answer) for b in bets.values())
            gain = pot_share(table.side_pot, right, bet.double == "side", table)
            side = gain if bet.answer == answer else 0
        out[seat] = PotShare(places, factor, side, ended.get(seat))
    return out


__all__ = ["PotShare", "SIDE_STACKS", "StackOffer", "TicketMoney", "placings_now", "pot_shares", "stack_offers",
           "ticket_money"]
