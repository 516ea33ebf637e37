"""The table as one JSON-ready dict for the phone page (built on the kiosk thread, sent to every phone).

:func:`table_view` is pure: a ``companion.rules.table.Table``, the live odds, the race call lines and the
seat claims in; a dict of plain values out (mascots are lower-case names, seats 1-based, money whole
dollars, odds probabilities 0..1, expected values dollars with one decimal). The shape::

    {"phase": "racing", "variant": "standard", "race": 2, "races": 3, "players": 4, "double_race": 3,
     "double_armed": bool (HS-DOUBLE scanned, its bet not yet),
     "track": {"lanes", "spaces", "finish_space", "fold_lines", "stars", "final_stretch", "start_space"},
     "folds", "pass", "revealed", "per_pass",
     "mascots": [{"mascot", "lane", "space", "fallen", "facing", "status", "place"}],
     "order": [mascot, ...], "podium": [[mascot, place], ...],
     "last_card": {"notation", "code", "mascot", "words": {lang: "Fall"}},
     "stacks": [{"stack", "left", "top", "pays": {"safe": [...], "risky": [...]}, "ev": {"safe", "risky"}}],
     "odds": {mascot: [p1, p2, p3, p4]} | None, "odds_card": race cards revealed when the odds were made | None,
     "odds_stale": bool (newer odds are being computed),
     "side_bet": {"question", "questions": {lang: question}, "happened"} | None,
     "whose_pick": seat | None, "seats": [{"seat", "name", "named", "claimed", "money", "tickets", "bet"}],
     "standings": [{"seat", "place", "money", "line", "lines": {lang: line}}], "call": [line, ...],
     "notice": str | None}

A ticket is ``{"ticket": "hurley-top", "side": "risky", "double": bool, "ev": float | None, "paid": int |
None}``: ``ev`` is what it pays on average with the current odds (docs/rules.md section 6; None when not known yet),
``paid`` what it paid once the race is over. An open-variant bet (docs/rules.md 7) is ``{"mascot" | None, "answer":
"yes"|"no"|None, "double": "mascot"|"side"|None, "ev"}`` with ``ev`` the expected share of the place pots
with the bets as they stand (plus the side pot share once the side bet's answer is known).
A stack (standard variant: the six ticket stacks of the draft, docs/rules.md 6) says how many tickets are
``left``, the ``top`` one's level (None when empty), what it ``pays`` on each side (a mascot stack: dollars by
paid place 1st..4th; YES/NO: ``[right, wrong]``) and its ``ev`` on each side: a mascot ticket's average pay
with the current odds, a YES/NO ticket's pay once the answer is known, else None (no double counted: a
double is marked after the draft). The page shows a card by its ``words`` in the table's language (its
actions; ``notation`` and ``code`` are for tools, never shown).
A standing's ``line`` is its life outcome in English, ``lines`` the same in every language (the page shows
the table's).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.call.words import LANGUAGES, life_outcome, load_catalogue
from companion.rules.betting import SIDES
from companion.rules.cards import Card
from companion.rules.mascots import MASCOTS
from companion.rules.open_bets import SeatBet
from companion.rules.race import Race
from companion.screen.words import action
from companion.view.money import PotShare, StackOffer, TicketMoney
from companion.view.table_view import TableView, build

Odds = Mapping[str, tuple[float, ...]]


def table_view(view: Any, *, odds: Odds | None = None, call: tuple[str, ...] = (),
               claims: Mapping[int, int] | None = None, notice: str | None = None,
               names: tuple[str, ...] = (), odds_card: int | None = None, odds_stale: bool = False) -> dict[str, Any]:
    """The phone page's view of a :class:`companion.view.table_view.TableView` (or of a ``Table``, viewed with
    the config's ``names``); see the module docstring for the shape. A seat's ``name`` is its resolved name
    when it has one (typed, else the config's), else "Seat N". ``odds_card`` and ``odds_stale`` tag the
    ``odds``; stale odds are shown but give no expected values."""
    if not isinstance(view, TableView):
        view = build(view, names=names)
    claims = claims or {}
    shown = odds
    odds = None if odds_stale else odds  # expected values only from the odds of the table as it is
    out: dict[str, Any] = {"phase": view.phase.value, "variant": None, "race": 0, "races": 3, "players": 0,
                           "odds": {m: list(p) for m, p in shown.items()} if shown else None,
                           "odds_card": odds_card if shown else None, "odds_stale": bool(shown and odds_stale),
                           "call": list(call), "notice": notice, "seats": [], "standings": [],
                           "side_bet": None, "whose_pick": None, "stacks": []}
    out.update(_race(view.shown))
    game = view.game
    if game is None:
        return out
    out.update(variant=game.variant.value, race=game.race_no, races=game.races, players=game.players,
               double_race=game.ticket_table.double_race, double_armed=game.double_armed)
    card = view.side_bet.card
    if game.side_bet and card is not None:
        out["side_bet"] = {"question": card.question, "happened": view.side_bet.answer,
                           "questions": {lang: load_catalogue(lang).sidebets.get(card.id, card.question)
                                         for lang in LANGUAGES}}
    drafter = game.current_drafter
    out["whose_pick"] = None if drafter is None else drafter + 1
    out["seats"] = [{"seat": s.seat + 1, "name": view.seat_name(s.seat), "named": s.named,
                     "claimed": (s.seat + 1) in claims, "money": s.money,
                     "tickets": [_ticket(t, odds) for t in view.tickets.get(s.seat, ())],
                     "bet": _open_bet(game.open_bets[s.seat], view.pots[s.seat], odds)
                     if s.seat in game.open_bets else None}
                    for s in view.seats]
    out["stacks"] = stacks(view.stacks, odds)
    out["standings"] = [{"seat": st.seat + 1, "place": st.place, "money": st.money, "line": st.line,
                         "lines": {lang: life_outcome(st.money, lang) for lang in LANGUAGES}}
                        for st in game.standings]
    return out


def _race(race: Race) -> dict[str, Any]:
    """The race part: track, mascots, running order, podium and last card."""
    track = race.track
    state = race.state
    mascots = [{"mascot": s.mascot.value, "lane": s.lane, "space": s.space, "fallen": s.fallen,
                "facing": s.facing.value, "status": s.status.value, "place": s.place} for s in state.mascots]
    podium = sorted(((m.value, p) for m, p in race.outcome.placings.items()), key=lambda mp: (mp[1], mp[0]))
    last = None
    if race.cards:
        card, code = race.cards[-1]
        last = {"notation": card.notation(), "code": code, "mascot": None if card.who is None else card.who.value,
                "words": {lang: card_words(card, lang) for lang in LANGUAGES}}
    return {"track": {"lanes": track.lanes, "spaces": track.spaces, "finish_space": track.finish_space,
                      "fold_lines": list(track.fold_lines), "stars": list(track.stars),
                      "final_stretch": track.final_stretch, "start_space": track.start_space},
            "folds": state.folds, "pass": state.pass_no, "revealed": state.revealed,
            "per_pass": track.reveals_per_pass, "mascots": mascots, "order": running_order(mascots),
            "podium": [list(p) for p in podium], "last_card": last, "over": state.over}


def card_words(card: Card, lang: str) -> str:
    """A race card in words for the phone: its actions in ``lang`` (``"2 ahead, Turn around"``); the mascot it
    names is shown beside it by colour and name, so never a notation or label code."""
    return ", ".join(action(lang, a.notation()) for a in card.actions)


def stacks(offers: Sequence[StackOffer], odds: Odds | None) -> list[dict[str, Any]]:
    """The ticket stacks of the draft as the view has them (``TableView.stacks``; see the module docstring):
    ``odds`` the current odds (None: no expected values for mascot tickets)."""
    out = []
    for offer in offers:
        pays: dict[str, list[int]] = {}
        ev: dict[str, float | None] = {}
        for side in SIDES if offer.top is not None else ():
            pays[side] = list(offer.pays(side))
            if offer.is_side:
                ev[side] = None if offer.answered is None else float(offer.answered[side])
            else:
                ev[side] = (round(sum(p * a for p, a in zip(odds[offer.stack], offer.pays(side))), 1)
                            if odds and offer.stack in odds else None)
        out.append({"stack": offer.stack, "left": offer.left, "top": offer.top, "pays": pays, "ev": ev})
    return out


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


def _ticket(money: TicketMoney, odds: Odds | None) -> dict[str, Any]:
    """A drafted ticket as the view has its money (``TableView.tickets``)."""
    bet = money.bet
    out: dict[str, Any] = {"ticket": bet.ticket.id, "side": bet.side, "double": bet.double, "ev": None,
                           "paid": money.paid}
    if money.paid is not None:
        out["ev"] = float(money.paid)
    elif bet.ticket.is_side:
        if money.answered is not None:
            out["ev"] = float(money.answered)
    elif odds and bet.ticket.stack in odds:
        out["ev"] = round(money.factor * sum(p * a for p, a in zip(odds[bet.ticket.stack], money.pays)), 1)
    return out


def _open_bet(bet: SeatBet, share: PotShare, odds: Odds | None) -> dict[str, Any]:
    """An open-variant bet with its expected share of the pots (``TableView.pots``) under ``odds``."""
    mascot = None if bet.mascot is None else bet.mascot.value
    answer = None if bet.answer is None else ("yes" if bet.answer else "no")
    ev = None
    if mascot is not None and odds and mascot in odds:
        ev = sum(p * amount * share.factor for p, amount in zip(odds[mascot], share.places))
    if share.side is not None:
        ev = (ev or 0.0) + share.side
    return {"mascot": mascot, "answer": answer, "double": bet.double, "ev": None if ev is None else round(ev, 1)}


MASCOT_NAMES = tuple(m.value for m in MASCOTS)
