"""The pure Hot Streak rules engine: no I/O, no clock, no global randomness.

Start with :class:`Race` (push cards, pop to undo), :class:`Card` (notation) and the data loaders
:func:`load_track` and :func:`load_deck`.
"""

from companion.rules.cards import Act, Action, Card
from companion.rules.deck import Deck, DeckCard, load_deck
from companion.rules.errors import (DataFileError, HotStreakError, IllegalRevealError, InvalidCardError,
                                    InvalidPositionError, RefusedError)
from companion.rules.events import Event, Exit, Facing, Status
from companion.rules.mascots import MASCOTS, Mascot
from companion.rules.race import MascotState, Outcome, Race, RaceState, play
from companion.rules.track import Track, load_track

__all__ = ["Act", "Action", "Card", "DataFileError", "Deck", "DeckCard", "Event", "Exit", "Facing", "HotStreakError",
           "IllegalRevealError", "InvalidCardError", "InvalidPositionError", "MASCOTS", "Mascot", "MascotState",
           "Outcome", "Race", "RaceState", "RefusedError", "Status", "Track", "load_deck", "load_track", "play"]
