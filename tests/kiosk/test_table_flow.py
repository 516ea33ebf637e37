"""The game as a table lives it: the side bet stack, the race 3 double, the variant chosen at new
game, open-variant bets settled by the kiosk, and what `hotstreak status --json` shows of it."""

from __future__ import annotations

import json
import random

import pytest

from companion.kiosk.controller import Controller, status_dict
from companion.kiosk.journal import Journal
from companion.rules.codes import OpenBetCode, parse_code
from companion.rules.errors import InvalidCodeError, RefusedError
from companion.rules.game import Phase, Variant
from companion.rules.game_events import OpenBetPlaced, Settled, SideBetShown
from companion.rules.game_view import DOUBLE_PROMPT
from companion.rules.table import Table, VariantChosen
from conftest import hotstreak
from tablekit import TableKit

RACE_1 = "HS17 HS15 HS14 HS22 HS06 HS04 HS03 HS11 HS28 HS26 HS25 HS33".split()  # H 1, G 2, D 3, M 4
RACE_2 = "HS06 HS04 HS03 HS11 HS28 HS26 HS25 HS33 HS17 HS15 HS14 HS22".split()  # G 1, D 2, H 3, M 4
RACE_3 = "HS39 HS37 HS36 HS44 HS28 HS26 HS25 HS33 HS06 HS04 HS03 HS11".split()  # M 1, D 2, G 3, H 4
# the realised side bet order: indexes into the side bet data (HS-S01 = 0): knockout, any-dq, two-fallen, ...
ORDER = [6, 11, 5, 0, 1, 2, 3, 4, 7, 8, 9, 10]


def table_with(players: int, *texts: str, variant: str = "standard") -> Table:
    table = Table()
    table.apply("HS-NEW")
    for text in (f"HS-PLAYERS-{players}", *texts):
        data = {"side_bet_order": ORDER, "variant": variant} if text.startswith("HS-PLAYERS") else {}
        table.apply(text, data)
    return table


def refused(table: Table, text: str, *words: str) -> str:
    before = status_dict(table), table.game.to_dict() if table.game else None
    with pytest.raises(RefusedError) as info:
        table.apply(text)
    assert (status_dict(table), table.game.to_dict() if table.game else None) == before
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message
    return message


# ----- the side bet stack ---------------------------------------------------------------------------------
def test_with_no_scan_each_race_asks_the_next_card_not_asked_yet_and_says_it_is_assumed():
    table = table_with(3, "HS-GO")
    game = table.game
    assert game.side_bet == "knockout" and not game.stack.scanned
    assert game.to_dict()["side_bet_note"] == ("The kiosk answers side bet card 7 (HS-S07); if the stack shows "
                                               "another card, scan it.")
    assert status_dict(table)["side_bet"] == {"card": "knockout", "code": "HS-S07", "question": game.stack.card().question,
                                              "answer": None, "scanned": False}
    for text in ("HS-GO", "HS-GO", *RACE_1, "HS-GO"):
        table.apply(text)
    assert game.race_no == 2 and game.side_bet == "any-dq"  # never the race 1 question again
    for text in ("HS-GO", "HS-GO", *RACE_2, "HS-GO"):
        table.apply(text)
    assert game.side_bet == "two-fallen" and game.stack.asked == ["knockout", "any-dq"]


def test_a_scanned_card_is_the_question_and_a_card_asked_before_is_refused_even_when_next_in_the_kiosk_order():
    table = table_with(3, "HS-GO")
    game = table.game
    events = table.apply("HS-S12")  # the table's stack shows any-dq, the kiosk assumed knockout
    assert events == [SideBetShown("any-dq", 12, game.stack.card().question, 1, scanned=True)]
    assert game.side_bet == "any-dq" and status_dict(table)["side_bet"]["scanned"] is True
    assert game.to_dict()["side_bet_note"] is None
    refused(table, "HS-S06", "already HS-S12", "HS-UNDO")  # a second, different card in the same race
    refused(table, "HS-S12", "already race 1's question")  # the same card again: a double read, refused
    for text in ("HS-GO", "HS-GO", *RACE_1, "HS-GO"):
        table.apply(text)
    # race 2: knockout is the kiosk's first card not asked yet; any-dq went to the bottom of the stack
    assert game.side_bet == "knockout"
    refused(table, "HS-S12", "HS-S12", "race 1", "bottom of the stack")
    table.apply("HS-S06")
    assert game.side_bet == "two-fallen"
    for text in ("HS-GO", "HS-GO", *RACE_2, "HS-GO"):
        table.apply(text)
    assert game.side_bet == "knockout"  # still never asked, so now it shows
    refused(table, "HS-S06", "race 2")


