"""A simulated builder calibrates the mock LED strip through the service mode, on a fake clock.

The builder watches the strip (the mock strip's last frame) and presses GO as a person would: a reaction late
while the light runs, on the very pixel while the slow light walks. The strip really is laid out as ``truth``
(straight, folded back, daisy-chained with gaps, 1-3 pixels a space); the calibration must find exactly that,
light it for the check, and write it to the config, atomically, with a backup that UNDO restores.
"""

from dataclasses import dataclass
from typing import Any

import pytest

from companion.kiosk.config import DEFAULT_TOML, load_config, parse_config
from companion.rules import Mascot
from companion.lights.lanemap import LaneMap
from companion.service.calibrate import Lane, lane_pixels
from companion.service.configfile import backup_of
from companion.service.mode import Setup
from companion.service.runner import Service
from conftest import FakeClock
from hardware.leds import MockStrip

SPACES = 14
REACTION = 0.35  # s a person takes to press GO once they see the running light where it should be
TICK = 0.05      # s between two looks at the strip


@dataclass(frozen=True)
class View:
    service: Any = None


class Builder:
    """Drives a Service on a MockStrip of ``count`` pixels with a fake clock, like a person at the board."""

    def __init__(self, tmp_path, count: int, config: str | None = ""):
        self.clock = FakeClock(50.0)
        self.strip = MockStrip(count, clock=self.clock)
        self.path = tmp_path / "config.toml"
        if config is not None:  # None: a fresh machine, no config file yet
            self.path.write_text(config or DEFAULT_TOML.replace("count = 112", f"count = {count}"))
        self.maps: list[Any] = []
        old = LaneMap.default(per_space=2) if count >= 112 else None
        self.service = Service(lambda: Setup(lane_map=old, count=count), self.strip, config_path=self.path,
                               check=lambda text: parse_config(text, str(self.path)), on_map=self.maps.append)
        self.view = View()
        assert self.service.handle("HS-SERVICE", "scan", self.clock()) is None
        self.look()

    def look(self) -> None:
        self.view = self.service.show(self.view, self.clock())

    def press(self, button: str) -> None:
        assert self.service.handle("HS-GO" if button == "go" else "HS-UNDO", "button", self.clock()) is None
        self.look()

    def wait(self, seconds: float) -> None:
        end = self.clock() + seconds
        while self.clock() < end - 1e-9:
            self.clock.advance(TICK)
            self.look()

    def light(self) -> int:
        """The running light: the brightest pixel on the strip."""
        frame = self.strip.last
        return frame.index(max(frame, key=sum))

    def wait_for_light(self, pixel: int, limit: float = 60.0) -> None:
        start = self.clock()
        while self.light() != pixel:
            assert self.clock() - start < limit, f"the light never came to pixel {pixel}"
            self.clock.advance(TICK)
            self.look()

    def mark(self, pixel: int, miss: int = 0) -> None:
        """Stop the running light near ``pixel`` (a reaction late), then GO when the slow light is on it
        (or ``miss`` pixels off it: a wrong press)."""
        assert self.view.service.keys.startswith("GO: stop the light")
        self.wait_for_light(pixel)
        self.wait(REACTION)
        self.press("go")
        assert "Slowly now" in self.view.service.lines[0]
        self.wait_for_light(pixel + miss)
        self.press("go")

    def calibrate_lane(self, lane: Lane) -> None:
        pixels = lane_pixels(lane, SPACES)
        self.mark(pixels[0][0])
        self.mark(pixels[-1][-1])
        self.check_lit({1: lane})
        self.press("go")

    def check_lit(self, lanes: dict[int, Lane]) -> None:
        """The check frame lights exactly the lanes' pixels, space 1 white."""
        frame = self.strip.last
        want = {p for lane in lanes.values() for space in lane_pixels(lane, SPACES) for p in space}
        assert {i for i, rgb in enumerate(frame) if any(rgb)} == want
        for lane in lanes.values():
            assert all(frame[p] == (255, 255, 255) for p in lane_pixels(lane, SPACES)[0])


def calibrated(path) -> list[Lane]:
    cfg = load_config(path)
    return [Lane(s.first, s.direction, s.per_space or cfg.pixels_per_space) for s in cfg.lanes]


STRAIGHT = [Lane(28 * k, 1, 2) for k in range(4)]
FOLDED = [Lane(0, 1, 2), Lane(28, -1, 2), Lane(56, 1, 2), Lane(84, -1, 2)]
CHAINED = [Lane(3, 1, 3), Lane(50, -1, 1), Lane(70, -1, 3), Lane(120, 1, 2)]   # pieces with gaps, mixed sizes
ONE = [Lane(14 * k, 1, 1) for k in range(4)]


@pytest.mark.parametrize("truth, count", [(STRAIGHT, 112), (FOLDED, 112), (CHAINED, 150), (ONE, 56)],
                         ids=["straight", "folded", "daisy-chained", "one-a-space"])  # 0.03-0.2 s each (conftest.py)
