"""Betting tickets, the six stacks, payouts and settling (docs/rules.md section 6; open variant pots: section 7).

A ticket is named ``<stack>-<level>``: stack ``gobbler`` ``hurley`` ``dangle`` ``mum`` (mascot tickets) or
``yes`` ``no`` (side tickets), level ``top`` ``middle`` ``bottom``. A drafted ticket (:class:`Bet`) adds the
side chosen when drafting and the race-3 double flag. Amounts are whole dollars; every amount comes from the
data file ``data/tickets.toml`` (:func:`load_tickets`).

>>> table = load_tickets()
>>> bet = Bet(Ticket.parse("dangle-middle"), "risky", double=True)
>>> bet_amount(bet, {Mascot.DANGLE: 1}, side_happened=False, table=table, race_no=3)
22
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from companion.rules.datafile import Checker, read_toml
from companion.rules.errors import BettingError, Reason
from companion.rules.mascots import MASCOTS, Mascot

STACKS: tuple[str, ...] = tuple(m.value for m in MASCOTS) + ("yes", "no")
LEVELS: tuple[str, ...] = ("top", "middle", "bottom")
SIDES: tuple[str, ...] = ("safe", "risky")


@dataclass(frozen=True, slots=True, order=True)
class Ticket:
    """One physical betting ticket: ``stack`` (one of STACKS) and ``level`` (one of LEVELS)."""

    stack: str
    level: str

    @classmethod
    def parse(cls, text: str) -> "Ticket":
        """``"gobbler-top"`` -> Ticket. Raises BettingError naming the text and the expected form."""
        stack, _, level = str(text).strip().lower().partition("-")
        if stack not in STACKS or level not in LEVELS:
            raise BettingError(f"unknown ticket {text!r} (expected <{'|'.join(STACKS)}>-<{'|'.join(LEVELS)}>, "
                               "e.g. gobbler-top or yes-middle)", ticket=str(text))
        return cls(stack, level)

    @property
    def id(self) -> str:
        return f"{self.stack}-{self.level}"

    @property
    def is_side(self) -> bool:
        """True for a YES/NO side ticket, False for a mascot ticket."""
        return self.stack in ("yes", "no")

    @property
    def mascot(self) -> Mascot | None:
        return None if self.is_side else Mascot(self.stack)

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True, slots=True)
class Bet:
    """A drafted ticket: which ticket, the side chosen when drafting, and whether it is doubled (race 3)."""

    ticket: Ticket
    side: str
    double: bool = False

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise BettingError(f"ticket {self.ticket}: side {self.side!r} is not safe or risky",
                               ticket=self.ticket.id)

    def to_dict(self) -> dict[str, Any]:
        return {"ticket": self.ticket.id, "side": self.side, "double": self.double}


@dataclass(frozen=True)
class TicketTable:
    """Ticket data (docs/rules.md 6-7). ``mascot[(level, side)]`` is the payout per paid place (index place-1);
    ``side[(level, side)]`` is ``(right, wrong)``; ``start_money[variant value]`` is the starting dollars."""

    mascot: Mapping[tuple[str, str], tuple[int, ...]]
    side: Mapping[tuple[str, str], tuple[int, int]]
    start_money: Mapping[str, int] = field(default_factory=lambda: {"standard": 10, "open": 0})
    double_race: int = 3
    double_factor: int = 2
    place_pots: tuple[int, ...] = (18, 12, 6)
    side_pot: int = 18


def load_tickets(path: str | Path | None = None) -> TicketTable:
    """Load and validate a ticket file (default: the packaged ``data/tickets.toml``).

    Raises DataFileError listing every problem with its key path (``mascot.top.risky[2]: ...``).
    """
    data, source = read_toml(path, "tickets.toml")
    c = Checker(source)
    c.unknown_keys(data, {"start_money", "mascot", "side", "double", "open"}, "")
    start = _table(c, data, "start_money", "")
    c.unknown_keys(start, {"standard", "open"}, "start_money.")
    start_money = {v: c.integer(start, v, "start_money.", 0, 100000) for v in ("standard", "open")}
    mascot: dict[tuple[str, str], tuple[int, ...]] = {}
    side: dict[tuple[str, str], tuple[int, int]] = {}
    for kind, length, what in (("mascot", len(MASCOTS), "one amount per paid place"),
                               ("side", 2, "[right, wrong]")):
        kind_table = _table(c, data, kind, "")
        c.unknown_keys(kind_table, set(LEVELS), f"{kind}.")
        for level in LEVELS:
            level_table = _table(c, kind_table, level, f"{kind}.")
            c.unknown_keys(level_table, set(SIDES), f"{kind}.{level}.")
            for s in SIDES:
                amounts = c.int_list(level_table, s, f"{kind}.{level}.", -1000, 1000) if s in level_table else None
                if amounts is None:
                    c.problem(f"{kind}.{level}.{s}", f"missing (expected {what})")
                elif len(amounts) != length:
                    c.problem(f"{kind}.{level}.{s}", f"{amounts} has {len(amounts)} amounts (expected {length}: {what})")
                elif kind == "mascot":
                    mascot[(level, s)] = tuple(amounts)
                else:
                    side[(level, s)] = (amounts[0], amounts[1])
    double = _table(c, data, "double", "")
    c.unknown_keys(double, {"race", "factor"}, "double.")
    double_race = c.integer(double, "race", "double.", 1, 100)
    double_factor = c.integer(double, "factor", "double.", 1, 100)
    open_ = _table(c, data, "open", "")
    c.unknown_keys(open_, {"place_pots", "side_pot"}, "open.")
    place_pots = c.int_list(open_, "place_pots", "open.", 0, 100000)
    if len(place_pots) > len(MASCOTS):
        c.problem("open.place_pots", f"{len(place_pots)} pots (expected at most one per place, {len(MASCOTS)})")
    side_pot = c.integer(open_, "side_pot", "open.", 0, 100000)
    c.finish()
    return TicketTable(mascot, side, start_money, double_race, double_factor, tuple(place_pots), side_pot)


def _table(c: Checker, data: dict[str, Any], key: str, path: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        c.problem(f"{path}{key}", "missing table" if value is None else f"{value!r} is not a table")
        return {}
    return value


class Stacks:
    """The six ticket stacks of one race (docs/rules.md 6): only the top remaining ticket of a stack can be drafted.

    A plain value: ``taken[stack]`` counts the tickets drafted from that stack (0..3).
    """

    def __init__(self, taken: Mapping[str, int] | None = None):
        self.taken: dict[str, int] = {s: 0 for s in STACKS}
        if taken:
            self.taken.update(taken)

    def top(self, stack: str) -> Ticket | None:
        """The ticket on top of ``stack`` now, or None when it is empty."""
        n = self.taken[stack]
        return Ticket(stack, LEVELS[n]) if n < len(LEVELS) else None

    def available(self) -> list[Ticket]:
        """The tickets that can be drafted now, one per non-empty stack, in STACKS order."""
        return [t for t in (self.top(s) for s in STACKS) if t is not None]

    def check(self, ticket: Ticket) -> None:
        """Raise BettingError if ``ticket`` is not on top of its stack (already drafted, or one above it left)."""
        top = self.top(ticket.stack)
        if top == ticket:
            return
        if top is None:
            raise BettingError(f"ticket {ticket} cannot be drafted: the {ticket.stack} stack is empty", Reason.NOT_TOP,
                               ticket=ticket.id)
        if LEVELS.index(ticket.level) < self.taken[ticket.stack]:
            raise BettingError(f"ticket {ticket} was already drafted this race (expected {top}, the top of "
                               f"the {ticket.stack} stack)", Reason.ALREADY, ticket=ticket.id)
        raise BettingError(f"ticket {ticket} is not on top of its stack (expected {top})", Reason.NOT_TOP,
                           ticket=ticket.id)

    def take(self, ticket: Ticket) -> None:
        """Draft ``ticket`` off its stack; raises BettingError (nothing changed) if it is not on top."""
        self.check(ticket)
        self.taken[ticket.stack] += 1

    def copy(self) -> "Stacks":
        return Stacks(self.taken)


def _place(placings: Mapping[Mascot, int], mascot: Mascot) -> int:
    try:
        return placings[mascot]
    except KeyError:
        raise BettingError(f"no paid place for {mascot.value} (expected placings for every mascot)",
                           Reason.MISSING, mascot=mascot.value) from None


def bet_amount(bet: Bet, placings: Mapping[Mascot, int], side_happened: bool | None, table: TicketTable,
               race_no: int) -> int:
    """The dollars one drafted ticket pays (negative for a lost risky side ticket), doubled if marked.

    ``placings`` maps each mascot to its paid place (``Race.outcome.placings``: 4th and the shared worse place
    of a simultaneous-DQ tie already applied). ``side_happened`` answers the race's side bet (needed for
    YES/NO tickets). Raises BettingError for a double outside the double race or a missing answer/place.
    """
    if bet.double and race_no != table.double_race:
        raise BettingError(f"ticket {bet.ticket} is doubled in race {race_no} "
                           f"(only race {table.double_race} has doubles)", Reason.NO_DOUBLE, ticket=bet.ticket.id,
                           race=race_no)
    if bet.ticket.is_side:
        if side_happened is None:
            raise BettingError(f"ticket {bet.ticket} needs the side bet's answer (expected happened true/false)",
                               Reason.MISSING, ticket=bet.ticket.id)
        right = (bet.ticket.stack == "yes") == bool(side_happened)
        amount = table.side[(bet.ticket.level, bet.side)][0 if right else 1]
    else:
        payouts = table.mascot[(bet.ticket.level, bet.side)]
        place = _place(placings, Mascot(bet.ticket.stack))  # not a side stack: a mascot's
        amount = payouts[place - 1] if 1 <= place <= len(payouts) else 0
    return amount * table.double_factor if bet.double else amount


def settle(money: int, bets: Iterable[Bet], placings: Mapping[Mascot, int], side_happened: bool | None,
           table: TicketTable, race_no: int) -> int:
    """A player's money after settling all their tickets of a race together (docs/rules.md 6):
    ``max(0, money + sum of amounts)``. Raises BettingError as :func:`bet_amount`."""
    return max(0, money + sum(bet_amount(b, placings, side_happened, table, race_no) for b in bets))


def check_bets(bets_by_player: Iterable[Iterable[Bet]], race_no: int, table: TicketTable) -> None:
    """Raise BettingError for a ticket held twice (by anyone), a double outside the double race, or more
    than one doubled ticket for one player."""
    seen: set[Ticket] = set()
    for i, bets in enumerate(bets_by_player):
        doubles = 0
        for bet in bets:
            if bet.ticket in seen:
                raise BettingError(f"ticket {bet.ticket} is drafted twice (each ticket exists once)", Reason.ALREADY,
                                   ticket=bet.ticket.id)
            seen.add(bet.ticket)
            if bet.double:
                doubles += 1
                if race_no != table.double_race:
                    raise BettingError(f"ticket {bet.ticket} is doubled in race {race_no} "
                                       f"(only race {table.double_race} has doubles)", Reason.NO_DOUBLE,
                                       ticket=bet.ticket.id, race=race_no)
        if doubles > 1:
            raise BettingError(f"player {i + 1} doubles {doubles} tickets (expected at most one)", Reason.NO_DOUBLE,
                               seat=i + 1)


@dataclass(frozen=True, slots=True)
class OpenBet:
    """An open-variant paper bet (docs/rules.md 7): a mascot, a YES/NO answer, and in the double race which of
    the two is doubled (``"mascot"``, ``"side"`` or None)."""

    mascot: Mascot
    answer: bool
    double: str | None = None

    def __post_init__(self) -> None:
        if self.double not in (None, "mascot", "side"):
            raise BettingError(f"double {self.double!r} is not mascot, side or null")


def pot_share(pot: int, sharing: int, doubled: bool, table: TicketTable) -> int:
    """One bet's share of ``pot`` dollars split among ``sharing`` bets (docs/rules.md 7): rounded down, times the
    double factor when ``doubled`` (at least one bet shares it).

    >>> pot_share(18, 4, False, TicketTable({}, {})), pot_share(18, 4, True, TicketTable({}, {}))
    (4, 8)
    """
    return (pot // max(1, sharing)) * (table.double_factor if doubled else 1)


def open_gains(bets: list[OpenBet], placings: Mapping[Mascot, int], side_happened: bool, table: TicketTable,
               race_no: int) -> list[tuple[int, int]]:
    """Each player's (mascot pot share, side pot share) in the open variant (docs/rules.md 7).

    Each place pot is split among the players who named the mascot paid that place, the side pot among the
    right answers; each share rounds down, and a doubled bet gets its share times the double factor.
    Raises BettingError for a double outside the double race or a missing place.
    """
    for bet in bets:
        if bet.double is not None and race_no != table.double_race:
            raise BettingError(f"a {bet.double} bet is doubled in race {race_no} "
                               f"(only race {table.double_race} has doubles)", Reason.NO_DOUBLE, race=race_no)
    mascot = [0] * len(bets)
    for place, pot in enumerate(table.place_pots, start=1):
        winners = [i for i, b in enumerate(bets) if _place(placings, b.mascot) == place]
        for i in winners:
            mascot[i] += pot_share(pot, len(winners), bets[i].double == "mascot", table)
    side = [0] * len(bets)
    right = [i for i, b in enumerate(bets) if b.answer == bool(side_happened)]
    for i in right:
        side[i] += pot_share(table.side_pot, len(right), bets[i].double == "side", table)
    return list(zip(mascot, side))


def settle_open(money: list[int], bets: list[OpenBet], placings: Mapping[Mascot, int], side_happened: bool,
                table: TicketTable, race_no: int) -> list[int]:
    """New money per player in the open variant (docs/rules.md 7): money + both pot shares (:func:`open_gains`).
    Raises BettingError as :func:`open_gains`, or for a different number of players and bets."""
    if len(money) != len(bets):
        raise BettingError(f"{len(money)} amounts of money for {len(bets)} bets (expected one each)",
                           Reason.MISSING)
    gains = open_gains(bets, placings, side_happened, table, race_no)
    return [max(0, m + a + b) for m, (a, b) in zip(money, gains)]
