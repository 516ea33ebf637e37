"""Display backend choice and the event -> sound effect table."""

from __future__ import annotations

import logging

import pytest

from companion.voice.sounds import effects_for
from companion.rules.race import play
from companion.screen.model import sample_model
from companion.screen.draw import Screen
from hardware.display import NullDisplay, auto_kind, open_display


def test_dummy_display_hands_back_a_surface_the_screen_draws_on(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    display = open_display("dummy", size=(800, 480))
    with display:
        assert display.name == "dummy" and display.size == (800, 480)
        screen = Screen(display.surface, display=display)
        assert screen.draw(sample_model("race"), 0.0) is display.surface
        screen.present()
    assert display.closed


def test_window_keys_reach_on_key_when_presented(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    keys: list[str] = []
    quit_ = []
    with open_display("dummy", size=(320, 240), on_key=keys.append, on_quit=lambda: quit_.append(1)) as display:
        for key in (pygame.K_u, pygame.K_g, pygame.K_SPACE):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        display.present()
    assert keys == ["u", "g", "space"] and quit_ == [1]


def test_a_window_shown_again_after_being_covered_gets_its_last_frame_at_once(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    with open_display("dummy", size=(320, 240)) as display:
        flips = []
        monkeypatch.setattr(pygame.display, "flip", lambda: flips.append(1))
        display.poll()                                  # nothing happened: the screen did not change, no flip
        assert flips == []
        pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
        display.poll()                                  # uncovered: the last frame again, without a new one drawn
        assert flips == [1]


def test_no_display_is_a_null_display_with_one_log_line(monkeypatch, caplog):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # restored after; Screen sets the driver it is given
    with caplog.at_level(logging.WARNING, "hotstreak.display"):
        d = open_display("kmsdrm")  # no KMS device in a test run
        d.present()
        assert d.surface is None or not isinstance(d, NullDisplay)
    if not isinstance(d, NullDisplay):
        d.close()
        pytest.skip("this machine has a KMS display")
    assert len(caplog.records) == 1 and "kmsdrm" in caplog.records[0].message
    assert isinstance(open_display("none"), NullDisplay)
    with pytest.raises(ValueError, match="'hologram'"):
        open_display("hologram")


def test_auto_picks_a_window_on_a_desktop_and_kmsdrm_on_a_console(monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")
    assert auto_kind() == "window"
    monkeypatch.delenv("DISPLAY")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert auto_kind() == "kmsdrm"


def test_effects_follow_the_events():
    _, events = play(["H+3", "G+2>", "G+1>"])    # Gobbler swerves into Hurley's lane, then crashes into him
    assert effects_for(events) == ["collision", "fall"]
    _, events = play(["MF", "MF"])
    assert effects_for(events) == ["fall", "dq"]
    _, events = play(["M*", "M*", "M+1"])
    assert effects_for(events) == ["finish"]


def test_no_desktop_display_is_one_log_line_and_a_status_note(tmp_path, monkeypatch, caplog):
    import logging
    from companion.kiosk.config import DEFAULT_TOML, parse_config
    from companion.kiosk.status import StatusSink
    from companion.kiosk.wiring import build
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with caplog.at_level(logging.WARNING):
        kiosk = build(parse_config(DEFAULT_TOML), mode="mock", db=tmp_path / "j.db", display="window", audio="none")
    try:
        lines = [r.getMessage() for r in caplog.records if "display" in r.getMessage() or "screen" in r.getMessage()]
        assert len(lines) == 1 and "DISPLAY" in lines[0]
        status = next(s for s in kiosk.controller.sinks if isinstance(s, StatusSink)).hardware_status()
        assert status["screen"].startswith("not working, headless")
    finally:
        kiosk.close()


def _press(pygame, *keys: int) -> None:
    for key in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))


@pytest.fixture
def window_on_sdl_dummy(monkeypatch):
    """A ``window`` display opened on SDL's dummy driver (a desktop session as far as the code can tell)."""
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("DISPLAY", ":0")
    return pygame


def test_esc_closes_a_desktop_window_like_its_close_button(window_on_sdl_dummy):
    pygame = window_on_sdl_dummy
    keys: list[str] = []
    quit_: list[int] = []
    with open_display("window", size=(320, 240), on_key=keys.append, on_quit=lambda: quit_.append(1)) as display:
        assert display.name == "window"
        _press(pygame, pygame.K_u)
        display.present()
        assert quit_ == []
        _press(pygame, pygame.K_ESCAPE)
        display.present()
    assert keys == ["u", "escape"] and quit_ == [1]


def test_esc_while_a_name_is_typed_cancels_it_and_a_second_esc_closes(window_on_sdl_dummy):
    from companion.screen.keys import NameEntry
    pygame = window_on_sdl_dummy
    entry = NameEntry()
    quit_: list[int] = []
    with open_display("window", size=(320, 240), on_key=lambda name: entry.key(name, name, seats=4)[0],
                      on_quit=lambda: quit_.append(1)) as display:
        _press(pygame, pygame.K_n, pygame.K_a)
        display.present()
        assert entry.view() == (1, 4, "a")
        _press(pygame, pygame.K_ESCAPE)
        display.present()
        assert entry.view() is None and quit_ == []   # the first Esc belonged to the name entry
        _press(pygame, pygame.K_ESCAPE)
        display.present()
    assert quit_ == [1]


def test_the_screen_sinks_window_keys_let_the_first_esc_cancel_a_name(window_on_sdl_dummy):
    """The kiosk's own handler (name entry, then the buttons) says which keys it took: the first Esc while a
    name is typed cancels the name, the second closes the window; u goes to the buttons."""
    from companion.screen.sink import ScreenSink

    class Display:
        def draw(self, model, now, extra=None):
            pass

        def present(self):
            pass
    pressed: list[str] = []
    sink = ScreenSink(Display())
    sink._seats = 4
    on_key = sink.window_keys(lambda name: pressed.append(name) or name in ("u", "g", "space"))
    assert on_key("n") is True and on_key("a") is True      # a name is being typed
    assert on_key("escape") is True                          # cancels the name
    assert on_key("escape") is False                         # not taken: the window closes
    assert on_key("u") is True and pressed[-1] == "u"


def test_esc_on_the_dummy_or_console_display_does_not_stop_the_table(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    quit_: list[int] = []
    with open_display("dummy", size=(320, 240), on_key=lambda name: None, on_quit=lambda: quit_.append(1)) as d:
        _press(pygame, pygame.K_ESCAPE)
        d.present()
    assert quit_ == []


def test_esc_in_the_kiosk_window_stops_the_kiosk(window_on_sdl_dummy, tmp_path):
    from companion.kiosk.config import DEFAULT_TOML, parse_config
    from companion.kiosk.wiring import build
    pygame = window_on_sdl_dummy
    script = tmp_path / "none.txt"
    script.write_text("")
    kiosk = build(parse_config(DEFAULT_TOML), mode="mock", db=tmp_path / "j.db", script=script, display="window",
                  audio="none", web="off")
    frames = iter(range(200))
    _press(pygame, pygame.K_ESCAPE)
    kiosk.run_forever(frame_interval=0.01, until=lambda: next(frames, None) is None)
    assert kiosk.stop.is_set()
