"""Assembling the kiosk: config -> journal, hardware, sinks, controller; the main loop with signals,
sd_notify (READY, WATCHDOG, STATUS) and a clean stop. Used by ``hotstreak run`` and ``hotstreak demo``.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

from companion.kiosk.cnoise import quiet_c_stderr
from companion.kiosk.config import Config
from companion.kiosk.controller import Controller
from companion.kiosk.journal_folder import check_journal_folder
from companion.kiosk.lock import take as take_lock
from companion.kiosk.notices import Notice
from companion.kiosk.recovery import open_journal
from companion.kiosk.service_setup import attach_service, service_key
from companion.rules import load_deck, load_track
from companion.kiosk.sdnotify import Notifier, WatchdogPinger
from companion.call.console import ConsoleSink
from companion.colours import use_colours
from companion.kiosk.status import StallSink, StatusSink, status_line
from companion.lights.sink import LightsSink
from companion.odds.sink import OddsSink
from companion.screen.sink import ScreenSink
from companion.view.sink import Sink
from companion.voice.sink import VoiceSink

log = logging.getLogger(__name__)
STALL_ENV = "HOTSTREAK_MOCK_STALL_FILE"  # mock-hardware fault injection (see companion.kiosk.status.StallSink)
DISPLAY_TIMEOUT = 10.0  # s the screen may take to start before the kiosk goes on headless (READY is not held)


@dataclass
class Kiosk:
    """A running table: the controller and what it drives; ``stop`` ends ``run_forever``."""

    controller: Controller
    hardware: Any
    notifier: Notifier
    stop: threading.Event = field(default_factory=threading.Event)
    lock: Any = None  # companion.kiosk.lock.KioskLock: this kiosk's hold on its journal, let go at close
    stopped_by: int | None = None  # the signal that ended the main loop (SIGINT: `run` exits 130)

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
          rng: Any = None, display_timeout: float = DISPLAY_TIMEOUT, web: str | None = None,
          speech: Any = None, web_limit: Any = None) -> Kiosk:
    """Wire a kiosk from the config. ``mode`` is the ``--hardware`` choice (auto|pi|mock or None), resolved
    with ``$HOTSTREAK_HARDWARE`` and the config by ``hardware.resolve_mode``; ``scanner`` a serial port
    (overrides the config; in mock mode without it, scans come from ``script`` or the keyboard). ``display`` is a
    ``hardware.display`` kind (auto, kmsdrm, window, dummy, none); ``audio`` a ``hardware.audio`` kind (auto,
    mock, none). A part that cannot start becomes a no-op with one log line (degrade, don't die); a screen
    that takes longer than ``display_timeout`` s to start is left behind (headless). ``web`` is
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
    lane_map = LaneMap.from_dict(cfg.lane_map_dict(load_track(cfg.track).spaces), where="leds")
    if cfg.led_count < lane_map.count:
        raise ValueError(f"leds.count {cfg.led_count} is too small for the lane map (it needs at least {lane_map.count})")
    check_journal_folder(db, sd_card=chosen == "pi")


def _build(cfg: Config, *, mode: str | None, db: str | Path, scanner: str | None, script: str | Path | None,
           sleep: Callable[[float], Any] | None, window: bool, console: TextIO | None, display: str, audio: str,
           prerender: bool, extra_sinks: list[Any] | None, clock: Callable[[], float], rng: Any,
           display_timeout: float, web: str | None, speech: Any = None, web_limit: Any = None) -> Kiosk:
    from companion.lights.lanemap import LaneMap
    from hardware import make_hardware, resolve_mode

    track = load_track(cfg.track)
    deck = load_deck(cfg.deck)
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
    controller.lights = LightsSink(hw.leds, lane_map, cfg.colours, track)  # drawn first after each input
    sinks: list[Sink] = [StatusSink(notifier, status)]
    if console is not None:
        sinks.append(ConsoleSink(console))
    from companion.web.start import start_web, wanted
    serve_web = wanted(cfg, chosen, web) is not None  # raises ValueError naming a bad --web
    if display != "none" or serve_web:  # its results go back to the controller, into the next view
        sinks.append(OddsSink(on_odds=controller.odds_ready))
    stop = threading.Event()
    with quiet_c_stderr():  # libasound's "ALSA lib ..." lines while the mixer looks for a sound card
        sinks += _screen_and_voice(cfg, hw, lane_map, chosen, display, audio, prerender, clock, stop,
                                   status=status, notes=notes, display_timeout=display_timeout,
                                   submit=lambda text: controller.submit(text, "keyboard"), speech=speech,
                                   notify=controller.notices.append)
    page = start_web(cfg, chosen, web, controller.submit, db, limit=web_limit) if serve_web else None
    if page is not None:  # the phone page, and its address (a QR code on the screen) in the view
        sink, address = page
        sinks.append(sink)
        controller.join_url_source = address
        controller.seat_codes = sink.codes  # the consent codes the screen shows beside the seats
        controller.join_code = sink.join    # the join code in the QR code's address and under it
    sinks.extend(extra_sinks or [])
    if chosen == "mock" and os.environ.get(STALL_ENV):
        sinks.append(StallSink(os.environ[STALL_ENV]))
    controller.sinks.extend(sinks)
    attach_service(controller, cfg, hw, track, deck, clock)  # HS-SERVICE, F2, both buttons held 3 s
    return Kiosk(controller, hw, notifier, stop)


def _screen_and_voice(cfg: Config, hw: Any, lane_map: Any, mode: str, display: str, audio: str, prerender: bool,
                      clock: Callable[[], float], stop: threading.Event, *,
                      status: Callable[[], dict[str, str]] | None = None, notes: dict[str, str] | None = None,
                      display_timeout: float = DISPLAY_TIMEOUT,
                      submit: Callable[[str], Any] | None = None, speech: Any = None,
                      notify: Callable[[str], Any] | None = None) -> list[Any]:
    """The screen and voice sinks, each left out (with one log line) when it cannot start. The window's keys
    press the buttons (u undo, g or space GO) through ``hw.keys``; closing the window sets ``stop``. A
    screen other than a desktop window gets ``display_timeout`` s to start (in a thread); then the kiosk runs
    headless and ``notes["screen"]`` says so. In a desktop window the keys go to the screen's name entry first
    (``n``, a name, Enter: ``submit``); a keyboard scanner's burst there is one scan (``submit`` too), and a code
    typed there too slowly for a scan is a notice to ``notify`` (the controller's notices)."""
    sinks: list[Any] = []
    notes = {} if notes is None else notes
    status = status or hw.status
    if display != "none":
        try:
            from companion.screen.draw import Screen
            from hardware.display import NullDisplay, open_display
            kind = display if display != "auto" or mode == "pi" else "window"
            size = (cfg.width, cfg.height) if cfg.width and cfg.height else None
            on_key = hw.keys.key if hw.keys is not None else None

            def start() -> Any:
                return open_display(kind, size, on_key=on_key, on_quit=stop.set)
            if kind == "window":  # a desktop window opens on the main thread (macOS insists); it does not hang
                device = start()
            else:  # KMSDRM can hang in its mode set: never hold READY back for it
                device = bounded(start, display_timeout,
                                 f"the {kind} display did not start within {display_timeout:g} s (a hung mode set?)")
            if isinstance(device, NullDisplay):  # it has logged its one line; the status says it too
                notes["screen"] = f"not working, headless ({device.reason})"
            else:
                preview = hw.leds if mode == "mock" and hasattr(hw.leds, "last") else None
                screen = Screen(device.surface, display=device)
                sink = ScreenSink(screen, status=lambda: tuple(f"{k}: {v}" for k, v in status().items()),
                                  leds=preview, lane_map=lane_map, submit=submit, language=cfg.language,
                                  keyboard=device.name == "window")
                if device.name == "window":  # names are typed at a desktop window, not on the Pi's console
                    device.on_key = sink.window_keys(service_key(hw.keys.key if hw.keys is not None else None, submit))
                    from hardware.keyburst import BurstDecoder  # a keyboard scanner's code: one scan
                    device.burst = BurstDecoder(max_length=cfg.max_length, repeat_window=cfg.repeat_window,
                                                typing=lambda: sink.entry.active)
                    device.on_scan = submit
                    if notify is not None:
                        device.on_slow = lambda text: notify(Notice(
                            f"{text!r} was typed too slowly for a scan: use the scanner, or n to name a seat",
                            "typed-slowly"))
                sinks.append(sink)
        except Exception as exc:  # noqa: BLE001 - a broken display must not stop the race
            log.warning("no screen (%s); the kiosk runs headless, the race goes on without it", exc)
            notes["screen"] = f"not working, headless ({exc})"
    if audio != "none" and (cfg.voice or cfg.effects):
        try:
            import random

            from companion.call.caller import Caller
            from companion.call.words import sounds_dir
            from companion.voice.speech import Voice, VoiceCache
            from hardware.audio import open_audio
            sound = open_audio(audio, clock=clock, effects=sounds_dir() / "effects")
            caller = Caller(cfg.language, random.Random())
            if speech is None:
                voice = Voice(sound, caller.voice, clock, VoiceCache(cfg.cache / "voice"))
            else:  # tests: their renderer, in the frame
                voice = Voice(sound, caller.voice, clock, speech, background=False)
            if not cfg.voice:
                voice.enabled = False
            elif prerender and voice.enabled:
                voice.prerender(caller.announcer.fixed_lines())
            sinks.append(VoiceSink(caller, voice, sound, effects=cfg.effects))
        except Exception as exc:  # noqa: BLE001
            log.warning("no voice (%s); the race goes on without it", exc)
    return sinks


def bounded(start: Callable[[], Any], timeout: float, late: str) -> Any:
    """``start()`` run in a thread; its result, or RuntimeError(``late``) when it takes over ``timeout`` s (the
    thread is left behind as a daemon; what it returns late is closed). Errors of ``start`` are raised."""
    box: dict[str, Any] = {}
    done = threading.Event()
    abandoned = threading.Event()

    def run() -> None:
        try:
            box["value"] = start()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box["error"] = exc
        done.set()
        if abandoned.is_set() and "value" in box and hasattr(box["value"], "close"):
            try:
                box["value"].close()
            except Exception:  # noqa: BLE001
                pass

    threading.Thread(target=run, name="start-up", daemon=True).start()
    if not done.wait(timeout):
        abandoned.set()
        raise RuntimeError(late)
    if "error" in box:
        raise box["error"]
    return box["value"]


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
