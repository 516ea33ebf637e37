"""Seat names: ``HS-NAME-<seat>:<name>`` typed at the table (keyboard, phone), journaled like a scan."""

import pytest

from companion.rules.codes import SeatNameCode, parse_code
from companion.rules.errors import InvalidCodeError, RefusedError
from companion.rules.table import SeatNamed, Table


def test_a_name_keeps_its_case_and_folds_spaces():
    assert parse_code("hs-name-3:  Ann   Marie ") == SeatNameCode(3, "Ann Marie")


@pytest.mark.parametrize("text", ["HS-NAME-13:Bo", "HS-NAME-0:Bo", "HS-NAME-2:" + "x" * 17, "HS-NAME-2:a\x07b"])
def test_bad_names_are_refused_with_the_text(text):
    with pytest.raises(InvalidCodeError, match="HS-NAME"):
        parse_code(text)


def test_names_belong_to_seats_of_this_game():
    table = Table()
    with pytest.raises(RefusedError):
        table.apply("HS-NAME-1:Ann")            # no game yet
    table.apply("HS-PLAYERS-3")
    assert table.apply("HS-NAME-2:Ann") == [SeatNamed(2, "Ann")]
    assert table.seat_name(1, "Seat {n}") == "Ann" and table.seat_name(0, "Seat {n}") == "Seat 1"
    with pytest.raises(RefusedError, match="seat 4"):
        table.apply("HS-NAME-4:Bo")
    table.apply("HS-NAME-2:")
    assert table.seat_name(1, "Seat {n}") == "Seat 2"


def test_config_names_stand_until_a_name_is_typed():
    table = Table()
    table.default_names = ("Ann", "", "Cleo")
    table.apply("HS-PLAYERS-3")
    assert [table.seat_name(s, "Seat {n}") for s in range(3)] == ["Ann", "Seat 2", "Cleo"]
    table.apply("HS-NAME-1:Annie")
    assert table.seat_name(0, "Seat {n}") == "Annie"


def test_the_controller_gives_its_tables_the_config_names(tmp_path):
    from tablekit import TableKit
    with TableKit(tmp_path / "j.db", config='[players]\nnames = ["Ann", "Bo"]\n') as table:
        table.scan("HS-NEW", "HS-PLAYERS-2")
        assert table.controller.view.seat_name(1) == "Bo"
        table.press("undo")
        table.scan("HS-PLAYERS-2")                  # an undo rebuilds the table from the journal
        assert table.controller.view.seat_name(0) == "Ann"


@pytest.mark.parametrize("name", ["HS-GO", "hs15", "HS-T-MUM-1-S"])
def test_a_name_that_reads_as_a_code_is_refused(name):
    with pytest.raises(InvalidCodeError, match="reads as a scan code"):
        parse_code(f"HS-NAME-1:{name}")
    assert parse_code("HS-NAME-1:HS fan") == SeatNameCode(1, "HS fan")
