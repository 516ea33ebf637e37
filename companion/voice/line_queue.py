"""Voice lines waiting to be spoken, each tagged with the race card it belongs to (:class:`VoiceQueue`).

When a newer card is revealed, waiting lines of older cards are dropped (nothing starts after the next card is
revealed), and lines older than their ``max_age`` seconds; a newer line with the same ``slot`` replaces a waiting
one; a line may wait a ``delay`` after it is queued (its card's sound effect goes first). On the caller's clock.

>>> queue = VoiceQueue(clock=lambda: 0.0)
>>> first = queue.put("Hurley moves to space 6", card=1)
>>> second = queue.put("Gobbler falls!", card=2, priority=0)  # card 2 is revealed: card 1's line is dropped
>>> [line.text for line in queue], [line.text for line in queue.dropped]
(['Gobbler falls!'], ['Hurley moves to space 6'])
"""

from __future__ import annotations

import collections
from dataclasses import dataclass
from typing import Any, Callable, Iterator

Clock = Callable[[], float]

DEFAULT = -1.0
"""``max_age`` of a line that follows its queue's default."""


@dataclass
class Line:
    """A queued voice line: ``card`` is the race card it belongs to (a number that grows with every card
    revealed; None: not tied to a card, e.g. a table line), ``at`` the clock time it was queued, ``priority``
    0 for essential news, ``slot`` (a newer line with the same slot replaces it while waiting), ``max_age``
    seconds it may wait (None: no limit; :data:`DEFAULT`: the queue's), ``meta`` anything the caller keeps
    with it, ``delay`` seconds after ``at`` before it may start (:attr:`ready_at`)."""

    text: str
    card: int | None
    at: float
    priority: int = 1
    slot: str | None = None
    max_age: float | None = DEFAULT
    meta: Any = None
    delay: float = 0.0

    @property
    def ready_at(self) -> float:
        """The clock time from which the line may start."""
        return self.at + self.delay


class VoiceQueue:
    """Lines waiting to be spoken, oldest first. A waiting line more than ``max_lag_cards`` cards behind the
    newest card is dropped (0: nothing of a card starts once the next card is revealed).

    ``clock``: seconds (monotonic). ``max_age``: also drop lines waiting longer than this many seconds (None: no
    limit), unless a line says otherwise. Dropped lines are kept in ``dropped`` (for tests and the log).
    """

    def __init__(self, clock: Clock, max_lag_cards: int = 0, max_age: float | None = 8.0):
        if max_lag_cards < 0:
            raise ValueError(f"max_lag_cards {max_lag_cards} must be 0 or more")
        self.clock = clock
        self.max_lag_cards = max_lag_cards
        self.max_age = max_age
        self.newest_card: int | None = None
        self._lines: collections.deque[Line] = collections.deque()
        self.dropped: list[Line] = []

    def __len__(self) -> int:
        return len(self._lines)

    def __iter__(self) -> Iterator[Line]:
        return iter(list(self._lines))

    def put(self, text: str, card: int | None = None, priority: int = 1, slot: str | None = None,
            max_age: float | None = DEFAULT, meta: Any = None, delay: float = 0.0) -> Line:
        """Queue a line for ``card``, to start no sooner than ``delay`` seconds from now; a newer card makes
        waiting lines more than ``max_lag_cards`` behind it stale; a line with a ``slot`` replaces a waiting line
        of that slot."""
        if card is not None and (self.newest_card is None or card > self.newest_card):
            self.newest_card = card
        if slot is not None:
            gone = [line for line in self._lines if line.slot == slot]
            self._lines = collections.deque(line for line in self._lines if line.slot != slot)
            self.dropped.extend(gone)
        line = Line(text, card, self.clock(), priority, slot, max_age, meta, delay)
        self._lines.append(line)
        self.drop_stale()
        return line

    def behind(self, line: Line) -> int:
        """How many cards ``line`` is behind the newest card (0 for a table line)."""
        if line.card is None or self.newest_card is None:
            return 0
        return max(0, self.newest_card - line.card)

    def is_stale(self, line: Line) -> bool:
        """True if ``line`` is too far behind the newest card, or has waited longer than its max age."""
        if self.behind(line) > self.max_lag_cards:
            return True
        age = self.max_age if line.max_age == DEFAULT else line.max_age
        return age is not None and self.clock() - line.at > age

    def drop_stale(self) -> list[Line]:
        """Remove and return the stale lines."""
        keep: collections.deque[Line] = collections.deque()
        gone: list[Line] = []
        for line in self._lines:
            (gone if self.is_stale(line) else keep).append(line)
        self._lines = keep
        self.dropped.extend(gone)
        return gone

    def peek(self) -> Line | None:
        """The next line to speak (after dropping stale ones), left in the queue."""
        self.drop_stale()
        return self._lines[0] if self._lines else None

    def pop(self) -> Line | None:
        """Take the next line to speak, or None."""
        self.drop_stale()
        return self._lines.popleft() if self._lines else None

    def clear(self) -> None:
        self._lines.clear()
