"""Game setup figures by player count, and the final screen's life outcomes (docs/rules.md section 7).

Every figure comes from ``data/game.toml`` (:func:`load_game_rules`); the loader checks that every race deck
comes to the track's deck size: starting cards + random face-up cards + players x cards added per race, and
that the cards dealt between races equal the cards added (so later race decks are full again).

>>> f = setup_figures(4, Variant.STANDARD)
>>> (f.random_face_up, f.face_up, f.hand, f.tickets_per_player, f.start_money)
(10, 14, 3, 2, 10)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.rules.betting import LEVELS, STACKS, TicketTable, load_tickets
from companion.rules.datafile import Checker, read_toml
from companion.rules.deck import Deck, load_deck
from companion.rules.phases import Variant
from companion.rules.track import Track, load_track

MIN_PLAYERS, MAX_PLAYERS = 2, 12


@dataclass(frozen=True, slots=True)
class SetupFigures:
    """How to set up a game for ``players`` in ``variant`` (docs/rules.md 7). Counts are cards per player where
    named so; ``face_up`` = starting cards + ``random_face_up`` (the cards scanned in setup)."""

    players: int
    variant: Variant
    random_face_up: int
    starting_cards: int
    hand: int
    added_per_race: int
    dealt_between_races: int
    tickets_per_player: int
    start_money: int
    swapped_between_races: int = 0

    @property
    def face_up(self) -> int:
        return self.starting_cards + self.random_face_up

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "variant": self.variant.value, "random_face_up": self.random_face_up,
                "starting_cards": self.starting_cards, "face_up": self.face_up, "hand": self.hand,
                "added_per_race": self.added_per_race, "dealt_between_races": self.dealt_between_races,
                "tickets_per_player": self.tickets_per_player, "start_money": self.start_money,
                "swapped_between_races": self.swapped_between_races}


@dataclass(frozen=True)
class GameRules:
    """The game data: races per game, setup figures per (variant, player count), life outcome bands."""

    races: int
    figures: dict[tuple[Variant, int], SetupFigures]
    outcomes: tuple[tuple[int, str], ...]  # (from dollars, line), ascending

    def setup(self, players: int, variant: Variant) -> SetupFigures:
        """Figures for this count and variant. Raises ValueError naming a count the variant cannot seat."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"player count {players!r} is not a whole number (expected {MIN_PLAYERS}..{MAX_PLAYERS})")
        try:
            return self.figures[(variant, players)]
        except KeyError:
            counts = sorted(n for v, n in self.figures if v is variant)
            hint = "; use the open variant" if variant is Variant.STANDARD and players > max(counts, default=0) else ""
            raise ValueError(f"{players} player{'' if players == 1 else 's'} cannot play the {variant.value} game "
                             f"(expected {counts[0]}..{counts[-1]} players{hint})" if counts else
                             f"the {variant.value} game has no setup data") from None

    def life_outcome(self, money: int) -> str:
        """The line for a final amount: the highest band whose ``from`` is at most ``money``."""
        line = self.outcomes[0][1]
        for start, text in self.outcomes:
            if money >= start:
                line = text
        return line


