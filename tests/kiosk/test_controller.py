"""The controller with the real table, journal, lights and voice sinks on a fake clock."""

import pytest

from companion.call.words import load_catalogue
from companion.kiosk.controller import Controller, status_dict
from companion.kiosk.journal import Journal
from companion.rules import Mascot
from tablekit import TableKit

G, H, D, M = Mascot.GOBBLER, Mascot.HURLEY, Mascot.DANGLE, Mascot.MUM


def test_a_scan_moves_the_mascot_and_its_lights():
    table = TableKit()
    table.start_race()
    table.scan("HS15")  # H+3
    assert table.status()["mascots"]["hurley"]["space"] == 6
    table.assert_lane(H, space=6)
    table.advance(6.0)  # the light running from space 3 to 6 (the move's pulse) is over
    table.assert_idle(2, 3)
    table.assert_said("Hurley")


def test_fallen_blinks_and_turned_around_shows_a_marker_pixel():
    from companion.lights.render import MARKER

    table = TableKit()
    table.start_race()
    table.scan("HS19")  # HF
    table.advance(2.0)  # past the fall flash
    full = table.colours[H]
    seen = set()
    for _ in range(8):
        table.advance(0.1)
        seen.add(tuple(table.pixels(2, 3)))
    assert seen == {(full, full), ((0, 0, 0), (0, 0, 0))}  # a blink at full colour, not a dim light
    table.scan("HS07")  # GT
    assert sorted(table.pixels(1, 3)) == sorted([MARKER, table.colours[G]])


def test_finished_and_dq_mascots_leave_the_strip():
    table = TableKit()
    table.start_race()
    table.scan("HS09", "HS08")  # G+1>: Gobbler to lane 2, space 4; GF: it falls
    table.scan("HS12")          # HR+1: Hurley runs into the fallen Gobbler: knockout
    table.advance(5)            # the DQ flash is over
    assert table.status()["mascots"]["gobbler"] == {"status": "dq"}
    table.assert_lane(H, space=4)
    assert table.colours[G] not in table.pixels(2, 4)
    table.scan("HS39", "HS37", "HS36", "HS34")  # Mum: star, +3, +2, R+1: over the line
    table.advance(5)
    assert table.status()["mascots"]["mum"] == {"status": "finished"}
    for space in range(1, 15):
        assert table.colours[M] not in table.pixels(4, space)


def test_folded_spaces_go_dark_and_undo_across_the_fold_brings_them_back():
    table = TableKit()
    table.start_race()
    cards = ["HS14", "HS25", "HS36", "HS03", "HS15", "HS26", "HS37", "HS04", "HS12", "HS23", "HS34", "HS01",
             "HS13", "HS24"]  # 14 cards: every mascot well past space 3
    table.scan(*cards)
    assert table.status()["revealed"] == 14
    table.assert_idle(1, 1)
    assert any(p != (0, 0, 0) for p in table.pixels(1, 1))  # the star marker on space 1
    table.scan("HS35")  # the 15th card: fold 1
    table.advance(5)
    status = table.status()
    assert status["pass"] == 2 and status["revealed"] == 0
    for lane in range(1, 5):
        for space in (1, 2, 3):
            table.assert_dark(lane, space)
    table.press("undo")
    table.advance(5)
    status = table.status()
    assert status["pass"] == 1 and status["revealed"] == 14
    assert any(p != (0, 0, 0) for p in table.pixels(1, 1))


REFUSALS = [
    ("HSXX", "HSXX", "unknown"),                # unknown code
    ("hello", "hello", "unknown"),              # garbage
    ("HS99", "HS99", "unknown"),                # a card code not in the deck
    ("HS15", "HS15", "already"),                # already revealed in this pass
    ("HS-GO", "race is not over", "racing"),   # GO mid-race
    ("HS-T-HURLEY-1-S", "HS-T-HURLEY-1-S", "wrong-time"),  # a ticket while racing
    ("HS-S03", "HS-S03", "wrong-time"),            # a side bet card while racing
    ("HS-PLAYERS-5", "HS-NEW", "wrong-time"),      # a player count mid-game
]


@pytest.mark.parametrize("text,named,why", REFUSALS, ids=[t for t, _, _ in REFUSALS])
def test_each_refused_input_names_itself_and_changes_nothing(text, named, why):
    table = TableKit()
    table.start_race()
    table.scan("HS15")
    before = table.status()
    stored = len(table.journal.entries())
    result = table.scan(text)
    assert not result.accepted
    assert named in result.message and "\n" not in result.message
    assert result.error.reason.value == why and result.message == str(result.error)
    assert table.status() == before
    assert len(table.journal.entries()) == stored
    assert f"Refused {text!r}" in table.console.getvalue()
    # the voice gives the reason in a few words, from a fixed set, never the refused text
    from companion.call.words import load_catalogue
    assert table.said()[-1] in load_catalogue("en").phrases[f"refused-{why}"] and text not in table.said()[-1]


