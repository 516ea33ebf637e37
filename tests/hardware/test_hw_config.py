"""Config checks that know the Pi (LED pin and DMA, pin clashes), the scanner keys, max_length applied, and
one clear line for each missing piece of the device stack."""

from __future__ import annotations

import sys
import types

import pytest

from companion.kiosk.config import parse_config
from companion.kiosk.errors import ConfigError
from hardware import make_hardware, make_strip, make_scanner
from hardware.buttons import NullButtons
from hardware.leds import NullStrip
from hardware.pins import explain


def problems(text: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    return info.value.problems


def test_pwm_led_pin_needs_the_analogue_audio_off():
    [line] = problems("[leds]\npin = 18\nbackend = \"ws281x\"\n")
    assert line.startswith("leds.pin: 18 is a PWM pin, and the Pi's analogue audio uses the same PWM")
    cfg = parse_config("[leds]\npin = 18\n[audio]\nvoice = false\neffects = false\n")  # no sound: fine
    assert cfg.led_pin == 18


def test_dma_channel_5_is_refused_with_the_reason():
    [line] = problems("[leds]\ndma = 5\n")
    assert line == ("leds.dma: 5: DMA channel 5 is used by the SD card: writing LEDs through it corrupts the SD "
                    "card (use 10)")


def test_buttons_may_not_share_the_led_or_spi_pins():
    assert problems("[buttons]\nundo = 10\n") == [
        "buttons.undo: GPIO10 is the LED data pin (expected another pin, e.g. 17 or 27)"]
    assert problems("[buttons]\ngo = 11\n") == [
        "buttons.go: GPIO11 is SPI0 SCLK, taken while the LEDs use SPI (expected another pin, e.g. 17 or 27)"]
    assert problems("[leds]\npin = 21\n[buttons]\ngo = 21\n") == [
        "buttons.go: GPIO21 is the LED data pin (expected another pin, e.g. 17 or 27)"]
    assert parse_config("[leds]\npin = 21\n[buttons]\ngo = 11\n").buttons["go"] == 11  # no SPI in use: free


def test_spi_backend_needs_pin_10():
    assert any(p.startswith("leds.pin: 21 cannot be used with backend \"spi\"")
               for p in problems("[leds]\npin = 21\nbackend = \"spi\"\n"))


def test_scanner_mode_device_and_layout_keys():
    cfg = parse_config('[scanner]\nmode = "hid"\nhid_device = "/dev/input/by-id/usb-X-event-kbd"\nlayout = "de"\n')
    assert (cfg.scanner_mode, cfg.hid_device, cfg.layout) == ("hid", "/dev/input/by-id/usb-X-event-kbd", "de")
    assert parse_config("").scanner_mode == "auto"
    lines = problems('[scanner]\nmode = "keyboard"\nlayout = "dvorak"\nhid_device = "event3"\n')
    assert "scanner.mode: 'keyboard' is not valid (expected auto, serial or hid)" in lines
    assert "scanner.layout: 'dvorak' is not valid (expected us, de or fr)" in lines
    assert any(p.startswith("scanner.hid_device: 'event3' is not valid") for p in lines)


def test_max_length_reaches_every_scanner_reader():
    for scanner in (make_scanner("mock", print, lines=[], max_length=20),
                    make_scanner("pi", print, scanner_mode="serial", max_length=20)):
        assert scanner.parser.max_length == 20
        assert scanner.parser.feed(b"HS-" + b"X" * 30 + b"\r") == []
        assert scanner.parser.stats.too_long == 1
        scanner.close()


def test_gpiozero_without_a_pin_library_is_told_apart_from_gpiozero_missing(monkeypatch, tmp_path):
    from gpiozero.exc import BadPinFactory

    class NoPins:
        def __init__(self, *a, **kw):
            raise BadPinFactory("Unable to load any default pin factory!")

    fake = types.ModuleType("gpiozero")
    fake.DigitalInputDevice = NoPins
    monkeypatch.setitem(sys.modules, "gpiozero", fake)
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B\0")
    hw = make_hardware("pi", on_line=print, on_button=print, led_options={"backend": "none"}, model_path=model,
                       scanner_mode="serial", env={})
    assert isinstance(hw.buttons, NullButtons)
    assert hw.buttons.status == ("buttons off: gpiozero is installed but found no pin library (install lgpio: "
                                 "apt install python3-lgpio, or pip install lgpio)")
    hw.close()
    monkeypatch.setitem(sys.modules, "gpiozero", None)
    hw = make_hardware("pi", on_line=print, on_button=print, led_options={"backend": "none"}, model_path=model,
                       scanner_mode="serial", env={})
    assert hw.buttons.status == "buttons off: gpiozero not installed (pip install gpiozero)"
    hw.close()


def test_led_library_missing_vs_spi_not_enabled(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)
    strip, why = make_strip("pi", 10, {"backend": "ws281x", "pin": 18})
    assert isinstance(strip, NullStrip) and why == "rpi_ws281x not installed (pip install rpi_ws281x)"
    missing = str(tmp_path / "spidev0.0")
    assert explain(RuntimeError("ws2811_init failed with code -13"), "rpi_ws281x", needs_spi=True,
                   spi_device=missing).startswith(f"SPI is not enabled ({missing} missing): add dtparam=spi=on")
    assert explain(RuntimeError("ws2811_init failed with code -13"), "rpi_ws281x", needs_spi=False) == (
        "RuntimeError: ws2811_init failed with code -13")
    present = tmp_path / "spidev-present"
    present.touch()
    assert explain(PermissionError(13, "Permission denied"), "spidev", needs_spi=True, spi_device=str(present)) == (
        "no permission ([Errno 13] Permission denied): add the user to group spi")
    assert explain(OSError(16, "Device or resource busy"), "evdev") == (
        "the device is held by another program ([Errno 16] Device or resource busy)")
    monkeypatch.setitem(sys.modules, "spidev", None)
    assert make_strip("pi", 10, {"backend": "spi"})[1] == "spidev not installed (pip install spidev)"
