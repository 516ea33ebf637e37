"""A keyboard scanner typing into the desktop window (SDL's dummy driver, posted key events, a fake clock): its
code is one scan, a person's keys keep their meaning, a burst never presses GO or undo or opens name entry."""

from __future__ import annotations

import pytest

from hardware.display import open_display
from hardware.keyburst import BurstDecoder


@pytest.fixture
def pygame(monkeypatch):
    pg = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("DISPLAY", ":0")
    return pg


def post_typed(pg, text: str) -> None:
    """Post the key events a keyboard scanner (or xdotool type) makes for ``text``: shift before a capital."""
    for char in text:
        if char.isupper():
            pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_LSHIFT, unicode=""))
        key = pg.K_RETURN if char == "\r" else pg.K_SPACE if char == " " else pg.key.key_code(char.lower())
        pg.event.post(pg.event.Event(pg.KEYDOWN, key=key, unicode=char))


class Clock:
    def __init__(self) -> None:
        self.t = 50.0

    def __call__(self) -> float:
        return self.t


def test_the_window_hands_a_burst_to_on_scan_and_a_held_key_to_on_key_after_quiet_polls(pygame):
    keys: list[str] = []
    scans: list[str] = []
    clock = Clock()
    with open_display("window", size=(320, 240), on_key=keys.append) as display:
        display.burst, display.on_scan, display.clock = BurstDecoder(window=0.04), scans.append, clock
        display.key_wait = 0                       # no waiting on the held keys: the fake clock decides
        post_typed(pygame, "HS-GO\r")
        display.poll()
        assert scans == ["HS-GO"] and keys == []
        post_typed(pygame, "g")
        display.poll()
        clock.t += 0.03
        display.poll()
        assert keys == []                          # held: it may start a burst
        clock.t += 0.03
        display.poll()
        assert keys == ["g"] and scans == ["HS-GO"]


def test_a_slow_frame_between_two_polls_does_not_split_a_burst(pygame):
    """Key events carry no time: the keys of each poll get the poll's time. Two polls 0.3 s apart that both
    found keys are one burst (only a poll that found none lets time decide)."""
    keys: list[str] = []
    scans: list[str] = []
    clock = Clock()
    with open_display("window", size=(320, 240), on_key=keys.append) as display:
        display.burst, display.on_scan, display.clock = BurstDecoder(window=0.04), scans.append, clock
        display.key_wait = 0
        post_typed(pygame, "HS-U")
        display.poll()
        clock.t += 0.3
        post_typed(pygame, "NDO\r")
        display.poll()
    assert scans == ["HS-UNDO"] and keys == []


def test_a_poll_waits_for_a_held_key_to_be_decided_and_hands_it_on(pygame):
    """On the real clock: a person's g is held for the decoder's window inside the poll that found it (a wait
    for the next key, not a spin) and comes out of that same poll; a burst ended by Enter needs no wait."""
    import time
    keys: list[str] = []
    scans: list[str] = []
    with open_display("window", size=(320, 240), on_key=keys.append) as display:
        display.burst, display.on_scan = BurstDecoder(window=0.04), scans.append
        post_typed(pygame, "g")
        start = time.monotonic()
        display.poll()
        waited = time.monotonic() - start
        assert keys == ["g"] and 0.04 <= waited < 0.04 + display.key_wait
        post_typed(pygame, "HS15\r")
        display.poll()
        assert scans == ["HS15"] and keys == ["g"] and not display.burst.holding


def test_esc_still_closes_the_window_with_a_decoder(pygame):
    quit_: list[int] = []
    with open_display("window", size=(320, 240), on_key=lambda name: False, on_quit=lambda: quit_.append(1)) as d:
        d.burst = BurstDecoder()
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
        d.poll()
    assert quit_ == [1]


def post_as_sdl_x11(pg, text: str) -> None:
    """Post what SDL's X11 backend and pygame make of ``text`` typed at 1 ms a key: each key press and its text
    input, except a key pressed again right after its release, which SDL takes for an auto-repeat and pygame
    drops: only its text input comes."""
    last = ""
    for char in text:
        key = pg.K_RETURN if char == "\r" else pg.key.key_code(char.lower())
        if char != last:
            pg.event.post(pg.event.Event(pg.KEYDOWN, key=key, unicode=char))
        if char.isprintable():
            pg.event.post(pg.event.Event(pg.TEXTINPUT, text=char))
        last = char


@pytest.mark.parametrize("code", ["HS11", "HS-PLAYERS-11", "HS-BET-11-YES"])
def test_a_doubled_character_without_its_own_key_press_is_kept_and_no_character_counts_twice(pygame, code):
    keys: list[str] = []
    scans: list[str] = []
    with open_display("window", size=(320, 240), on_key=keys.append) as display:
        display.burst, display.on_scan, display.clock = BurstDecoder(window=0.04), scans.append, Clock()
        display.key_wait = 0
        post_as_sdl_x11(pygame, code + "\r")
        display.poll()
    assert scans == [code] and keys == []


def test_a_code_typed_slowly_in_the_window_goes_to_on_slow_after_its_keys(pygame):
    keys: list[str] = []
    slow: list[str] = []
    clock = Clock()
    with open_display("window", size=(320, 240), on_key=keys.append) as display:
        display.burst, display.on_slow, display.clock = BurstDecoder(window=0.04), slow.append, clock
        display.key_wait = 0
        for char in "HS01\r":
            post_as_sdl_x11(pygame, char)
            display.poll()
            clock.t += 0.15
            display.poll()
    assert keys == ["h", "s", "0", "1", "return"] and slow == ["HS01"]