def load_game_rules(path: str | Path | None = None, track: Track | None = None, deck: Deck | None = None,
                    tickets: TicketTable | None = None) -> GameRules:
    """Load and validate a game file (default: the packaged ``data/game.toml``) against a track, deck and
    ticket data (defaults: the packaged ones).

    Raises DataFileError listing every problem with its key path (``standard.random_face_up.5: ...``).
    """
    track = track or load_track()
    deck = deck or load_deck()
    tickets = tickets or load_tickets()
    data, source = read_toml(path, "game.toml")
    c = Checker(source)
    c.unknown_keys(data, {"races", "standard", "two_players", "open", "outcome"}, "")
    races = c.integer(data, "races", "", 1, 20)
    starting = len(deck.starting_cards)
    size = track.deck_size
    figures: dict[tuple[Variant, int], SetupFigures] = {}

    def deck_check(key: str, players: int, random_: int, added: int, dealt: int) -> None:
        total = starting + random_ + players * added
        if total != size:
            c.problem(key, f"{starting} starting + {random_} random + {players} players x {added} added = {total} "
                           f"cards (expected the race deck of {size})")
        if dealt != added:
            c.problem(key, f"{dealt} cards dealt between races but {added} added per race (expected equal, "
                           f"so every race deck is full)")

    per_player = {"hand", "added_per_race", "dealt_between_races", "tickets_per_player"}
    std = _table(c, data, "standard")
    c.unknown_keys(std, per_player | {"random_face_up"}, "standard.")
    std_vals = {k: c.integer(std, k, "standard.", 0, 50) for k in sorted(per_player)}
    randoms = _table(c, std, "random_face_up", "standard.")
    for key, value in randoms.items():
        if not key.isdigit() or not 3 <= int(key) <= MAX_PLAYERS:
            c.problem(f"standard.random_face_up.{key}", f"not a player count (expected 3..{MAX_PLAYERS})")
            continue
        n = int(key)
        random_ = c.integer(randoms, key, "standard.random_face_up.", 0, 200)
        deck_check(f"standard.random_face_up.{key}", n, random_, std_vals["added_per_race"],
                   std_vals["dealt_between_races"])
        figures[(Variant.STANDARD, n)] = SetupFigures(
            n, Variant.STANDARD, random_, starting, std_vals["hand"], std_vals["added_per_race"],
            std_vals["dealt_between_races"], std_vals["tickets_per_player"], tickets.start_money["standard"])
    two = _table(c, data, "two_players")
    c.unknown_keys(two, per_player | {"random_face_up"}, "two_players.")
    two_vals = {k: c.integer(two, k, "two_players.", 0, 200 if k == "random_face_up" else 50)
                for k in sorted(per_player | {"random_face_up"})}
    deck_check("two_players", 2, two_vals["random_face_up"], two_vals["added_per_race"],
               two_vals["dealt_between_races"])
    figures[(Variant.STANDARD, 2)] = SetupFigures(
        2, Variant.STANDARD, two_vals["random_face_up"], starting, two_vals["hand"], two_vals["added_per_race"],
        two_vals["dealt_between_races"], two_vals["tickets_per_player"], tickets.start_money["standard"])
    for (variant, n), fig in figures.items():
        if n * fig.tickets_per_player > len(STACKS) * len(LEVELS):
            c.problem("standard" if n > 2 else "two_players", f"{n} players x {fig.tickets_per_player} tickets is "
                      f"more than the {len(STACKS) * len(LEVELS)} tickets")
    open_ = _table(c, data, "open")
    c.unknown_keys(open_, {"min_players", "max_players", "random_face_up", "swapped_between_races"}, "open.")
    lo = c.integer(open_, "min_players", "open.", MIN_PLAYERS, MAX_PLAYERS)
    hi = c.integer(open_, "max_players", "open.", lo, MAX_PLAYERS)
    random_open = c.integer(open_, "random_face_up", "open.", 0, 200)
    swapped = c.integer(open_, "swapped_between_races", "open.", 0, 200)
    deck_check("open.random_face_up", 0, random_open, 0, 0)
    for n in range(lo, hi + 1):
        figures[(Variant.OPEN, n)] = SetupFigures(n, Variant.OPEN, random_open, starting, 0, 0, 0, 0,
                                                  tickets.start_money["open"], swapped)
    outcomes: list[tuple[int, str]] = []
    entries = data.get("outcome")
    if not isinstance(entries, list) or not entries:
        c.problem("outcome", "missing (expected [[outcome]] tables with from and line)")
        entries = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            c.problem(f"outcome[{i}]", "must be a table")
            continue
        c.unknown_keys(entry, {"from", "line"}, f"outcome[{i}].")
        start = c.integer(entry, "from", f"outcome[{i}].", 0, 1_000_000)
        line = entry.get("line")
        if not isinstance(line, str) or not line.strip():
            c.problem(f"outcome[{i}].line", f"{line!r} is missing or empty (expected a short line)")
            continue
        if outcomes and start <= outcomes[-1][0]:
            c.problem(f"outcome[{i}].from", f"{start} is not above the previous band's {outcomes[-1][0]} "
                                            "(expected ascending bands)")
        outcomes.append((start, line.strip()))
    if outcomes and outcomes[0][0] != 0:
        c.problem("outcome[0].from", f"{outcomes[0][0]} leaves amounts below it without a line (expected 0)")
    c.finish()
    return GameRules(races, figures, tuple(outcomes))


def _table(c: Checker, data: dict[str, Any], key: str, path: str = "") -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        c.problem(f"{path}{key}", "missing table" if value is None else f"{value!r} is not a table")
        return {}
    return value


@functools.cache
def default_game_rules() -> GameRules:
    """The packaged game data checked against the packaged track, deck and tickets (cached)."""
    return load_game_rules()


def setup_figures(players: int, variant: Variant, rules: GameRules | None = None) -> SetupFigures:
    """Setup figures for ``players`` in ``variant`` (default data). Raises ValueError naming a bad count."""
    return (rules or default_game_rules()).setup(players, variant)
