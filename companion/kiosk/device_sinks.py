"""Starting the sinks of the table's devices, the screen and the voice: each one function of the wiring's
``Parts`` (``companion.kiosk.wiring``), named on its line of the sink registry ``SINKS`` there, each giving None
(with one log line) when its device cannot start: the race goes on without it.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.kiosk.cnoise import quiet_c_stderr
from companion.kiosk.notices import Notice
from companion.kiosk.service_setup import service_key
from companion.screen.sink import ScreenSink
from companion.voice.sink import VoiceSink

log = logging.getLogger(__name__)


def screen_sink(p: Any) -> Any:
    """The screen's sink from ``p`` (``companion.kiosk.wiring.Parts``), or None: no display wanted, or one that
    cannot start (one log line; ``p.notes["screen"]`` says so in the status). The window's keys press the
    buttons (u undo, g or space GO) through ``hw.keys``; closing the window sets ``p.stop``. A screen other than
    a desktop window gets ``p.display_timeout`` s to start (in a thread); then the kiosk runs headless. In a
    desktop window the keys go to the screen's name entry first (``n``, a name, Enter: a keyboard input); a
    keyboard scanner's burst there is one scan, and a code typed there too slowly for a scan is a notice (the
    controller's notices). Settings read: display.width, display.height, language,
    scanner.max_length, scanner.repeat_window."""
    cfg, hw, mode, display, stop, notes, status = p.cfg, p.hw, p.mode, p.display, p.stop, p.notes, p.status
    lane_map, display_timeout, submit = p.lane_map, p.display_timeout, p.submit
    if display == "none":
        return None
    # every setting is read before the display opens: an undeclared one stops the wiring with nothing open
    size = (cfg.width, cfg.height) if cfg.width and cfg.height else None
    language, max_length, repeat_window = cfg.language, cfg.max_length, cfg.repeat_window
    with quiet_c_stderr():  # C libraries' noise on stderr while the display opens
        try:
            from companion.screen.draw import Screen
            from hardware.display import NullDisplay, open_display
            kind = display if display != "auto" or mode == "pi" else "window"
            on_key = hw.keys.key if hw.keys is not None else None

            # A desktop window opens on the main thread (macOS insists) and does not hang; any other screen lives on
            # a thread of its own (KMSDRM's EGL context is that thread's, and a hung mode set must not hold READY).
            device = open_display(kind, size, on_key=on_key, on_quit=stop.set,
                                  start_timeout=None if kind == "window" else display_timeout)
            if isinstance(device, NullDisplay):  # it has logged its one line; the status says it too
                notes["screen"] = f"not working, headless ({device.reason})"
                return None
            preview = hw.leds if mode == "mock" and hasattr(hw.leds, "last") else None
            screen = Screen(device.surface, display=device)
            sink = ScreenSink(screen, status=lambda: tuple(f"{k}: {v}" for k, v in status().items()),
                              leds=preview, lane_map=lane_map, submit=submit, language=language,
                              keyboard=device.name == "window")
            if device.name == "window":  # names are typed at a desktop window, not on the Pi's console
                device.on_key = sink.window_keys(service_key(hw.keys.key if hw.keys is not None else None, submit))
                from hardware.keyburst import BurstDecoder  # a keyboard scanner's code: one scan
                device.burst = BurstDecoder(max_length=max_length, repeat_window=repeat_window,
                                            typing=lambda: sink.entry.active)
                device.on_scan = submit
                device.on_slow = lambda text: p.controller.notices.append(Notice(
                    f"{text!r} was typed too slowly for a scan: use the scanner, or n to name a seat", "typed-slowly"))
            return sink
        except Exception as exc:  # noqa: BLE001 - a broken display must not stop the race
            log.warning("no screen (%s); the kiosk runs headless, the race goes on without it", exc)
            notes["screen"] = f"not working, headless ({exc})"
    return None


def voice_sink(p: Any) -> Any:
    """The voice's sink (race call and effects) from ``p`` (``companion.kiosk.wiring.Parts``), or None: no
    audio wanted, both audio settings off, or a voice that cannot start (one log line). ``p.speech`` replaces
    the espeak-ng cache (tests). Settings read: audio.voice, audio.effects, audio.volume, language, paths.cache."""
    cfg, audio, clock, speech, prerender = p.cfg, p.audio, p.clock, p.speech, p.prerender
    speak, effects, language, cache = cfg.voice, cfg.effects, cfg.language, cfg.cache  # before the sound opens
    volume = cfg.volume / 100
    if audio == "none" or not (speak or effects):
        return None
    with quiet_c_stderr():  # libasound's "ALSA lib ..." lines while the mixer looks for a sound card
        try:
            import random

            from companion.call.caller import Caller
            from companion.call.words import sounds_dir
            from companion.voice.speech import Voice, VoiceCache
            from hardware.audio import open_audio
            sound = open_audio(audio, clock=clock, effects=sounds_dir() / "effects", volume=volume)
            caller = Caller(language, random.Random())
            if speech is None:
                voice = Voice(sound, caller.voice, clock, VoiceCache(cache / "voice"))
            else:  # tests: their renderer, in the frame
                voice = Voice(sound, caller.voice, clock, speech, background=False)
            if not speak:
                voice.enabled = False
            elif prerender and voice.enabled:
                voice.prerender(caller.announcer.fixed_lines())
            return VoiceSink(caller, voice, sound, effects=effects)
        except Exception as exc:  # noqa: BLE001
            log.warning("no voice (%s); the race goes on without it", exc)
    return None
