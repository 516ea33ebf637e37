"""Assembling the kiosk: config -> journal, hardware, sinks, controller; the main loop with signals,
sd_notify (READY, WATCHDOG, STATUS) and a clean stop. Used by ``hotstreak run`` and ``hotstreak demo``.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

from companion.kiosk.cnoise import quiet_c_stderr
from companion.kiosk.config import Config
from companion.kiosk.controller import Controller
from companion.kiosk.journal import Journal
from companion.rules import load_deck, load_track
from companion.kiosk.sdnotify import Notifier, WatchdogPinger
from companion.call.console import ConsoleSink
from companion.kiosk.status import StallSink, StatusSink, status_line
from companion.lights.sink import LightsSink
from companion.odds.sink import OddsSink
from companion.screen.sink import ScreenSink
from companion.voice.sink import VoiceSink

log = logging.getLogger(__name__)
STALL_ENV = "HOTSTREAK_MOCK_STALL_FILE"  # mock-hardware fault injection (see companion.kiosk.status.StallSink)


@dataclass
class Kiosk:
    """A running table: the controller and what it drives; ``stop`` ends ``run_forever``."""

    controller: Controller
    hardware: Any
    notifier: Notifier
    stop: threading.Event = field(default_factory=threading.Event)

    def run_forever(self, frame_interval: float = 1 / 30, until: Callable[[], bool] | None = None) -> None:
        """Start the devices, say READY, loop until ``stop`` (or ``until()``), then close everything."""
        self.hardware.start()
        self.controller.resume()
        self.notifier.ready(status_line(self.controller.table, self.hardware.status()))
        try:
            while not self.stop.is_set():
                self.controller.step(timeout=frame_interval)
                if until is not None and until():
                    break
        finally:
            self.notifier.stopping()
            self.close()

    def close(self) -> None:
        try:
            self.hardware.close()  # scanner stopped within 2 s, every pixel off
        finally:
            self.controller.close()
            self.controller.journal.close()


def build(cfg: Config, *, mode: str, db: str | Path, scanner: str | None = None, script: str | Path | None = None,
          sleep: Callable[[float], Any] | None = None, window: bool = False, console: TextIO | None = None,
          display: str = "auto", audio: str = "auto", prerender: bool = False,
          extra_sinks: list[Any] | None = None, clock: Callable[[], float] = time.monotonic,
          rng: Any = None, web: str | None = None) -> Kiosk:
    """Wire a kiosk from the config. ``mode`` is auto|pi|mock; ``scanner`` a serial port (overrides the
    config; in mock mode without it, scans come from ``script`` or the keyboard). ``display`` is a
    ``hardware.display`` kind (auto, kmsdrm, window, dummy, none); ``audio`` a ``hardware.audio`` kind (auto,
    mock, none). ``web`` is ``[HOST:]PORT`` for the phone page, "off", or None (config ``[web]``). A part that
    cannot start becomes a no-op with one log line (degrade, don't die)."""
    from hardware import make_hardware, resolve_mode
    from hardware.leds import LaneMap

    track = load_track(cfg.track)
    deck = load_deck(cfg.deck)
    journal = Journal(db)
    notifier = Notifier()
    pinger = WatchdogPinger(notifier, clock)
    controller = Controller(journal, track=track, deck=deck, clock=clock, on_tick=pinger.tick, rng=rng,
                            variant=cfg.variant)
    chosen = resolve_mode(mode)
    lane_map = LaneMap.from_dict(cfg.lane_map_dict(track.spaces), where="leds")
    port = scanner or (cfg.scanner_port if chosen == "pi" else None)
    hw = make_hardware(
        chosen, scanner_port=port, baud=cfg.baud, script=script, sleep=sleep, window=window, clock=clock,
        on_line=lambda text: controller.submit(text, "scan"),
        on_button=lambda name: controller.submit("HS-UNDO" if name == "undo" else "HS-GO", "button"),
        lane_map=lane_map, led_count=cfg.led_count, button_pins=cfg.buttons, debounce=cfg.debounce,
        repeat_window=cfg.repeat_window,
        led_options={"backend": cfg.led_backend if chosen == "pi" else "mock", "brightness": cfg.brightness,
                     "order": cfg.led_order, "pin": cfg.led_pin, "dma": cfg.led_dma},
    )
    for part, why in hw.degraded.items():
        log.warning("%s is not working (%s); the table goes on without it", part, why)
    sinks: list[Any] = [LightsSink(hw.leds, lane_map, cfg.colours, track), StatusSink(notifier, hw.status)]
    if console is not None:
        sinks.append(ConsoleSink(console))
    from companion.web.start import start_web, wanted
    serve_web = wanted(cfg, chosen, web) is not None  # raises ValueError naming a bad --web
    odds = OddsSink() if display != "none" or serve_web else None
    if odds is not None:
        sinks.append(odds)
    with quiet_c_stderr():  # libasound's "ALSA lib ..." lines while the mixer looks for a sound card
        sinks += _screen_and_voice(cfg, hw, chosen, display, audio, prerender, clock, odds)
    page = start_web(cfg, chosen, web, controller, db, odds.current if odds is not None else (lambda: None)) \
        if serve_web else None
    if page is not None:  # the phone page, and its address as a QR code on the screen
        sinks.append(page)
        page.show_on([sink for sink in sinks if isinstance(sink, ScreenSink)])
    sinks.extend(extra_sinks or [])
    if chosen == "mock" and os.environ.get(STALL_ENV):
        sinks.append(StallSink(os.environ[STALL_ENV]))
    controller.sinks.extend(sinks)
    return Kiosk(controller, hw, notifier)


def _screen_and_voice(cfg: Config, hw: Any, mode: str, display: str, audio: str, prerender: bool,
                      clock: Callable[[], float], odds: Any = None) -> list[Any]:
    """The screen and voice sinks, each left out (with one log line) when it cannot start."""
    sinks: list[Any] = []
    if display != "none":
        try:
            from hardware.display import open_display
            kind = display if display != "auto" or mode == "pi" else "window"
            if kind == "window" and sys.platform.startswith("linux") and not (
                    os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
                raise RuntimeError("no desktop display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset)")
            screen = open_display(kind, (cfg.width, cfg.height) if cfg.width and cfg.height else None)
            if getattr(screen, "reason", None):
                log.warning("no screen: %s; the race goes on without it", screen.reason)
            else:
                preview = hw.leds if mode == "mock" and hasattr(hw.leds, "last") else None
                sinks.append(ScreenSink(screen, status=lambda: tuple(f"{k}: {v}" for k, v in hw.status().items()),
                                        leds=preview, lane_map=hw.lane_map,
                                        odds=odds.current if odds is not None else (lambda: None)))
        except Exception as exc:  # noqa: BLE001 - a broken display must not stop the race
            log.warning("no screen (%s); the race goes on without it", exc)
    if audio != "none" and (cfg.voice or cfg.effects):
        try:
            import random

            from companion.call.announcer import Announcer
            from companion.voice.speech import Voice, VoiceCache
            from hardware.audio import open_audio
            device = open_audio(audio, clock=clock)
            announcer = Announcer(cfg.language, random.Random())
            voice = Voice(device, announcer.voice, clock, VoiceCache(cfg.cache / "voice"))
            if not cfg.voice:
                voice.enabled = False
            elif prerender and voice.enabled:
                voice.prerender(announcer.fixed_lines())
            sinks.append(VoiceSink(announcer, voice, device, effects=cfg.effects))
        except Exception as exc:  # noqa: BLE001
            log.warning("no voice (%s); the race goes on without it", exc)
    return sinks


def install_signal_handlers(kiosk: Kiosk) -> None:
    """SIGTERM and SIGINT end the main loop cleanly (LEDs off, scanner closed, journal closed)."""
    from hardware.leds import install_off_on_exit

    def handler(signum: int, frame: Any) -> None:
        kiosk.stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    install_off_on_exit(kiosk.hardware.leds)
