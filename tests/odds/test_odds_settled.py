"""Odds shown never contradict the race (docs/rules.md 5): a mascot whose place is settled (a finish, a DQ, the
race's end) shows that place for certain and nobody else any chance of it, stale odds included, in the view the
screen and the phone page both read (``TableView.odds_shown``, ``companion.view.settled_odds``)."""

from __future__ import annotations

import math
from types import SimpleNamespace as NS

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.kiosk.controller import Controller
from companion.kiosk.journal import Journal
from companion.rules.mascots import MASCOTS
from companion.rules.phases import Phase
from companion.rules.race import Race, play
from companion.rules.table import Table
from companion.screen.sink import ScreenSink
from companion.view.settled_odds import settle, settled_places
from companion.view.table_view import OddsView, build, odds_situation
from companion.web.sink import WebSink

TO_RACE = ("HS-NEW", "HS-PLAYERS-2", "HS-GO", "HS-GO", "HS-GO")  # untracked deck, no bets: race 1 begins
MUM_WINS = ("HS38", "HS39", "HS37", "HS35", "HS34")             # Mum alone in lane 4: 1, 8, 11, 13, over
TWO_OUT = ("HS07", "HS40", "HS24", "HS49", "HS29")              # Gobbler and Mum DQ together: both paid 4th
KNOCKOUT = ("HS32", "HS14", "HS30")                              # Dangle knocked out: paid 4th
OVER = ("HS05", "HS38", "HS53", "HS27")                           # three out of bounds off the back: over
# Made before anyone was placed: Gobbler 22% to win, Mum the favourite.
STALE = {"gobbler": (0.22, 0.30, 0.30, 0.18), "hurley": (0.20, 0.30, 0.30, 0.20),
         "dangle": (0.08, 0.20, 0.30, 0.42), "mum": (0.50, 0.20, 0.10, 0.20)}
CODES = [f"HS{n:02d}" for n in range(1, 54)]


def assert_agrees(odds, race: Race, *, columns: float | None = 1e-9) -> None:
    """The contract: placed mascots certain of their place, nobody else any chance of a taken place, every
    racing mascot's chances summing to 1 (and, unless ``columns`` is None, each open place shared out once)."""
    placed, open_places = settled_places(race)
    assert set(odds) == {m.value for m in MASCOTS}
    for name, row in odds.items():
        assert len(row) == 4 and all(0.0 <= p <= 1.0 + 1e-12 and math.isfinite(p) for p in row)
        if name in placed:
            assert list(row) == [1.0 if k == placed[name] else 0.0 for k in range(1, 5)], (name, row)
        else:
            assert all(row[k - 1] == 0.0 for k in range(1, 5) if k not in open_places), (name, row)
            assert sum(row) == pytest.approx(1.0, abs=1e-9)
    if columns is not None:
        for k in open_places:
            assert sum(row[k - 1] for name, row in odds.items() if name not in placed) == pytest.approx(1, abs=columns)


# ----- what the race has settled --------------------------------------------------------------------------
def test_the_places_settled_by_a_finish_a_knockout_two_dq_together_and_the_end():
    assert settled_places(Race()) == ({}, (1, 2, 3, 4))
    assert settled_places(play(MUM_WINS)[0]) == ({"mum": 1}, (2, 3, 4))
    assert settled_places(play(KNOCKOUT)[0]) == ({"dangle": 4}, (1, 2, 3))
    assert settled_places(play(TWO_OUT)[0]) == ({"gobbler": 4, "mum": 4}, (1, 2))  # 3rd is taken too
    over = play(OVER)[0]
    placed, open_places = settled_places(over)
    assert over.is_over and open_places == () and set(placed) == {m.value for m in MASCOTS}


# ----- stale odds made to agree ---------------------------------------------------------------------------
def test_stale_odds_after_a_finish_give_the_winner_first_and_nobody_else_a_chance_to_win():
    race = play(MUM_WINS)[0]
    odds = settle(STALE, race)
    assert_agrees(odds, race)
    assert odds["mum"] == (1.0, 0.0, 0.0, 0.0) and odds["gobbler"][0] == 0.0  # Gobbler was 22% to win
    # the stale ranking is kept: Dangle stays the likeliest 4th, Gobbler's 2nd-to-4th odds ratio against
    # Dangle's is the stale one (the rescaling keeps odds ratios)
    assert max(odds, key=lambda m: odds[m][3]) == "dangle"
    ratio = (odds["gobbler"][1] / odds["gobbler"][3]) / (odds["dangle"][1] / odds["dangle"][3])
    assert ratio == pytest.approx((0.30 / 0.18) / (0.20 / 0.42))


def test_two_dq_together_leave_nobody_a_chance_of_3rd_or_4th():
    race = play(TWO_OUT)[0]
    odds = settle(STALE, race)
    assert_agrees(odds, race)
    assert odds["gobbler"] == odds["mum"] == (0.0, 0.0, 0.0, 1.0)
    assert odds["hurley"][2:] == odds["dangle"][2:] == (0.0, 0.0)
    assert odds["hurley"][0] > odds["dangle"][0]  # Hurley was the likelier winner of the two


def test_a_knockout_leaves_nobody_else_a_chance_of_4th():
    race = play(KNOCKOUT)[0]
    odds = settle(STALE, race)
    assert_agrees(odds, race)
    assert odds["dangle"] == (0.0, 0.0, 0.0, 1.0) and odds["mum"][0] == max(r[0] for r in odds.values())


