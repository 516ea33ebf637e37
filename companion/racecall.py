"""The race call as text: one line per event that matters to the table (English).

The spoken announcer builds on the same events; this module is the plain, deterministic form used by
``hotstreak simulate`` and the demo's headless output.
"""

from __future__ import annotations

from typing import Iterable

from companion.rules import events as ev
from companion.rules.mascots import Mascot

_ORD = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def ordinal(n: int) -> str:
    return _ORD.get(n, f"{n}th")


def line(e: ev.Event) -> str | None:
    """One line of race call for an event, or None for an event that is not called."""
    if isinstance(e, ev.Revealed):
        who = "All mascots" if e.card.who is None else e.card.who.title
        code = f" [{e.code}]" if e.code else ""
        return f"Card {e.reveal} of pass {e.pass_no}: {e.card.notation()}{code} ({who})"
    if isinstance(e, ev.NoEffect):
        return f"  {e.mascot.title}: nothing happens ({e.reason})"
    if isinstance(e, ev.Recovered):
        what = " and ".join(x for x, y in (("stands up", e.stood_up), ("turns to the finish", e.turned_forward)) if y)
        return f"  {e.mascot.title} {what}"
    if isinstance(e, ev.Moved):
        verb = "crawls" if e.crawled else ("runs to the star" if e.to_star else "runs")
        n = abs(e.end - e.start)
        return f"  {e.mascot.title} {verb} {'back ' if e.end < e.start else ''}{n} to space {e.end}"
    if isinstance(e, ev.Swerved):
        return f"  {e.mascot.title} swerves from lane {e.from_lane} to lane {e.to_lane}"
    if isinstance(e, ev.TurnedAround):
        return f"  {e.mascot.title} turns around, now facing {e.facing.value}"
    if isinstance(e, ev.Collided):
        return f"  {e.mover.title} crashes into {e.mascot.title} on lane {e.lane}, space {e.space}"
    if isinstance(e, ev.Fell):
        return f"  {e.mascot.title} goes down!"
    if isinstance(e, ev.KnockedOut):
        return f"  {e.mascot.title} is knocked out - DQ!"
    if isinstance(e, ev.OutOfBounds):
        where = {"back": "off the back", "side": "off the side", "fold": "under the fold"}[e.way.value]
        return f"  {e.mascot.title} goes out of bounds {where} - DQ!"
    if isinstance(e, ev.Finished):
        return f"  {e.mascot.title} crosses the finish line!"
    if isinstance(e, ev.Placed):
        tie = " (shared)" if e.shared else ""
        return f"  {e.mascot.title} takes {ordinal(e.place)} place{tie}"
    if isinstance(e, ev.Folded):
        return f"The deck is out: fold {e.fold}, spaces below {e.first_space} go under the mat"
    if isinstance(e, ev.Reshuffled):
        return f"Reshuffle, burn three - pass {e.pass_no}!"
    if isinstance(e, ev.RaceEnded):
        order = sorted(e.placings, key=lambda mp: (mp[1], mp[0].value))
        return "Race over: " + ", ".join(f"{ordinal(p)} {m.title}" for m, p in order)
    return None


def call(events: Iterable[ev.Event]) -> list[str]:
    """The race call lines for a sequence of events."""
    return [text for text in (line(e) for e in events) if text is not None]


def podium_lines(placings: dict[Mascot, int]) -> list[str]:
    return [f"{ordinal(p)}: {m.title}" for m, p in sorted(placings.items(), key=lambda mp: (mp[1], mp[0].value))]
