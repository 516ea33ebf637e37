"""Resolve race cards as one race from the start and print the race call (or --json).

CARD is notation (H+3) or a label code (HS15); '-' reads cards from stdin (whitespace separated, '#' starts a
comment). Cards after the race has ended are ignored.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from companion.call import racecall
from companion.rules import events as ev
from companion.rules import load_deck, load_track
from companion.rules.race import play


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--track", help="track data file (TOML); default: the packaged track")
    p.add_argument("--deck", help="deck data file (TOML); default: the packaged deck")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the race call")
    p.add_argument("--lang", default="en", choices=["en", "nl", "es"],
                   help="language of the race call: en is the plain call; nl and es are the announcer's phrases "
                        f"(seed {ANNOUNCER_SEED}, so the output is repeatable)")
    p.add_argument("cards", nargs="+", metavar="CARD", help="card notation or label code, or - for stdin")


ANNOUNCER_SEED = 2026
"""The fixed seed of the announcer's phrasing choices in ``simulate --lang nl|es``."""

_HEADLINE = (ev.Revealed, ev.Folded, ev.Reshuffled, ev.RaceEnded)


def announced_call(events: list[ev.Event], lang: str, cards: int, over: bool) -> list[str]:
    """The race call in the announcer's words (the lines it speaks), event lines indented under each card."""
    from companion.call.announcer import Announcer
    announcer = Announcer(lang, random.Random(ANNOUNCER_SEED))
    out = []
    for e in events:
        text = announcer.line(e)
        if text is not None:
            out.append(text if isinstance(e, _HEADLINE) else "  " + text)
    if not over:
        out.append(announcer.line_for("race-unfinished", cards=cards))
    return out


def read_cards(items: list[str]) -> list[str]:
    """Expand '-' into the cards on stdin (whitespace separated, '#' comments)."""
    cards: list[str] = []
    for item in items:
        if item == "-":
            for text_line in sys.stdin.read().splitlines():
                cards.extend(text_line.split("#", 1)[0].split())
        else:
            cards.append(item)
    return cards


def run(args: argparse.Namespace) -> int:
    track = load_track(args.track)
    deck = load_deck(args.deck)
    race, events = play(read_cards(args.cards), track, deck)
    outcome = race.outcome
    if args.json:
        out = {
            "placings": {m.value: p for m, p in outcome.placings.items()},
            "finished": outcome.over,
            "mascots": {s.mascot.value: s.to_dict() for s in race.state.mascots},
            "events": [e.to_dict() for e in events],
        }
        print(json.dumps(out))
        return 0
    if args.lang != "en":
        for text in announced_call(events, args.lang, len(race.cards), outcome.over):
            print(text)
        return 0
    for text in racecall.call(events):
        print(text)
    if not outcome.over:
        print(f"Race not over after {len(race.cards)} cards" + (
            ": " + ", ".join(racecall.podium_lines(outcome.placings)) if outcome.placings else ""))
    return 0
