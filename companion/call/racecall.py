"""The race call as text: one line per event that matters to the table (English).

The spoken announcer builds on the same events; this module is the plain, deterministic form used by
``hotstreak simulate`` and the demo's headless output.
"""

from __future__ import annotations

from typing import Iterable

from companion.rules import events as ev
from companion.rules import game_events as gev
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
    return table_line(e)


_PHASE_LINES = {
    "setup": "Setup: scan the face-up cards, then GO",
    "betting": "Race {race}: betting - draft your tickets",
    "adding-cards": "Race {race}: add your cards face down, then GO",
    "racing": "Race {race}: burn three... GO!",
    "payouts": "Race {race}: payouts",
    "game-over": "Game over",
}


def table_line(e: ev.Event) -> str | None:
    """One line for a game or table event (betting, phases, money), or None."""
    name = type(e).__name__
    if isinstance(e, gev.PhaseChanged):
        return _PHASE_LINES[e.phase.value].format(race=e.race_no)
    if isinstance(e, gev.SideBetShown):
        return f"Side bet {e.number}: {e.question}"
    if isinstance(e, gev.TicketDrafted):
        return f"  Seat {e.seat + 1} takes {e.ticket} ({e.side})"
    if isinstance(e, gev.DoubleMarked):
        return f"  Seat {e.seat + 1} doubles {e.ticket}"
    if isinstance(e, gev.SideBetHappened):
        return f"  That's a YES on the side bet ({e.card_id})!"
    if isinstance(e, gev.SideBetAnswered):
        return f"Side bet {e.card_id}: {'YES' if e.happened else 'NO'}"
    if isinstance(e, gev.Settled):
        sign = "+" if e.change >= 0 else "-"
        return f"  Seat {e.seat + 1}: ${e.before} {sign} ${abs(e.change)} = ${e.after}"
    if isinstance(e, gev.GameOver):
        return "Final standings: " + "; ".join(
            f"{ordinal(s.place)} seat {s.seat + 1} ${s.money} - {s.line}" for s in e.standings)
    if name == "PlayersSet":
        return f"New game for {e.players} players ({e.variant})"  # type: ignore[attr-defined]
    if name == "NewGame":
        return "New game: scan the player count"
    if name == "Undone":
        return f"Undo: {e.text} taken back"  # type: ignore[attr-defined]
    return None


def call(events: Iterable[ev.Event]) -> list[str]:
    """The race call lines for a sequence of events."""
    return [text for text in (line(e) for e in events) if text is not None]


def podium_lines(placings: dict[Mascot, int]) -> list[str]:
    return [f"{ordinal(p)}: {m.title}" for m, p in sorted(placings.items(), key=lambda mp: (mp[1], mp[0].value))]
