"""Which sound effect goes with which race event (the files are synthesised by ``companion.voice.sfx``), and how
long a card's line waits after its effect (:data:`EFFECT_LEAD`).

>>> from companion.rules import Race
>>> effects_for(Race().push_text("HF"))
['fall']
"""

from __future__ import annotations

from typing import Iterable

from companion.rules import events as ev

EFFECT_FOR: dict[type, str] = {
    ev.Collided: "collision",
    ev.Fell: "fall",
    ev.KnockedOut: "dq",
    ev.OutOfBounds: "dq",
    ev.Finished: "finish",
    ev.RaceEnded: "crowd",
}
"""Event type -> effect name. ``start`` is played by the controller when a race starts."""

EFFECT_LEAD = 0.25
"""Seconds between a card's sound effect and its line: the crash, whistle or fanfare is heard on the reveal, then
the line starts over its (ducked) tail instead of on top of its loudest part. Lines of a card without an effect
start at once."""

START_LEAD = 1.9
"""Seconds between the start effect (three beeps and a long one, 1.8 s) and the race-start line: the call follows
the signal, as after a starting gun."""


def effects_for(events: Iterable[ev.Event]) -> list[str]:
    """The effects for a card's events, in order, each at most once (a pile-up is one crash, not three)."""
    out: list[str] = []
    for e in events:
        name = EFFECT_FOR.get(type(e))
        if name and name not in out:
            out.append(name)
    return out


def lead_for(events: Iterable[ev.Event]) -> float:
    """Seconds a card's lines wait after the reveal: :data:`EFFECT_LEAD` when the card plays an effect, else 0."""
    return EFFECT_LEAD if effects_for(events) else 0.0
