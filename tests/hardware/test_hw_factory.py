"""The hardware factory: mode choice, board detection, and degrading a failing backend to a no-op."""

from __future__ import annotations

import logging
import os
import sys
import types

import pytest

from hardware import Hardware, detect_board, make_hardware, make_strip, resolve_mode
from hardware.buttons import Buttons, NullButtons
from hardware.leds import MockStrip, NullStrip, SpiWs2812Strip
from hardware.mock_scanner import MockScanner
from hardware.scanner import SerialScanner

PI4 = b"Raspberry Pi 4 Model B Rev 1.4\0"
PI5 = b"Raspberry Pi 5 Model B Rev 1.0\0"


@pytest.fixture
def model(tmp_path):
    def write(data: bytes | None):
        if data is None:
            return tmp_path / "missing-model"
        path = tmp_path / "model"
        path.write_bytes(data)
        return path
    return write


def test_detect_board(model):
    assert detect_board(model(PI4)).is_pi and not detect_board(model(PI4)).is_pi5
    assert detect_board(model(PI5)).is_pi5
    assert detect_board(model(b"Raspberry Pi 500 Rev 1.0\0")).is_pi5
    assert not detect_board(model(None)).is_pi
    assert detect_board(model(None)).model == ""


def test_resolve_mode_argument_then_env_then_config_then_board(model):
    assert resolve_mode(None, config="pi", env={}, model_path=model(None)) == "pi"
    assert resolve_mode("auto", config="pi", env={"HOTSTREAK_HARDWARE": "mock"}, model_path=model(None)) == "mock"
    assert resolve_mode("mock", config="pi", env={"HOTSTREAK_HARDWARE": "pi"}, model_path=model(PI4)) == "mock"
    assert resolve_mode(None, config="auto", env={"HOTSTREAK_HARDWARE": ""}, model_path=model(PI4)) == "pi"
    with pytest.raises(ValueError, match="config hardware 'real'"):
        resolve_mode(None, config="real", env={})
    assert resolve_mode("mock", env={"HOTSTREAK_HARDWARE": "pi"}, model_path=model(PI4)) == "mock"
    assert resolve_mode("auto", env={"HOTSTREAK_HARDWARE": "mock"}, model_path=model(PI4)) == "mock"
    assert resolve_mode("auto", env={}, model_path=model(PI4)) == "pi"
    assert resolve_mode(None, env={}, model_path=model(None)) == "mock"
    with pytest.raises(ValueError, match="HOTSTREAK_HARDWARE 'real' is not one of auto, pi, mock"):
        resolve_mode("auto", env={"HOTSTREAK_HARDWARE": "real"})
    with pytest.raises(ValueError, match="hardware mode 'x'"):
        resolve_mode("x", env={})


def test_mock_bundle_on_a_desktop(model):
    lines, presses = [], []
    hw = make_hardware("auto", on_line=lines.append, on_button=presses.append, scanner_lines=["HS15", "HS-GO"],
                       env={}, model_path=model(None))
    assert isinstance(hw, Hardware) and hw.mode == "mock"
    assert isinstance(hw.scanner, MockScanner) and isinstance(hw.leds, MockStrip)
    assert isinstance(hw.buttons, Buttons)
    assert hw.leds.count == 56
    hw.start()
    assert hw.scanner.done.wait(30)  # a deadline for a hang only
    assert lines == ["HS15", "HS-GO"]
    hw.buttons.press("go")
    assert presses == ["go"]
    status = hw.status()
    assert set(status) == {"hardware", "scanner", "leds", "buttons"}
    assert status["hardware"] == "mock (desktop)"
    hw.leds.show([(9, 9, 9)] * 56)
    hw.close()
    assert hw.leds.last == ((0, 0, 0),) * 56


def test_mock_with_a_port_uses_the_real_serial_reader(model):
    master, slave = os.openpty()
    try:
        hw = make_hardware("mock", scanner_port=os.ttyname(slave), on_line=print, on_button=print, env={},
                           model_path=model(None))
        assert isinstance(hw.scanner, SerialScanner)
        hw.close()
    finally:
        os.close(master)
        os.close(slave)


