"""A keyboard scanner in the desktop window: its bursts are one scan, a person's keys keep their meaning (fake
clock: every time below is a timestamp handed to the decoder)."""

from __future__ import annotations

import pytest

import logging

from hardware.keyburst import SLOW_GAP, WINDOW, BurstDecoder, Press, Scan, Slow
from hardware.scanner import ScanParser

SCANNER_GAP = 0.005  # s between a scanner's keys (xdotool type --delay 5; real scanners type 1-10 ms a key)
PERSON_GAP = 0.15    # s between a quick person's keys


def key_name(char: str) -> str:
    """pygame's key name for a character typed (shift is a separate key; its name is ignored)."""
    return {" ": "space", "\r": "return"}.get(char, char.lower())


class Keyboard:
    """Types into a decoder as an event loop would: each key at its time, ticking first; collects the output."""

    def __init__(self, decoder: BurstDecoder, t: float = 100.0):
        self.decoder = decoder
        self.t = t
        self.out: list[Press | Scan | Slow] = []

    def key(self, name: str, char: str = "", *, repeat: bool = False) -> None:
        self.out += self.decoder.tick(self.t)
        self.out += self.decoder.feed(name, char, self.t, repeat=repeat)

    def type(self, text: str, gap: float) -> None:
        for char in text:
            if char.isupper():
                self.key("left shift")
            self.key(key_name(char), char)
            self.t += gap

    def wait(self, seconds: float, step: float = 0.01) -> None:
        """Let time pass, ticking every ``step`` s as the window's loop polls."""
        end = self.t + seconds
        while self.t < end:
            self.t = min(end, self.t + step)
            self.out += self.decoder.tick(self.t)


@pytest.mark.parametrize("code", ["HS-NEW", "HS-GO", "HS-UNDO", "HS-PLAYERS-4", "HS15", "HS-NAME-1:Gun"])
def test_a_scanner_burst_ended_by_enter_is_one_scan_even_with_g_u_n_or_space_in_it(code):
    kb = Keyboard(BurstDecoder())
    kb.type(code + "\r", SCANNER_GAP)
    kb.wait(1.0)
    assert kb.out == [Scan(code)]


def test_a_burst_is_cleaned_exactly_as_a_serial_line():
    """The same pipeline as the serial reader: AIM prefix and spaces stripped, a repeat within the repeat window
    dropped, a line over the cap dropped, non-ASCII dropped as garbage; a new code after the window passes."""
    kb = Keyboard(BurstDecoder(max_length=12, repeat_window=0.8))
    for text in ("]C0HS15 ", "HS15", "HS-PLAYERS-12X", "HS1\u00e9", "HS16"):
        kb.type(text + "\r", SCANNER_GAP)
        kb.wait(0.2)
    kb.wait(1.0)
    kb.type("HS15\r", SCANNER_GAP)
    kb.wait(0.2)
    assert kb.out == [Scan("HS15"), Scan("HS16"), Scan("HS15")]
    serial = ScanParser(max_length=12, clock=lambda: 0.0)
    assert serial.feed(b"]C0HS15 \r") == ["HS15"]   # the serial reader says the same of the first line
    assert kb.decoder.parser.stats.repeats == 1 and kb.decoder.parser.stats.too_long == 1
    assert kb.decoder.parser.stats.garbage == 1


@pytest.mark.parametrize("key", ["u", "g", "space", "n"])
def test_a_persons_single_key_keeps_its_meaning_after_the_hold(key):
    kb = Keyboard(BurstDecoder(window=0.04))
    kb.key(key, " " if key == "space" else key)
    kb.wait(0.03)
    assert kb.out == []                 # held: it may be the start of a burst
    kb.wait(0.03)
    assert kb.out == [Press(key)]       # decided within about 60 ms


def test_a_persons_slow_keys_each_keep_their_meaning_in_order():
    kb = Keyboard(BurstDecoder())
    kb.key("g", "g")
    kb.wait(PERSON_GAP)
    kb.key("u", "u")
    kb.wait(PERSON_GAP)
    kb.key("space", " ")
    kb.wait(PERSON_GAP)
    kb.key("return", "\r")
    assert kb.out == [Press("g"), Press("u"), Press("space"), Press("return")]


def test_a_burst_without_enter_presses_nothing_and_is_counted():
    """A scanner set up without a suffix types HS-GO and stops: nothing is submitted, and the g it typed never
    presses GO."""
    kb = Keyboard(BurstDecoder())
    kb.type("HS-GO", SCANNER_GAP)
    kb.wait(1.0)
    assert kb.out == [] and kb.decoder.dropped == 1 and not kb.decoder.holding
    kb.key("g", "g")                    # a person's GO afterwards still works
    kb.wait(0.2)
    assert kb.out == [Press("g")]


def test_a_burst_during_name_entry_is_a_scan_and_types_nothing_into_the_name():
    typing = [True]
    kb = Keyboard(BurstDecoder(typing=lambda: typing[0]))
    kb.type("HS15\r", SCANNER_GAP)
    kb.wait(0.2)
    assert kb.out == [Scan("HS15")]


