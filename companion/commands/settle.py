"""Settle one race's bets: read a JSON object on stdin, print every player's new money as JSON.

Input: {"race": 1-3, "variant": "standard"|"open", "placings": {mascot: paid place},
"side_bet": {"card": id, "happened": bool}, "players": [{"name", "money", "tickets": [{"ticket":
"gobbler-top", "side": "safe"|"risky", "double": bool}]}]} (open variant: "bet": {"mascot", "answer":
"yes"|"no", "double": "mascot"|"side"|null} instead of "tickets").
Output: {"players": [{"name", "money", "change"}]}.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.rules.betting import Bet, OpenBet, Ticket, check_bets, load_tickets, settle, settle_open
from companion.rules.errors import BettingError
from companion.rules.mascots import MASCOTS, Mascot
from companion.rules.sidebets import load_side_bets


class SettleInputError(BettingError):
    """The settle input does not have the documented shape."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tickets", help="ticket data file (TOML); default: the packaged tickets")
    p.add_argument("--side-bets", help="side bet data file (TOML); default: the packaged side bets")


def _field(obj: Any, key: str, kind: type, where: str) -> Any:
    """obj[key] checked to be of ``kind`` (a bool is not an int here); raises SettleInputError naming it."""
    if not isinstance(obj, dict):
        raise SettleInputError(f"{where} is {json.dumps(obj)} (expected a JSON object)")
    if key not in obj:
        raise SettleInputError(f"{where} has no {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise SettleInputError(f"{where}.{key} is {json.dumps(value)} (expected {_KINDS.get(kind, kind.__name__)})")
    return value


_KINDS = {int: "a whole number", str: "a string", bool: "true or false", dict: "a JSON object", list: "a list"}


def settle_input(data: Any, tickets_path: str | None = None, side_bets_path: str | None = None) -> dict[str, Any]:
    """The settle contract as a function: parsed input -> output dict. Raises BettingError/ValueError
    naming the bad value."""
    table = load_tickets(tickets_path)
    side_bets = load_side_bets(side_bets_path)
    if not isinstance(data, dict):
        raise SettleInputError("input is not a JSON object (expected {\"race\", \"variant\", \"placings\", "
                               "\"side_bet\", \"players\"})")
    race_no = _field(data, "race", int, "input")
    if not 1 <= race_no <= 3:
        raise SettleInputError(f"race {race_no} is out of range (expected 1..3)")
    variant = data.get("variant", "standard")
    if variant not in ("standard", "open"):
        raise SettleInputError(f"variant {json.dumps(variant)} is not standard or open")
    raw_placings = _field(data, "placings", dict, "input")
    placings: dict[Mascot, int] = {}
    for name, place in raw_placings.items():
        mascot = Mascot.from_name(name)
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= len(MASCOTS):
            raise SettleInputError(f"placings.{name} is {json.dumps(place)} (expected a paid place 1..{len(MASCOTS)})")
        placings[mascot] = place
    missing = [m.value for m in MASCOTS if m not in placings]
    if missing:
        raise SettleInputError(f"placings has no place for {', '.join(missing)} (expected every mascot)")
    side = _field(data, "side_bet", dict, "input")
    side_bets.by_id(_field(side, "card", str, "side_bet"))
    happened = _field(side, "happened", bool, "side_bet")
    players = _field(data, "players", list, "input")
    names: list[str] = []
    money: list[int] = []
    for i, player in enumerate(players):
        where = f"players[{i}]"
        names.append(_field(player, "name", str, where))
        amount = _field(player, "money", int, where)
        if amount < 0:
            raise SettleInputError(f"{where}.money is {amount} (expected 0 or more dollars)")
        money.append(amount)
    if variant == "open":
        bets = []
        for i, player in enumerate(players):
            where = f"players[{i}].bet"
            bet = _field(player, "bet", dict, f"players[{i}]")
            answer = _field(bet, "answer", str, where)
            if answer not in ("yes", "no"):
                raise SettleInputError(f"{where}.answer is {json.dumps(answer)} (expected yes or no)")
            double = bet.get("double")
            if double not in (None, "mascot", "side"):
                raise SettleInputError(f"{where}.double is {json.dumps(double)} (expected mascot, side or null)")
            bets.append(OpenBet(Mascot.from_name(_field(bet, "mascot", str, where)), answer == "yes", double))
        after = settle_open(money, bets, placings, happened, table, race_no)
    else:
        held: list[list[Bet]] = []
        for i, player in enumerate(players):
            mine = []
            for k, entry in enumerate(_field(player, "tickets", list, f"players[{i}]")):
                where = f"players[{i}].tickets[{k}]"
                ticket = Ticket.parse(_field(entry, "ticket", str, where))
                side_ = _field(entry, "side", str, where)
                if side_ not in ("safe", "risky"):
                    raise SettleInputError(f"{where}.side is {json.dumps(side_)} (expected safe or risky)")
                double = entry.get("double", False)
                if not isinstance(double, bool):
                    raise SettleInputError(f"{where}.double is {json.dumps(double)} (expected true or false)")
                mine.append(Bet(ticket, side_, double))
            held.append(mine)
        check_bets(held, race_no, table)
        after = [settle(m, bets, placings, happened, table, race_no) for m, bets in zip(money, held)]
    return {"players": [{"name": n, "money": a, "change": a - m} for n, m, a in zip(names, money, after)]}


def run(args: argparse.Namespace) -> int:
    text = sys.stdin.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SettleInputError(f"input is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    print(json.dumps(settle_input(data, args.tickets, args.side_bets)))
    return 0