def test_the_side_bet_card_is_fixed_once_the_first_ticket_of_the_race_is_drafted():
    table = table_with(3, "HS-GO", "HS-T-GOBBLER-1-S")
    refused(table, "HS-S03", "too late", "first ticket of race 1", "knockout")
    table.apply("HS-S07")  # confirming the card the kiosk assumed is still fine
    assert table.game.stack.scanned and table.game.side_bet == "knockout"


def test_the_top_card_may_be_scanned_in_setup_already():
    table = table_with(3, "HS-S02")
    assert table.game.side_bet == "bottom2-hurley" and table.game.phase is Phase.SETUP
    events = table.apply("HS-GO")
    assert SideBetShown("bottom2-hurley", 2, table.game.stack.card().question, 1, scanned=True) in events


# ----- the race 3 double ------------------------------------------------------------------------------------
def to_race_3(players: int = 2, variant: str = "standard") -> Table:
    table = table_with(players, "HS-GO", variant=variant)
    for race in (RACE_1, RACE_2):
        for text in ("HS-GO", "HS-GO", *race, "HS-GO") if variant == "standard" else ("HS-GO", *race, "HS-GO"):
            table.apply(text)
    assert table.game.race_no == 3 and table.game.phase is Phase.BETTING
    return table


def test_the_double_prompt_is_in_the_game_state_for_screen_and_voice():
    table = to_race_3()
    game = table.game
    assert game.to_dict()["double_prompt"] == DOUBLE_PROMPT == game.prompt
    assert "HS-DOUBLE" in DOUBLE_PROMPT
    for text in ("HS-T-MUM-1-R", "HS-T-DANGLE-1-S", "HS-T-NO-1-S", "HS-T-GOBBLER-1-R", "HS-T-HURLEY-1-S"):
        table.apply(text)
    assert game.prompt == "Seat 1: scan HS-DOUBLE, then the ticket you double."
    table.apply("HS-NAME-1:Ann")
    assert game.prompt == "Seat 1 (Ann): scan HS-DOUBLE, then the ticket you double."
    table.apply("HS-DOUBLE")
    assert "scan the ticket to double" in game.prompt and game.to_dict()["double_armed"] is True
    table.apply("HS-T-HURLEY-1-S")
    table.apply("HS-T-YES-1-S")
    message = refused(table, "HS-GO", "race 3 pays one ticket per player double", "seat 2 has not marked one",
                      "HS-DOUBLE, then one of seat 2's tickets")
    assert message.startswith("HS-GO: ")
    table.apply("HS-DOUBLE")
    table.apply("HS-T-NO-1-S")
    assert game.to_dict()["double_prompt"] is None
    seats = status_dict(table)["seats"]
    assert [s["double"] for s in seats] == ["hurley-top", "no-top"]
    assert seats[0]["name"] == "Ann" and seats[1]["name"] == "Seat 2"
    assert seats[0]["tickets"] == [{"ticket": "mum-top", "side": "risky", "double": False},
                                   {"ticket": "gobbler-top", "side": "risky", "double": False},
                                   {"ticket": "hurley-top", "side": "safe", "double": True}]


def test_hs_double_is_refused_outside_race_3_betting():
    table = table_with(3, "HS-GO")
    refused(table, "HS-DOUBLE", "only race 3", "now race 1")


# ----- the variant, chosen at new game ----------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 5, 8, 9, 12])
def test_hs_open_before_the_player_count_gives_the_open_variant_at_any_count(players):
    table = Table()
    table.apply("HS-NEW")
    assert table.apply("HS-OPEN") == [VariantChosen("open")]
    assert status_dict(table)["variant"] == "open"
    table.apply(f"HS-PLAYERS-{players}", {"side_bet_order": ORDER, "variant": "standard"})
    game = table.game
    assert game.variant is Variant.OPEN and game.money == [0] * players and game.draft_order(1) == []
    assert game.figures.face_up == 18


def test_the_variant_can_be_changed_right_after_the_count_but_not_once_setup_has_begun():
    table = table_with(4, "HS-NAME-2:Bo")
    events = table.apply("HS-OPEN")
    assert [e.type for e in events] == ["variant_chosen", "players_set"]
    assert table.game.variant is Variant.OPEN and table.seat_name(1, "Seat {n}") == "Bo"
    refused(table, "HS-OPEN", "already")
    table.apply("HS-STANDARD")
    assert table.game.variant is Variant.STANDARD and table.game.money == [10] * 4
    table.apply("HS02")
    refused(table, "HS-OPEN", "during a game", "HS-NEW")


