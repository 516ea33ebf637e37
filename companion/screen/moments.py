"""The big moments of a race on the screen, as plain data (no pygame): which moments the last input made, how
long each one shows, and how long the race that just ended stays on the race screen before the payouts.

A card can make several moments; they are queued in the order the voice calls them and shown one after the
other from the time of the card (``at``, seconds on the screen's clock), each for :data:`SECONDS` of its kind:

1. the card's own news, most important first: a finish (``finish``), knockouts (``knockout``), out of bounds
   (``out``), falls (``fall``); several mascots with the same news share one moment ("HURLEY AND DANGLE OUT
   OF BOUNDS!"), and a mascot is in one moment only (a fall then a knockout on one card is a knockout);
2. on the card that ends the race: the winner (``winner``, with the podium), then the side bet's answer
   (``side-bet``).

Mascots that go under a fold are left to the fold band (which names them) unless the fold ends the race. The
next input ends the queue early (:class:`MomentClock`).

>>> from companion.rules import Race
>>> [m.kind for m in moments_for(Race().push_text("HF"))]
['fall']
>>> showing(moments_for(Race().push_text("HF")), at=10.0, now=11.0).mascots
('hurley',)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from companion.rules.events import (Event, Fell, Finished, Folded, KnockedOut, OutOfBounds, OutOfBoundsWay, Placed,
                                    RaceEnded)
from companion.rules.game_events import SideBetAnswered

KINDS: tuple[str, ...] = ("fall", "knockout", "out", "finish", "side-bet", "winner")
"""The kinds of moment."""

SECONDS: dict[str, float] = {"fall": 2.0, "knockout": 2.5, "out": 2.5, "finish": 2.5, "side-bet": 3.0,
                             "winner": 4.5}
"""How long each kind shows, in seconds: about its spoken line (1-1.6 s with espeak-ng at 175 words a minute,
after the card's sound effect) and long enough to read; the winner's about the podium line (4.5 s)."""

MOMENT_SCREENS: tuple[str, ...] = tuple(f"moment-{k}" for k in ("fall", "knockout", "out", "finish", "side-bet",
                                                                "winner")) + ("race-end",)
"""The ``hotstreak screenshot --screen`` names of the sample moments and of the race that just ended."""

_CARD_ORDER = ("finish", "knockout", "out", "fall")


@dataclass(frozen=True)
class Moment:
    """One moment: ``kind`` (one of :data:`KINDS`); ``mascots`` (lower-case names) it is about; ``place`` the
    paid place (1-4) of a finish, or the one place shared by every mascot of a knockout or out of bounds (None
    when they differ); ``way`` how the mascots went out of bounds (``back``, ``side``, ``fold``; None when they
    differ); ``answer`` the side bet's answer; ``card_id`` the side bet card (``knockout``); ``podium`` the
    ``(mascot, place)`` pairs of the race just ended, best first."""

    kind: str
    mascots: tuple[str, ...] = ()
    place: int | None = None
    way: str | None = None
    answer: bool | None = None
    card_id: str | None = None
    podium: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown moment {self.kind!r} (expected one of: {', '.join(KINDS)})")

    @property
    def seconds(self) -> float:
        """How long this moment shows (:data:`SECONDS`)."""
        return SECONDS[self.kind]


def moments_for(events: Iterable[Event]) -> tuple[Moment, ...]:
    """The moments of one input's events (race events and game events), in the order they are shown."""
    events = list(events)
    places = {e.mascot.value: e.place for e in events if isinstance(e, Placed)}
    ended = next((e for e in events if isinstance(e, RaceEnded)), None)
    folded = any(isinstance(e, Folded) for e in events)
    news: dict[str, list[str]] = {kind: [] for kind in _CARD_ORDER}
    ways: list[str] = []
    for e in events:
        if isinstance(e, Finished):
            news["finish"].append(e.mascot.value)
        elif isinstance(e, KnockedOut):
            news["knockout"].append(e.mascot.value)
        elif isinstance(e, OutOfBounds) and (e.way is not OutOfBoundsWay.FOLD or not folded or ended is not None):
            news["out"].append(e.mascot.value)
            ways.append(e.way.value)
        elif isinstance(e, Fell):
            news["fall"].append(e.mascot.value)
    podium = tuple((m.value, p) for m, p in sorted(ended.placings, key=lambda mp: (mp[1], mp[0].value))) \
        if ended is not None else ()
    winners = {m for m, p in podium if p == 1}
    said: set[str] = set()
    out: list[Moment] = []
    for kind in _CARD_ORDER:
        who = tuple(dict.fromkeys(m for m in news[kind] if m not in said))
        if kind == "finish":
            who = tuple(m for m in who if m not in winners)  # the winner's own moment says it
        said.update(news[kind])
        if not who:
            continue
        shared = {places.get(m) for m in who}
        place = shared.pop() if len(shared) == 1 else None
        way = ways[0] if kind == "out" and len(set(ways)) == 1 else None
        out.append(Moment(kind, who, place, way))
    if ended is not None and podium:
        out.append(Moment("winner", tuple(sorted(winners)), 1, podium=podium))
    for e in events:
        if isinstance(e, SideBetAnswered):
            out.append(Moment("side-bet", answer=e.happened, card_id=e.card_id))
    return tuple(out)


def showing(moments: Sequence[Moment], at: float, now: float) -> Moment | None:
    """The moment on the screen at ``now`` when the queue ``moments`` started at ``at``; None before ``at``
    and once the last one is over."""
    start = at
    if now < at:
        return None
    for m in moments:
        if now < start + m.seconds:
            return m
        start += m.seconds
    return None


def length(moments: Sequence[Moment]) -> float:
    """How long the whole queue shows, in seconds."""
    return sum(m.seconds for m in moments)


def changes(moments: Sequence[Moment], at: float) -> tuple[float, ...]:
    """The times at which the moment on the screen changes (each moment's end)."""
    out, t = [], at
    for m in moments:
        t += m.seconds
        out.append(t)
    return tuple(out)


class MomentClock:
    """The moments of the last accepted input on the screen's clock, and the race-end hold.

    ``start(events, now)`` replaces the queue with the moments of an input's events (an input with none ends
    the ones showing: the next card, GO, an undo); ``clear()`` drops them (a reset). After the card that ends
    the race, :meth:`race_end` is True while its queue shows (the race screen stays up, with the final crossing
    on the track, before the payouts). ``next_change(now)`` is the next time the picture changes, or None.
    """

    def __init__(self) -> None:
        self.moments: tuple[Moment, ...] = ()
        self.at = 0.0
        self.race_end_until: float | None = None

    def start(self, events: Iterable[Event], now: float) -> None:
        events = list(events)
        self.moments, self.at = moments_for(events), now
        ended = any(isinstance(e, RaceEnded) for e in events)
        self.race_end_until = now + length(self.moments) if ended else None

    def clear(self) -> None:
        self.moments, self.race_end_until = (), None

    def race_end(self, now: float) -> bool:
        """True while the race that just ended stays on the race screen."""
        return self.race_end_until is not None and now < self.race_end_until

    def next_change(self, now: float) -> float | None:
        later = [t for t in changes(self.moments, self.at) if t > now]
        if self.race_end_until is not None and self.race_end_until > now:
            later.append(self.race_end_until)
        return min(later) if later else None


__all__ = ["KINDS", "MOMENT_SCREENS", "Moment", "MomentClock", "SECONDS", "changes", "length", "moments_for",
           "showing"]