def test_while_a_name_is_typed_a_quick_typists_letters_without_enter_are_letters():
    """Two letters 20 ms apart are no scan: while a name is typed they come out as the person's keys; outside
    name entry they are dropped (so a quick g-u never presses GO and undo)."""
    typing = [True]
    kb = Keyboard(BurstDecoder(typing=lambda: typing[0]))
    kb.type("An", 0.02)
    kb.wait(PERSON_GAP)
    kb.key("return", "\r")
    assert kb.out == [Press("a"), Press("n"), Press("return")]
    typing[0] = False
    kb.out.clear()
    kb.type("gu", 0.02)
    kb.wait(PERSON_GAP)
    assert kb.out == []


def test_a_short_quick_pair_ended_by_enter_is_no_scan():
    """Fewer than min_length characters before Enter (every code of the game has 4 or more) are a person's:
    one key and Enter are two presses; two quick keys and Enter outside name entry press only Enter."""
    kb = Keyboard(BurstDecoder(min_length=3))
    kb.type("o\r", 0.01)
    assert kb.out == [Press("o"), Press("return")]
    kb.wait(0.2)
    kb.out.clear()
    kb.type("gu\r", 0.01)
    assert kb.out == [Press("return")]


def test_shift_is_ignored_and_other_keys_without_a_character_pass_at_once():
    kb = Keyboard(BurstDecoder())
    kb.key("left shift")
    assert kb.out == [] and not kb.decoder.holding
    kb.key("f2")
    kb.key("escape")
    assert kb.out == [Press("f2"), Press("escape")]
    kb.key("a", "a")
    kb.key("backspace")                 # settles the held key first, in the order typed
    assert kb.out[-2:] == [Press("a"), Press("backspace")]


def test_feed_never_decides_by_time_only_tick_does():
    """A loop that reads keys in batches may feed a burst's second half long after its first (a slow frame):
    without a tick between them the burst stays whole."""
    d = BurstDecoder(window=0.04)
    assert [d.feed(c.lower(), c, 0.0) for c in "HS-"] == [[], [], []]
    out = [d.feed(c.lower(), c, 0.3) for c in "NEW"] + [d.feed("return", "\r", 0.3)]
    assert out[-1] == [Scan("HS-NEW")]


def test_the_default_window_keeps_a_busy_scanner_whole_and_a_person_apart():
    assert 0.03 <= WINDOW <= 0.05
    kb = Keyboard(BurstDecoder())
    kb.type("HS-PLAYERS-4\r", 0.025)    # a scanner slowed to 25 ms a key
    kb.wait(0.2)
    kb.type("gu", 0.08)                 # a person at 80 ms a key
    kb.wait(0.2)
    assert kb.out == [Scan("HS-PLAYERS-4"), Press("g"), Press("u")]


def test_bad_settings_are_refused_naming_the_value():
    with pytest.raises(ValueError, match="window 0"):
        BurstDecoder(window=0)
    with pytest.raises(ValueError, match="min_length 0"):
        BurstDecoder(min_length=0)


@pytest.mark.parametrize("split", [2, 6, 11])
def test_a_burst_paused_by_a_busy_computer_is_still_one_scan(split):
    """The scanner's keys stop for 0.1 s (the machine was busy): the first part is dropped as a burst without
    Enter, then joined by the rest, which ends with Enter: one scan, nothing pressed."""
    kb = Keyboard(BurstDecoder())
    code = "HS-PLAYERS-4"
    kb.type(code[:split], SCANNER_GAP)
    kb.wait(0.1)
    assert kb.out == [] and kb.decoder.dropped == 0     # held back for the rest, not yet dropped
    kb.type(code[split:] + "\r", SCANNER_GAP)
    kb.wait(0.2)
    assert kb.out == [Scan(code)] and kb.decoder.dropped == 0


def test_a_burst_paused_just_before_its_enter_is_still_one_scan():
    kb = Keyboard(BurstDecoder())
    kb.type("HS-NEW", SCANNER_GAP)
    kb.wait(0.1)
    kb.key("return", "\r")
    assert kb.out == [Scan("HS-NEW")]


def test_a_dropped_part_is_not_joined_after_the_rejoin_time_or_across_a_persons_key():
    kb = Keyboard(BurstDecoder(rejoin=0.3))
    kb.type("HS-PL", SCANNER_GAP)
    kb.wait(0.5)
    kb.type("AYERS-4\r", SCANNER_GAP)
    kb.wait(0.2)
    assert kb.out == [Scan("AYERS-4")]      # the table refuses it as an unknown code: scan again
    kb.out.clear()
    kb.type("HS-PL", SCANNER_GAP)
    kb.wait(0.08)
    kb.key("g", "g")                        # a person's GO between the two parts
    kb.wait(0.08)
    kb.type("AYERS-3\r", SCANNER_GAP)
    kb.wait(0.2)
    assert kb.out == [Press("g"), Scan("AYERS-3")]


