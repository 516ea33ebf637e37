"""What /api/view carries for the phone's pick, track and last card (``companion.web.view.table_view``), built
from a rules Table with no server."""

from __future__ import annotations

import json

import pytest

from companion.call.words import LANGUAGES
from companion.rules.table import Table
from companion.web.view import table_view

ODDS = {"hurley": (0.5, 0.3, 0.2, 0.0), "gobbler": (0.5, 0.25, 0.25, 0.0),
        "dangle": (0.0, 0.25, 0.25, 0.5), "mum": (0.0, 0.25, 0.25, 0.5)}


def table_after(*texts: str, players: int = 3) -> Table:
    table = Table()
    for text in ("HS-NEW", f"HS-PLAYERS-{players}", "HS-GO", *texts):  # 9 players: the open variant
        table.apply(text, {"side_bet_order": list(range(12))} if text.startswith("HS-PLAYERS") else None)
    return table


def stack(view: dict, name: str) -> dict:
    return next(s for s in view["stacks"] if s["stack"] == name)


def test_the_stacks_show_each_top_ticket_its_pay_and_its_expected_value():
    view = table_view(table_after("HS-T-HURLEY-1-R", "HS-T-HURLEY-2-S"), odds=ODDS)
    assert [s["stack"] for s in view["stacks"]] == ["gobbler", "hurley", "dangle", "mum", "yes", "no"]
    hurley = stack(view, "hurley")  # two drafted: the bottom ticket is on top
    assert (hurley["left"], hurley["top"]) == (1, "bottom")
    assert hurley["pays"] == {"safe": [5, 3, 2, 0], "risky": [8, 2, 0, 0]}
    assert hurley["ev"] == {"safe": 3.8, "risky": 4.6}          # .5*5 + .3*3 + .2*2; .5*8 + .3*2
    gobbler = stack(view, "gobbler")
    assert (gobbler["left"], gobbler["top"], gobbler["ev"]) == (3, "top", {"safe": 8.0, "risky": 9.2})
    assert stack(view, "yes")["pays"] == {"safe": [10, 0], "risky": [15, -5]}  # right, wrong
    assert stack(view, "yes")["ev"] == {"safe": None, "risky": None}          # the answer is not known yet
    json.dumps(view)  # plain values only


def test_an_empty_stack_has_no_top_ticket_and_no_pay():
    view = table_view(table_after("HS-T-MUM-1-S", "HS-T-MUM-2-S", "HS-T-MUM-3-S"), odds=ODDS)
    assert stack(view, "mum") == {"stack": "mum", "left": 0, "top": None, "pays": {}, "ev": {}}


def test_stale_odds_give_no_expected_values_and_the_open_variant_has_no_stacks():
    stale = table_view(table_after(), odds=ODDS, odds_stale=True)
    assert stack(stale, "gobbler")["ev"] == {"safe": None, "risky": None}
    assert stale["odds_stale"] is True and stale["odds"]["gobbler"] == [0.5, 0.25, 0.25, 0.0]
    open_game = table_view(table_after(players=9))
    assert open_game["variant"] == "open" and open_game["stacks"] == []
    assert table_view(Table())["stacks"] == []  # no game yet


def test_the_track_carries_what_the_screen_draws():
    track = table_view(table_after())["track"]
    assert track == {"lanes": 4, "spaces": 14, "finish_space": 13, "fold_lines": [4, 7, 11], "stars": [1, 8, 13, 14],
                     "final_stretch": 11, "start_space": 3}


def test_the_last_card_comes_in_words_in_every_language_never_as_notation():
    table = table_after()
    for text in ("HS-T-HURLEY-1-R", "HS-T-MUM-1-S", "HS-T-DANGLE-1-S", "HS-T-GOBBLER-1-S", "HS-T-YES-1-S",
                 "HS-T-NO-1-R", "HS-GO", "HS-GO", "HS15"):
        table.apply(text)
    last = table_view(table)["last_card"]
    assert set(last["words"]) == set(LANGUAGES)
    assert last["words"]["en"] == "3 ahead" and last["mascot"] == "hurley"
    for words in last["words"].values():
        assert last["notation"] not in words and last["code"] not in words


@pytest.mark.parametrize("lang,words", [("nl", "3 vooruit"), ("es", "3 adelante")])
def test_card_words_follow_the_language(lang, words):
    from companion.rules.cards import Card
    from companion.web.view import card_words
    assert card_words(Card.parse("H+3"), lang) == words
    assert card_words(Card.parse("GR+2"), "en") == "Stand up, 2 ahead"


def test_the_side_bet_question_is_in_every_language_of_the_page():
    view = table_view(table_after())
    side = view["side_bet"]
    assert side is not None, "the setup scanned a side bet order: a side bet is shown"
    assert set(side["questions"]) == set(LANGUAGES)
    assert side["questions"]["en"] == side["question"]
    assert side["questions"]["nl"] != side["question"] and side["questions"]["es"] != side["question"]
    assert side["questions"]["es"].startswith("¿")
