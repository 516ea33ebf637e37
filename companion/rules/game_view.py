"""Read-only views of a :class:`companion.rules.game.Game`: its JSON summary and the one-line prompts that
tell the table what to do next (shown on screen, spoken by the voice, used in refusal messages).

The double of race 3 is marked with ``HS-DOUBLE`` then the ticket (or open bet) to double, two different
codes, so a scanner's repeat window (which drops the same code sent twice within it) cannot eat either of
them. :data:`DOUBLE_PROMPT` is the fixed line that explains it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.phases import Phase, Variant

if TYPE_CHECKING:
    from companion.rules.game import Game

DOUBLE_PROMPT = "Last race: each player doubles one ticket. After your last pick scan HS-DOUBLE, then that ticket."
DOUBLE_PROMPT_OPEN = "Last race: each player circles one bet to double: scan HS-DOUBLE, then that bet."
ARMED_PROMPT = "Now scan the ticket to double (HS-UNDO takes HS-DOUBLE back)."
ARMED_PROMPT_OPEN = "Now scan the bet to double (HS-UNDO takes HS-DOUBLE back)."


def double_prompt(game: "Game") -> str | None:
    """The double line while it matters (betting of the double race, someone still to mark), else None."""
    if game.phase is not Phase.BETTING or not game.is_double_race:
        return None
    open_ = game.variant is Variant.OPEN
    if game.double_armed:
        return ARMED_PROMPT_OPEN if open_ else ARMED_PROMPT
    if open_:
        pending = [s for s in range(game.players) if game.book.seat(s).double is None]
        return DOUBLE_PROMPT_OPEN if pending else None
    need = game.figures.tickets_per_player
    ready = [s for s in game.seats_without_double if len(game.tickets[s]) >= need]
    if ready:
        who = game.seat_text(ready[0])
        return f"{who[0].upper()}{who[1:]}: scan HS-DOUBLE, then the ticket you double."
    return DOUBLE_PROMPT if game.seats_without_double or game.picks == 0 else None


def side_bet_note(game: "Game") -> str | None:
    """While the side bet can still change (setup, betting before the first bet) and the kiosk only assumed
    it from its own order: a line telling the Dealer which card it answers, to check against the stack."""
    card = game.stack.card()
    if card is None or game.stack.scanned or game.phase not in (Phase.SETUP, Phase.BETTING):
        return None
    if game.picks or game.book.tracked:
        return None
    return f"The kiosk answers side bet card {card.number} ({card.code}); if the stack shows another card, scan it."


def expected(game: "Game") -> str:
    """What the game expects now, as the tail of a refusal message ("expected ...")."""
    p = game.phase
    if p is Phase.SETUP:
        return f"face-up card codes ({len(game.known_cards)} of {game.figures.face_up} scanned) or HS-GO"
    if p is Phase.BETTING:
        if game.double_armed:
            return "the ticket or bet to double, or HS-UNDO"
        if game.variant is Variant.OPEN:
            why = game.book.missing(game.is_double_race, game.side_bet is not None) if game.book.tracked else None
            return f"bets HS-BET-<seat>-<mascot|YES|NO>: {why}" if why else "bets HS-BET-<seat>-<mascot|YES|NO> or HS-GO"
        if not game.draft_complete:
            return f"a ticket from {game.seat_text(game.current_drafter or 0)}, on top of its stack"
        missing = game.seats_without_double
        if missing:
            return f"HS-DOUBLE, then one of {game.seat_text(missing[0])}'s tickets to double it"
        return "HS-GO to add cards"
    if p is Phase.ADDING_CARDS:
        return "HS-GO once every player has added their cards face down"
    if p is Phase.RACING:
        return "the next revealed card"
    if p is Phase.PAYOUTS:
        return "HS-GO for the next race" if game.race_no < game.rules.races else "HS-GO for the final standings"
    return "HS-NEW for a new game"


def prompt(game: "Game") -> str:
    """One line for the screen and the voice: what the table should do now."""
    double = double_prompt(game)
    if double:
        return double
    p = game.phase
    if p is Phase.BETTING and game.variant is Variant.OPEN and not game.book.tracked:
        return "Everyone bets a mascot and YES or NO (HS-BET codes), then GO."
    text = expected(game)
    return f"Next: {text}."


def game_dict(game: "Game") -> dict[str, Any]:
    """A JSON-ready summary of ``game`` (seats are 0-based list indexes)."""
    card = game.stack.card()
    race = game.race
    return {
        "phase": game.phase.value,
        "variant": game.variant.value,
        "players": game.players,
        "race": game.race_no,
        "races": game.rules.races,
        "money": list(game.money),
        "side_bet": game.side_bet,
        "side_bet_question": card.question if card else None,
        "side_bet_code": card.code if card else None,
        "side_bet_scanned": game.stack.scanned,
        "side_bet_note": side_bet_note(game),
        "side_bets_asked": list(game.stack.asked),
        "side_bet_happened": game.side_bet_happened,
        "side_bet_answer": game.side_bet_answer,
        "tickets_tracked": game.tickets_tracked,
        "tickets": [[b.to_dict() for b in game.tickets[s]] for s in range(game.players)],
        "open_bets": [game.book.seat(s).to_dict() for s in range(game.players)] if game.book.tracked else [],
        "double_armed": game.double_armed,
        "prompt": prompt(game),
        "double_prompt": double_prompt(game),
        "available_tickets": [t.id for t in game.stacks.available()] if game.variant is Variant.STANDARD else [],
        "draft_order": game.draft_order(game.race_no),
        "current_drafter": game.current_drafter,
        "known_cards": list(game.known_cards),
        "setup": game.figures.to_dict(),
        "placings": {m.value: p for m, p in race.outcome.placings.items()} if race else {},
        "results": [dict(r) for r in game.results],
        "standings": [s.to_dict() for s in game.standings],
    }
