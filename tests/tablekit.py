"""A whole-table test helper on a fake clock.

    table = TableKit()
    table.start_race()                 # HS-NEW, HS-PLAYERS-4, GO (deck untracked), GO (no bets), GO
    table.scan("HS15")                 # Hurley +3
    table.assert_lane(Mascot.HURLEY, space=6)
    table.assert_said("Hurley")
    table.press("undo"); table.advance(0.5)

The controller is the real one with the real journal, lights and voice sinks; the strip is a MockStrip,
the voice records what it would say, and time moves only when the test says so.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

from companion.call.caller import Caller
from companion.kiosk.config import load_config
from companion.kiosk.controller import Controller, Result, status_dict
from companion.kiosk.journal import Journal
from companion.lights.render import STAR_MARKER
from companion.rules import Mascot, load_track
from companion.call.console import ConsoleSink
from companion.lights.sink import LightsSink
from companion.voice.sink import VoiceSink
from hardware.audio import MockAudio
from companion.lights.lanemap import LaneMap
from hardware.leds import MockStrip
from conftest import FakeClock

OFF = (0, 0, 0)




class RecordingVoice:
    """Stands in for companion.voice.speech.Voice: keeps (text, card) of every line it is asked to say."""

    def __init__(self):
        self.lines: list[tuple[str, int | None]] = []

    def say(self, text: str, card: int | None = None, **kw) -> None:
        self.lines.append((text, card))

    def update(self) -> None:
        pass

    def close(self) -> None:
        pass


class TableKit:
    def __init__(self, db: str | Path = ":memory:", lang: str = "en"):
        self.cfg = load_config(None)
        self.clock = FakeClock(1000.0)
        self.track = load_track()
        self.lane_map = LaneMap.from_dict(self.cfg.lane_map_dict(self.track.spaces))
        self.strip = MockStrip(self.cfg.led_count, clock=self.clock)
        self.voice = RecordingVoice()
        self.audio = MockAudio()
        self.console = io.StringIO()
        self.colours = self.cfg.colours
        sinks = [LightsSink(self.strip, self.lane_map, self.colours, self.track),
                 VoiceSink(Caller(lang, random.Random(1)), self.voice, self.audio),
                 ConsoleSink(self.console)]
        self.journal = Journal(db)
        self.controller = Controller(self.journal, sinks=sinks, clock=self.clock, wall=self.clock,
                                     rng=random.Random(0))
        self.controller.step()

    # ----- inputs -----
    def scan(self, *texts: str) -> Result:
        result = None
        for text in texts:
            result = self.controller.handle(text, "scan")
            self.controller.step()
        return result

    def press(self, button: str) -> Result:
        result = self.controller.handle({"undo": "HS-UNDO", "go": "HS-GO"}[button], "button")
        self.controller.step()
        return result

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.controller.step()

    def start_race(self, players: int = 4) -> None:
        """A new game with an untracked deck and no bets, up to the first race."""
        for text in ("HS-NEW", f"HS-PLAYERS-{players}", "HS-GO", "HS-GO", "HS-GO"):
            result = self.scan(text)
            assert result.accepted, result.message
        assert self.status()["phase"] == "racing"

    # ----- looking -----
    def status(self) -> dict:
        return status_dict(self.controller.table)

    def pixels(self, lane: int, space: int) -> list[tuple[int, int, int]]:
        frame = self.strip.last
        return [frame[p] for p in self.lane_map.pixels_for(lane, space)]

    def assert_lane(self, mascot: Mascot, space: int, colour=None) -> None:
        """The mascot's lane colour (or ``colour``) lights the pixels of ``space`` in its current lane."""
        lane = self.status()["mascots"][mascot.value]["lane"]
        want = colour or self.colours[mascot]
        got = self.pixels(lane, space)
        assert want in got, f"{mascot.value}: lane {lane} space {space} shows {got}, expected {want}"

    def assert_dark(self, lane: int, space: int) -> None:
        got = self.pixels(lane, space)
        assert all(p == OFF for p in got), f"lane {lane} space {space} shows {got}, expected dark"

    def assert_idle(self, lane: int, space: int) -> None:
        """Nothing but maybe a star marker on this space."""
        assert all(p in (OFF, STAR_MARKER) for p in self.pixels(lane, space))

    def said(self) -> list[str]:
        return [text for text, _ in self.voice.lines]

    def assert_said(self, word: str) -> None:
        assert any(word in text for text in self.said()), f"{word!r} not in {self.said()[-5:]}"