def test_a_card_during_payouts_is_refused():
    table = TableKit()
    table.start_race()
    table.scan("HS17", "HS15", "HS14", "HS12")  # Hurley: star, +3, +2, R+1: 1st
    table.scan("HS28", "HS26", "HS25", "HS23")  # Dangle: 2nd
    table.scan("HS39", "HS37", "HS36", "HS34")  # Mum: 3rd, and the race is over
    status = table.status()
    assert status["phase"] == "payouts"
    assert status["placings"] == {"hurley": 1, "dangle": 2, "mum": 3, "gobbler": 4}
    result = table.scan("HS06")
    assert not result.accepted and "payouts" in result.message
    assert table.status() == status


def test_undo_with_nothing_to_undo_is_refused():
    table = TableKit()
    result = table.press("undo")
    assert not result.accepted and result.message == "nothing to undo"
    assert result.error.reason.value == "nothing-to-undo"


def test_undo_of_a_new_game_brings_the_game_back():
    table = TableKit()
    table.start_race()
    table.scan("HS15")
    before = table.status()
    table.scan("HS-NEW")
    assert table.status()["phase"] == "new-game"
    table.press("undo")
    assert table.status() == before


def test_a_restarted_controller_resumes_from_the_journal(tmp_path):
    table = TableKit(tmp_path / "journal.db")
    table.start_race()
    table.scan("HS15", "HS26", "HS-UNDO", "HS37")
    before = table.status()
    table.close()
    again = Controller(Journal(tmp_path / "journal.db"))
    assert status_dict(again.table) == before


def test_a_stored_input_that_replay_refuses_is_kept_and_marked_not_deleted(tmp_path):
    journal = Journal(tmp_path / "journal.db")
    for text in ("HS-NEW", "HS-PLAYERS-3", "HS-GO", "HS-GO", "HS-GO", "HS15", "HS15"):
        journal.append(text, "scan", 0.0)  # a second HS15 in the file (an older program stored it)
    controller = Controller(journal)
    assert [e.text for e in journal.entries()][-2:] == ["HS15", "HS15"]
    assert "already revealed" in journal.entries()[-1].skipped and journal.entries()[-2].skipped is None
    assert status_dict(controller.table)["mascots"]["hurley"]["space"] == 6


def test_the_last_card_of_a_pass_is_announced():
    table = TableKit()
    table.start_race()
    table.scan("HS14", "HS25", "HS36", "HS03", "HS15", "HS26", "HS37", "HS04", "HS12", "HS23", "HS34", "HS01",
               "HS13")
    last_card = set(load_catalogue("en").phrases["last-card"])
    assert not last_card & set(table.said())
    table.scan("HS24")
    assert last_card & set(table.said())


def test_a_failing_sink_does_not_stop_the_table():
    class Broken:
        def __getattr__(self, name):
            def fail(*args):
                raise RuntimeError("display unplugged")
            return fail

    table = TableKit()
    table.controller.sinks.insert(0, Broken())
    table.start_race()
    table.scan("HS15")
    assert table.status()["mascots"]["hurley"]["space"] == 6
    table.assert_lane(H, space=6)


@pytest.mark.slow
def test_status_of_a_missing_journal_is_an_error_not_a_new_game(tmp_path, run_cli):
    result = run_cli("status", "--json", "--db", str(tmp_path / "typo.db"))
    assert result.returncode == 2 and "typo.db" in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "typo.db").exists()


@pytest.mark.slow
def test_demo_with_a_missing_script_is_one_line(tmp_path, run_cli):
    result = run_cli("demo", "--headless", "--script", str(tmp_path / "nope.txt"))
    assert result.returncode == 2 and "nope.txt" in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.slow
def test_headless_demo_plays_the_whole_game(run_cli):
    result = run_cli("demo", "--headless")
    assert result.returncode == 0, result.stderr
    assert "Final standings" in result.stdout and result.stdout.count("Race over") == 3
    assert result.stdout.count("Refused") == 2  # the two deliberate mistakes of the sample game


def test_a_write_that_waits_on_the_sd_card_keeps_the_screen_lights_and_watchdog_going(tmp_path):
    """An SD card that stalls a write (a slow fsync, a frozen file system): while the journal waits, the sinks
    are drawn and the watchdog pinged, the screen says it is saving, and the input is then accepted as usual.
    The stall ends from inside the third drawing, so nothing here waits on the machine's timing."""
    import threading

    from conftest import FakeClock
    from companion.view.sink import NullSink
    from companion.kiosk.controller import SAVING

    stalled, release = threading.Event(), threading.Event()
    journal = Journal(tmp_path / "journal.db")
    append = journal.append

    def slow_append(*args, **kwargs):
        stalled.set()
        assert release.wait(60), "the table never drew while the write waited"
        return append(*args, **kwargs)
    journal.append = slow_append
    clock = FakeClock()

    class Screen(NullSink):
        drawn, notices = 0, []

        def render(self, view, now):
            if stalled.is_set():
                Screen.drawn += 1
                clock.advance(0.3)
                if Screen.drawn == 3:
                    release.set()

        def notice(self, message, view, now):
            Screen.notices.append(message)
    ticks = []
    controller = Controller(journal, sinks=[Screen()], clock=clock, on_tick=ticks.append)
    result = controller.handle("HS-NEW")
    assert result.accepted and [e.text for e in journal.entries()] == ["HS-NEW"]
    assert Screen.drawn >= 3 and len(ticks) >= 3
    assert Screen.notices == [SAVING]
    controller.close()
