"""History of every evening: game summaries made from the journal, standings, mascot form, `hotstreak history`."""

from __future__ import annotations

import json

import pytest

from companion.kiosk.history import form_line, mascot_form, standings
from companion.screen.model import from_table
from companion.tools.demo import parse_script, script_path
from tablekit import TableKit

DEMO = [text for text, _ in parse_script(script_path().read_text())]


def play_demo(table: TableKit, names: dict[int, str]) -> None:
    for text in DEMO:
        table.scan(text)
        if text.startswith("HS-PLAYERS"):
            for seat, name in names.items():
                assert table.scan(f"HS-NAME-{seat}:{name}").accepted
    assert table.status()["phase"] == "game-over"


def test_a_finished_game_is_summarised_with_names_races_side_bets_and_money(tmp_path):
    table = TableKit(tmp_path / "journal.db")
    play_demo(table, {1: "Ann", 3: "Carmen"})
    [game] = table.journal.games()
    assert game["finished"] and game["players"] == 4 and game["variant"] == "standard"
    assert [s["name"] for s in game["seats"]] == ["Ann", None, "Carmen", None]
    assert [s["money"] for s in game["seats"]] == table.status()["money"]
    assert sorted(s["place"] for s in game["seats"])[0] == 1
    assert [r["race"] for r in game["races"]] == [1, 2, 3]
    for race in game["races"]:
        assert len(race["placings"]) == 4 and min(race["placings"].values()) == 1  # DQs may share a place
        assert set(race["exits"]) == {"gobbler", "hurley", "dangle", "mum"}
        assert race["side_bet"] and race["question"].endswith("?") and race["happened"] in (True, False)
    assert table.controller.form is not None and "of the last 3" in table.controller.form


def test_undoing_the_final_go_takes_the_game_out_of_history_until_it_finishes_again(tmp_path):
    table = TableKit(tmp_path / "journal.db")
    play_demo(table, {})
    table.press("undo")
    assert table.journal.games() == [] and table.status()["phase"] == "payouts"
    table.press("go")
    assert len(table.journal.games()) == 1


@pytest.mark.slow  # two whole games into a journal on disk: 0.3 s quiet, over 1 s with the disk and cores busy
def test_an_unfinished_game_is_left_out_and_each_game_is_kept_once(tmp_path):
    table = TableKit(tmp_path / "journal.db")
    play_demo(table, {2: "Bram"})
    table.scan("HS-NEW", "HS-PLAYERS-3", "HS-NEW")  # one abandoned in setup
    play_demo(table, {2: "Bram"})
    games = table.journal.games()
    assert len(games) == 2 and games[0]["start_id"] > games[1]["start_id"]
    [bram] = standings(games)
    assert bram["name"] == "Bram" and bram["games"] == 2 and bram["evenings"] == 1


SUMMARY = {"finished": True, "started": 0.0, "seats": [
    {"seat": 1, "name": "Ann", "money": 30, "place": 1}, {"seat": 2, "name": "bram", "money": 12, "place": 2}]}


def race(placings: dict[str, int], exits: dict[str, str] | None = None) -> dict:
    return {"placings": placings, "exits": exits or {}}


def test_mascot_form_counts_wins_podiums_and_how_each_dq_happened():
    games = [dict(SUMMARY, races=[
        race({"mum": 1, "hurley": 2, "gobbler": 3, "dangle": 4}, {"dangle": "knockout"}),
        race({"mum": 1, "gobbler": 2, "dangle": 3, "hurley": 4}, {"hurley": "out_of_bounds"}),
        race({"hurley": 1, "mum": 2, "dangle": 3, "gobbler": 4}, {"gobbler": "knockout"})])]
    form = mascot_form(games)
    assert form["mum"] == {"races": 3, "wins": 2, "podiums": 3, "dqs": 0, "knocked_out": 0, "out_of_bounds": 0,
                           "average_place": 1.33}
    assert (form["hurley"]["dqs"], form["hurley"]["out_of_bounds"], form["hurley"]["knocked_out"]) == (1, 1, 0)
    assert (form["dangle"]["knocked_out"], form["gobbler"]["knocked_out"]) == (1, 1)
    assert form_line(games) == "Mum has won 2 of the last 3"


def test_the_form_line_looks_at_the_newest_ten_races_only():
    old = dict(SUMMARY, races=[race({"hurley": 1, "mum": 2})] * 20)
    new = dict(SUMMARY, races=[race({"mum": 1, "hurley": 2})] * 4 + [race({"dangle": 1})] * 6)
    assert form_line([new, old]) == "Dangle has won 6 of the last 10"  # newest game first
    assert form_line([dict(SUMMARY, races=[race({"gobbler": 1})])]) == "Gobbler won the last race"
    assert form_line([]) is None
    assert form_line([new, old], language="nl") == "Dangle won 6 van de laatste 10"
    assert form_line([new, old], language="es") == "Dangle ha ganado 6 de las últimas 10"


def test_standings_join_a_name_across_games_whatever_its_case():
    again = dict(SUMMARY, started=86400.0 * 3, seats=[{"seat": 1, "name": "BRAM", "money": 40, "place": 1}])
    rows = standings([SUMMARY, again])
    assert [(r["name"], r["games"], r["wins"], r["money"], r["evenings"]) for r in rows] == [
        ("bram", 2, 1, 52, 2), ("Ann", 1, 1, 30, 1)]  # equal wins: more money first


def test_the_form_line_reaches_the_attract_screen(tmp_path):
    table = TableKit(tmp_path / "journal.db")
    model = from_table(table.controller.table, form="Mum has won 4 of the last 10")
    assert model.screen == "attract" and model.form == "Mum has won 4 of the last 10"


@pytest.mark.slow
def test_history_command_text_and_json(tmp_path, run_cli):
    table = TableKit(tmp_path / "journal.db")
    play_demo(table, {1: "Ann"})
    table.close()
    result = run_cli("history", "--json", "--db", str(tmp_path / "journal.db"))
    assert result.returncode == 0, result.stderr
    info = json.loads(result.stdout)
    assert info["count"] == 1 and info["standings"][0]["name"] == "Ann"
    assert set(info["mascots"]) == {"gobbler", "hurley", "dangle", "mum"} and info["form"]
    text = run_cli("history", "--db", str(tmp_path / "journal.db")).stdout
    assert "Finished games: 1" in text and "Ann" in text and "Form: " in text and "knocked out" in text


@pytest.mark.slow
def test_history_of_a_missing_journal_is_one_line(tmp_path, run_cli):
    result = run_cli("history", "--db", str(tmp_path / "nope.db"))
    assert result.returncode == 2 and "nope.db" in result.stderr and result.stderr.count("\n") == 1