def test_a_builder_who_presses_go_beside_the_right_spaces_gets_the_strip_as_it_is(tmp_path, truth, count):
    b = Builder(tmp_path, count)
    for _ in range(5):          # from the LED test to the calibration, one test at a time
        if b.view.service.page == "buttons":
            b.press("undo")
            b.press("go")
        b.press("go")
    assert b.view.service.page == "calibrate"
    b.press("go")
    for lane in truth:
        b.calibrate_lane(lane)
    assert b.view.service.big == "Every lane is lit as calibrated."
    b.check_lit(dict(enumerate(truth, 1)))
    before = b.path.read_text()
    b.press("go")                                   # save
    assert b.view.service.big.startswith("Saved")
    assert calibrated(b.path) == truth
    assert backup_of(b.path).read_text() == before
    assert b.maps[-1].lane_pixels(1) == [p for s in lane_pixels(truth[0], SPACES) for p in s]
    b.press("undo")                                  # put the old calibration back
    assert b.path.read_text() == before and b.view.service.big == "The old calibration is back."


def test_on_a_fresh_machine_the_screen_says_there_was_no_old_file_and_undo_removes_the_new_one(tmp_path):
    b = Builder(tmp_path, 112, config=None)
    b.press("undo")                                   # the LED test -> the calibration, one UNDO back
    b.press("go")
    for lane in FOLDED:
        b.calibrate_lane(lane)
    b.press("go")                                     # save
    page = b.view.service
    assert page.big == "Saved. There was no old file, so there is no backup."
    assert page.lines == (str(b.path),) and page.keys == "GO: next test   UNDO: remove the new file"
    assert calibrated(b.path) == FOLDED and not backup_of(b.path).exists()
    b.press("undo")
    assert not b.path.exists() and b.view.service.big == "The new file is removed: the defaults are back."


def test_a_wrong_press_is_undone_and_the_lane_marked_again(tmp_path):
    b = Builder(tmp_path, 112)
    b.press("undo")                                   # the LED test -> the calibration, one UNDO back
    b.press("go")
    b.calibrate_lane(FOLDED[0])
    b.mark(55, miss=-1)                               # lane 2's space 1 is at pixel 55 (folded back): GO one early
    assert "pixel" in b.view.service.lines[-1]
    b.press("undo")                                   # take that GO back: the slow light walks again
    assert "Slowly now" in b.view.service.lines[0]
    b.wait_for_light(55)
    b.press("go")
    b.mark(28)
    b.check_lit({2: FOLDED[1]})
    b.press("undo")                                   # the check looks wrong after all: back to the end mark
    assert "Slowly now" in b.view.service.lines[0] and "last light of space 14" in b.view.service.big
    for _ in range(3):                                # ... its running light, space 1's slow one, its running one
        b.press("undo")
    assert b.view.service.keys.startswith("GO: stop the light") and "space 1" in b.view.service.big
    b.mark(55)
    b.mark(28)
    b.check_lit({2: FOLDED[1]})


def test_marks_that_overlap_a_lane_already_calibrated_are_refused_and_said_why(tmp_path):
    b = Builder(tmp_path, 112)
    b.press("undo")
    b.press("go")
    b.calibrate_lane(STRAIGHT[0])
    b.mark(20)                                        # inside lane 1
    b.mark(47)
    page = b.view.service
    assert page.alert == "Mark again: lane 2 overlaps lane 1 at pixel 20 (mark lane 2 again)"
    assert page.big.startswith("Lane 2 (Hurley): press GO when the light reaches the first light of space 1")
    assert calibrated(b.path) == [Lane(0, 1, 2), Lane(28, -1, 2), Lane(56, 1, 2), Lane(84, -1, 2)]  # unchanged


class TableBuilder(Builder):
    """The same builder at a whole table (tests/tablekit.py): the real wiring's mock strip, the controller's
    loop, GO and UNDO as the buttons' inputs."""

    def __init__(self, table, tmp_path):
        self.table, self.clock, self.strip = table, table.clock, table.strip
        self.path = tmp_path / "config.toml"
        self.path.write_text(DEFAULT_TOML)
        table.controller.service.config_path = self.path
        assert table.scan("HS-SERVICE").accepted
        self.look()

    def look(self) -> None:
        self.table.controller.step()
        self.view = self.table.controller.view

    def press(self, button: str) -> None:
        assert self.table.press(button).accepted
        self.look()


def test_the_calibration_at_a_whole_table_journals_nothing_and_the_race_is_shown_again(tmp_path):
    from tablekit import TableKit
    with TableKit() as table:
        table.start_race()
        table.scan("HS15")
        before, rows = table.status(), [(e.id, e.text) for e in table.journal.entries()]
        laid: list = []
        table.strip.set_rows = laid.append                 # the mock strip's window, laid out by lane
        b = TableBuilder(table, tmp_path)
        b.press("undo")
        b.press("go")
        for lane in STRAIGHT:                              # the default config says folded; the strip is not
            b.calibrate_lane(lane)
        b.press("go")
        assert calibrated(b.path) == STRAIGHT
        assert table.scan("HS-SERVICE").accepted
        assert table.status() == before and [(e.id, e.text) for e in table.journal.entries()] == rows
        hurley = table.controller.lights.lane_map.pixels_for(2, 6)
        assert hurley == [38, 39]                         # the new lanes at once (folded: [45, 44])
        assert [list(row) for row in laid[-1]] == [list(range(28 * k, 28 * k + 28)) for k in range(4)]
        assert all(table.strip.last[p] == table.colours[Mascot.HURLEY] for p in hurley)
