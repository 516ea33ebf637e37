"""The phone page's refusals (companion/web/inputs.py): each claim, rename, leave and bet it refuses carries its
reason code and its HTTP status."""

from __future__ import annotations

import pytest

from companion.rules.errors import Reason
from companion.web.inputs import WebRefusal, bet_texts, leave_text, name_text
from companion.web.seats import seat_token

SECRET = b"k" * 32
VIEW = {"phase": "betting", "players": 3, "variant": "open", "race": 1, "double_race": 3, "seats": [{}, {}, {}]}


def _token(seat: int) -> str:
    return seat_token(SECRET, seat, 1)


@pytest.mark.parametrize("call, reason, status", [
    (lambda: name_text({"seat": 1, "name": "Ann"}, {"phase": "new-game"}, SECRET, {}, set()),
     Reason.PLAYERS_FIRST, 409),
    (lambda: name_text({"seat": 4, "name": "Ann"}, VIEW, SECRET, {}, set()), Reason.SEAT, 400),
    (lambda: name_text({"seat": 1, "name": "Ann"}, {**VIEW, "phase": "game-over"}, SECRET, {}, set()),
     Reason.GAME_OVER, 409),
    (lambda: name_text({"seat": 1, "name": " "}, VIEW, SECRET, {}, set()), Reason.NAME, 400),
    (lambda: name_text({"seat": 1, "name": "HS15"}, VIEW, SECRET, {}, set()), Reason.NAME, 400),
    (lambda: name_text({"seat": 1, "name": "Ann"}, VIEW, SECRET, {1: 1}, set()), Reason.NOT_YOURS, 403),
    (lambda: name_text({"seat": 1, "name": "Ann"}, VIEW, SECRET, {}, {1}), Reason.NOT_YOURS, 409),
    (lambda: leave_text({"seat": 1, "token": "nope"}, VIEW, SECRET, {1: 1}), Reason.NOT_YOURS, 403),
    (lambda: bet_texts({"seat": 1, "token": _token(1), "mascot": "mum"}, {**VIEW, "variant": "standard"}, SECRET,
                       {1: 1}), Reason.VARIANT, 409),
    (lambda: bet_texts({"seat": 1, "token": _token(1), "mascot": "mum"}, {**VIEW, "phase": "racing"}, SECRET,
                       {1: 1}), Reason.WRONG_TIME, 409),
    (lambda: bet_texts({"seat": 1, "token": _token(1), "mascot": "mum"}, {**VIEW, "double_armed": True}, SECRET,
                       {1: 1}), Reason.WRONG_TIME, 409),
    (lambda: bet_texts({"seat": 1, "token": _token(1), "mascot": "pig"}, VIEW, SECRET, {1: 1}), Reason.UNKNOWN, 400),
    (lambda: bet_texts({"seat": 1, "token": _token(1), "answer": "maybe"}, VIEW, SECRET, {1: 1}), Reason.UNKNOWN,
     400),
    (lambda: bet_texts({"seat": 1, "token": _token(1), "mascot": "mum", "double": "all"}, VIEW, SECRET, {1: 1}),
     Reason.UNKNOWN, 400),
    (lambda: bet_texts({"seat": 1, "token": _token(1), "mascot": "mum", "double": "mascot"}, VIEW, SECRET, {1: 1}),
     Reason.NO_DOUBLE, 409),
    (lambda: bet_texts({"seat": 1, "token": _token(1), "answer": "yes", "double": "mascot"},
                       {**VIEW, "race": 3}, SECRET, {1: 1}), Reason.MISSING, 400),
    (lambda: bet_texts({"seat": 1, "token": _token(1)}, VIEW, SECRET, {1: 1}), Reason.MISSING, 400),
    (lambda: bet_texts({"seat": 1, "token": _token(1), "mascot": "mum"},
                       {**VIEW, "seats": [{"bet": {"mascot": "mum"}}, {}, {}]}, SECRET, {1: 1}), Reason.ALREADY, 400),
], ids=["no-game", "seat", "game-over", "blank-name", "name-as-code", "claimed", "being-claimed", "leave-not-yours",
        "bet-standard", "bet-closed", "bet-double-armed", "bet-mascot", "bet-answer", "bet-double-kind",
        "bet-double-race", "bet-double-needs-bet", "bet-nothing", "bet-same"])
def test_every_phone_refusal_carries_its_reason(call, reason, status):
    with pytest.raises(WebRefusal) as info:
        call()
    assert (info.value.reason, info.value.status) == (reason, status), str(info.value)
