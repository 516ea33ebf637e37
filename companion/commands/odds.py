"""Place odds for a race from its known face-up cards, before the start or during it (a table, or --json).

CARD is a label code (HS15) or notation (H+3; it stands for the first physical card with that notation not
given yet); '-' reads cards from stdin (whitespace separated, '#' comments). The race deck holds 18 cards:
the ones given plus cards the players added face down (1 each with 3-8 players, 2 each with 2, none with 9
or more), which are drawn from the rest of the deck. The odds come from --samples simulated races.

During a race, give the cards revealed so far with --revealed (in order from the start, 15 a pass, as for
`hotstreak simulate`; put it after the face-up cards, or end its list with --), or the race's
position string with --position; every revealed card counts as known to be in the race deck.
"""

from __future__ import annotations

import argparse
import json

from companion.call import racecall
from companion.commands.simulate import read_cards
from companion.odds.estimate import MAX_PLAYERS, MIN_PLAYERS, estimate
from companion.rules import Deck, Race, Track, load_deck, load_track


# Each simulated race holds about 0.5 KB until the estimate is made: 500000 is about 250 MB, within a Pi's memory,
# and its standard error (under 0.1 percentage point) is finer than any table needs.
MAX_SAMPLES = 500_000


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=4, help=f"players at the table, {MIN_PLAYERS}..{MAX_PLAYERS} "
                                                          "(default 4)")
    p.add_argument("--samples", type=int, default=20000,
                   help=f"races to simulate, 1..{MAX_SAMPLES} (default 20000)")
    p.add_argument("--seed", type=int, default=None, help="seed for the random generator (default: fresh)")
    p.add_argument("--track", help="track data file (TOML); default: the packaged track")
    p.add_argument("--deck", help="deck data file (TOML); default: the packaged deck")
    p.add_argument("--json", action="store_true",
                   help='print one JSON object {"samples": n, "places": {mascot: [p1, p2, p3, p4]}, ...}')
    during = p.add_mutually_exclusive_group()
    during.add_argument("--revealed", nargs="+", action="extend", metavar="CARD", default=[],
                        help="the cards revealed so far in this race, in order from the start (label codes or "
                             "notation; several in one quoted argument are fine)")
    during.add_argument("--position", metavar="STRING",
                        help="the race so far as a position string, e.g. "
                             "'G1.3 H2.6 D3.3 M4.3 fold:0 pass:1 rev:1 cards:HS15'")
    p.add_argument("cards", nargs="*", metavar="CARD", help="face-up card: label code or notation, or - for stdin")


def race_so_far(track: Track, deck: Deck, revealed: list[str], position: str | None) -> Race:
    """The race the odds start from: fresh, after the ``revealed`` cards (codes or notation, in order), or
    rebuilt from ``position``. Raises InvalidCardError / IllegalRevealError / InvalidPositionError naming the bad
    card or part, and ValueError for a card revealed after the race has ended."""
    if position is not None:
        return Race.from_position(position, track, deck)
    race = Race(track, deck)
    texts = [t for item in revealed for t in item.replace(",", " ").split()]
    for n, text in enumerate(texts, 1):
        if race.is_over:
            raise ValueError(f"--revealed: the race ended at card {n - 1}; {text!r} and after cannot be revealed "
                             "(expected only the cards revealed until the end)")
        race.push_text(text)
    return race


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.samples <= MAX_SAMPLES:
        raise ValueError(f"--samples {args.samples} is out of range (expected 1..{MAX_SAMPLES})")
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        raise ValueError(f"--players {args.players} is out of range (expected {MIN_PLAYERS}..{MAX_PLAYERS})")
    if args.seed is not None and args.seed < 0:
        raise ValueError(f"--seed {args.seed} is out of range (expected a whole number, 0 or more)")
    race = race_so_far(load_track(args.track), load_deck(args.deck), args.revealed, args.position)
    odds = estimate(read_cards(args.cards), args.players, race, samples=args.samples, seed=args.seed)
    if args.json:
        print(json.dumps(odds.to_dict()))
        return 0
    if race.cards or args.position:
        print(f"Race so far: {race.position()}")
    head = f"{'':8}" + "".join(f"{racecall.ordinal(q):>12}" for q in range(1, 5)) + f"{'DQ':>12}"
    print(head)
    for m, places in odds.places.items():
        cells = [*places, odds.dq[m]]
        print(f"{m.title:8}" + "".join(f"{100 * p:7.1f}%±{100 * e:3.1f}" for p, e in zip(cells, odds.stderr[m])))
    print(f"{odds.samples} simulated races; {odds.unknown} unknown card(s) in the race deck. "
          "± is one standard error; shared DQ places are paid as the worst.")
    return 0
