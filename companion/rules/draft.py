"""The betting phase's inputs of a game: drafting tickets, the race 3 double, open-variant bets
(docs/rules.md 6-7). Functions of a :class:`companion.rules.game.Game`, kept apart so the game stays small.

The double is marked with two different codes, ``HS-DOUBLE`` then the drafted ticket (or the open bet):
scanning the same ticket twice never doubles it, so a scanner's repeat (the same code resent within its
repeat window) can neither eat the mark nor make one by accident.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.betting import Bet, Ticket
from companion.rules.codes import OpenBetCode, TicketCode
from companion.rules.errors import BettingError, Reason, RefusedError
from companion.rules.events import Event
from companion.rules.game_events import DoubleArmed, DoubleMarked, TicketDrafted
from companion.rules.game_view import expected
from companion.rules.phases import Phase, Variant

if TYPE_CHECKING:
    from companion.rules.game import Game


def ticket(game: "Game", code: TicketCode) -> list[Event]:
    """A betting ticket scanned in BETTING: drafted by the seat whose pick it is, or (after HS-DOUBLE) the
    drafted ticket to double. Raises RefusedError (nothing changed) naming the ticket and what is expected."""
    text = code.code()
    if game.variant is Variant.OPEN:
        raise RefusedError(f"ticket {text}: the open variant has no tickets (expected bets as "
                           "HS-BET-<seat>-<mascot|YES|NO>)", Reason.VARIANT, code=text)
    if game.phase is not Phase.BETTING:
        raise RefusedError(f"ticket {text} cannot be scanned in {game.phase.value} (expected {expected(game)})",
                           Reason.WRONG_TIME, code=text, phase=game.phase.value)
    ticket = Ticket(code.stack, code.level)
    owner = next((s for s, bets in game.tickets.items() if any(b.ticket == ticket for b in bets)), None)
    if owner is not None:
        if game.double_armed:
            return _mark_double(game, owner, ticket, code.side, text)
        how = (f" (to double it: HS-DOUBLE, then the ticket)" if game.is_double_race else "")
        raise RefusedError(f"ticket {text} ({ticket}) was already drafted by {game.seat_text(owner)} this race"
                           f"{how}; expected {expected(game)}", Reason.ALREADY, code=text, ticket=ticket.id,
                           seat=owner + 1)
    if game.double_armed:
        raise RefusedError(f"ticket {text} ({ticket}) is not drafted: HS-DOUBLE waits for a drafted ticket to "
                           "double (expected one of a seat's own tickets, or HS-UNDO to take back HS-DOUBLE)",
                           Reason.NO_DOUBLE, code=text, ticket=ticket.id)
    if game.draft_complete:
        raise RefusedError(f"ticket {text}: the draft is complete "
                           f"(expected {expected(game)})", Reason.DRAFT_DONE, code=text)
    if ticket.is_side and game.side_bet is None:
        raise RefusedError(f"ticket {text}: no side bet card yet (expected the side bet card "
                           f"HS-S01..HS-S{len(game.side_bets):02d} before YES/NO tickets)", Reason.SIDE_BET_FIRST,
                           code=text)
    try:
        game.stacks.check(ticket)
    except BettingError as exc:
        raise RefusedError(f"ticket {text}: {exc}", exc.reason, **{**exc.fields, "code": text}) from None
    seat = game.current_drafter
    assert seat is not None
    game.stacks.take(ticket)
    game.tickets[seat].append(Bet(ticket, code.side))
    game.picks += 1
    return [TicketDrafted(seat, ticket.id, code.side, game.picks, game.race_no)]


def _mark_double(game: "Game", seat: int, ticket: Ticket, side: str, text: str) -> list[Event]:
    bets = game.tickets[seat]
    need = game.figures.tickets_per_player
    who = game.seat_text(seat)
    if len(bets) < need:
        raise RefusedError(f"ticket {text} ({ticket}) is {who}'s; a double is marked once the seat "
                           f"holds all {need} tickets (expected {expected(game)})", Reason.NO_DOUBLE, code=text,
                           ticket=ticket.id, seat=seat + 1)
    i = next(k for k, b in enumerate(bets) if b.ticket == ticket)
    if bets[i].side != side:
        raise RefusedError(f"ticket {text}: {who} drafted {ticket} on the {bets[i].side} side "
                           f"(expected that side's code to double it)", Reason.NO_DOUBLE, code=text, ticket=ticket.id,
                           seat=seat + 1)
    if bets[i].double:
        raise RefusedError(f"ticket {text} ({ticket}) is already {who}'s doubled ticket", Reason.ALREADY, code=text,
                           ticket=ticket.id, seat=seat + 1)
    previous = next((b.ticket.id for b in bets if b.double), None)
    game.tickets[seat] = [Bet(b.ticket, b.side, k == i) for k, b in enumerate(bets)]
    game.double_armed = False
    return [DoubleMarked(seat, ticket.id, previous)]


def arm_double(game: "Game") -> list[Event]:
    """``HS-DOUBLE`` in the double race's betting: the next ticket or open bet scanned is the doubled one.
    Raises RefusedError outside it, when already armed, or before any seat holds all its tickets."""
    if game.phase is not Phase.BETTING or not game.is_double_race:
        raise RefusedError(f"HS-DOUBLE: only race {game.ticket_table.double_race}'s betting has doubles "
                           f"(now race {game.race_no}, {game.phase.value}; expected {expected(game)})",
                           Reason.NO_DOUBLE, code="HS-DOUBLE", race=game.race_no)
    if game.double_armed:
        raise RefusedError("HS-DOUBLE is already waiting for the ticket or bet to double "
                           "(expected that ticket or bet, or HS-UNDO)", Reason.ALREADY, code="HS-DOUBLE")
    need = game.figures.tickets_per_player
    if game.variant is Variant.STANDARD and not any(len(b) >= need for b in game.tickets.values()):
        raise RefusedError(f"HS-DOUBLE: no seat holds all {need} tickets yet (a seat doubles after its "
                           f"last pick; expected {expected(game)})", Reason.NO_DOUBLE, code="HS-DOUBLE")
    game.double_armed = True
    return [DoubleArmed(game.race_no)]


def open_bet(game: "Game", code: OpenBetCode) -> list[Event]:
    """An open-variant bet in BETTING (after HS-DOUBLE: the doubled one). Raises RefusedError naming it."""
    text = code.code()
    if game.variant is not Variant.OPEN:
        raise RefusedError(f"{text} is an open-variant bet; this game is standard (expected betting tickets)",
                           Reason.VARIANT, code=text)
    if game.phase is not Phase.BETTING:
        raise RefusedError(f"{text} cannot be entered in {game.phase.value} (expected {expected(game)})",
                           Reason.WRONG_TIME, code=text, phase=game.phase.value)
    if game.double_armed:
        code = OpenBetCode(code.seat, code.choice, True)
    event = game.book.place(code, game.race_no, game.ticket_table.double_race, game.side_bet, True)
    game.double_armed = False
    return [event]
