"""Turn every pixel of the LED strip off (the kiosk service runs this after it stops).

With the mock hardware this succeeds and does nothing. On a Pi it opens the strip (spidev on a Pi 5,
rpi_ws281x otherwise), sends one all-off frame and releases it; exit 1 with the reason when the strip cannot
be opened.
"""

from __future__ import annotations

import argparse
import sys

from companion.kiosk.config import MAX_LEDS, load_config
from companion.kiosk.config_path import config_location
from hardware import LED_BACKENDS, make_strip, resolve_mode

# Off frames longer than the strip are harmless (the extra bits leave its far end), so without a configured
# count we send enough zeros for any table built as docs/pi.md describes.
DEFAULT_OFF_COUNT = 300


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hardware", choices=["auto", "pi", "mock"], default=None,
                   help="hardware mode (default: $HOTSTREAK_HARDWARE, then the config's hardware, else auto-detect the Pi)")
    p.add_argument("--led-count", type=int, default=None,
                   help=f"pixels on the strip, 1..{MAX_LEDS} (default {DEFAULT_OFF_COUNT}; more than the strip has is "
                        "harmless)")
    p.add_argument("--config", help="config file (TOML): its LED pin, DMA, order and backend are used (default: "
                                    "the one every command reads, docs/config.md)")
    p.add_argument("--led-backend", choices=[b for b in LED_BACKENDS if b != "none"], default="auto",
                   help="LED backend (default auto: spidev on a Pi 5, rpi_ws281x on other Pis, mock on a desktop)")


def run(args: argparse.Namespace) -> int:
    count = DEFAULT_OFF_COUNT if args.led_count is None else args.led_count
    if not 1 <= count <= MAX_LEDS:
        raise ValueError(f"--led-count {count} is out of range (expected 1..{MAX_LEDS} pixels)")
    options: dict[str, object] = {"backend": args.led_backend}
    configured = None
    if config_location(args.config).to_read() is not None:   # the service's own config after it stops
        cfg = load_config(args.config)
        configured = cfg.hardware
        options.update(pin=cfg.led_pin, dma=cfg.led_dma, order=cfg.led_order)
        if args.led_backend == "auto" and cfg.led_backend != "auto":
            options["backend"] = cfg.led_backend
        if args.led_count is None:
            count = max(count, cfg.led_count)
    strip, why = make_strip(resolve_mode(args.hardware, config=configured), count, options)
    if why:
        print(f"hotstreak leds-off: cannot open the LED strip: {why}", file=sys.stderr)
        return 1
    strip.close()  # close() sends the all-off frame, then releases the device
    print(f"LEDs off ({strip.status})")
    return 0
