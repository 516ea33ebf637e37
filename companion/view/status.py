"""The ``hotstreak status --json`` object, built from a :class:`~companion.view.table_view.TableView`."""

from __future__ import annotations

from typing import Any, Mapping

from companion.rules.phases import Phase
from companion.view.table_view import TableView


def status_dict(view: TableView) -> dict[str, Any]:
    """phase, race, players, pass, revealed, mascots, placings (of the race being run or just run: also at
    payouts and at game over), money; ``variant`` ("standard"/"open", or the one chosen for the next game, or
    None); ``side_bet`` {card id, code HS-Snn, question, answer None|bool, scanned: confirmed by a scan (False:
    the kiosk's assumed next card)}; ``seats`` [{name, money, tickets [{ticket, side, double}], double: the
    doubled ticket id (open variant: "mascot"/"side"), bet: the open-variant bet or None}]."""
    game = view.game
    race = view.race
    side_bet: dict[str, Any] = {"card": None, "code": None, "question": None, "answer": None, "scanned": False}
    card = view.side_bet.card
    if game is not None and card is not None:
        side_bet = {"card": card.id, "code": card.code, "question": card.question,
                    "answer": view.side_bet.answer, "scanned": view.side_bet.scanned}
    seats: list[dict[str, Any]] = []
    for seat in view.seats:
        double = next((b.ticket.id for b in seat.tickets if b.double), None)
        seats.append({"name": seat.name, "money": seat.money, "tickets": [b.to_dict() for b in seat.tickets],
                      "double": seat.bet.double if seat.bet is not None else double,
                      "bet": seat.bet.to_dict() if seat.bet is not None else None})
    return {
        "phase": view.phase.value,
        "race": game.race_no if game is not None else 0,
        "players": game.players if game is not None else 0,
        "pass": race.pass_no if race else 0,
        "revealed": race.revealed if race else 0,
        "mascots": {s.mascot.value: s.to_dict() for s in view.shown.state.mascots},
        "placings": dict(view.placings),
        "money": list(game.money) if game is not None else [],
        "variant": view.variant.value if view.variant is not None else None,
        "side_bet": side_bet,
        "seats": seats,
    }


def status_line(view: TableView, hardware: Mapping[str, str]) -> str:
    """One line for systemd and logs: the game position and any device that is not well (``hardware``:
    part -> status text)."""
    s = status_dict(view)
    if view.phase is Phase.RACING:
        per = view.race.track.reveals_per_pass if view.race is not None else 15
        where = f"race {s['race']}, pass {s['pass']}, card {s['revealed']} of {per}"
    elif view.phase is Phase.NEW_GAME:
        where = "waiting for a new game"
    else:
        where = f"race {s['race']}, {s['phase']}"
    trouble = [v for k, v in hardware.items() if k != "hardware" and any(
        w in v.lower() for w in ("disconnected", "missing", "no-op", "failed", "error", "not "))]
    return "; ".join([where, *trouble])


__all__ = ["status_dict", "status_line"]