def test_the_configured_default_is_stored_with_the_count_and_nine_plus_always_play_open():
    assert table_with(4, variant="open").game.variant is Variant.OPEN
    assert table_with(4, variant="standard").game.variant is Variant.STANDARD
    assert table_with(10, variant="standard").game.variant is Variant.OPEN
    assert table_with(5, variant="bogus").game.variant is Variant.STANDARD  # a damaged journal value
    table = Table()
    table.apply("HS-STANDARD")
    message = refused(table, "HS-PLAYERS-10", "HS-PLAYERS-10 with HS-STANDARD", "2..8")
    assert "open variant" in message


def test_the_controller_stores_the_configured_variant_with_a_new_game():
    with TableKit(config='[game]\nvariant = "open"\n', rng_seed=1) as kit:  # the config's variant, via the wiring
        journal, controller = kit.journal, kit.controller
        controller.handle("HS-NEW")
        controller.handle("HS-PLAYERS-3")
        assert controller.table.game.variant is Variant.OPEN
        assert journal.effective()[-1].data["variant"] == "open"
        controller.handle("HS-UNDO")
        controller.handle("HS-UNDO")  # replay of the journal gives the same game
        controller.handle("HS-STANDARD")
        controller.handle("HS-PLAYERS-3")
        assert controller.table.game.variant is Variant.STANDARD
        # the choice is stored with the count too: a replay from the count alone gives the same game
        assert journal.effective()[-1].data["variant"] == "standard"
        table = Table()
        table.apply("HS-PLAYERS-3", journal.effective()[-1].data)
        assert table.game.variant is Variant.STANDARD


# ----- open-variant bets --------------------------------------------------------------------------------------
def test_bet_codes_parse_and_bad_ones_name_the_text():
    assert parse_code("hs-bet-3-dangle") == OpenBetCode(3, "dangle")
    assert parse_code("HS-BET-12-NO-DOUBLE") == OpenBetCode(12, "no", True)
    assert OpenBetCode(12, "no", True).code() == "HS-BET-12-NO-DOUBLE"
    with pytest.raises(InvalidCodeError, match="seat 13 is out of range"):
        parse_code("HS-BET-13-MUM")
    with pytest.raises(InvalidCodeError, match="unknown bet PIG"):
        parse_code("HS-BET-2-PIG")


def test_open_bets_are_settled_by_the_kiosk_at_the_end_of_the_race():
    table = table_with(5, "HS-OPEN", "HS-GO")  # race 1's question: knockout
    refused(table, "HS-T-GOBBLER-1-S", "open variant has no tickets", "HS-BET")
    bets = ["HS-BET-1-HURLEY", "HS-BET-2-HURLEY", "HS-BET-3-GOBBLER", "HS-BET-4-MUM", "HS-BET-5-DANGLE",
            "HS-BET-1-NO", "HS-BET-2-YES", "HS-BET-3-NO", "HS-BET-4-NO"]
    for text in bets:
        assert isinstance(table.apply(text)[0], OpenBetPlaced)
    refused(table, "HS-GO", "seat 5 has no YES/NO answer", "HS-BET-5-YES")
    table.apply("HS-BET-5-YES")
    table.apply("HS-BET-5-NO")  # a seat may change its mind until GO
    refused(table, "HS-BET-5-NO", "already has this bet")
    refused(table, "HS-BET-6-MUM", "seat 6 is not at this table")
    refused(table, "HS-BET-1-MUM-DOUBLE", "only race 3")
    refused(table, "HS-S03", "too late", "first bet of race 1")
    table.apply("HS-GO")
    events = [e for text in RACE_1 for e in table.apply(text)]
    # H 1, G 2, D 3, M 4; no knockout (NO right): 1st pot 18 / 2 Hurley bettors, 2nd 12 Gobbler, 3rd 6 Dangle;
    # side pot 18 among the 4 NO answers
    settled = [(e.seat, e.change, e.amounts) for e in events if isinstance(e, Settled)]
    assert settled == [(0, 13, (9, 4)), (1, 9, (9, 0)), (2, 16, (12, 4)), (3, 4, (0, 4)), (4, 10, (6, 4))]
    status = status_dict(table)
    assert status["money"] == [13, 9, 16, 4, 10] == [s["money"] for s in status["seats"]]
    assert status["variant"] == "open" and status["side_bet"]["answer"] is False
    assert status["seats"][4]["bet"] == {"mascot": "dangle", "answer": "no", "double": None}


