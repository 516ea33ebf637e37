"""What the Raspberry Pi's pins and peripherals allow: checks for the LED pin, DMA channel and button pins,
and one-line explanations of a device that cannot start (which piece is missing and how to add it).

>>> for line in pin_problems(led_pin=10, led_dma=5, led_backend="auto", buttons={"undo": 10, "go": 9},
...                          audio=True):
...     print(line)
leds.dma: 5: DMA channel 5 is used by the SD card: writing LEDs through it corrupts the SD card (use 10)
buttons.undo: GPIO10 is the LED data pin (expected another pin, e.g. 17 or 27)
buttons.go: GPIO9 is SPI0 MISO, taken while the LEDs use SPI (expected another pin, e.g. 17 or 27)
"""

from __future__ import annotations

import os
from typing import Mapping

PWM_PINS = {12: 0, 18: 0, 13: 1, 19: 1}       # GPIO -> PWM channel (rpi_ws281x)
PCM_PIN = 21
SPI_MOSI = 10
SPI0_PINS = {7: "CE1", 8: "CE0", 9: "MISO", 10: "MOSI", 11: "SCLK"}
BAD_DMA = {5: "DMA channel 5 is used by the SD card: writing LEDs through it corrupts the SD card"}
SPI_DEVICE = "/dev/spidev0.0"


def uses_spi(led_pin: int, led_backend: str) -> bool:
    """True when the LEDs go out through SPI0 (pin 10 with rpi_ws281x, or the spidev backend)."""
    return led_backend == "spi" or led_pin == SPI_MOSI


def pin_problems(*, led_pin: int, led_dma: int, led_backend: str, buttons: Mapping[str, int],
                 audio: bool) -> list[str]:
    """One line per clash, each naming the config key, the value and the reason: a PWM LED pin while the
    analogue audio is on, a DMA channel that corrupts the SD card, a button on the LED pin or on a pin that
    SPI0 takes, a non-SPI pin with the spi backend."""
    problems: list[str] = []
    if led_pin in PWM_PINS and led_backend != "spi" and audio:
        problems.append(f"leds.pin: {led_pin} is a PWM pin, and the Pi's analogue audio uses the same PWM: with "
                        "voice or effects on, use pin 10 (SPI) or set [audio] voice and effects to false")
    if led_backend == "spi" and led_pin != SPI_MOSI:
        problems.append(f"leds.pin: {led_pin} cannot be used with backend \"spi\" (spidev always sends on "
                        f"GPIO{SPI_MOSI}, SPI0 MOSI): set pin = 10")
    if led_dma in BAD_DMA and led_backend != "spi":
        problems.append(f"leds.dma: {led_dma}: {BAD_DMA[led_dma]} (use 10)")
    spi = uses_spi(led_pin, led_backend)
    for name, pin in buttons.items():
        if pin == led_pin or (spi and pin == SPI_MOSI):
            problems.append(f"buttons.{name}: GPIO{pin} is the LED data pin (expected another pin, e.g. 17 or 27)")
        elif spi and pin in SPI0_PINS:
            problems.append(f"buttons.{name}: GPIO{pin} is SPI0 {SPI0_PINS[pin]}, taken while the LEDs use SPI "
                            "(expected another pin, e.g. 17 or 27)")
        elif pin in (0, 1):
            problems.append(f"buttons.{name}: GPIO{pin} is reserved for the HAT ID EEPROM (expected another pin)")
    return problems


def explain(exc: BaseException, library: str | None = None, *, needs_spi: bool = False,
            spi_device: str = SPI_DEVICE) -> str:
    """One line saying what is missing or wrong, for a device that could not start with ``exc``.

    Tells apart: the library not installed (``pip install``); gpiozero installed but no pin library;
    SPI not enabled (``needs_spi`` and ``/dev/spidev0.0`` missing); no permission (which group to join); another program
    holding the device; anything else as ``Type: message``.
    """
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    name = type(exc).__name__
    if name == "BadPinFactory" or (library == "gpiozero" and isinstance(exc, ImportError)
                                   and getattr(exc, "name", None) not in (None, "gpiozero")):
        return ("gpiozero is installed but found no pin library (install lgpio: apt install python3-lgpio, "
                "or pip install lgpio)")
    if isinstance(exc, ImportError) and library:
        package = {"evdev": "evdev", "rpi_ws281x": "rpi_ws281x", "spidev": "spidev", "pyserial": "pyserial",
                   "gpiozero": "gpiozero", "pygame-ce": "pygame-ce"}.get(library, library)
        return f"{library} not installed (pip install {package})"
    if needs_spi and not os.path.exists(spi_device):
        return (f"SPI is not enabled ({spi_device} missing): add dtparam=spi=on to /boot/firmware/config.txt "
                f"and reboot ({name}: {text})")[:200]
    if isinstance(exc, PermissionError):
        group = {"spidev": "spi", "rpi_ws281x": "spi", "evdev": "input", "pyserial": "dialout",
                 "gpiozero": "gpio"}.get(library or "", "")
        hint = f": add the user to group {group}" if group else ""
        return f"no permission ({text}){hint}"[:200]
    if "busy" in text.lower() or getattr(exc, "errno", None) == 16:
        return f"the device is held by another program ({text})"[:200]
    return f"{name}: {text}"[:160]
