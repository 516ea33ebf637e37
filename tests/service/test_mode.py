"""The service mode's state machine on its own (companion.service.mode): pages, frames, words, what it says."""

import pytest

from companion.lights.lanemap import LaneMap
from companion.service.mode import Effect, Say, ServiceMode, Setup
from companion.service.page import PAGES

WHITE = (255, 255, 255)


def folded() -> LaneMap:
    return LaneMap.from_dict({"spaces": 14, "lane": {str(n): {"first": 28 * (n - 1), "per_space": 2,
                                                              "direction": 1 if n % 2 else -1} for n in range(1, 5)}})


def said(mode: ServiceMode) -> list[str]:
    lines = [item.text for item in mode.outbox if isinstance(item, Say)]
    mode.outbox.clear()
    return lines


def test_go_and_undo_walk_the_tests_in_a_ring_and_each_is_said():
    mode = ServiceMode(Setup(lane_map=folded(), count=112), now=0.0)
    assert said(mode) == ["Service mode", "LED test"]
    mode.undo(0.0)                                    # one UNDO from the LED test: the calibration
    assert mode.name == "calibrate" and said(mode) == ["LED calibration"]
    mode.go(0.0)                                      # GO on its page starts it
    assert mode.wizard is not None and said(mode) == ["Lane 1, space 1"]
    mode.undo(0.0)                                    # UNDO before the first mark: back to its page
    assert mode.wizard is None and mode.name == "calibrate"
    mode.undo(0.0)
    assert mode.name == "screen" and said(mode) == ["Screen test"]
    mode.go(0.0)
    assert mode.name == "calibrate" and PAGES.index("calibrate") == len(PAGES) - 1


def test_the_led_test_lights_every_lane_in_its_colour_and_names_the_running_light():
    setup = Setup(lane_map=folded(), count=112)
    mode = ServiceMode(setup, now=10.0)
    for now, lane, space in ((10.0, 1, 1), (10.5, 1, 2), (16.5, 1, 14), (17.0, 2, 1), (37.5, 4, 14), (38.0, 1, 1)):
        frame, page = mode.frame(now), mode.page(now)
        pixels = setup.lane_map.pixels_for(lane, space)
        assert page.big.startswith(f"Lane {lane} ("), page.big
        assert f"space {space}: pixels {min(pixels)}-{max(pixels)}" in page.big
        assert {i for i, rgb in enumerate(frame) if rgb == WHITE} == set(pixels)
        for other in range(1, 5):
            colour = setup.mascots[other - 1][1]
            lit = [frame[p] for p in setup.lane_map.lane_pixels(other) if p not in pixels]
            assert set(lit) == {colour}


def test_the_led_test_warns_when_the_strip_can_draw_more_than_the_supply():
    page = ServiceMode(Setup(lane_map=folded(), count=112, supply_amps=2.0), now=0.0).page(0.0)
    assert "Every pixel white at the cap: 2.5 A; supply 2.0 A" in page.lines
    assert page.alert == "Over the supply: lower the brightness cap or use a bigger supply"
    assert ServiceMode(Setup(lane_map=folded(), count=112), now=0.0).page(0.0).alert is None


def test_a_lane_map_that_does_not_fit_asks_for_the_calibration():
    page = ServiceMode(Setup(lane_map=None, count=30), now=0.0).page(0.0)
    assert page.alert == "The lanes do not fit the strip: calibrate it (UNDO)"


def test_the_button_test_names_each_button_and_only_then_walks_on():
    mode = ServiceMode(Setup(lane_map=folded(), count=112), now=0.0)
    mode.go(0.0)
    mode.go(0.0)
    assert mode.name == "buttons" and said(mode)[-2:] == ["Button test", "Press UNDO"]
    mode.go(0.0)                                      # GO first: counted, not a step
    assert mode.name == "buttons" and mode.page(0.0).lines[0] == "GO works (1x)"
    assert said(mode) == ["GO works", "Press UNDO"]
    mode.undo(0.0)
    assert mode.page(0.0).big == "Both buttons work." and said(mode) == ["UNDO works", "Both buttons work."]
    mode.go(0.0)
    assert mode.name == "sound"


def test_the_sound_test_says_a_line_in_each_language_then_plays_the_effects_one_by_one():
    mode = ServiceMode(Setup(lane_map=folded(), count=112, language="nl"), now=0.0)
    for _ in range(3):
        mode.go(0.0)
        if mode.name == "buttons":
            mode.undo(0.0)
            mode.go(0.0)
    assert mode.name == "sound"
    items = [i for i in mode.outbox if isinstance(i, Say)][-3:]
    assert [(i.language, i.text[:7]) for i in items] == [("en", "This is"), ("nl", "Dit is "), ("es", "Este es")]
    mode.outbox.clear()
    played = []
    for k in range(40):
        mode.tick(k * 0.5)
        played += [i.name for i in mode.outbox if isinstance(i, Effect)]
        mode.outbox.clear()
    assert played == ["start", "collision", "fall", "dq", "finish", "crowd"]


def test_the_scanner_test_says_each_scan_and_never_acts_on_it():
    mode = ServiceMode(Setup(lane_map=folded(), count=112), now=0.0)
    mode.go(0.0)
    said(mode)
    for text in ("HS15", "HS15", "HS-T-YES-1-S"):
        mode.scan(text, {"mode": "hid"}, 1.0)
    assert said(mode) == ["Race card: Hurley, 3 ahead", "Race card: Hurley, 3 ahead",
                          "Betting ticket: YES, top, safe side"]
    assert mode.page(1.0).lines == ("Scanner: keyboard mode (USB keyboard)", "Scans: 3")


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_the_calibration_says_where_to_mark(lang):
    mode = ServiceMode(Setup(lane_map=folded(), count=112, language=lang), now=0.0)
    mode.undo(0.0)
    said(mode)
    mode.go(0.0)
    first = said(mode)
    assert len(first) == 1 and "1" in first[0]
    mode.go(1.0)                                      # the slow light: nothing new to say
    assert said(mode) == []
    mode.go(2.0)                                      # space 1 marked: now the last space
    assert "14" in said(mode)[0]


def test_a_save_that_fails_says_why_and_undo_goes_back_to_the_lit_lanes_to_try_again():
    from companion.service.calibrate import Lane
    from companion.service.mode import Save
    from companion.service.wizard import Step
    mode = ServiceMode(Setup(lane_map=folded(), count=112), now=0.0)
    mode.undo(0.0)
    mode.go(0.0)
    assert mode.wizard is not None
    mode.wizard.step = Step("all", 4, lanes=tuple((n, Lane(28 * (n - 1), 1, 2)) for n in range(1, 5)))
    mode.go(1.0)
    assert any(isinstance(i, Save) for i in mode.outbox)
    mode.outbox.clear()
    mode.failed("/etc/hotstreak/config.toml: cannot write (Permission denied)", 1.0)
    page = mode.page(1.0)
    assert page.big == "Not saved: /etc/hotstreak/config.toml: cannot write (Permission denied)"
    assert page.keys.startswith("GO: next test") and said(mode)[-1] == "Not saved"
    mode.undo(2.0)
    assert mode.wizard.step.stage == "all"
    mode.go(3.0)
    assert any(isinstance(i, Save) for i in mode.outbox)
