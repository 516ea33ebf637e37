"""Resolve race cards as one race from the start and print the race call (or --json).

CARD is notation (H+3) or a label code (HS15); '-' reads cards from stdin (whitespace separated, '#' starts a
comment). Cards after the race has ended are ignored.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

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
    p.add_argument("--pace", type=_pace, metavar="S",
                   help="with --json: add \"said\", the lines the voice would play if card n were revealed at "
                        "(n-1)*S seconds (real espeak-ng line lengths from the voice cache, the real queue)")
    p.add_argument("--stems", metavar="DIR",
                   help="with --json --pace: also write what the table would hear at that pace to DIR/voice.wav, "
                        "DIR/effects.wav and DIR/mix.wav (one timeline, the effects ducked under the voice as the "
                        "kiosk's mixer does); DIR is made if its parent folder exists")
    p.add_argument("cards", nargs="+", metavar="CARD", help="card notation or label code, or - for stdin")


def _pace(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds (expected e.g. 2.5)") from None
    if not 0 < value <= 600:
        raise argparse.ArgumentTypeError(f"{text!r} is not a pace (expected seconds a card, above 0, up to 600)")
    return value


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
        out.append(announcer.line_for("race-unfinished-one") if cards == 1
                   else announcer.line_for("race-unfinished", cards=cards))
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


def said(events: list[ev.Event], pace: float, lang: str, per_pass: int,
         stems: Path | None = None) -> list[dict[str, object]]:
    """The ``said`` list of ``--pace``: real espeak-ng lengths (voice cache), the real queue; with ``stems`` also
    the voice, effects and mix written there (:mod:`companion.voice.stems`). Raises VoiceUnavailable when
    espeak-ng is missing or fails."""
    from companion.call.caller import Caller
    from companion.voice.pace import cards_of, espeak_length, said_at_pace
    from companion.voice.speech import VoiceCache
    cache = VoiceCache()
    cards = cards_of(events)
    lines = said_at_pace(cards, pace, lang, espeak_length(lang, cache), per_pass=per_pass)
    if stems is not None:
        from companion.call.words import sounds_dir
        from companion.voice.stems import race_stems, write_stems
        voice = Caller(lang).voice
        write_stems(stems, race_stems(cards, lines, pace, lambda text: cache.render(text, voice),
                                      sounds_dir() / "effects"))
    return [s.to_dict() for s in lines]


def run(args: argparse.Namespace) -> int:
    if args.pace is not None and not args.json:
        print("hotstreak simulate: --pace needs --json (the said lines are part of the JSON object)",
              file=sys.stderr)
        return 2
    stems = None
    if args.stems is not None:
        if args.pace is None:
            print("hotstreak simulate: --stems needs --json --pace S (the stems are the said lines at that pace)",
                  file=sys.stderr)
            return 2
        from companion.commands.outpath import output_folder
        from companion.voice.stems import STEMS
        stems = output_folder(args.stems, "--stems", STEMS)
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
        if args.pace is not None:
            from companion.voice.speech import VoiceUnavailable
            try:
                out["said"] = said(events, args.pace, args.lang, track.reveals_per_pass, stems)
            except VoiceUnavailable as exc:
                print(f"hotstreak simulate: --pace needs the voice: {exc}", file=sys.stderr)
                return 2
        print(json.dumps(out))
        return 0
    if args.lang != "en":
        for text in announced_call(events, args.lang, len(race.cards), outcome.over):
            print(text)
        return 0
    for text in racecall.call(events):
        print(text)
    if not outcome.over:
        print(f"Race not over after {len(race.cards)} card{'' if len(race.cards) == 1 else 's'}" + (
            ": " + ", ".join(racecall.podium_lines(outcome.placings)) if outcome.placings else ""))
    return 0
