"""The table as one JSON-ready dict for the phone page (built on the kiosk thread, sent to every phone).

:func:`table_view` is pure: a ``companion.rules.table.Table``, the live odds, the race call lines and the
seat claims in; a dict of plain values out (mascots are lower-case names, seats 1-based, money whole
dollars, odds probabilities 0..1, expected values dollars with one decimal). The shape::

    {"phase": "racing", "variant": "standard", "race": 2, "races": 3, "players": 4, "double_race": 3,
     "double_armed": bool (HS-DOUBLE scanned, its bet not yet),
     "track": {"lanes", "spaces", "finish_space", "fold_lines"}, "folds", "pass", "revealed", "per_pass",
     "mascots": [{"mascot", "lane", "space", "fallen", "facing", "status", "place"}],
     "order": [mascot, ...], "podium": [[mascot, place], ...], "last_card": {"notation", "code", "mascot"},
     "odds": {mascot: [p1, p2, p3, p4]} | None, "side_bet": {"question", "happened"} | None,
     "whose_pick": seat | None, "seats": [{"seat", "name", "named", "claimed", "money", "tickets", "bet"}],
     "standings": [{"seat", "place", "money", "line", "lines": {lang: line}}], "call": [line, ...],
     "notice": str | None}

A ticket is ``{"ticket": "hurley-top", "side": "risky", "double": bool, "ev": float | None, "paid": int |
None}``: ``ev`` is what it pays on average with the current odds (docs/rules.md section 6; None when not known yet),
``paid`` what it paid once the race is over. An open-variant bet (docs/rules.md 7) is ``{"mascot" | None, "answer":
"yes"|"no"|None, "double": "mascot"|"side"|None, "ev"}`` with ``ev`` the expected share of the place pots
with the bets as they stand (plus the side pot share once the side bet's answer is known).
A standing's ``line`` is its life outcome in English, ``lines`` the same in every language (the page shows
the table's).
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.call.words import LANGUAGES, life_outcome
from companion.rules.betting import bet_amount
from companion.rules.mascots import MASCOTS, Mascot

Odds = Mapping[str, tuple[float, ...]]


def table_view(table: Any, *, odds: Odds | None = None, call: tuple[str, ...] = (),
               claims: Mapping[int, int] | None = None, notice: str | None = None,
               names: tuple[str, ...] = ()) -> dict[str, Any]:
    """The phone page's view of ``table`` (see the module docstring for the shape). A seat's name is the one
    typed at the table, else ``names[seat]`` (the config's ``[players] names``), else "Seat N"."""
    claims = claims or {}
    view: dict[str, Any] = {"phase": table.phase, "variant": None, "race": 0, "races": 3, "players": 0,
                            "odds": {m: list(p) for m, p in odds.items()} if odds else None,
                            "call": list(call), "notice": notice, "seats": [], "standings": [],
                            "side_bet": None, "whose_pick": None}
    view.update(_race(None, table.track))
    game = table.game
    if game is None:
        return view
    race = game.race if table.phase in ("racing", "payouts") else None
    view.update(_race(race, game.track))
    view.update(variant=game.variant.value, race=game.race_no, races=game.rules.races, players=game.players,
                double_race=game.ticket_table.double_race, double_armed=bool(getattr(game, "double_armed", False)))
    if game.side_bet:
        card = game.side_bets.by_id(game.side_bet)
        view["side_bet"] = {"question": card.question, "happened": _side_known(game)}
    drafter = game.current_drafter
    view["whose_pick"] = None if drafter is None else drafter + 1
    placings = dict(race.outcome.placings) if race is not None and race.is_over else None
    bets = open_bets(game)
    def name(s: int) -> str | None:
        return game.names.get(s) or (names[s].strip() if s < len(names) and names[s].strip() else None)
    view["seats"] = [{"seat": s + 1, "name": name(s) or table.seat_name(s), "named": name(s) is not None,
                      "claimed": (s + 1) in claims, "money": game.money[s],
                      "tickets": [_ticket(b, game, odds, placings) for b in game.tickets.get(s, ())],
                      "bet": _open_bet(bets[s], bets, game, odds) if s in bets else None}
                     for s in range(game.players)]
    view["standings"] = [{"seat": st.seat + 1, "place": st.place, "money": st.money, "line": st.line,
                          "lines": {lang: life_outcome(st.money, lang) for lang in LANGUAGES}}
                         for st in game.standings]
    return view


def _race(race: Any, track: Any) -> dict[str, Any]:
    """The race part: track, mascots, running order, podium and last card (a race at the start if None)."""
    if track is None:
        from companion.rules.race import default_track
        track = default_track()
    if race is None:
        from companion.rules.race import Race
        race = Race(track)
    state = race.state
    mascots = [{"mascot": s.mascot.value, "lane": s.lane, "space": s.space, "fallen": s.fallen,
                "facing": s.facing.value, "status": s.status.value, "place": s.place} for s in state.mascots]
    podium = sorted(((m.value, p) for m, p in race.outcome.placings.items()), key=lambda mp: (mp[1], mp[0]))
    last = None
    if race.cards:
        card, code = race.cards[-1]
        last = {"notation": card.notation(), "code": code, "mascot": None if card.who is None else card.who.value}
    return {"track": {"lanes": track.lanes, "spaces": track.spaces, "finish_space": track.finish_space,
                      "fold_lines": list(track.fold_lines)},
            "folds": state.folds, "pass": state.pass_no, "revealed": state.revealed,
            "per_pass": track.reveals_per_pass, "mascots": mascots, "order": running_order(mascots),
            "podium": [list(p) for p in podium], "last_card": last, "over": state.over}


def running_order(mascots: list[dict[str, Any]]) -> list[str]:
    """Mascot names, leader first: finished mascots by place, racing ones furthest along first (ties by
    lane), disqualified ones last by place."""
    def key(m: dict[str, Any]) -> tuple[int, int, int]:
        if m["status"] == "finished":
            return (0, m["place"] or 0, 0)
        if m["status"] == "racing":
            return (1, -m["space"], m["lane"])
        return (2, m["place"] or 9, 0)
    return [m["mascot"] for m in sorted(mascots, key=key)]


def _side_known(game: Any) -> bool | None:
    """The side bet's answer when it is known: YES once it happened, the final answer after the race."""
    if game.side_bet_happened is not None:
        return bool(game.side_bet_happened)
    tracker = game.tracker
    if tracker is not None and tracker.happened:
        return True
    return None


def _ticket(bet: Any, game: Any, odds: Odds | None, placings: Mapping[Mascot, int] | None) -> dict[str, Any]:
    out: dict[str, Any] = {"ticket": bet.ticket.id, "side": bet.side, "double": bet.double, "ev": None,
                           "paid": None}
    table, race_no = game.ticket_table, game.race_no
    factor = table.double_factor if bet.double else 1
    known = _side_known(game)
    if placings is not None and (not bet.ticket.is_side or known is not None):
        out["paid"] = bet_amount(bet, placings, known, table, race_no)
        out["ev"] = float(out["paid"])
    elif bet.ticket.is_side:
        if known is not None:
            right, wrong = table.side[(bet.ticket.level, bet.side)]
            out["ev"] = float(factor * (right if (bet.ticket.stack == "yes") == known else wrong))
    elif odds and bet.ticket.stack in odds:
        payouts = table.mascot[(bet.ticket.level, bet.side)]
        out["ev"] = round(factor * sum(p * a for p, a in zip(odds[bet.ticket.stack], payouts)), 1)
    return out


def open_bets(game: Any) -> dict[int, Any]:
    """The open-variant bets of this race, ``{0-based seat: bet}`` (``game.book.bets``: each bet has
    ``mascot`` (a Mascot or None), ``answer`` (bool or None) and ``double``); empty when there are none."""
    bets = getattr(getattr(game, "book", None), "bets", None)
    return dict(bets) if isinstance(bets, Mapping) else {}


def _open_bet(bet: Any, bets: Mapping[int, Any], game: Any, odds: Odds | None) -> dict[str, Any]:
    mascot = getattr(bet.mascot, "value", bet.mascot)
    answer = None if bet.answer is None else ("yes" if bet.answer else "no")
    double = getattr(bet, "double", None)
    table = game.ticket_table
    ev = None
    if mascot is not None and odds and mascot in odds:
        same = sum(getattr(b.mascot, "value", b.mascot) == mascot for b in bets.values())
        factor = table.double_factor if double == "mascot" else 1
        ev = sum(p * (pot // max(1, same)) * factor for p, pot in zip(odds[mascot], table.place_pots))
    known = _side_known(game)
    if answer is not None and known is not None:
        right = sum((b.answer is not None and b.answer == known) for b in bets.values())
        gain = table.side_pot // max(1, right) * (table.double_factor if double == "side" else 1)
        ev = (ev or 0.0) + (gain if (answer == "yes") == known else 0)
    return {"mascot": mascot, "answer": answer, "double": double, "ev": None if ev is None else round(ev, 1)}


MASCOT_NAMES = tuple(m.value for m in MASCOTS)
