"""The view answers every money question a sink asks (companion/view/money.py): the sinks read the answers and
never call a rules function to compute money, places, stacks or names (docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path

from companion.rules.betting import STACKS, bet_amount
from companion.rules.mascots import Mascot
from companion.rules.phases import Phase
from companion.rules.table import Table
from companion.view.table_view import build
from sourcecode import source

ROOT = Path(__file__).resolve().parents[2] / "companion"
SINK_FOLDERS = ("screen", "web", "call", "voice", "lights")
RULES_MONEY = {"bet_amount", "settle", "settle_open", "open_gains", "pot_share", "check_bets", "STACKS", "LEVELS",
               "seat_name", "Stacks", "OpenBook", "side_bet_count", "realise"}
"""Names of companion.rules a sink may not import: they compute money, stacks, places or names."""
RULES_ATTRIBUTES = {"placings_if_ended", "place_pots", "side_pot", "double_factor", "stacks_taken"}
"""Attributes of rule values whose use is a computation of money or places (the view answers with them)."""
TOOLS = {"samples.py"}
"""Sample states for screenshots: they build tables as a tool does, outside the kiosk's flow."""


def rule_uses(path: Path) -> set[str]:
    """What ``path`` imports of :data:`RULES_MONEY` (from any companion.rules module) and which of
    :data:`RULES_ATTRIBUTES` it reads, as ``name (line)``."""
    found = set()
    code = source(path)
    found |= {f"{name} ({line})" for module, name, line in code.imports
              if module.startswith("companion.rules") and name in RULES_MONEY}
    found |= {f".{attr} ({line})" for attr, line in code.attributes if attr in RULES_ATTRIBUTES}
    return found


def test_no_sink_computes_money_places_stacks_or_names_with_the_rules():
    checked = 0
    for folder in SINK_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name in TOOLS:
                continue
            checked += 1
            assert not rule_uses(path), f"{path.relative_to(ROOT)} computes with the rules: {sorted(rule_uses(path))}"
    assert checked > 40  # the folders were found


def test_the_check_finds_a_sink_that_computes_what_a_ticket_pays(tmp_path):
    sink = tmp_path / "sink.py"
    sink.write_text("from companion.rules.betting import Bet, bet_amount\n"
                    "def pot(table):\n    return table.place_pots[0]\n", "utf-8")
    assert rule_uses(sink) == {"bet_amount (1)", ".place_pots (3)"}


def racing_table(cards: int = 6) -> Table:
    """The demo game in race 2 with its drafted tickets, ``cards`` race cards into the race."""
    import random

    from companion.rules.table import realise
    from companion.tools.demo import parse_script, script_path
    table, rng = Table(), random.Random(2026)
    for text, _wait in parse_script(script_path().read_text("utf-8")):
        race = table.game.race if table.game is not None else None
        if table.phase is Phase.RACING and table.game is not None and table.game.race_no == 2 \
                and race is not None and len(race.cards) >= cards:
            break
        try:
            table.apply(text, realise(text, rng))
        except ValueError:
            continue  # the script's deliberate wrong scans
    assert table.phase is Phase.RACING and table.game is not None and any(table.game.tickets.values())
    return table


def test_what_each_ticket_would_pay_if_the_race_ended_now_is_the_rules_amount():
    table = racing_table()
    view = build(table)
    game = table.game
    assert game is not None and view.race is not None
    now = view.race.placings_if_ended()
    assert view.placings_now == {m.value: p for m, p in now.items()}
    assert set(view.tickets) == {s for s, bets in game.tickets.items() if bets}
    for seat, money in view.tickets.items():
        assert [t.bet for t in money] == list(game.tickets[seat])
        assert [t.if_ended for t in money] == [bet_amount(b, now, bool(game.side_bet_answer), game.ticket_table,
                                                          game.race_no) for b in game.tickets[seat]]
        assert all(t.paid is None for t in money)  # the race is not over


