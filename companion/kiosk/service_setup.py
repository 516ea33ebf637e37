"""Putting the service mode into a kiosk (``companion.kiosk.wiring`` calls :func:`attach_service`): what it
knows of the table, the sound it plays, the scanner facts it shows, where it saves the LED calibration, and the
desktop window's F2 key. The service mode itself is ``companion.service``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable, Mapping

from companion.kiosk.config import Config, parse_config
from companion.kiosk.config_path import config_location
from companion.rules.deck import Deck
from companion.rules.mascots import MASCOTS
from companion.rules.race import Race
from companion.rules.track import Track
from companion.service.mode import Setup
from companion.service.runner import ENTER, Service

log = logging.getLogger(__name__)

__all__ = ["attach_service", "config_target", "service_key"]


def config_target(cfg: Config) -> Path:
    """Where the calibration is saved: the config file the kiosk read, else the default location every command
    reads when no ``--config`` is given (``companion.kiosk.config_path``), so the next start uses it."""
    return cfg.source if cfg.source is not None else config_location(None).path


class TableSound:
    """The service mode's sound through the voice sink's audio: lines in any table language (a voice per
    language, made when first needed, rendered as the table's voice is), effects when they are on."""

    def __init__(self, voice_sink: Any, language: str, clock: Callable[[], float], effects: bool):
        self.sink, self.language, self.clock, self.effects = voice_sink, language, clock, effects
        self.voices: dict[str, Any] = {}

    def say(self, text: str, language: str) -> None:
        voice = self.sink.voice if language == self.language else self._voice(language)
        if voice is not None:
            voice.say(text, None, priority=2, slot=None)

    def effect(self, name: str) -> None:
        if self.effects:
            self.sink.audio.play_effect(name)

    def hush(self) -> None:
        """Nothing the race call still has waiting is said."""
        hush = getattr(self.sink.voice, "hush", None)
        if hush is not None:
            hush()

    def update(self) -> None:
        for voice in self.voices.values():
            voice.update()

    def _voice(self, language: str) -> Any:
        if language not in self.voices:
            from companion.call.words import load_catalogue
            from companion.voice.speech import Voice
            table = self.sink.voice
            self.voices[language] = Voice(table.audio, load_catalogue(language).voice, self.clock, table.cache,
                                          background=getattr(table, "_background", True))
        return self.voices[language]


def _facts(hw: Any, cfg: Config) -> Callable[[str], Mapping[str, Any]]:
    def facts(source: str) -> Mapping[str, Any]:
        if source == "keyboard":
            return {"mode": "window"}
        scanner = hw.scanner
        parser = getattr(scanner, "parser", None)
        if parser is None or type(scanner).__name__ == "MockScanner":   # a script, or lines typed on stdin
            return {"mode": "script"} if parser is None else {"mode": "script", "repeats": parser.stats.repeats}
        hid = str(getattr(scanner, "port_name", "")).startswith("/dev/input") or cfg.scanner_mode == "hid"
        seconds = parser.line_seconds
        return {"mode": "hid" if hid else "serial", "suffix": parser.suffix,
                "ms": None if seconds is None else seconds * 1000, "repeats": parser.stats.repeats}
    return facts


def attach_service(controller: Any, cfg: Config, hw: Any, track: Track, deck: Deck,
                   clock: Callable[[], float]) -> Service:
    """Give ``controller`` its service mode (``controller.service``) on ``hw``'s strip; returns it."""
    start = {ms.mascot: ms.lane for ms in Race(track).state.mascots}
    mascots = tuple((m.value, cfg.colours[m]) for m in sorted(MASCOTS, key=lambda m: start.get(m, 99)))
    voice_sink = next((s for s in controller.sinks if type(s).__name__ == "VoiceSink"), None)
    sound = TableSound(voice_sink, cfg.language, clock, cfg.effects) if voice_sink is not None else None

    def setup() -> Setup:
        lights = controller.lights
        return Setup(lane_map=getattr(lights, "lane_map", None), count=cfg.led_count, lanes=track.lanes,
                     spaces=track.spaces, mascots=mascots, brightness=cfg.brightness, supply_amps=cfg.supply_amps,
                     language=cfg.language, voice=cfg.voice and sound is not None,
                     effects=cfg.effects and sound is not None, deck=deck)

    def on_map(lane_map: Any) -> None:
        if lane_map is None:
            return
        for sink in [controller.lights, *controller.sinks]:
            if getattr(sink, "lane_map", None) is not None:
                sink.lane_map = lane_map  # the strip and the desktop's LED preview use it at once
        set_rows = getattr(hw.leds, "set_rows", None)  # a mock strip's own window: laid out by lane again
        if set_rows is not None:
            set_rows([lane_map.lane_pixels(lane) for lane in lane_map.lanes])

    path = config_target(cfg)
    service = Service(setup, hw.leds, config_path=path, check=lambda text: parse_config(text, str(path)),
                      sound=sound, facts=_facts(hw, cfg), on_map=on_map)
    controller.service = service
    return service


def service_key(keys: Callable[[str], Any] | None, submit: Callable[[str], Any] | None) -> Callable[[str], Any]:
    """A desktop window's key handler: F2 submits ``HS-SERVICE`` (enter or leave the service mode); every
    other key goes to ``keys`` (the buttons: u undo, g or space GO)."""
    def on_key(name: str) -> Any:
        if name == "f2" and submit is not None:
            submit(ENTER)
            return True
        return keys(name) if keys is not None else False
    return on_key
