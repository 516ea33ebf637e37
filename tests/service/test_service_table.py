"""The service mode at a whole table (tests/tablekit.py: the real wiring, mock hardware, a fake clock): reached by
scanning HS-SERVICE, the F2 key and both buttons held; nothing done in it is a game input; leaving it returns
the table exactly where it was."""

from companion.kiosk.service_setup import service_key
from companion.rules import Mascot
from companion.rules.errors import Reason
from companion.service.calibrate import Lane
from companion.service.wizard import Step
from hardware.scanner import ScanParser
from tablekit import TableKit


def journal_rows(table: TableKit) -> list[tuple[int, str]]:
    return [(e.id, e.text) for e in table.journal.entries()]


def test_nothing_done_in_service_mode_is_a_game_input_and_leaving_restores_the_table(tmp_path):
    with TableKit() as table:
        table.controller.service.config_path = tmp_path / "config.toml"   # never the tester's own config
        table.start_race()
        table.scan("HS15")                                   # Hurley +3
        before, rows = table.status(), journal_rows(table)
        assert table.scan("HS-SERVICE").accepted
        page = table.controller.view.service
        assert page.title == "LED test" and page.big.startswith("Lane ")
        lane1 = table.lane_map.lane_pixels(1)
        assert all(table.strip.last[p] in ((255, 255, 255), table.colours[Mascot.GOBBLER]) for p in lane1)
        table.press("go")                                    # the scanner test
        assert table.controller.view.service.title == "Scanner test"
        for text in ("HS16", "HS-NEW", "HS-GO", "HS-UNDO", "no such code"):
            assert table.scan(text).accepted                 # shown, never acted on
        assert table.controller.view.service.big == "Not a Hot Streak label"
        assert table.controller.view.service.lines[0] == "Read 12 characters: no such code"
        table.press("undo")
        table.advance(3.0)
        assert table.scan("HS-SERVICE-EXIT").accepted
        assert table.controller.view.service is None
        assert table.status() == before and journal_rows(table) == rows
        table.assert_lane(Mascot.HURLEY, space=6)            # the race on the strip again
        assert table.said()[-1] == "Service mode off"
        assert "Service mode" in table.said() and "Scanner test" in table.said()


def test_a_phone_input_while_in_service_mode_is_refused_as_busy_and_changes_nothing():
    with TableKit() as table:
        table.scan("HS-NEW", "HS-PLAYERS-4")
        rows = journal_rows(table)
        table.scan("HS-SERVICE")
        result = table.controller.handle("HS-GO", "web")
        assert not result.accepted and result.error.reason is Reason.BUSY
        assert "service mode" in result.message
        assert journal_rows(table) == rows and table.controller.view.service is not None
        assert not table.controller.handle("HS-SERVICE", "web").accepted          # a phone cannot leave it ...
        assert table.controller.view.service is not None
        table.scan("HS-SERVICE")
        result = table.controller.handle("HS-SERVICE", "web")                 # ... nor enter it
        assert not result.accepted and table.controller.view.service is None and journal_rows(table) == rows


def test_exit_outside_service_mode_is_refused_by_the_table_and_not_journaled():
    with TableKit() as table:
        result = table.scan("HS-SERVICE-EXIT")
        assert not result.accepted and journal_rows(table) == []


def test_holding_both_buttons_3_s_enters_and_leaves_the_service_mode():
    with TableKit() as table:
        buttons = table.kiosk.hardware.buttons
        undo, go = (buttons._devices[name].pin for name in ("undo", "go"))

        def hold_both(seconds: float) -> None:
            undo.drive_low()
            table.clock.advance(0.1)
            go.drive_low()
            table.clock.advance(seconds)
            go.drive_high()
            undo.drive_high()
            table.clock.advance(0.2)
            table.controller.step()

        hold_both(1.0)                                       # too short: nothing, and no button press either
        assert table.controller.view.service is None and journal_rows(table) == []
        hold_both(3.1)
        assert table.controller.view.service is not None
        go.drive_low()                                       # one button alone: a press, at its release
        table.clock.advance(0.1)
        go.drive_high()
        table.clock.advance(0.2)
        table.controller.step()
        assert table.controller.view.service.title == "Scanner test"
        hold_both(3.1)
        assert table.controller.view.service is None and journal_rows(table) == []


def test_f2_in_the_window_submits_service_mode_and_other_keys_press_the_buttons():
    submitted, pressed = [], []
    on_key = service_key(lambda name: pressed.append(name) or True, submitted.append)
    assert on_key("f2") and on_key("g")
    assert submitted == ["HS-SERVICE"] and pressed == ["g"]


def test_the_sound_test_speaks_each_language_and_plays_the_effects():
    with TableKit() as table:
        table.scan("HS-SERVICE")
        for _ in range(3):
            table.press("go")                               # scanner, buttons (each pressed once), sound
            if table.controller.view.service.page == "buttons":
                table.press("undo")
                table.press("go")
        assert table.controller.view.service.title == "Sound test"
        for _ in range(30):
            table.advance(0.5)
        said = table.said()
        for line in ("This is the announcer in English.", "Dit is de omroeper in het Nederlands.",
                     "Este es el locutor en español."):
            assert line in said
        assert table.effects()[-6:] == ["start", "collision", "fall", "dq", "finish", "crowd"]


def test_the_calibration_saved_at_the_table_is_used_by_the_lights_at_once(tmp_path):
    with TableKit() as table:
        service = table.controller.service
        service.config_path = tmp_path / "config.toml"
        table.scan("HS-SERVICE")
        table.press("undo")                                  # the LED calibration
        table.press("go")
        wizard = service.mode.wizard                         # at its end: four straight lanes, 2 a space
        wizard.step = Step("all", 4, lanes=tuple((n, Lane(28 * (n - 1), 1, 2)) for n in range(1, 5)))
        table.press("go")
        assert table.controller.view.service.big.startswith("Saved")
        assert "lanes = [\n  { first = 0, direction = 1 }," in service.config_path.read_text()
        assert table.controller.lights.lane_map.pixels_for(2, 1) == [28, 29]   # default: [55, 54]
        table.scan("HS-SERVICE")
        assert table.controller.lights.lane_map.pixels_for(2, 1) == [28, 29]


def test_the_scanner_test_shows_a_repeat_the_reader_dropped():
    with TableKit() as table:
        scanner = table.kiosk.hardware.scanner
        scanner.parser = ScanParser(repeat_window=0.8, clock=table.clock)   # a scanner's own repeat window
        table.scan("HS-SERVICE")
        table.press("go")
        scanner.feed("HS15")                              # through the mock scanner's own reader
        table.advance(0.1)
        assert table.controller.view.service.big == "Race card: Hurley, 3 ahead"
        scanner.feed("HS15")                              # the card still under the scanner: a repeat
        table.advance(0.1)
        lines = table.controller.view.service.lines
        assert lines[0] == "The scanner read it again 1x: dropped as repeats"
        assert "Scanner: script" in lines and "Scans: 1" in lines