def _kiosk(tmp_path, clock):
    from companion.kiosk.config import DEFAULT_TOML, parse_config
    from companion.kiosk.wiring import build
    script = tmp_path / "none.txt"
    script.write_text("")
    kiosk = build(parse_config(DEFAULT_TOML), mode="mock", db=tmp_path / "j.db", script=script, display="window",
                  audio="none", web="off", clock=clock)
    kiosk.hardware.start()
    kiosk.controller.resume()
    return kiosk


def _run(kiosk, clock: Clock, seconds: float, step: float = 0.01) -> None:
    end = clock.t + seconds
    while clock.t < end:
        clock.t += step
        kiosk.controller.step()


def _texts(kiosk) -> list[str]:
    return [j.text for j in kiosk.controller.view.journaled]


def test_the_kiosk_window_takes_scanned_codes_as_scans_and_a_persons_g_as_go(pygame, tmp_path):
    clock = Clock()
    kiosk = _kiosk(tmp_path, clock)
    try:
        _run(kiosk, clock, 0.2)
        post_typed(pygame, "HS-NEW\r")
        _run(kiosk, clock, 0.2)
        post_typed(pygame, "HS-PLAYERS-4\r")
        _run(kiosk, clock, 0.2)
        assert kiosk.controller.view.players == 4
        assert _texts(kiosk) == ["HS-NEW", "HS-PLAYERS-4"]   # no GO, no undo from the g and the u... of PLAYERS
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, unicode="g"))
        _run(kiosk, clock, 0.2)
        assert _texts(kiosk)[-1] == "HS-GO" and kiosk.controller.view.phase.value == "betting"
    finally:
        kiosk.close()


def test_a_burst_never_opens_name_entry_and_a_burst_during_name_entry_is_a_scan(pygame, tmp_path):
    from companion.screen.sink import ScreenSink
    clock = Clock()
    kiosk = _kiosk(tmp_path, clock)
    try:
        sink = next(s for s in kiosk.controller.sinks if isinstance(s, ScreenSink))
        post_typed(pygame, "HS-PLAYERS-4\r")
        _run(kiosk, clock, 0.2)
        post_typed(pygame, "HS-NAME-1:Nan\r")                 # an n in a burst: no name entry opened
        _run(kiosk, clock, 0.2)
        assert not sink.entry.active and _texts(kiosk)[-1] == "HS-NAME-1:Nan"
        for char in "nbo":                                     # a person: n opens the entry, then types
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(char), unicode=char))
            _run(kiosk, clock, 0.2)
        assert sink.entry.view() == (1, 4, "bo")
        post_typed(pygame, "HS-GO\r")                          # scanned while a name is typed
        _run(kiosk, clock, 0.2)
        assert _texts(kiosk)[-1] == "HS-GO" and sink.entry.view() == (1, 4, "bo")
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, unicode="\r"))
        _run(kiosk, clock, 0.2)
        assert _texts(kiosk)[-1] == "HS-NAME-1:Bo" and sink.entry.view() == (2, 4, "")  # on to seat 2
    finally:
        kiosk.close()


def test_f2_in_the_window_reaches_the_service_mode_at_once_and_a_scanned_code_is_a_scan_there(pygame, tmp_path):
    """F2 (no character) passes the decoder at once; in the service mode a keyboard scanner's burst is one scan,
    shown by the scanner test as typed into the window, and no key of it is a button press."""
    clock = Clock()
    kiosk = _kiosk(tmp_path, clock)
    try:
        service = kiosk.controller.service
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, unicode=""))
        _run(kiosk, clock, 0.2)
        assert service.active and service.mode.name == "leds"
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, unicode="g"))   # a person's GO
        _run(kiosk, clock, 0.2)
        assert service.mode.name == "scanner"
        post_typed(pygame, "HS15\r")                           # scanned: shown, nothing pressed
        post_typed(pygame, "HS-GUN\r")                         # a g, a u and an n in a code that is no label
        _run(kiosk, clock, 0.2)
        assert service.mode.name == "scanner"
        assert [scan.text for scan in service.mode.scans] == ["HS15", "HS-GUN"]
        assert all("window" in " ".join(scan.how) for scan in service.mode.scans)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, unicode=""))
        _run(kiosk, clock, 0.2)
        assert not service.active and _texts(kiosk) == []    # nothing of it was a game input
    finally:
        kiosk.close()


def test_a_code_typed_slowly_in_the_kiosk_window_shows_a_notice_and_presses_nothing_more(pygame, tmp_path):
    """HS-NEW typed by hand, key by key, then Enter: nothing scanned, the screen says why (in its words, without
    the code) and the console line names what was typed."""
    from companion.screen.sink import ScreenSink
    from companion.screen.words import say
    from companion.view.sink import NullSink
    clock = Clock()
    kiosk = _kiosk(tmp_path, clock)
    try:
        _run(kiosk, clock, 0.2)
        screen = next(sink for sink in kiosk.controller.sinks if isinstance(sink, ScreenSink))
        shown: list[str] = []

        class Notes(NullSink):
            def notice(self, message, view, now):
                shown.append(message)
        kiosk.controller.sinks.append(Notes())
        for char in "HS01\r":
            post_typed(pygame, char)
            _run(kiosk, clock, 0.2)
        assert _texts(kiosk) == []
        assert shown == ["'HS01' was typed too slowly for a scan: use the scanner, or n to name a seat"]
        assert screen.message == say("en", "notice_typed-slowly")
    finally:
        kiosk.close()
