"""A keyboard scanner in the desktop window: its bursts are one scan, a person's keys keep their meaning (fake
clock: every time below is a timestamp handed to the decoder)."""

from __future__ import annotations

import pytest

from hardware.keyburst import WINDOW, BurstDecoder, Press, Scan
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
        self.out: list[Press | Scan] = []

    def key(self, name: str, char: str = "") -> None:
        self.out += self.decoder.tick(self.t)
        self.out += self.decoder.feed(name, char, self.t)

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
    assert kb.out == [] and kb.decoder.dropped == 1
    kb.type(code[split:] + "\r", SCANNER_GAP)
    kb.wait(0.2)
    assert kb.out == [Scan(code)]


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
