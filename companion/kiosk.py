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

from companion import racecall
from companion.config import Config
from companion.controller import BaseSink, Controller, status_dict
from companion.journal import Journal
from companion.lights import render_lanes, Effects
from companion.rules import Race, load_deck, load_track
from companion.rules.events import Event, Reshuffled, Revealed
from companion.sdnotify import Notifier, WatchdogPinger
from companion.table import Table

log = logging.getLogger(__name__)
STALL_ENV = "HOTSTREAK_MOCK_STALL_FILE"


def shown_race(table: Table) -> Race | None:
    """The race the lights and screen show: the current one, or the finished one during payouts."""
    game = table.game
    return getattr(game, "race", None) if game is not None else None


class LightsSink(BaseSink):
    """Shows the race on the LED strip: a frame per render, effects triggered by events (issue 4 Lights).

    Between races (no race yet, or betting for the next) the strip shows the start positions of a fresh
    race on the whole, unfolded track.
    """

    def __init__(self, strip: Any, lane_map: Any, colours: dict, track):
        self.strip = strip
        self.lane_map = lane_map
        self.colours = colours
        self.track = track
        self.effects = Effects()
        self._last: list | None = None
        self._idle = Race(track)

    def events(self, events: list[Event], table: Table, now: float) -> None:
        self.effects.trigger(events, now)

    def reset(self, table: Table, now: float) -> None:
        self.effects.clear()

    def render(self, table: Table, now: float) -> None:
        race = shown_race(table)
        phase = table.phase
        if race is None or phase not in ("racing", "payouts"):
            race = self._idle
        frame = render_lanes(race.state, self.track, self.lane_map, self.colours, now=now, effects=self.effects,
                             count=self.strip.count)
        if frame != self._last:
            self.strip.show(frame)
            self._last = frame

    def close(self) -> None:
        self.strip.close()


class ConsoleSink(BaseSink):
    """Prints the race call and every refusal to a text stream (the headless demo, a desktop terminal)."""

    def __init__(self, out: TextIO = sys.stdout):
        self.out = out

    def events(self, events: list[Event], table: Table, now: float) -> None:
        for text in racecall.call(events):
            print(text, file=self.out, flush=True)
        race = shown_race(table)
        if race is not None and not race.is_over and any(isinstance(e, Revealed) for e in events):
            if race.revealed == race.track.reveals_per_pass - 1:
                print("  Last card of this pass coming up!", file=self.out, flush=True)

    def refused(self, text: str, message: str, table: Table, now: float) -> None:
        print(f"  Refused {text!r}: {message}", file=self.out, flush=True)


class StatusSink(BaseSink):
    """Keeps the systemd STATUS= line current: "race 2, card 7 of 15; scanner disconnected"."""

    def __init__(self, notifier: Notifier, hardware_status: Callable[[], dict[str, str]]):
        self.notifier = notifier
        self.hardware_status = hardware_status
        self._next = 0.0

    def render(self, table: Table, now: float) -> None:
        if now < self._next:
            return
        self._next = now + 1.0
        self.notifier.status(status_line(table, self.hardware_status()))


def status_line(table: Table, hardware: dict[str, str]) -> str:
    """One line for systemd and logs: the game position and any device that is not well."""
    s = status_dict(table)
    if s["phase"] == "racing":
        race = shown_race(table)
        per = race.track.reveals_per_pass if race else 15
        where = f"race {s['race']}, pass {s['pass']}, card {s['revealed']} of {per}"
    elif s["phase"] == "new-game":
        where = "waiting for a new game"
    else:
        where = f"race {s['race']}, {s['phase']}"
    trouble = [v for k, v in hardware.items() if k != "hardware" and any(
        w in v.lower() for w in ("disconnected", "missing", "no-op", "failed", "error", "not "))]
    return "; ".join([where, *trouble])


class StallSink(BaseSink):
    """Mock-hardware fault injection for tests: while the file named by $HOTSTREAK_MOCK_STALL_FILE exists,
    rendering blocks, as a hung device driver would; the main loop stops and so do the watchdog pings."""

    def __init__(self, path: str):
        self.path = Path(path)

    def render(self, table: Table, now: float) -> None:
        while self.path.exists():
            time.sleep(0.05)


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
          extra_sinks: list[Any] | None = None, clock: Callable[[], float] = time.monotonic) -> Kiosk:
    """Wire a kiosk from the config. ``mode`` is auto|pi|mock; ``scanner`` a serial port (overrides the
    config; in mock mode without it, scans come from ``script`` or the keyboard)."""
    from hardware import make_hardware, resolve_mode
    from hardware.leds import LaneMap

    track = load_track(cfg.track)
    deck = load_deck(cfg.deck)
    journal = Journal(db)
    notifier = Notifier()
    pinger = WatchdogPinger(notifier, clock)
    controller = Controller(journal, track=track, deck=deck, clock=clock, on_tick=pinger.tick)
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
    sinks.extend(extra_sinks or [])
    if chosen == "mock" and os.environ.get(STALL_ENV):
        sinks.append(StallSink(os.environ[STALL_ENV]))
    controller.sinks.extend(sinks)
    return Kiosk(controller, hw, notifier)


def install_signal_handlers(kiosk: Kiosk) -> None:
    """SIGTERM and SIGINT end the main loop cleanly (LEDs off, scanner closed, journal closed)."""
    from hardware.leds import install_off_on_exit

    def handler(signum: int, frame: Any) -> None:
        kiosk.stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    install_off_on_exit(kiosk.hardware.leds)
