"""Phone requests -> the text inputs the table already knows, checked like a scan before they are queued.

A phone never sends code text: it sends what it wants (``{"seat": 3, "name": "Ann"}``) and this module writes
the one input that does it (``HS-NAME-3:Ann``) after checking that the phone holds that seat and that the
phase allows it. Anything else raises :class:`WebRefusal` with a one-line message, and nothing is queued.
Undo, a new game and GO are not among the inputs a phone can make (they stay with the scanner and buttons).
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.rules.codes import SeatNameCode, parse_code
from companion.rules.errors import HotStreakError
from companion.rules.mascots import MASCOTS
from companion.web.seats import token_matches

MASCOT_NAMES = tuple(m.value for m in MASCOTS)


class WebRefusal(Exception):
    """A phone request that does not fit: ``status`` is the HTTP status, the message one line."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def _seat(body: Mapping[str, Any], view: Mapping[str, Any]) -> int:
    seat = body.get("seat")
    players = view.get("players") or 0
    if view.get("phase") in (None, "new-game") or not players:
        raise WebRefusal("no game yet: seats open once the player count is scanned", 409)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= players:
        raise WebRefusal(f"seat {seat!r} is not at this table (expected a seat 1..{players})")
    return seat


def _owner(body: Mapping[str, Any], seat: int, secret: bytes, claims: Mapping[int, int]) -> None:
    if not token_matches(secret, dict(claims), seat, body.get("token")):
        raise WebRefusal(f"seat {seat} is not yours (expected the phone that claimed seat {seat})", 403)


def name_text(body: Mapping[str, Any], view: Mapping[str, Any], secret: bytes, claims: Mapping[int, int],
              pending: set[int]) -> tuple[int, str]:
    """A claim or rename: ``{"seat", "name", "token"?}`` -> (seat, ``HS-NAME-<seat>:<name>``). A free seat
    can be claimed by any phone; a claimed one only renamed by its owner. ``pending`` holds seats whose
    claim is on its way to the table (a second phone is refused meanwhile). Raises WebRefusal."""
    seat = _seat(body, view)
    if view.get("phase") == "game-over":
        raise WebRefusal("the game is over: seats open again with the next game", 409)
    name = body.get("name")
    if not isinstance(name, str) or not " ".join(name.split()):
        raise WebRefusal(f"name {name!r} is not valid (expected 1-16 letters, digits or spaces)")
    if seat in claims:
        _owner(body, seat, secret, claims)
    elif seat in pending:
        raise WebRefusal(f"seat {seat} is being claimed by another phone (expected a free seat)", 409)
    text = f"HS-NAME-{seat}:{' '.join(name.split())}"
    return seat, _checked(text, SeatNameCode)


def leave_text(body: Mapping[str, Any], view: Mapping[str, Any], secret: bytes, claims: Mapping[int, int]) -> str:
    """Give a seat up: ``{"seat", "token"}`` -> ``HS-NAME-<seat>:`` (clears the name, frees the claim)."""
    seat = _seat(body, view)
    _owner(body, seat, secret, claims)
    return _checked(f"HS-NAME-{seat}:", SeatNameCode)


def bet_text(body: Mapping[str, Any], view: Mapping[str, Any], secret: bytes, claims: Mapping[int, int]) -> str:
    """An open-variant bet (RULES.md 7): ``{"seat", "token", "mascot", "answer": "yes"|"no", "double":
    "mascot"|"side"|null}`` -> the bet's text input (:func:`open_bet_input`). Only the seat's owner, only in
    the open variant while betting is open. Raises WebRefusal."""
    seat = _seat(body, view)
    _owner(body, seat, secret, claims)
    if view.get("variant") != "open":
        raise WebRefusal("bets are placed on the phone in the open variant only (this table drafts tickets)", 409)
    if view.get("phase") != "betting":
        raise WebRefusal(f"betting is closed (the table is in {view.get('phase')}; expected betting)", 409)
    mascot, answer, double = body.get("mascot"), body.get("answer"), body.get("double")
    if mascot not in MASCOT_NAMES:
        raise WebRefusal(f"mascot {mascot!r} is not valid (expected one of: {', '.join(MASCOT_NAMES)})")
    if answer not in ("yes", "no"):
        raise WebRefusal(f"answer {answer!r} is not valid (expected yes or no)")
    if double not in (None, "mascot", "side"):
        raise WebRefusal(f"double {double!r} is not valid (expected mascot, side or none)")
    return open_bet_input(seat, str(mascot), answer == "yes", double)


def open_bet_input(seat: int, mascot: str, answer: bool, double: str | None) -> str:
    """The one place that turns a phone bet into the table's text input for it (the same text a scan or the
    keyboard would give): ``HS-BET-<seat>-<MASCOT>-<YES|NO>`` plus ``-2M``/``-2S`` for a race-3 double."""
    text = f"HS-BET-{seat}-{mascot.upper()}-{'YES' if answer else 'NO'}"
    if double:
        text += "-2" + double[0].upper()
    return text


def _checked(text: str, kind: type) -> str:
    """Parse ``text`` like a scan and make sure it is of ``kind`` (never a control code)."""
    try:
        code = parse_code(text)
    except HotStreakError as exc:
        raise WebRefusal(str(exc)) from None
    if not isinstance(code, kind):
        raise WebRefusal(f"{text!r} is not an input a phone may make")
    return text
