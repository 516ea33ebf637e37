"""Reading inputs written by the first journal schema (user_version 0) the way that program meant them.

That program marked the race 3 double by scanning a drafted ticket a second time; today the table wants
``HS-DOUBLE`` and then the ticket (companion.rules.draft). A migrated input that today's table refuses is
tried that way once, so an old evening replays to the same game and its history is kept.
"""

from __future__ import annotations

from companion.rules.codes import TicketCode, parse_code
from companion.rules.errors import HotStreakError
from companion.rules.table import Table


def apply_legacy(table: Table, text: str) -> bool:
    """Apply ``text`` (a first-schema input the table just refused) as that program meant it; True when it
    applied. The table is unchanged when it returns False."""
    try:
        code = parse_code(text)
    except HotStreakError:
        return False
    if not isinstance(code, TicketCode) or table.game is None:
        return False
    try:
        table.apply("HS-DOUBLE")
    except HotStreakError:
        return False
    try:
        table.apply(text)
    except HotStreakError:
        table.game.double_armed = False  # take the HS-DOUBLE back: the table is as before
        return False
    return True