def test_open_race_3_double_by_code_or_by_hs_double_and_pots_pay_it():
    table = to_race_3(players=2, variant="open")
    game = table.game
    assert game.money == [0, 0]  # no bets entered in races 1 and 2: nothing settled, nothing invented
    assert game.prompt.startswith("Last race: each player circles one bet")
    for text in ("HS-BET-1-MUM-DOUBLE", "HS-BET-1-YES", "HS-BET-2-DANGLE", "HS-BET-2-NO"):
        table.apply(text)
    refused(table, "HS-GO", "seat 2 has not circled a bet to double")
    table.apply("HS-DOUBLE")
    refused(table, "HS-GO", "HS-DOUBLE is waiting")
    assert table.apply("HS-BET-2-NO")[0].double == "side"
    table.apply("HS-GO")
    for text in RACE_3:
        table.apply(text)
    # M 1, D 2, G 3, H 4; race 3's question two-fallen did not happen: seat 1 Mum 18 x2 + YES wrong 0 = 36,
    # seat 2 Dangle 12 + NO right 18 x2 = 48
    assert game.money == [36, 48]


@pytest.mark.slow
def test_status_json_command_shows_side_bet_seats_and_variant(tmp_path):
    db = tmp_path / "journal.db"
    with Journal(db) as journal:
        controller = Controller(journal, rng=random.Random(3))
        for text in ("HS-NEW", "HS-PLAYERS-2", "HS-NAME-1:Ann", "HS-GO", "HS-S05", "HS-T-MUM-1-R"):
            assert controller.handle(text).accepted, text
    result = hotstreak("status", "--json", "--db", str(db))
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert status["variant"] == "standard"
    assert status["side_bet"]["card"] == "out-of-bounds" and status["side_bet"]["answer"] is None
    assert status["side_bet"]["scanned"] is True and status["side_bet"]["question"]
    assert status["seats"] == [  # no phone page ever served here: no join URL, no consent codes
        {"name": "Ann", "money": 10, "tickets": [{"ticket": "mum-top", "side": "risky", "double": False}],
         "double": None, "bet": None, "code": None},
        {"name": "Seat 2", "money": 10, "tickets": [], "double": None, "bet": None, "code": None}]
    assert status["join_url"] is None
    text = hotstreak("status", "--db", str(db)).stdout
    assert "side bet HS-S05 (out-of-bounds, scanned)" in text and "Ann: $10, mum-top risky" in text



def test_status_during_betting_shows_the_next_race_at_the_start_not_the_last_one():
    """Betting for race 2: the mascots stand at the start; race 1's placings and passes are not shown."""
    import random
    from companion.kiosk.controller import status_dict
    from companion.rules.errors import HotStreakError
    from companion.rules.table import Table, realise
    from companion.tools.demo import parse_script, script_path
    table, rng = Table(), random.Random(1)
    for text, _wait in parse_script(script_path().read_text("utf-8")):
        try:
            table.apply(text, realise(text, rng))
        except HotStreakError:
            pass
        if table.phase == "betting" and table.game.race_no == 2:
            break
    assert table.game.race is not None and table.game.race.outcome.placings   # race 1's, finished
    status = status_dict(table)
    assert status["race"] == 2 and status["placings"] == {} and status["revealed"] == 0 and status["pass"] == 0
    assert all(m["status"] == "racing" and "space" in m for m in status["mascots"].values())


def test_a_card_that_cannot_be_in_race_1s_deck_is_refused():
    """Race 1 with the face-up cards scanned: every other card is one of the players x 1 added face down."""
    import random
    from companion.rules.errors import HotStreakError
    from companion.rules.table import Table, realise
    from companion.tools.demo import parse_script, script_path
    table, rng = Table(), random.Random(1)
    for text, _wait in parse_script(script_path().read_text("utf-8")):
        table.apply(text, realise(text, rng))
        if table.phase == "racing":
            break
    game = table.game
    assert game.face_up and game.race_no == 1
    unknown = [dc.code for dc in game.deck if dc.code not in game.face_up]
    limit = game.players * game.figures.added_per_race
    for code in unknown[:limit]:
        table.apply(code)
    before = game.race.position()
    with pytest.raises(HotStreakError, match=f"card {unknown[limit]} .*cannot be in this race's deck"):
        table.apply(unknown[limit])
    assert game.race.position() == before
    table.apply(game.face_up[0])                    # a face-up card still comes
