"""The error classes of the rules engine.

Every error the engine raises derives from :class:`HotStreakError`; the ones caused by bad input also derive
from :class:`ValueError`. Messages are one line, name the bad value and say what was expected, so the app can
show or speak them unchanged.
"""


class HotStreakError(Exception):
    """Root of every error raised by Hot Streak Companion."""


class InvalidCardError(HotStreakError, ValueError):
    """A card notation or label code that is not a card (docs/rules.md section 2)."""


class IllegalRevealError(HotStreakError, ValueError):
    """A card that cannot be revealed now: already revealed this pass, or the race is over (docs/rules.md 4)."""


class InvalidPositionError(HotStreakError, ValueError):
    """A race position string that does not parse or does not fit the track."""


class RefusedError(HotStreakError, ValueError):
    """An input that does not fit the table's phase or the rules (a scan, a button, a control code); the
    table and game state are unchanged."""


class DataFileError(HotStreakError, ValueError):
    """A rule data file (TOML) with problems; ``problems`` lists every one with its key path."""

    def __init__(self, source: str, problems: list[str]):
        self.source = source
        self.problems = list(problems)
        first = problems[0] if problems else "unknown problem"
        more = f" (and {len(problems) - 1} more: {'; '.join(problems[1:])})" if len(problems) > 1 else ""
        super().__init__(f"{source}: {first}{more}")
