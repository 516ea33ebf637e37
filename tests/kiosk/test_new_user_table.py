"""What a table with no screen and no sound sees on the console, and a player count out of range."""

from __future__ import annotations

import pytest

from companion.call.words import load_catalogue
from companion.rules.errors import Reason
from companion.tools.demo import parse_script, script_path
from tablekit import TableKit

WORDS = {"en": "Player count: 2 to 12.", "nl": "Aantal spelers: 2 tot 12.", "es": "Número de jugadores: de 2 a 12."}


def test_every_accepted_input_of_a_whole_game_prints_a_line_on_the_console():
    table = TableKit()
    silent = []
    inputs = [code for code, _ in parse_script(script_path().read_text())]
    inputs[2:2] = ["HS-NAME-2:Ann", "HS-NAME-2:"]  # after the player count: a name, then cleared
    for code in inputs:
        before = table.console.getvalue()
        result = table.scan(code)
        printed = table.console.getvalue()[len(before):]
        if result.accepted and not printed.strip():
            silent.append(code)
    assert silent == []
    assert table.status()["phase"] == "game-over"


def test_setup_cards_each_print_what_was_taken():
    table = TableKit()
    for code in ("HS-NEW", "HS-STANDARD", "HS-PLAYERS-3", "HS-NAME-2:Bob", "HS02", "HS-S01"):
        assert table.scan(code).accepted
    lines = table.console.getvalue().splitlines()
    assert lines[1:] == ["  Took 'HS-STANDARD': the standard variant", "New game for 3 players (standard)",
                         "  Took 'HS-NAME-2:Bob': seat 2 is Bob", "  Took 'HS02': face-up card 1 of 15 (GR+2)",
                         "  Took 'HS-S01': side bet card 1, shown when betting opens"]


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_a_player_count_out_of_range_names_the_counts_allowed(lang):
    table = TableKit(lang=lang, screen=True)
    table.scan("HS-NEW")
    result = table.scan("HS-PLAYERS-13")
    assert not result.accepted and table.status()["phase"] == "new-game"
    assert result.error is not None and result.error.reason is Reason.PLAYER_COUNT
    assert table.screen.message == WORDS[lang]  # the screen's few words, in the table's language
    assert table.said()[-1] in load_catalogue(lang).phrases["refused-player-count"]  # the voice
    assert table.console.getvalue().splitlines()[-1] == (  # the console: the words and the one-line detail
        f"  Refused 'HS-PLAYERS-13': {WORDS['en']} ('HS-PLAYERS-13': player count 13 is out of range "
        "(expected 2..12 players))")