def test_two_quick_keys_then_enter_alone_press_only_enter():
    kb = Keyboard(BurstDecoder())
    kb.type("gu", 0.01)
    kb.wait(0.1)
    kb.key("return", "\r")
    assert kb.out == [Press("return")]


def type_as_sdl_x11(kb: Keyboard, text: str, gap: float) -> None:
    """Type ``text`` as the window gets it from SDL's X11 backend at ``gap`` s a key: a key pressed again right
    after its release (within 2 ms) is taken for an auto-repeat, so only its character comes (``repeat``)."""
    last = ""
    for char in text:
        if char.isupper():
            kb.key("left shift")
        kb.key(key_name(char), char, repeat=char == last and gap < 0.002)
        last = char
        kb.t += gap


@pytest.mark.parametrize("code", ["HS11", "HS99", "HS-S11", "HS-PLAYERS-11", "HS-BET-11-YES"])
def test_a_doubled_character_that_sdl_takes_for_an_auto_repeat_survives_in_a_burst(code):
    kb = Keyboard(BurstDecoder())
    type_as_sdl_x11(kb, code + "\r", 0.001)
    kb.wait(0.2)
    assert kb.out == [Scan(code)]


def test_a_held_keys_auto_repeat_outside_a_burst_is_still_one_press():
    """A person holds g: one press, then the auto-repeat's characters (no press of their own) from 0.5 s on,
    every 40 ms. They are ignored: one GO, as before."""
    kb = Keyboard(BurstDecoder())
    kb.key("g", "g")
    kb.wait(0.5)
    for _ in range(10):
        kb.key("g", "g", repeat=True)
        kb.wait(0.04)
    kb.wait(0.2)
    assert kb.out == [Press("g")] and kb.decoder.dropped == 0


def test_a_burst_dropped_then_joined_by_its_enter_is_not_logged_as_dropped(caplog):
    """The trial's HS01: typed, then Enter from a second program 0.1 s later: one scan and no "dropped" line."""
    caplog.set_level(logging.INFO, logger="hardware.keyburst")
    kb = Keyboard(BurstDecoder())
    kb.type("HS01", SCANNER_GAP)
    kb.wait(0.1)
    kb.key("return", "\r")
    kb.wait(1.0)
    assert kb.out == [Scan("HS01")]
    assert kb.decoder.dropped == 0 and "dropped" not in caplog.text


def test_a_burst_without_enter_is_logged_as_dropped_once_its_rest_can_no_longer_come(caplog):
    caplog.set_level(logging.INFO, logger="hardware.keyburst")
    kb = Keyboard(BurstDecoder(rejoin=0.3))
    kb.type("HS01", SCANNER_GAP)
    kb.wait(0.25)
    assert "dropped" not in caplog.text
    kb.wait(0.1)
    assert kb.decoder.dropped == 1 and caplog.text.count("4 keys typed faster than a person") == 1
    assert "'HS01'" in caplog.text


def test_a_code_typed_slowly_by_hand_presses_its_keys_then_says_it_was_too_slow(caplog):
    """150 ms a key, then Enter: the keys are a person's presses (the contract), and a Slow tells why nothing
    was scanned (a log line names it); a person's g, g, Enter is no code and says nothing."""
    kb = Keyboard(BurstDecoder())
    kb.type("HS01\r", 0.15)
    kb.wait(0.2)
    assert kb.out == [Press("h"), Press("s"), Press("0"), Press("1"), Slow("HS01"), Press("return")]
    assert "'HS01' was typed too slowly for a scan" in caplog.text
    kb.out.clear()
    kb.type("gg\r", 0.15)
    kb.wait(0.2)
    assert kb.out == [Press("g"), Press("g"), Press("return")]


def test_no_slow_notice_while_a_name_is_typed_or_across_a_long_pause():
    typing = [True]
    kb = Keyboard(BurstDecoder(typing=lambda: typing[0]))
    kb.type("HS01\r", 0.15)
    kb.wait(0.2)
    assert Slow("HS01") not in kb.out
    typing[0] = False
    kb.out.clear()
    kb.type("HS", 0.15)
    kb.wait(SLOW_GAP + 0.1)               # the person went away: a new start
    kb.type("01\r", 0.15)
    kb.wait(0.2)
    assert not any(isinstance(item, Slow) for item in kb.out)


def test_a_slow_code_whose_first_keys_came_together_after_a_busy_frame_still_says_it_was_too_slow():
    """The trial's HS01 by hand: H and S read in one batch (a busy frame) are dropped as a burst, 0 and 1 are
    presses; Enter: the notice names all four."""
    kb = Keyboard(BurstDecoder())
    kb.type("HS", 0.0)
    kb.wait(0.07)
    kb.type("01\r", 0.07)
    kb.wait(0.2)
    assert kb.out == [Press("0"), Press("1"), Slow("HS01"), Press("return")]
