"""The error classes of the rules engine, and the reason codes of a refusal.

Every error the engine raises derives from :class:`HotStreakError`; the ones caused by bad input also derive
from :class:`ValueError`. Messages are one line, name the bad value and say what was expected, so logs and
tests can read them unchanged.

A refused input raises :class:`RefusedError` (or one of its subclasses: a card, code, ticket, side bet card or
reveal that is not right). It carries a :class:`Reason`, the values it names (``fields``) and the engine's
one-line detail as ``str(error)``. The screen, voice, console and phone words come from the reason alone
(``companion.call.words.refusal_line`` and the spoken keys ``refused-<reason>``), never from the detail.

>>> error = RefusedError("seat 5 is not at this table (expected a seat 1..4)", Reason.SEAT, seat=5)
>>> error.reason.value, dict(error.fields), str(error)
('seat', {'seat': 5}, 'seat 5 is not at this table (expected a seat 1..4)')
"""

from __future__ import annotations

import enum
from types import MappingProxyType
from typing import ClassVar, Mapping


class Reason(enum.StrEnum):
    """Why an input was refused, in a few words: the value (and ``str(reason)``) is the spoken key's tail,
    ``refused-<value>``."""

    UNKNOWN = "unknown"                  # not a code, card, ticket or side bet card this game knows
    ALREADY = "already"                  # scanned, drafted, doubled, chosen, armed or placed already
    WRONG_TIME = "wrong-time"            # a real input that does not fit the table's phase now
    PLAYERS_FIRST = "players-first"      # nothing but the game's set-up before the player count
    PLAYERS = "players"                  # a player count the variant cannot seat
    PLAYER_COUNT = "player-count"        # HS-PLAYERS-N with N outside 2..12: no such player count label
    RACING = "racing"                    # HS-GO while the race is still running
    RACE_OVER = "race-over"              # a card after the race ended
    GAME_OVER = "game-over"              # anything but a new game after the last race
    NOT_TOP = "not-top"                  # a ticket that is not on top of its stack (or the stack is empty)
    DRAFT = "draft"                      # HS-GO before the draft is complete
    DRAFT_DONE = "draft-done"            # a ticket after the draft is complete
    DOUBLE = "double"                    # HS-GO before each seat's double is marked, or while HS-DOUBLE waits
    NO_DOUBLE = "no-double"              # a double that cannot be: wrong race, wrong side, undrafted, too early
    SIDE_BET_FIRST = "side-bet-first"    # a YES/NO ticket or bet before the side bet card
    FACE_UP = "face-up"                  # HS-GO before all face-up cards are scanned
    NOT_IN_DECK = "not-in-deck"          # a card that cannot be in the race deck or among the face-up cards
    VARIANT = "variant"                  # an input of the other variant (tickets vs. open bets)
    MISSING = "missing"                  # a bet, answer or place is still missing (open-variant HS-GO, settling)
    SEAT = "seat"                        # a seat that is not at this table
    NOT_YOURS = "not-yours"              # a phone asking for a seat another phone holds
    NAME = "name"                        # a seat name that is too long, unprintable or reads as a code
    SAVE = "save"                        # the journal cannot save the input
    NOTHING_TO_UNDO = "nothing-to-undo"  # HS-UNDO with nothing to take back
    BUSY = "busy"                        # a phone request the table could not take now (try again)
    REQUEST = "request"                  # a phone request that is not one (not JSON, too large, other origin)
    OTHER = "other"                      # a refusal known only by its text (never raised by the project)


class HotStreakError(Exception):
    """Root of every error raised by Hot Streak Companion."""


class RefusedError(HotStreakError, ValueError):
    """An input that does not fit the table's phase or the rules (a scan, a button, a control code, a phone
    request); the table and game state are unchanged.

    ``str(error)`` is the engine's one-line detail; ``reason`` a :class:`Reason`; ``fields`` the values the
    detail names (``code``: the scanned text, ``card``: its notation, ``seat``: 1-based, ``race``...), read
    only. A subclass gives its usual reason as ``default_reason``.
    """

    default_reason: ClassVar[Reason] = Reason.OTHER

    def __init__(self, detail: str, reason: Reason | None = None, **fields: object):
        super().__init__(detail)
        self.reason: Reason = reason if reason is not None else self.default_reason
        self.fields: Mapping[str, object] = MappingProxyType(dict(fields))

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), str(self), self.reason, dict(self.fields)))


def _rebuild(cls: type[RefusedError], detail: str, reason: Reason, fields: dict[str, object]) -> RefusedError:
    error = cls.__new__(cls)
    RefusedError.__init__(error, detail, reason, **fields)
    return error


class InvalidCardError(RefusedError):
    """A card notation or label code that is not a card (docs/rules.md section 2); reason ``unknown``."""

    default_reason = Reason.UNKNOWN


class InvalidCodeError(RefusedError):
    """Scanned text that is no code of the game, or a code with a value out of range; reason ``unknown``
    (``name`` for a seat name that does not fit)."""

    default_reason = Reason.UNKNOWN


class IllegalRevealError(RefusedError):
    """A card that cannot be revealed now: already revealed this pass (``already``), or the race is over
    (``race-over``) (docs/rules.md 4)."""

    default_reason = Reason.ALREADY


class BettingError(RefusedError):
    """A ticket, bet or double that breaks the betting rules; the table and stacks are unchanged."""

    default_reason = Reason.UNKNOWN


class UnknownSideBetError(RefusedError):
    """A side bet card number or id that is not in the side bet file; reason ``unknown``."""

    default_reason = Reason.UNKNOWN


class InvalidPositionError(HotStreakError, ValueError):
    """A race position string that does not parse or does not fit the track."""


class DataFileError(HotStreakError, ValueError):
    """A rule data file (TOML) with problems; ``problems`` lists every one with its key path."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = list(problems)
        first = problems[0] if problems else "unknown problem"
        more = f" (and {len(problems) - 1} more: {'; '.join(problems[1:])})" if len(problems) > 1 else ""
        super().__init__(f"{source}: {first}{more}")


class RefusalMessage(str):
    """The one-line detail of a refusal that still carries its error: a ``str`` equal to ``str(error)``, so
    code that takes a refusal's message as text (a sink's ``refused(text, message, ...)``) takes it unchanged,
    and the words can still be found from ``message.error.reason``."""

    error: RefusedError

    def __new__(cls, error: RefusedError) -> "RefusalMessage":
        message = super().__new__(cls, str(error))
        message.error = error
        return message
