"""History of every evening, from the journal: one summary per game, standings across evenings, mascot form.

A game's summary is made once, by replaying that game's inputs (companion.kiosk.journal ``games`` table), when
it finishes or when a new game starts after it; finished games are never replayed again. Shapes (JSON-ready):

- summary: ``{"start_id", "end_id", "started", "ended" (epoch s or None), "finished": bool, "players",
  "variant", "seats": [{"seat": 1-based, "name": str|None, "money": $, "place": int|None}],
  "races": [{"race", "placings": {mascot: place}, "exits": {mascot: crossed|remaining|knockout|out_of_bounds},
  "side_bet": id|None, "question": str|None, "happened": bool|None, "money": [$ per seat]}]}``
- :func:`mascot_form`: ``{mascot: {"races", "wins", "podiums", "dqs", "knocked_out", "out_of_bounds",
  "average_place"}}`` (podium = paid place 1-3; average over placed races).
- :func:`standings`: named players across evenings, best first.
- :func:`form_line`: one line for the attract and setup screens, e.g. "Mum has won 4 of the last 10".
"""

from __future__ import annotations

import logging
import time
from typing import Any, Iterable

from companion.catalogue import ByLanguage
from companion.kiosk.errors import JournalError
from companion.kiosk.journal import Entry, Journal
from companion.kiosk.legacy import apply_legacy
from companion.rules.errors import HotStreakError
from companion.rules.events import RaceEnded
from companion.rules.game_events import GameOver
from companion.rules.table import Table

log = logging.getLogger(__name__)
MASCOTS = ("gobbler", "hurley", "dangle", "mum")
FORM_RACES = 10


def summarise(entries: list[Entry], track: Any = None, deck: Any = None) -> dict[str, Any]:
    """Replay one game's inputs (the ones that count, from its ``HS-NEW``) into a summary (module doc)."""
    table = Table(track, deck)
    exits: dict[int, dict[str, str]] = {}
    end: Entry | None = None
    for entry in entries:
        try:
            events = table.apply(entry.text, entry.data)
        except HotStreakError:
            apply_legacy(table, entry.text) if entry.legacy else None
            continue
        for event in events:
            game = table.game
            if isinstance(event, RaceEnded) and game is not None and game.race is not None:
                exits[game.race_no] = {m.value: x.value for m, x in game.race.outcome.exits.items()}
            elif isinstance(event, GameOver):
                end = entry
    return summary_of(table, entries[0] if entries else None, end, exits)


def summary_of(table: Table, start: Entry | None, end: Entry | None,
               exits: dict[int, dict[str, str]]) -> dict[str, Any]:
    game = table.game
    out: dict[str, Any] = {"start_id": start.id if start else 0, "end_id": end.id if end else None,
                           "started": start.at if start else None, "ended": end.at if end else None,
                           "finished": end is not None, "players": 0, "variant": None, "seats": [], "races": []}
    if game is None:
        return out
    places = {s.seat: s.place for s in getattr(game, "standings", ())}
    out.update(players=game.players, variant=game.variant.value,
               seats=[{"seat": i + 1, "name": game.names.get(i), "money": game.money[i], "place": places.get(i)}
                      for i in range(game.players)])
    for result in getattr(game, "results", []):
        bet = result.get("side_bet")
        try:
            question = game.side_bets.by_id(bet).question if bet else None
        except HotStreakError:
            question = None
        out["races"].append({"race": result.get("race"), "placings": dict(result.get("placings", {})),
                             "exits": exits.get(result.get("race"), {}), "side_bet": bet, "question": question,
                             "happened": result.get("happened"), "money": list(result.get("money", []))})
    return out


def record(journal: Journal, entries: list[Entry], track: Any = None, deck: Any = None) -> dict[str, Any] | None:
    """Summarise the game of ``entries`` and store it; returns the summary (None for no entries).
    A journal that cannot save keeps no summary (made again at the next start)."""
    if not entries:
        return None
    summary = summarise(entries, track, deck)
    try:
        journal.record_game(summary["start_id"], summary["end_id"], summary["ended"] or entries[-1].at, summary)
    except JournalError as exc:
        log.warning("game summary not saved (%s)", exc)
    return summary