def test_the_stacks_say_what_is_left_and_what_the_top_ticket_pays():
    table = racing_table()
    game = table.game
    assert game is not None
    offers = {o.stack: o for o in build(table).stacks}
    assert list(offers) == list(STACKS) and {"yes", "no", "hurley"} <= set(offers)
    for stack, offer in offers.items():
        taken = game.stacks.taken.get(stack, 0)
        assert offer.left == 3 - taken
        if offer.top is None:
            assert offer.left == 0 and offer.safe == offer.risky == ()
            continue
        pays = game.ticket_table.side if stack in ("yes", "no") else game.ticket_table.mascot
        assert offer.top == ("top", "middle", "bottom")[taken]
        assert (offer.safe, offer.risky) == (tuple(pays[(offer.top, "safe")]), tuple(pays[(offer.top, "risky")]))


def test_the_open_variant_pots_are_split_among_the_bets_on_a_mascot_and_the_right_answers():
    table = Table()
    for text in ("HS-NEW", "HS-PLAYERS-9", "HS-GO", "HS-BET-1-HURLEY", "HS-BET-2-HURLEY", "HS-BET-2-NO",
                 "HS-BET-3-MUM"):
        table.apply(text, {"side_bet_order": list(range(12))} if text.startswith("HS-PLAYERS") else None)
    view = build(table)
    pots = table.game.ticket_table.place_pots if table.game is not None else ()
    assert view.pots[0].places == view.pots[1].places == tuple(p // 2 for p in pots)  # two bets on Hurley
    assert view.pots[2].places == tuple(pots) and view.pots[0].factor == 1
    assert view.pots[1].side is None  # the side bet's answer is not known yet
    assert view.stacks == ()  # no ticket stacks in the open variant


def test_the_answers_are_worked_out_once_per_view():
    view = build(racing_table())
    assert view.tickets is view.tickets and view.stacks is view.stacks and view.pots is view.pots
    assert Mascot.HURLEY.value in view.placings_now


def test_each_seat_has_one_name_and_a_sink_words_only_an_unnamed_one():
    table = Table()
    for text in ("HS-NEW", "HS-PLAYERS-3", "HS-NAME-2:Bo"):
        table.apply(text, {"side_bet_order": list(range(12))} if text.startswith("HS-PLAYERS") else None)
    view = build(table, names=("Ann",), seat_word="Speler {n}")
    assert [view.seat_name(s) for s in range(3)] == ["Ann", "Bo", "Speler 3"]
    assert [view.seat_name(s, "Jugador") for s in range(4)] == ["Ann", "Bo", "Jugador", "Jugador"]


def test_the_odds_situation_is_worked_out_once_per_view(monkeypatch):
    import companion.view.table_view as table_view
    from companion.view.table_view import OddsView
    view = build(racing_table())
    situation = table_view.odds_situation(view)
    assert situation is not None
    odds = OddsView({m.value: (0.25,) * 4 for m in Mascot}, situation.key, situation.cards, situation.card)
    view = view.with_odds(odds)
    calls = []
    real = table_view.odds_situation
    monkeypatch.setattr(table_view, "odds_situation", lambda v: calls.append(v) or real(v))
    assert view.odds_current is not None and view.odds_shown is not None and not view.odds_stale
    assert view.odds_card == situation.card and view.situation == situation
    assert len(calls) == 1


def test_an_open_bet_would_take_its_pots_share_if_the_race_ended_now():
    import dataclasses

    from companion.rules import Race
    table = Table()
    for text in ("HS-NEW", "HS-PLAYERS-9", "HS-GO", "HS-BET-1-HURLEY", "HS-BET-2-HURLEY", "HS-BET-2-NO"):
        table.apply(text, {"side_bet_order": list(range(12))} if text.startswith("HS-PLAYERS") else None)
    race = Race()
    race.push_text("H+3")  # Hurley ahead of the field: paid 1st if the race ended now
    view = dataclasses.replace(build(table), phase=Phase.RACING, race=race)
    assert table.game is not None
    place_pots, side_pot = table.game.ticket_table.place_pots, table.game.ticket_table.side_pot
    # two bets on Hurley share the 1st place pot; the side bet has not happened: NO is right, and seat 2 alone said it
    assert view.pots[0].if_ended == place_pots[0] // 2
    assert view.pots[1].if_ended == place_pots[0] // 2 + side_pot
    assert build(table).pots[1].if_ended is None  # no race is run while betting
