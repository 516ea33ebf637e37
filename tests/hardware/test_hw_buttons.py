"""Buttons through gpiozero's MockFactory, with debounce on a fake clock; desktop key buttons."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import Buttons, KeyButtons
from conftest import FakeClock


@pytest.fixture
def rig():
    factory = MockFactory()
    clock = FakeClock(10.0)
    pressed: list[str] = []
    buttons = Buttons(pressed.append, pin_factory=factory, clock=clock, debounce=0.05)
    yield factory, clock, pressed, buttons
    buttons.close()
    factory.reset()


def tap(factory, pin):
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_a_press_reaches_on_press(rig):
    factory, clock, pressed, _ = rig
    tap(factory, 17)
    clock.t += 1
    tap(factory, 27)
    assert pressed == ["undo", "go"]


def test_pins_are_pulled_up(rig):
    factory, *_ = rig
    assert factory.pin(17).state == 1 and factory.pin(27).state == 1  # idle high, a press pulls low


def test_bounces_within_the_window_are_dropped_and_later_presses_kept(rig):
    factory, clock, pressed, buttons = rig
    tap(factory, 17)
    for t in (10.01, 10.03, 10.049):  # contact bounce 10, 30 and 49 ms after the accepted press
        clock.t = t
        tap(factory, 17)
    assert pressed == ["undo"]
    clock.t = 10.049 + 0.06  # a press 60 ms after the last bounce settled
    tap(factory, 17)
    assert pressed == ["undo", "undo"]
    assert buttons.history == pressed


def test_debounce_is_per_button(rig):
    factory, clock, pressed, _ = rig
    tap(factory, 17)
    tap(factory, 27)  # same instant, other button: kept
    assert pressed == ["undo", "go"]


def test_custom_pins_and_bad_pins():
    factory = MockFactory()
    pressed: list[str] = []
    b = Buttons(pressed.append, {"go": 5}, pin_factory=factory, clock=lambda: 0.0)
    tap(factory, 5)
    assert pressed == ["go"]
    b.close()
    with pytest.raises(ValueError, match="one pin twice"):
        Buttons(print, {"undo": 5, "go": 5}, pin_factory=factory)
    with pytest.raises(ValueError, match="BCM GPIO numbers"):
        Buttons(print, {"undo": 99}, pin_factory=factory)
    factory.reset()


def test_key_buttons_map_keys_with_debounce():
    clock = FakeClock(10.0)
    pressed: list[str] = []
    k = KeyButtons(pressed.append, clock=clock)
    assert k.key("u")
    assert not k.key("u")          # within 50 ms
    assert k.key("space")          # go is another button
    clock.t += 0.1
    assert k.key("G") and k.key("U")
    assert not k.key("x")
    assert pressed == ["undo", "go", "go", "undo"]


def test_a_bounce_on_release_after_a_long_hold_is_not_a_press(rig):
    factory, clock, pressed, _ = rig
    pin = factory.pin(27)
    pin.drive_low()                       # GO pressed ...
    clock.t += 2.0                        # ... and held for two seconds
    for dt, level in ((0.0, 1), (0.002, 0), (0.003, 1), (0.006, 0), (0.007, 1)):  # released, with bounce
        clock.t += dt
        pin.drive_high() if level else pin.drive_low()
    assert pressed == ["go"]              # one GO: two would skip the draft from setup
    clock.t += 0.2
    tap(factory, 27)                      # the next real press counts
    assert pressed == ["go", "go"]


def test_a_quick_tap_shorter_than_the_window_still_allows_the_next_press(rig):
    factory, clock, pressed, _ = rig
    pin = factory.pin(17)
    pin.drive_low()
    clock.t += 0.02                       # released after 20 ms (inside the window)
    pin.drive_high()
    clock.t += 0.1
    tap(factory, 17)
    assert pressed == ["undo", "undo"]


def test_key_buttons_press_by_button_name_and_by_key():
    pressed: list[str] = []
    k = KeyButtons(pressed.append, clock=FakeClock(0.0), debounce=0.0)
    assert k.press("go") and k.key("u") and not k.key("q")
    assert pressed == ["go", "undo"] and k.history == pressed
    with k:
        pass
    assert k.closed


@pytest.fixture
def chord_rig():
    clock = FakeClock()
    presses: list[str] = []
    chords: list[str] = []
    factory = MockFactory()
    buttons = Buttons(presses.append, {"undo": 17, "go": 27}, clock=clock, pin_factory=factory,
                      on_chord=lambda: chords.append("chord"))
    yield buttons, factory.pin(17), factory.pin(27), clock, presses, chords
    buttons.close()


def test_with_a_chord_a_press_counts_when_the_button_is_let_go(chord_rig):
    buttons, undo, go, clock, presses, chords = chord_rig
    go.drive_low()
    clock.advance(0.15)
    assert presses == []
    go.drive_high()
    assert presses == ["go"] and chords == []


def test_both_buttons_held_3_s_are_the_chord_and_neither_press_counts(chord_rig):
    buttons, undo, go, clock, presses, chords = chord_rig
    undo.drive_low()
    clock.advance(0.2)
    go.drive_low()
    clock.advance(2.9)
    go.drive_high()                                   # let go too early: nothing at all
    clock.advance(0.1)
    undo.drive_high()
    assert presses == [] and chords == []
    clock.advance(0.5)
    go.drive_low()
    clock.advance(0.1)
    undo.drive_low()
    clock.advance(3.0)
    undo.drive_high()
    clock.advance(0.1)
    go.drive_high()
    assert presses == [] and chords == ["chord"] and buttons.history == ["chord"]


def test_a_desktop_key_still_presses_at_once_with_a_chord(chord_rig):
    buttons, undo, go, clock, presses, chords = chord_rig
    assert KeyButtons(buttons.press, clock=clock).key("g")
    assert presses == ["go"]
