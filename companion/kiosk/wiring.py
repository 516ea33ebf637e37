"""Assembling the kiosk: config -> journal, hardware, sinks, controller; the main loop with signals,
sd_notify (READY, WATCHDOG, STATUS) and a clean stop. Used by ``hotstreak run`` and ``hotstreak demo``.

The sinks come from one registry, ``SINKS``: a line a sink, with its name, its factory and the settings it
reads (the factory sees only those). Adding a sink is its module plus one line there (docs/architecture.md).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

from companion.kiosk.config import Config, rule_data
from companion.kiosk.device_sinks import screen_sink, voice_sink
from companion.kiosk.settings import DeclaredSettings, UndeclaredSetting
from companion.kiosk.controller import Controller
from companion.kiosk.journal_folder import check_journal_folder
from companion.kiosk.lock import take as take_lock
from companion.kiosk.recovery import open_journal
from companion.kiosk.service_setup import attach_service
from companion.rules.mascots import MASCOTS
from companion.kiosk.sdnotify import Notifier, WatchdogPinger
from companion.call.console import ConsoleSink
from companion.colours import use_colours
from companion.kiosk.status import StallSink, StatusSink, status_line
from companion.lights.sink import LightsSink
from companion.odds.sink import OddsSink
from companion.view.sink import Sink

log = logging.getLogger(__name__)
STALL_ENV = "HOTSTREAK_MOCK_STALL_FILE"  # mock-hardware fault injection (see companion.kiosk.status.StallSink)


@dataclass
class Kiosk:
    """A running table: the controller and what it drives; ``stop`` ends ``run_forever``."""

    controller: Controller
    hardware: Any
    notifier: Notifier
    stop: threading.Event = field(default_factory=threading.Event)
    lock: Any = None  # companion.kiosk.lock.KioskLock: this kiosk's hold on its journal, let go at close
    stopped_by: int | None = None  # the signal that ended the main loop (SIGINT: `run` exits 130)
    closed: bool = False  # close() has run: a second close does nothing

    def run_forever(self, frame_interval: float = 1 / 30, until: Callable[[], bool] | None = None) -> None:
        """Start the devices, say READY, loop until ``stop`` (or ``until()``), then close everything."""
        self.hardware.start()
        self.controller.resume()
        self.notifier.ready(status_line(self.controller.view, self.hardware.status()))
        try:
            while not self.stop.is_set():
                self.controller.step(timeout=frame_interval)
                if until is not None and until():
                    break
        finally:
            self.notifier.stopping()
            self.close()

    def close(self) -> None:
        """Stop the devices, close the sinks and the journal, let go of the lock; once (a second call does nothing)."""
        if self.closed:
            return
        self.closed = True
        try:
            self.hardware.close()  # scanner stopped within 2 s, every pixel off
        finally:
            self.controller.close()
            self.controller.journal.close()
            if self.lock is not None:
                self.lock.release()


def build(cfg: Config, *, mode: str | None, db: str | Path, scanner: str | None = None, script: str | Path | None = None,
          sleep: Callable[[float], Any] | None = None, window: bool = False, console: TextIO | None = None,
          display: str = "auto", audio: str = "auto", prerender: bool = False,
          extra_sinks: list[Sink] | None = None, clock: Callable[[], float] = time.monotonic,
          rng: Any = None, display_timeout: float | None = None, web: str | None = None,
          speech: Any = None, web_limit: Any = None) -> Kiosk:
    """Wire a kiosk from the config. ``mode`` is the ``--hardware`` choice (auto|pi|mock or None), resolved
    with ``$HOTSTREAK_HARDWARE`` and the config by ``hardware.resolve_mode``; ``scanner`` a serial port
    (overrides the config; in mock mode without it, scans come from ``script`` or the keyboard). ``display`` is a
    ``hardware.display`` kind (auto, kmsdrm, window, dummy, none); ``audio`` a ``hardware.audio`` kind (auto,
    mock, none). A part that cannot start becomes a no-op with one log line (degrade, don't die); a screen
    that takes longer than ``display_timeout`` s (default: the setting ``display.start_timeout``) to start is
    left behind (headless). ``web`` is
    ``[HOST:]PORT`` for the phone page, "off", or None (config ``[web]``). ``speech`` replaces the voice's
    espeak-ng cache (a ``companion.voice.speech.LineRenderer``; lines are then rendered in the frame, not in
    worker threads): tests hear the lines without a sound file; ``web_limit`` replaces the phone page's rate limit
    (tests). Raises JournalError for
    a journal the kiosk must not start with (a folder, a newer program's file, one another kiosk has locked, a
    folder this user cannot write); every setting is checked before the journal or its lock is made."""
    check_settings(cfg, mode=mode, web=web, db=db)
    lock = take_lock(db)  # one kiosk per journal, held until Kiosk.close
    try:
        kiosk = _build(cfg, mode=mode, db=db, scanner=scanner, script=script, sleep=sleep, window=window,
                       console=console, display=display, audio=audio, prerender=prerender, extra_sinks=extra_sinks,
                       clock=clock, rng=rng, display_timeout=display_timeout, web=web, speech=speech,
                       web_limit=web_limit)
    except BaseException:
        lock.release()
        raise
    kiosk.lock = lock
    return kiosk


def check_settings(cfg: Config, *, mode: str | None, web: str | None, db: str | Path) -> None:
    """What ``build`` checks before it makes anything: the hardware mode (``mode``, ``$HOTSTREAK_HARDWARE``,
    the config), the phone page's ``[HOST:]PORT``, the LED lane map against ``leds.count``, the journal's folder
    (on a Pi, a read-only SD card passes: the kiosk shows the game and says "check the SD card"). Raises
    ValueError naming a bad value, JournalError (kind ``unwritable``) for a folder this user cannot write."""
    from companion.lights.lanemap import LaneMap
    from companion.web.start import wanted
    from hardware import resolve_mode

    chosen = resolve_mode(mode, config=cfg.hardware)
    wanted(cfg, chosen, web)
    lane_map = LaneMap.from_dict(cfg.lane_map_dict(rule_data(cfg)[0].spaces), where="leds")
    if cfg.led_count < lane_map.count:
        raise ValueError(f"leds.count {cfg.led_count} is too small for the lane map (it needs at least {lane_map.count})")
    check_journal_folder(db, sd_card=chosen == "pi")


def _build(cfg: Config, *, mode: str | None, db: str | Path, scanner: str | None, script: str | Path | None,
           sleep: Callable[[float], Any] | None, window: bool, console: TextIO | None, display: str, audio: str,
           prerender: bool, extra_sinks: list[Any] | None, clock: Callable[[], float], rng: Any,
           display_timeout: float | None, web: str | None, speech: Any = None, web_limit: Any = None) -> Kiosk:
    from companion.lights.lanemap import LaneMap
    from hardware import make_hardware, resolve_mode

    track, deck = rule_data(cfg)
    journal, notices = open_journal(db)
    notifier = Notifier()
    pinger = WatchdogPinger(notifier, clock)
    controller = Controller(journal, track=track, deck=deck, clock=clock, on_tick=pinger.tick, rng=rng,
                            variant=cfg.variant, notices=notices, names=cfg.names,
                            language=cfg.language)
    notes: dict[str, str] = {}

    def status() -> dict[str, str]:
        extra = dict(notes, journal=f"not saving: {controller.problem}") if controller.problem else notes
        return {**hw.status(), **extra, **controller.faults.status()}
    chosen = resolve_mode(mode, config=cfg.hardware)
    lane_map = LaneMap.from_dict(cfg.lane_map_dict(track.spaces), where="leds")
    if cfg.led_count < lane_map.count:
        raise ValueError(f"leds.count {cfg.led_count} is too small for the lane map (it needs at least {lane_map.count})")
    port = scanner or (cfg.scanner_port if chosen == "pi" else None)

    def on_scan(text: str) -> None:
        controller.submit(text, "scan")
    hw = make_hardware(
        chosen, scanner_port=port, baud=cfg.baud, script=script, sleep=sleep, window=window, clock=clock,
        scanner_mode="serial" if scanner else cfg.scanner_mode,
        hid_device=cfg.hid_device or None, layout=cfg.layout, max_length=cfg.max_length,
        on_line=on_scan,
        on_button=lambda name: controller.submit("HS-UNDO" if name == "undo" else "HS-GO", "button"),
        on_chord=lambda: controller.submit("HS-SERVICE", "button"),
        led_count=cfg.led_count, led_rows=[lane_map.lane_pixels(lane) for lane in lane_map.lanes],
        button_pins=cfg.buttons, debounce=cfg.debounce, repeat_window=cfg.repeat_window,
        led_options={"backend": cfg.led_backend if chosen == "pi" else "mock", "brightness": cfg.brightness,
                     "order": cfg.led_order, "pin": cfg.led_pin, "dma": cfg.led_dma},
    )
    for part, why in hw.degraded.items():
        log.warning("%s is not working (%s); the table goes on without it", part, why)
    use_colours({m.value: rgb for m, rgb in cfg.colours.items()})  # the screen draws the LEDs' colours
    from companion.web.start import wanted
    parts = Parts(cfg=cfg, controller=controller, hw=hw, notifier=notifier, lane_map=lane_map, mode=chosen, db=db,
                  console=console, display=display, audio=audio, prerender=prerender, clock=clock,
                  stop=threading.Event(),
                  status=status, notes=notes, speech=speech, web=web,
                  display_timeout=cfg.start_timeout if display_timeout is None else display_timeout,
                  web_limit=web_limit, serve_web=wanted(cfg, chosen, web) is not None,  # raises on a bad --web
                  extra=list(extra_sinks or []), track=track)
    controller.sinks.extend(make_sinks(parts, cfg))
    attach_service(controller, cfg, hw, track, deck, clock)  # HS-SERVICE, F2, both buttons held 3 s
    return Kiosk(controller, hw, notifier, parts.stop)


# ----- the sink registry: one line a sink ---------------------------------------------------------------------
@dataclass
class Parts:
    """What a sink's factory may use: the settings its registry line declares (``cfg``), the controller, the
    hardware, the LED lane map, the resolved hardware mode and ``build``'s options."""

    cfg: Any  # a DeclaredSettings: only the settings the entry says it reads
    controller: Controller
    hw: Any
    notifier: Notifier
    lane_map: Any
    mode: str
    db: str | Path
    console: TextIO | None
    display: str
    audio: str
    prerender: bool
    clock: Callable[[], float]
    stop: threading.Event
    status: Callable[[], dict[str, str]]
    notes: dict[str, str]
    display_timeout: float
    speech: Any
    web: str | None
    web_limit: Any
    serve_web: bool
    extra: list[Any]
    track: Any  # companion.rules.track.Track: the track the table plays on

    def submit(self, text: str) -> Any:
        """An input typed at the kiosk (a name, a keyboard scanner's code) to the controller."""
        return self.controller.submit(text, "keyboard")


@dataclass(frozen=True)
class SinkEntry:
    """One sink of the kiosk: its name, its factory (``Parts`` -> a sink, a list of sinks, or None to leave it
    out) and the key paths of the settings it reads. A factory that raises is logged once and left out."""

    name: str
    make: Callable[[Parts], Any]
    reads: tuple[str, ...] = ()
    first: bool = False  # the LED strip: drawn first and at once after each input, dark in the service mode


def _web_sink(p: Parts) -> Any:
    from companion.web.start import start_web
    if not p.serve_web:
        return None
    page = start_web(p.cfg, p.mode, p.web, p.controller.submit, p.db, limit=p.web_limit)
    if page is None:
        return None
    sink, address = page
    p.controller.join_url_source = address  # the phone page's address: a QR code on the screen
    p.controller.seat_codes = sink.codes  # the consent codes the screen shows beside the seats
    p.controller.join_code = sink.join    # the join code in the QR code's address and under it
    return sink


def _lights_sink(p: Parts) -> Any:
    return LightsSink(p.hw.leds, p.lane_map, p.cfg.colours, p.track)


def _stall_sink(p: Parts) -> Any:
    return StallSink(os.environ[STALL_ENV]) if p.mode == "mock" and os.environ.get(STALL_ENV) else None


# The sinks, in the order they get each input. Adding a sink: its module, and one line here (docs/architecture.md).
SINKS: list[SinkEntry] = [
    SinkEntry("lights", _lights_sink, tuple(f"colours.{m.value}" for m in MASCOTS), first=True),  # drawn first
    SinkEntry("status", lambda p: StatusSink(p.notifier, p.status)),
    SinkEntry("console", lambda p: ConsoleSink(p.console) if p.console is not None else None),
    SinkEntry("odds", lambda p: OddsSink(on_odds=p.controller.odds_ready) if p.display != "none" or p.serve_web
              else None),  # its results go back to the controller, into the next view
    SinkEntry("screen", screen_sink, ("display.width", "display.height", "language", "scanner.max_length",
                                      "scanner.repeat_window")),
    SinkEntry("voice", voice_sink, ("audio.voice", "audio.effects", "audio.volume", "language", "paths.cache")),
    SinkEntry("web", _web_sink, ("web.enabled", "web.host", "web.port", "web.hosts", "language")),
    SinkEntry("extra", lambda p: p.extra),  # build(..., extra_sinks=[...])
    SinkEntry("stall", _stall_sink),  # mock-hardware fault injection
]


def make_sinks(parts: Parts, cfg: Config, entries: list[SinkEntry] | None = None) -> list[Sink]:
    """The sinks of ``entries`` (default ``SINKS``) in order, each factory given ``parts`` with only the
    settings of ``cfg`` its entry declares; the sink of an entry marked ``first`` becomes the controller's ``lights``
    (drawn before the others, at once). A factory that raises is logged in one line and left out, but
    for ValueError (a bad option such as ``--web``) and UndeclaredSetting, which are raised."""
    sinks: list[Sink] = []
    for entry in SINKS if entries is None else entries:
        try:
            made = entry.make(dataclasses.replace(parts, cfg=DeclaredSettings(cfg, entry.name, entry.reads)))
        except (ValueError, UndeclaredSetting):
            raise
        except Exception as exc:  # noqa: BLE001 - a sink that cannot start must not stop the race
            log.warning("no %s (%s); the race goes on without it", entry.name, exc)
            continue
        if entry.first:  # the controller's lights: not in the list of sinks
            parts.controller.lights = made
            continue
        sinks += made if isinstance(made, list) else [] if made is None else [made]
    return sinks


def install_signal_handlers(kiosk: Kiosk) -> None:
    """SIGTERM and SIGINT end the main loop cleanly (LEDs off, scanner closed, journal closed)."""
    from hardware.leds import install_off_on_exit

    def handler(signum: int, frame: Any) -> None:
        if kiosk.stopped_by is None:
            kiosk.stopped_by = signum
        kiosk.stop.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    install_off_on_exit(kiosk.hardware.leds)
