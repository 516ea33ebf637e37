"""The sample game the demo replays: a recorded scan script, and the code that recorded it.

The script (``companion/tools/data/demo-game.txt``) is plain text: one scanned code per line, ``#`` comments, and
``wait <seconds>`` lines that set the table pace (ignored with ``--headless``). It was made by
``python -m companion.tools.demo > companion/tools/data/demo-game.txt``: a seeded 4-player game played by the rules
(face-up cards, hands, snake draft, race decks of 18 shuffled each pass, burn 3), checked input by input
against the table so every line is accepted, except one deliberate wrong scan that the script then undoes.
"""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

from companion.rules.codes import LEVELS, STACKS, TicketCode
from companion.rules import load_deck
from companion.rules.table import Table

SCRIPT_NAME = "demo-game.txt"
CARD_PACE = 2.5      # seconds between revealed cards at the table
STEP_PACE = 1.0      # seconds between other scans


def script_path() -> Path:
    return Path(str(resources.files("companion.tools").joinpath("data", SCRIPT_NAME)))


def parse_script(text: str) -> list[tuple[str, float]]:
    """Script text -> [(code, wait before it in seconds)]. Raises ValueError naming a bad ``wait`` line."""
    out: list[tuple[str, float]] = []
    pending = 0.0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower().startswith("wait"):
            try:
                pending += float(line.split()[1])
            except (IndexError, ValueError):
                raise ValueError(f"line {number}: {raw.strip()!r} is not 'wait <seconds>'") from None
            continue
        out.append((line, pending))
        pending = 0.0
    return out


def record(seed: int = 11, players: int = 4) -> str:
    """Play a sample game by the rules with a seeded generator and return its scan script."""
    rng = random.Random(seed)
    deck = list(load_deck())
    table = Table()
    lines: list[str] = [f"# Hot Streak Companion sample game: {players} players, seed {seed}",
                        "# one scanned code per line; 'wait N' sets the table pace"]

    def scan(code: str, wait: float = STEP_PACE, comment: str = "") -> None:
        table.apply(code, _data(code))
        if wait:
            lines.append(f"wait {wait:g}")
        lines.append(code + (f"   # {comment}" if comment else ""))

    def _data(code: str) -> dict[str, object]:
        if code.startswith("HS-PLAYERS-"):
            return {"side_bet_order": list(range(12))}
        return {}

    scan("HS-NEW", 0)
    scan(f"HS-PLAYERS-{players}", comment="four players")
    game = table.game
    assert game is not None, "HS-NEW starts a game"
    figures = game.figures
    starting = [c for c in deck if c.starting]
    others = [c for c in deck if not c.starting]
    rng.shuffle(others)
    face_up = starting + others[:figures.random_face_up]
    rest = others[figures.random_face_up:]
    hands = [[rest.pop() for _ in range(figures.hand)] for _ in range(players)]
    lines.append("# setup: the face-up cards")
    for dc in face_up:
        scan(dc.code, 0.5, dc.card.notation())
    scan("HS-GO", comment="setup done")
    race_deck = list(face_up)
    side_bets = rng.sample(range(1, 13), 3)
    for race_no in range(1, 4):
        lines.append(f"# race {race_no}: betting")
        scan(f"HS-S{side_bets[race_no - 1]:02d}", comment="the side bet card")
        taken = {s: 0 for s in STACKS}
        mine: dict[int, list[TicketCode]] = {s: [] for s in range(players)}
        for seat in game.draft_order(race_no):
            stack = rng.choice([s for s in STACKS if taken[s] < 3])
            ticket = TicketCode(stack, LEVELS[taken[stack]], rng.choice(["safe", "risky"]))
            taken[stack] += 1
            mine[seat].append(ticket)
            scan(ticket.code(), comment=f"seat {seat + 1} drafts {ticket.ticket} ({ticket.side})")
        if game.is_double_race:
            for seat in game.draft_seats():
                ticket = rng.choice(mine[seat])
                scan("HS-DOUBLE", 1, comment=f"seat {seat + 1} doubles one ticket:")
                scan(ticket.code(), comment=f"seat {seat + 1} doubles {ticket.ticket}")
        scan("HS-GO", comment="betting done: add your cards face down")
        for hand in hands:  # each player adds one card from their hand
            race_deck.append(hand.pop(rng.randrange(len(hand))))
        assert len(race_deck) == 18
        scan("HS-GO", 2, comment=f"race {race_no}: 3, 2, 1... GO!")
        while game.race is not None and not game.race.is_over:
            order = list(race_deck)
            rng.shuffle(order)
            for dc in order[3:]:  # burn 3 face down
                if race_no == 2 and game.race.pass_no == 1 and game.race.revealed == 4:
                    seen = game.race.state.codes_in_pass[0]
                    lines += [f"wait {CARD_PACE:g}", f"{seen}   # oops: already revealed this pass (refused)"]
                    lines += [f"wait {CARD_PACE:g}", "HS-S01   # oops: a side bet card mid-race (refused)"]
                scan(dc.code, CARD_PACE, dc.card.notation())
                if game.race.is_over:
                    break
        assert game.race is not None, "the race stays on the table until the next HS-GO"
        placings = game.race.outcome.placings
        lines.append("# payouts: " + ", ".join(f"{m.value} {p}" for m, p in sorted(placings.items(),
                                                                                  key=lambda mp: mp[1])))
        scan("HS-GO", 5, comment="next race" if race_no < 3 else "final standings")
        rng.shuffle(race_deck)  # between races each player is dealt one card from the race deck
        for hand in hands:
            hand.append(race_deck.pop())
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(record(), end="")
