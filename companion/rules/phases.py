"""The phases of a game and the two game variants (docs/rules.md section 7).

Defined apart from :mod:`companion.rules.game` so that game events and setup data can name them;
``companion.rules.game`` re-exports both.
"""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    """Where a table is: a new game waiting for its player count (``NEW_GAME``, the table's phase before a
    game exists), then setup, per race betting, adding cards, racing, payouts; then game over. A ``str`` enum:
    ``Phase.RACING == "racing"`` and ``.value`` is the text used in ``status --json`` and the phone page."""

    NEW_GAME = "new-game"
    SETUP = "setup"
    BETTING = "betting"
    ADDING_CARDS = "adding-cards"
    RACING = "racing"
    PAYOUTS = "payouts"
    GAME_OVER = "game-over"


class Variant(enum.Enum):
    """STANDARD: betting tickets and player hands. OPEN: bets on paper, all cards face up, pots (docs/rules.md 7)."""

    STANDARD = "standard"
    OPEN = "open"
