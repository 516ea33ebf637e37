"""Why an input was refused, in a few words: a refusal message (one line from the rules or the kiosk) -> one
of a fixed set of reasons (:data:`companion.call.announcer.REFUSALS`), spoken as ``refused-<reason>``.

The spoken line never contains the scanned text, so garbage from a scanner costs one of a few fixed,
pre-rendered lines, never a new rendering.

>>> reason("unknown code 'XYZ' (expected HS-... codes)")
'unknown'
>>> reason("card HS15 (H+3) was already revealed in pass 1; expected a card not yet revealed this pass")
'already'
"""

from __future__ import annotations

import re

_RULES: tuple[tuple[str, str], ...] = (
    (r"journal|disk|sd card|can't save|cannot save|no space|read-only|database", "save"),
    (r"^unknown |is not a card|not a scanned code|unknown card code|unknown ticket|unknown side bet|out of range|"
     r"printable characters", "unknown"),
    (r"before the player count", "players-first"),
    (r"game is over", "game-over"),
    (r"race is over|race is not over", "race-over"),
    (r"not on top|stack is empty", "not-top"),
    (r"already|was used in race|drafted twice", "already"),
    (r"draft is (not )?complete|tickets drafted|no side bet card yet|comes too late", "draft"),
    (r"double", "double"),
    (r"face-up", "face-up"),
    (r"seat \d+ is not at this table", "seat"),
    (r"cannot be scanned|handled by|during a game|open variant", "wrong-time"),
)


def reason(message: str) -> str:
    """The reason of a refusal ``message``: ``unknown``, ``already``, ``wrong-time``, ``players-first``,
    ``race-over``, ``game-over``, ``not-top``, ``draft``, ``double``, ``face-up``, ``seat``, ``save`` or
    ``other``."""
    low = message.lower()
    for pattern, name in _RULES:
        if re.search(pattern, low):
            return name
    return "other"
