"""Phone requests -> the text inputs the table already knows, checked like a scan before they are queued.

A phone never sends code text: it sends what it wants (``{"seat": 3, "name": "Ann"}``) and this module writes
the one input that does it (``HS-NAME-3:Ann``) after checking that the phone holds that seat and that the
phase allows it. Anything else raises :class:`WebRefusal` (a RefusedError with its reason code) with a one-line
message, and nothing is queued.
Undo, a new game and GO are not among the inputs a phone can make (they stay with the scanner and buttons).
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.rules.codes import (CardCode, Control, OpenBetCode, SeatNameCode, SideBetCode, TicketCode,
                                   parse_code)
from companion.rules.errors import Reason, RefusedError
from companion.rules.mascots import MASCOTS
from companion.web.names import name_refusal
from companion.web.seats import token_matches

MASCOT_NAMES = tuple(m.value for m in MASCOTS)
FORBIDDEN = (Control, CardCode, TicketCode, SideBetCode)  # what only the scanner and buttons may do


class WebRefusal(RefusedError):
    """A phone request that does not fit: a refusal with its ``reason`` and ``fields``; ``status`` is the HTTP
    status, the message one line."""

    def __init__(self, message: str, reason: Reason, status: int = 400, **fields: object):
        super().__init__(message, reason, **fields)
        self.status = status

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (str(self), self.reason, self.status, dict(self.fields)))


def _rebuild(message: str, reason: Reason, status: int, fields: dict[str, object]) -> WebRefusal:
    return WebRefusal(message, reason, status, **fields)


def _seat(body: Mapping[str, Any], view: Mapping[str, Any]) -> int:
    seat = body.get("seat")
    players = view.get("players") or 0
    if view.get("phase") in (None, "new-game") or not players:
        raise WebRefusal("no game yet: seats open once the player count is scanned", Reason.PLAYERS_FIRST, 409)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= players:
        raise WebRefusal(f"seat {seat!r} is not at this table (expected a seat 1..{players})", Reason.SEAT)
    return seat


def _owner(body: Mapping[str, Any], seat: int, secret: bytes, claims: Mapping[int, int]) -> None:
    token = body.get("token")
    if not isinstance(token, str) or not token.isascii():  # a token is hex digits; compare_digest takes ASCII only
        token = None
    if not token_matches(secret, dict(claims), seat, token):
        raise WebRefusal(f"seat {seat} is not yours (expected the phone that claimed seat {seat})", Reason.NOT_YOURS,
                         403, seat=seat)


def name_text(body: Mapping[str, Any], view: Mapping[str, Any], secret: bytes, claims: Mapping[int, int],
              pending: set[int]) -> tuple[int, str]:
    """A claim or rename: ``{"seat", "name", "token"?}`` -> (seat, ``HS-NAME-<seat>:<name>``). A free seat
    can be claimed by any phone; a claimed one only renamed by its owner. ``pending`` holds seats whose
    claim is on its way to the table (a second phone is refused meanwhile). The name may not be an unnamed
    seat's, another seat's or stack accents (:func:`companion.web.names.name_refusal`). Raises WebRefusal."""
    seat = _seat(body, view)
    if view.get("phase") == "game-over":
        raise WebRefusal("the game is over: seats open again with the next game", Reason.GAME_OVER, 409)
    name = body.get("name")
    if not isinstance(name, str) or not " ".join(name.split()):
        raise WebRefusal(f"name {name!r} is not valid (expected 1-16 letters, digits or spaces)", Reason.NAME,
                         seat=seat)
    if seat in claims:
        _owner(body, seat, secret, claims)
    elif seat in pending:
        raise WebRefusal(f"seat {seat} is being claimed by another phone (expected a free seat)", Reason.NOT_YOURS,
                         409, seat=seat)
    name = " ".join(name.split())
    if why := name_refusal(name, seat, view.get("seats") or []):
        raise WebRefusal(why, Reason.NAME, seat=seat)
    return seat, _checked(f"HS-NAME-{seat}:{name}", SeatNameCode)


def leave_text(body: Mapping[str, Any], view: Mapping[str, Any], secret: bytes, claims: Mapping[int, int]) -> str:
    """Give a seat up: ``{"seat", "token"}`` -> ``HS-NAME-<seat>:`` (clears the name, frees the claim)."""
    seat = _seat(body, view)
    _owner(body, seat, secret, claims)
    return _checked(f"HS-NAME-{seat}:", SeatNameCode)


def bet_texts(body: Mapping[str, Any], view: Mapping[str, Any], secret: bytes,
              claims: Mapping[int, int]) -> list[str]:
    """An open-variant bet (docs/rules.md section 7): ``{"seat", "token", "mascot", "answer": "yes"|"no", "double":
    "mascot"|"side"|null}`` -> the bet inputs that change the seat's bet (:func:`open_bet_inputs`; the seat's
    current bet is in ``view``). Only the seat's owner, only in the open variant while betting is open, a
    double only in the double race. Raises WebRefusal."""
    seat = _seat(body, view)
    _owner(body, seat, secret, claims)
    if view.get("variant") != "open":
        raise WebRefusal("bets are placed on the phone in the open variant only (this table drafts tickets)",
                         Reason.VARIANT, 409)
    if view.get("phase") != "betting":
        raise WebRefusal(f"betting is closed (the table is in {view.get('phase')}; expected betting)",
                         Reason.WRONG_TIME, 409, phase=view.get("phase"))
    if view.get("double_armed"):
        raise WebRefusal("HS-DOUBLE was just scanned at the table for a bet on the bet sheet "
                         "(expected that bet first; try again in a moment)", Reason.WRONG_TIME, 409)
    mascot, answer, double = body.get("mascot"), body.get("answer"), body.get("double")
    if mascot is not None and mascot not in MASCOT_NAMES:
        raise WebRefusal(f"mascot {mascot!r} is not valid (expected one of: {', '.join(MASCOT_NAMES)})",
                         Reason.UNKNOWN)
    if answer not in (None, "yes", "no"):
        raise WebRefusal(f"answer {answer!r} is not valid (expected yes or no)", Reason.UNKNOWN)
    if double not in (None, "mascot", "side"):
        raise WebRefusal(f"double {double!r} is not valid (expected mascot, side or none)", Reason.UNKNOWN)
    if double and view.get("race") != view.get("double_race"):
        raise WebRefusal(f"only race {view.get('double_race')} has doubles (now race {view.get('race')})",
                         Reason.NO_DOUBLE, 409, race=view.get("race"))
    if double and {"mascot": mascot, "side": answer}[double] is None:
        raise WebRefusal(f"a double on the {double} bet needs that bet (expected a "
                         f"{'mascot' if double == 'mascot' else 'YES/NO answer'})", Reason.MISSING)
    seats = view.get("seats") or []
    now = (seats[seat - 1].get("bet") if seat <= len(seats) else None) or {}
    texts = open_bet_inputs(seat, mascot, answer, double, now)
    if not texts:
        if mascot or answer:
            raise WebRefusal(f"seat {seat} already has this bet", Reason.ALREADY, seat=seat)
        raise WebRefusal("no bet given (expected a mascot and/or YES or NO)", Reason.MISSING)
    return [_checked(text, OpenBetCode) for text in texts]


def open_bet_inputs(seat: int, mascot: str | None, answer: str | None, double: str | None,
                    now: Mapping[str, Any] | None = None) -> list[str]:
    """The one place that turns a phone bet into the table's text inputs (the codes of the bet sheet,
    ``companion.rules.codes``): ``HS-BET-<seat>-<MASCOT>`` and ``HS-BET-<seat>-<YES|NO>``, ``-DOUBLE`` on the one
    circled for the double race. Parts equal to the seat's bet ``now`` (``{"mascot", "answer", "double"}``)
    are left out, so only what changes is journaled."""
    now = now or {}
    texts = []
    for kind, choice in (("mascot", mascot), ("side", answer)):
        if choice is None:
            continue
        same = now.get("mascot" if kind == "mascot" else "answer") == choice
        circle = double == kind
        if same and (not circle or now.get("double") == kind):
            continue
        texts.append(f"HS-BET-{seat}-{choice.upper()}" + ("-DOUBLE" if circle else ""))
    return texts


def _checked(text: str, kind: type) -> str:
    """Parse ``text`` like a scan and make sure it is of ``kind`` (never a control code)."""
    try:
        code = parse_code(text)
    except RefusedError as exc:
        raise WebRefusal(str(exc), exc.reason, 400, **exc.fields) from None
    if isinstance(code, FORBIDDEN) or not isinstance(code, kind):
        raise WebRefusal(f"{text!r} is not an input a phone may make", Reason.UNKNOWN, code=text)
    return text
