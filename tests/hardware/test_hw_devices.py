"""One typed protocol per device: every backend has it, closes once, and works as a context manager; the
desktop window's keys reach the table through the buttons' press path; hardware/ imports nothing of companion."""

from __future__ import annotations

import pathlib

import pytest

from conftest import FakeClock
from hardware import NullScanner
from hardware.audio import MockAudio, NullAudio
from hardware.buttons import KeyButtons, NullButtons
from hardware.device import AudioOut, ButtonPanel, Display, Scanner, Strip
from hardware.display import NullDisplay
from hardware.leds import MockStrip, NullStrip
from hardware.mock_scanner import MockScanner
from hardware.scanner import SerialScanner
from sourcecode import imported_modules

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("make, protocol", [
    (lambda: MockScanner(print, []), Scanner),
    (lambda: SerialScanner("/dev/none", 9600, print, serial_factory=lambda p, b: None), Scanner),
    (lambda: NullScanner("no pyserial"), Scanner),
    (lambda: MockStrip(3), Strip),
    (lambda: NullStrip(3, "off"), Strip),
    (lambda: KeyButtons(print), ButtonPanel),
    (lambda: NullButtons("no gpiozero"), ButtonPanel),
    (lambda: MockAudio(), AudioOut),
    (lambda: NullAudio("no card"), AudioOut),
    (lambda: NullDisplay("off"), Display),
])
def test_every_backend_follows_its_protocol_and_closes_once(make, protocol):
    device = make()
    assert isinstance(device, protocol)
    assert not device.closed
    with device as same:
        assert same is device
    assert device.closed
    device.close()  # a second close does nothing
    assert device.closed


def test_a_closed_strip_writes_nothing():
    strip = MockStrip(2)
    strip.show([(1, 2, 3)] * 2)
    strip.close()
    frames = len(strip.frames)
    strip.show([(9, 9, 9)] * 2)
    strip.off()
    assert len(strip.frames) == frames and strip.last == ((0, 0, 0),) * 2


def test_hardware_imports_nothing_of_companion():
    paths = sorted((ROOT / "hardware").glob("*.py"))
    assert len(paths) > 5, f"the hardware modules are not in {ROOT / 'hardware'}"
    for path in paths:
        names = imported_modules(path)
        assert not any(n == "companion" or n.startswith("companion.") for n in names), f"{path.name} imports {names}"


def test_window_keys_u_and_g_press_undo_and_go_through_the_buttons(tmp_path, monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.delenv("HOTSTREAK_HARDWARE", raising=False)
    from companion.kiosk.config import DEFAULT_TOML, parse_config
    from companion.kiosk.wiring import build
    script = tmp_path / "none.txt"
    script.write_text("")
    clock = FakeClock(100.0)
    kiosk = build(parse_config(DEFAULT_TOML), mode="mock", db=tmp_path / "j.db", script=script, display="dummy",
                  audio="none", clock=clock)
    seen: list[tuple[str, str]] = []
    kiosk.controller.submit = lambda text, source="scan": seen.append((text, source))  # type: ignore[method-assign]
    try:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g))
        kiosk.controller.step()                  # renders: the screen presents and reads the window's keys
        clock.advance(1.0)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
        kiosk.controller.step()
        assert seen == [("HS-UNDO", "button"), ("HS-GO", "button"), ("HS-GO", "button")]
        assert kiosk.hardware.buttons.history == ["undo", "go", "go"]
    finally:
        kiosk.close()
