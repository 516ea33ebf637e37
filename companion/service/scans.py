"""The scanner test's words: what a scanned text is (a card, a ticket, a control card...) and how it came in.

Pure. A known label is named in words (never its code or card notation); a text that is no Hot Streak label
is shown as read, so a scanner in the wrong keyboard layout or with a stray prefix shows what it sends.

>>> describe("HS-GO", "en")
'Control card: GO / NEXT'
>>> describe("HS-T-DANGLE-2-R", "en")
'Betting ticket: Dangle, middle, risky side'
>>> how({"mode": "serial", "suffix": "CR LF", "ms": 11.6, "repeats": 2}, "en")
['Scanner: serial port', 'Line end: CR LF; 12 ms from first to last byte', 'Repeats dropped: 2']
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.rules.codes import (CardCode, Control, OpenBetCode, SeatNameCode, SideBetCode, TicketCode,
                                   parse_code)
from companion.rules.deck import Deck, load_deck
from companion.rules.errors import HotStreakError
from companion.screen.words import action
from companion.service.words import say

__all__ = ["describe", "how"]


def describe(text: str, lang: str, deck: Deck | None = None) -> str:
    """One line in ``lang`` saying what ``text`` is as a Hot Streak label, or that it is none."""
    try:
        code = parse_code(text)
    except HotStreakError:
        return say(lang, "scan_unknown")
    if isinstance(code, CardCode):
        try:
            card = (deck or load_deck()).by_code(code.code).card
        except HotStreakError:
            return say(lang, "scan_unknown")
        who = say(lang, "scan_all") if card.who is None else card.who.value.capitalize()
        return say(lang, "scan_card", who=who, what=", ".join(action(lang, a.notation()) for a in card.actions))
    if isinstance(code, TicketCode):
        return say(lang, "scan_ticket", stack=code.stack.capitalize() if code.stack not in ("yes", "no")
                   else code.stack.upper(), level=say(lang, code.level), side=say(lang, code.side))
    if isinstance(code, SideBetCode):
        return say(lang, "scan_sidebet", n=code.number)
    if isinstance(code, OpenBetCode):
        return say(lang, "scan_bet", seat=code.seat)
    if isinstance(code, SeatNameCode):
        return say(lang, "scan_name")
    assert isinstance(code, Control)
    name = say(lang, "ctl_players", n=code.players) if code.action == "players" else say(lang, "ctl_" + code.action)
    return say(lang, "scan_control", name=name)


def how(facts: Mapping[str, Any], lang: str) -> list[str]:
    """The lines about how the last scan came in, from the reader's ``facts``: ``mode`` (serial, hid, window,
    script), ``suffix`` (e.g. "CR LF"), ``ms`` (first to last byte), ``repeats`` (repeats dropped so far)."""
    lines = []
    if facts.get("mode"):
        lines.append(say(lang, "scan_mode", mode=say(lang, "mode_" + str(facts["mode"]))))
    if facts.get("suffix"):
        ms = facts.get("ms")
        lines.append(say(lang, "scan_suffix", suffix=facts["suffix"], ms="?" if ms is None else round(float(ms))))
    if facts.get("repeats") is not None:
        lines.append(say(lang, "scan_repeats", n=facts["repeats"]))
    return lines