def backfill(journal: Journal, track: Any = None, deck: Any = None, limit: int | None = None) -> int:
    """Summarise earlier games that have no summary yet (a migrated journal, a crash at game over), at most
    ``limit`` of them; the current game is left alone. Returns how many were made (0: none left). Each such
    game is replayed once, ever; the kiosk calls this with ``limit=1`` when its loop is idle."""
    starts = journal.starts()
    done = journal.summarised()
    made = 0
    for start, nxt in zip(starts, starts[1:]):
        if start in done:
            continue
        if limit is not None and made >= limit:
            break
        record(journal, journal.effective(start, nxt), track, deck)
        made += 1
    return made


# ----- figures across games ----------------------------------------------------------------------------
def races_newest_first(games: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every race of ``games`` (newest game first), newest race first."""
    out: list[dict[str, Any]] = []
    for game in games:
        out.extend(reversed(game.get("races", [])))
    return out


def mascot_form(games: Iterable[dict[str, Any]], last: int | None = None) -> dict[str, dict[str, Any]]:
    """Per mascot over the races of ``games`` (or only the ``last`` races): see the module doc."""
    races = races_newest_first(games)[:last]
    form: dict[str, dict[str, Any]] = {}
    for mascot in MASCOTS:
        placed = [r["placings"][mascot] for r in races if mascot in r.get("placings", {})]
        ways = [r.get("exits", {}).get(mascot) for r in races]
        form[mascot] = {"races": len(races), "wins": placed.count(1), "podiums": sum(p <= 3 for p in placed),
                        "dqs": sum(w in ("knockout", "out_of_bounds") for w in ways),
                        "knocked_out": ways.count("knockout"), "out_of_bounds": ways.count("out_of_bounds"),
                        "average_place": round(sum(placed) / len(placed), 2) if placed else None}
    return form


FORM_WORDS = ByLanguage(lambda cat: (cat.screen_words["form_one"], cat.screen_words["form_several"]))
"""(one race, several races) per language of the config's ``language``: the catalogue's ``[screen]``
``form_one``/``form_several``."""


def form_line(games: Iterable[dict[str, Any]], last: int = FORM_RACES, language: str = "en") -> str | None:
    """One line of form over the newest ``last`` races in ``language`` (en, nl, es; else English): "Mum has won
    4 of the last 10"; None before any race."""
    form = mascot_form(games, last)
    count = next(iter(form.values()))["races"] if form else 0
    if not count:
        return None
    best = max(MASCOTS, key=lambda m: (form[m]["wins"], -(form[m]["average_place"] or 9)))
    one, several = FORM_WORDS.get(language, FORM_WORDS["en"])
    return (one if count == 1 else several).format(mascot=best.capitalize(), wins=form[best]["wins"], count=count)


def evening(at: float | None) -> str:
    """The local date of a game (``2026-12-01``); a game after midnight belongs to the evening before it
    when it started before 6 in the morning."""
    if at is None:
        return "?"
    return time.strftime("%Y-%m-%d", time.localtime(at - 6 * 3600))


def standings(games: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Named players across evenings, best first: ``[{"name", "games", "wins", "evenings", "money",
    "best"}]`` (``wins`` = finished first; ``money`` = total final money; unnamed seats are left out)."""
    players: dict[str, dict[str, Any]] = {}
    for game in games:
        if not game.get("finished"):
            continue
        for seat in game.get("seats", []):
            name = seat.get("name")
            if not name:
                continue
            p = players.setdefault(name.casefold(), {"name": name, "games": 0, "wins": 0, "evenings": set(),
                                                     "money": 0, "best": 0})
            p["games"] += 1
            p["wins"] += seat.get("place") == 1
            p["evenings"].add(evening(game.get("started")))
            p["money"] += seat.get("money", 0)
            p["best"] = max(p["best"], seat.get("money", 0))
    rows = [dict(p, evenings=len(p["evenings"])) for p in players.values()]
    return sorted(rows, key=lambda p: (-p["wins"], -p["money"], p["name"].casefold()))


def seat_label(seat: dict[str, Any]) -> str:
    """A summary's seat by its name, else the English name of an unnamed seat ("Seat 3")."""
    from companion.view.table_view import english_seat_word
    return str(seat.get("name") or english_seat_word().format(n=seat.get("seat")))


def history_dict(journal: Journal, limit: int = 10) -> dict[str, Any]:
    """The ``hotstreak history --json`` object: ``{"games": [summary, ...] (newest first, up to ``limit``),
    "count": finished games, "standings": [...], "mascots": {...}, "form": str|None}``."""
    games = journal.games()
    return {"games": games[:limit], "count": len(games), "standings": standings(games),
            "mascots": mascot_form(games), "form": form_line(games)}