def test_pi_mode_degrades_each_failing_part_and_logs_once(model, monkeypatch, caplog):
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)  # not installed

    class BrokenButton:
        def __init__(self, *a, **kw):
            raise RuntimeError("Failed to add edge detection")

    fake_gpiozero = types.ModuleType("gpiozero")
    fake_gpiozero.DigitalInputDevice = BrokenButton
    monkeypatch.setitem(sys.modules, "gpiozero", fake_gpiozero)
    with caplog.at_level(logging.WARNING):
        hw = make_hardware("pi", scanner_port="/dev/does-not-exist-hotstreak", on_line=print, on_button=print,
                           env={}, model_path=model(PI4))
    assert isinstance(hw.leds, NullStrip) and isinstance(hw.buttons, NullButtons)
    assert isinstance(hw.scanner, SerialScanner)  # present; it retries the port by itself
    status = hw.status()
    assert status["leds"] == "LEDs off: rpi_ws281x not installed (pip install rpi_ws281x)"
    assert status["buttons"] == "buttons off: RuntimeError: Failed to add edge detection"
    assert status["hardware"] == "pi (Raspberry Pi 4 Model B Rev 1.4)"
    assert set(hw.degraded) == {"leds", "buttons"}
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2
    hw.leds.show([(1, 2, 3)] * 56)  # the no-op keeps the rest running
    hw.close()


def test_pi5_picks_the_spi_backend(model, monkeypatch):
    written = []

    class FakeSpi:
        def open(self, bus, device): pass
        def writebytes2(self, data): written.append(bytes(data))
        def close(self): pass

    mod = types.ModuleType("spidev")
    mod.SpiDev = FakeSpi
    monkeypatch.setitem(sys.modules, "spidev", mod)
    strip, why = make_strip("pi", 10, board=detect_board(model(PI5)))
    assert isinstance(strip, SpiWs2812Strip) and why is None
    strip.close()
    assert written  # off on close


def test_spi_without_device_degrades_with_the_reason(model, monkeypatch):
    class NoDevice:
        def open(self, bus, device):
            raise FileNotFoundError(2, "No such file or directory")

    mod = types.ModuleType("spidev")
    mod.SpiDev = NoDevice
    monkeypatch.setitem(sys.modules, "spidev", mod)
    strip, why = make_strip("pi", 10, {"backend": "spi"})
    assert isinstance(strip, NullStrip)
    if os.path.exists("/dev/spidev0.0"):
        assert why == "FileNotFoundError: [Errno 2] No such file or directory"
    else:  # the likely cause, named with the fix
        assert why.startswith("SPI is not enabled (/dev/spidev0.0 missing): add dtparam=spi=on")


def test_bad_led_options_and_counts_are_config_errors(model):
    with pytest.raises(ValueError, match="unknown LED option"):
        make_strip("mock", 10, {"colour": "red"})
    with pytest.raises(ValueError, match="LED backend 'dmx'"):
        make_strip("pi", 10, {"backend": "dmx"})
    with pytest.raises(ValueError, match="do not apply to the spi backend"):
        make_strip("pi", 10, {"backend": "spi", "freq_hz": 800_000})
    with pytest.raises(ValueError, match="LED pin 18 cannot be used with the spi backend"):
        make_strip("pi", 10, {"backend": "spi", "pin": 18})
    with pytest.raises(ValueError, match="LED count 0 must be a positive number"):
        make_hardware("mock", on_line=print, on_button=print, led_count=0, scanner_lines=[], env={},
                      model_path=model(None))


def test_mock_window_keys_press_buttons(model, monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    presses = []
    hw = make_hardware("mock", on_line=print, on_button=presses.append, scanner_lines=[], window=True,
                       led_count=6, led_rows=[[0, 1, 2], [5, 4, 3]], env={}, model_path=model(None))
    try:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g))
        hw.leds.off()
        assert presses == ["go"]
    finally:
        hw.close()