def test_odds_sure_of_what_did_not_happen_still_agree_with_the_race():
    race = play(KNOCKOUT)[0]  # the stale odds had Dangle certain to win and Gobbler certain to be 4th
    sure = {"gobbler": (0, 0, 0, 1.0), "hurley": (0, 0, 1.0, 0), "dangle": (1.0, 0, 0, 0), "mum": (0, 1.0, 0, 0)}
    assert_agrees(settle(sure, race), race, columns=0.01)
    assert_agrees(settle({}, race), race)  # no odds for anyone: even chances of the open places


def test_odds_that_already_agree_are_shown_as_they_are():
    race = play(MUM_WINS)[0]
    agreeing = settle(STALE, race)
    assert settle(agreeing, race) is agreeing
    assert settle(STALE, Race()) is STALE and settle(STALE, None) is STALE  # nothing settled
    nearly = {**agreeing, "mum": (0.9999999999, 1e-10, 0.0, 0.0)}  # a sum of exact chances, off in the last bits
    trimmed = settle(nearly, race)
    assert trimmed["mum"] == (1.0, 0.0, 0.0, 0.0) and trimmed["gobbler"] == pytest.approx(agreeing["gobbler"])


def test_the_race_over_leaves_only_the_placings():
    race = play(OVER)[0]
    odds = settle(STALE, race)
    assert {m: row.index(1.0) + 1 for m, row in odds.items()} == {m.value: p for m, p in race.outcome.placings.items()}


rows = st.lists(st.floats(0.01, 1.0), min_size=4, max_size=4).map(lambda r: tuple(p / sum(r) for p in r))


@settings(max_examples=100, deadline=None)
@given(order=st.permutations(CODES), again=st.permutations(CODES), cards=st.integers(1, 30),
       stale=st.fixed_dictionaries({m.value: rows for m in MASCOTS}))
def test_any_stale_odds_agree_with_any_race(order, again, cards, stale):
    race = play([*order[:15], *again[:15]][:cards])[0]  # up to two passes (a fold after the first)
    rebalanced = bool(settled_places(race)[0])  # else the odds are shown as they were made
    assert_agrees(settle(stale, race), race, columns=1e-6 if rebalanced else None)


@settings(max_examples=40, deadline=None)
@given(order=st.permutations(CODES), cards=st.integers(1, 15),
       stale=st.fixed_dictionaries({m.value: rows for m in MASCOTS}))
def test_the_view_never_shows_stale_odds_against_the_race(order, cards, stale):
    table = Table()
    for text in TO_RACE:
        table.apply(text, {"side_bet_order": list(range(12))} if text.startswith("HS-PLAYERS") else None)
    start = odds_situation(build(table))  # the race before its first card: the odds were made for this
    for code in order[:cards]:
        if table.phase is not Phase.RACING:
            break
        table.apply(code)
    view = build(table, odds=OddsView(stale, start.key, start.cards))
    if view.phase is Phase.RACING:
        assert view.odds_stale and view.odds_card == 0
        assert_agrees(view.odds_shown, view.race, columns=1e-6 if view.placings else None)
    else:  # the race ended: payouts show no odds
        assert view.phase is Phase.PAYOUTS and view.odds_shown is None


def test_odds_of_a_card_an_undo_took_back_are_not_shown():
    controller = Controller(Journal(":memory:"))
    for text in (*TO_RACE, *MUM_WINS):
        assert controller.handle(text).accepted
    situation = odds_situation(controller.view)  # made after Mum crossed: Mum certain to win
    controller.odds_ready(OddsView(settle(STALE, controller.view.race), situation.key, situation.cards, card=5))
    controller.step()
    assert controller.view.odds_shown["mum"] == (1.0, 0.0, 0.0, 0.0) and not controller.view.odds_stale
    assert controller.handle("HS-UNDO").accepted  # Mum is racing again on space 13
    assert controller.view.placings == {} and controller.view.odds_shown is None
    assert controller.handle("HS41").accepted  # another 5th card (Mum falls): still not those odds
    assert len(controller.view.race.cards) == 5 and controller.view.odds_shown is None


# ----- through the view the screen and the phone page read --------------------------------------------------
class Display:
    """The screen's display: keeps the last model drawn."""

    model = None

    def draw(self, model, now, extra=None):
        self.model = model

    def present(self):
        pass


def test_the_screen_and_the_phone_show_stale_odds_agreeing_with_a_finish_before_new_odds_arrive():
    pages = []
    hub = NS(publish=lambda page, claims, *more: pages.append(page), outcome=lambda *a: None)
    display = Display()
    controller = Controller(Journal(":memory:"), sinks=[ScreenSink(display, frame_interval=0),
                                                         WebSink(lambda fn, *args: fn(*args), hub)])
    for text in (*TO_RACE, *MUM_WINS[:2]):
        assert controller.handle(text).accepted
    situation = odds_situation(controller.view)
    controller.odds_ready(OddsView(STALE, situation.key, situation.cards, card=2))
    controller.step()  # the odds made after card 2 are current: shown as they are
    assert controller.view.odds_shown is STALE and pages[-1]["odds"]["gobbler"] == [0.22, 0.3, 0.3, 0.18]
    for text in MUM_WINS[2:]:  # Mum crosses the line; no newer odds arrive
        assert controller.handle(text).accepted
    controller.step()
    view = controller.view
    assert view.placings == {"mum": 1} and view.odds_stale and view.odds_card == 2
    assert_agrees(view.odds_shown, view.race)
    assert display.model.odds == view.odds_shown and display.model.odds_stale
    page = pages[-1]
    assert page["odds_stale"] and page["odds_card"] == 2
    assert page["odds"]["mum"] == [1.0, 0.0, 0.0, 0.0] and page["odds"]["gobbler"][0] == 0.0
    assert page["odds"] == {m: list(p) for m, p in view.odds_shown.items()}
