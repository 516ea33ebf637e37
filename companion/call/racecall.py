"""The race call as text: one line per event that matters to the table (English).

The words come from the one event table of :mod:`companion.call.words` (event -> key + fields); this module
holds the plain, deterministic templates of the printed call used by ``hotstreak simulate``, the console and
the demo's headless output. The spoken announcer uses the same keys with its own phrasings.
"""

from __future__ import annotations

from typing import Iterable

from companion.call import words
from companion.rules import events as ev
from companion.rules.mascots import Mascot

_ORD = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def ordinal(n: int) -> str:
    return _ORD.get(n, f"{n}th")


_TEMPLATES: dict[str, str] = {
    "revealed": "Card {reveal} of pass {pass_no}: {card}{tag} ({who})",
    "revealed-green": "Card {reveal} of pass {pass_no}: {card}{tag} ({who})",
    "no_effect": "  {mascot}: nothing happens ({reason})",
    "no_effect-star": "  {mascot}: nothing happens ({reason})",
    "recovered": "  {mascot} stands up",
    "recovered-turn": "  {mascot} turns to the finish",
    "recovered-both": "  {mascot} stands up and turns to the finish",
    "moved": "  {mascot} runs {steps} to space {space}",
    "moved-back": "  {mascot} runs back {steps} to space {space}",
    "moved-crawl": "  {mascot} crawls {steps} to space {space}",
    "moved-crawl-back": "  {mascot} crawls back {steps} to space {space}",
    "moved-star": "  {mascot} runs {steps} to the star on space {space}",
    "moved-star-back": "  {mascot} runs back {steps} to the star on space {space}",
    "swerved": "  {mascot} swerves from lane {from_lane} to lane {to_lane}",
    "turned_around": "  {mascot} turns around, now facing backward",
    "turned_around-forward": "  {mascot} turns around, now facing forward",
    "collided": "  {mover} crashes into {mascot} on lane {lane}, space {space}",
    "fell": "  {mascot} goes down!",
    "fell-collision": "  {mascot} goes down!",
    "knocked_out": "  {mascot} is knocked out - DQ!",
    "out_of_bounds": "  {mascot} goes out of bounds off the back - DQ!",
    "out_of_bounds-side": "  {mascot} goes out of bounds off the side - DQ!",
    "out_of_bounds-fold": "  {mascot} goes out of bounds under the fold - DQ!",
    "finished": "  {mascot} crosses the finish line!",
    "placed": "  {mascot} takes {place} place",
    "placed-shared": "  {mascot} takes {place} place (shared)",
    "folded": "The deck is out: fold {fold}, spaces below {first_space} go under the mat",
    "reshuffled": "Reshuffle, burn three - pass {pass_no}!",
    "race_ended": "Race over: {podium}",
    "phase-setup": "Setup: scan the face-up cards, then GO",
    "phase-betting": "Race {race}: betting - draft your tickets",
    "phase-betting-open": "Race {race}: betting - everyone names a mascot and YES or NO",
    "phase-adding-cards": "Race {race}: add your cards face down, then GO",
    "phase-racing": "Race {race}: burn three... GO!",
    "phase-payouts": "Race {race}: payouts",
    "phase-game-over": "Game over",
    "side_bet_shown": "Side bet {number} (the kiosk's guess until the card is scanned): {question}",
    "side_bet_shown-scanned": "Side bet {number} (scanned): {question}",
    "ticket_drafted": "  {name} takes {ticket} ({side})",
    "double_marked": "  {name} doubles {ticket}",
    "open_bet_placed": "  {name} bets {choice}",
    "open_bet_placed-double": "  {name} bets {choice} ({double} bet doubled)",
    "side_bet_happened": "  That's a YES on the side bet!",
    "side_bet_answered-yes": "Side bet: YES",
    "side_bet_answered-no": "Side bet: NO",
    "settled-up": "  {name}: ${before} {sign} ${amount} = ${after}",
    "settled-down": "  {name}: ${before} {sign} ${amount} = ${after}",
    "settled-even": "  {name}: ${before} {sign} ${amount} = ${after}",
    "game_over": "Final standings: {standings}",
    "players_set": "New game for {players} players ({variant})",
    "new_game": "New game: scan the player count",
    "undone": "Undo: {text} taken back",
}

PRINTED = words.Catalogue(
    lang="en", voice="", phrases={k: (v,) for k, v in _TEMPLATES.items()},
    places={n: ordinal(n) for n in range(1, 21)},
    words={"all": "All mascots", "podium_item": "{place} {mascot}", "podium_sep": ", ", "podium_and": ", ",
           "standings_item": "{place} {name} ${money} - {line}", "standings_sep": "; ", "standings_and": "; "},
    sidebets={})
"""The printed call's templates: one per key of :data:`companion.call.words.TABLE`, English, no variety."""


def line(e: ev.Event, names: words.Names | None = None) -> str | None:
    """One line of race call for an event, or None for an event that is not called; seats by ``names``
    (0-based seat -> name), else "Seat N"."""
    kf = words.key_and_fields(e)
    if kf is None or kf[0] not in PRINTED.phrases:
        return None
    return words.render(PRINTED.phrases[kf[0]][0], kf[1], PRINTED, kf[0], names)


def call(events: Iterable[ev.Event], names: words.Names | None = None) -> list[str]:
    """The race call lines for a sequence of events (seats by ``names``, else "Seat N")."""
    return [text for text in (line(e, names) for e in events) if text is not None]


def podium_lines(placings: dict[Mascot, int]) -> list[str]:
    return [f"{ordinal(p)}: {m.title}" for m, p in sorted(placings.items(), key=lambda mp: (mp[1], mp[0].value))]
