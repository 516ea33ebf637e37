"""The one whole-table test harness: the real kiosk wiring on mock hardware and a fake clock.

    table = TableKit()
    table.start_race()                 # HS-NEW, HS-PLAYERS-4, GO (deck untracked), GO (no bets), GO
    table.scan("HS15")                 # Hurley +3
    table.assert_lane(Mascot.HURLEY, space=6)
    table.assert_said("Hurley")
    table.press("undo"); table.advance(0.5)

The kiosk is made by ``companion.kiosk.wiring.build`` from the default config (``--hardware mock``): the real
controller, journal (``open_journal``), lights, voice, console and (with ``screen=True``) screen sinks. What the
sinks did is read from the mock devices: the mock LED strip's frames (``strip.last``), the mock audio's record
(``audio.played``; the voice's lines are "rendered" by :class:`SpokenText`, so each played file names its line),
and a dummy SDL screen. Time moves only when the test says so.

With ``web="127.0.0.1:0"`` the phone page is served too (``url``); the odds estimator's process is left out, the
table shows the test's ``odds()`` (see :class:`FixedOdds`) or none. ``webtable.LiveTable`` steps such a table on
a thread, as the kiosk loop does, for tests that talk to the page.
"""

from __future__ import annotations

import dataclasses
import io
import random
from pathlib import Path

from typing import Any

from companion.kiosk.config import parse_config
from companion.kiosk.controller import Result, status_dict
from companion.kiosk.wiring import Kiosk, build
from companion.lights.render import STAR_MARKER
from companion.odds.sink import OddsSink
from companion.rules import Mascot
from companion.view.sink import NullSink
from companion.view.table_view import OddsView, odds_situation
from conftest import FakeClock

OFF = (0, 0, 0)
DRAIN_STEPS = 200  # steps that play the voice's waiting lines after an input (one line a step)


class SpokenText:
    """A voice renderer (``companion.voice.speech.LineRenderer``) that makes no sound: the "file" of a line is
    ``VOICE:TEXT``, so the mock audio's record of played files says which lines were spoken."""

    espeak = "espeak-ng (not used in tests)"

    def available(self) -> bool:
        return True

    def has(self, text: str, voice: str) -> bool:
        return True

    def path_for(self, text: str, voice: str) -> str:
        return f"{voice}:{text}"

    def render(self, text: str, voice: str) -> str:
        return self.path_for(text, voice)

    def prerender(self, lines, voice: str) -> int:
        return len(list(lines))

    def stop(self) -> None:
        pass


class FixedOdds(NullSink):
    """Odds that are always ``odds()``, handed to the controller for each situation as the odds sink does."""

    def __init__(self, odds: Any, ready: Any):
        self.odds, self.ready = odds, ready

    def _give(self, view: Any) -> None:
        situation = odds_situation(view)
        if situation is not None:
            self.ready(OddsView(self.odds(), situation.key, situation.cards))

    def events(self, events: Any, view: Any, now: float) -> None:
        self._give(view)

    def reset(self, view: Any, now: float) -> None:
        self._give(view)


class TableKit:
    """A kiosk from ``wiring.build`` on a fake clock. ``db`` is the journal (a path or ":memory:"), ``lang`` the
    table's language, ``config`` the config file's TOML text (none: the defaults, whatever
    ``$HOTSTREAK_CONFIG`` says), ``screen`` draws every frame on a dummy SDL screen (slower; off by default); ``web`` the
    phone page's ``HOST:PORT`` (or "off"), ``odds`` a function giving the odds the table shows, ``limit`` the
    page's rate limit (``companion.web.guard.RateLimit``), ``extra_sinks`` a test's own sinks, last. Close it (or use it as a context manager) to let go of
    the journal's lock."""

    def __init__(self, db: str | Path = ":memory:", lang: str = "en", *, config: str = "", screen: bool = False,
                 web: str = "off", odds: Any = None, limit: Any = None, rng_seed: int = 0,
                 extra_sinks: tuple[Any, ...] = ()):
        self.cfg = dataclasses.replace(parse_config(config), language=lang)
        self.clock = FakeClock(1000.0)
        self.console = io.StringIO()
        self.kiosk: Kiosk = build(self.cfg, mode="mock", db=db, console=self.console,
                                  display="dummy" if screen else "none", audio="mock", web=web,
                                  clock=self.clock, rng=random.Random(rng_seed), speech=SpokenText(),
                                  web_limit=limit)
        self.controller = self.kiosk.controller
        sinks = self.controller.sinks
        for estimator in [s for s in sinks if isinstance(s, OddsSink)]:
            sinks.remove(estimator)
            estimator.close()
        if odds is not None:
            sinks.insert(0, FixedOdds(odds, self.controller.odds_ready))
        sinks.extend(extra_sinks)  # after the odds are taken out: a test's own odds sink stays
        self.server = getattr(self.controller.join_url_source, "__self__", None)  # the page's WebServer
        self.url = self.server.url if self.server is not None else None
        self.journal = self.controller.journal
        self.strip = self.kiosk.hardware.leds
        self.lane_map = self.controller.lights.lane_map
        self.colours = self.cfg.colours
        [self.voice_sink] = [s for s in sinks if type(s).__name__ == "VoiceSink"]
        self.screen = next((s for s in sinks if type(s).__name__ == "ScreenSink"), None)  # with screen=True
        self.audio = self.voice_sink.audio
        self.controller.resume()
        self._settle()

    def _settle(self) -> None:
        """Step until the voice has played every waiting line (the mock audio is never busy). A line held for
        its sound effect (``Line.ready_at``) is waited for on the fake clock."""
        self.controller.step()
        for _ in range(DRAIN_STEPS):
            line = self.voice_sink.voice.queue.peek()
            if line is None:
                return
            if line.ready_at > self.clock():
                self.clock.advance(line.ready_at - self.clock())
            self.controller.step()
        raise AssertionError(f"the voice still has lines waiting after {DRAIN_STEPS} steps")

    # ----- inputs -----
    def scan(self, *texts: str) -> Result:
        result = None
        for text in texts:
            result = self.controller.handle(text, "scan")
            self._settle()
        return result

    def press(self, button: str) -> Result:
        result = self.controller.handle({"undo": "HS-UNDO", "go": "HS-GO"}[button], "button")
        self._settle()
        return result

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self._settle()

    def start_race(self, players: int = 4) -> None:
        """A new game with an untracked deck and no bets, up to the first race."""
        for text in ("HS-NEW", f"HS-PLAYERS-{players}", "HS-GO", "HS-GO", "HS-GO"):
            result = self.scan(text)
            assert result.accepted, result.message
        assert self.status()["phase"] == "racing"

    def close(self) -> None:
        """Close the kiosk as ``hotstreak run`` does at a stop: devices, sinks, journal, lock."""
        self.kiosk.close()

    def __enter__(self) -> "TableKit":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
        got = self.pixels(lane, space)
        assert got and all(p in (OFF, STAR_MARKER) for p in got), f"lane {lane} space {space} shows {got}"

    def said(self) -> list[str]:
        """Every line the voice played, in order (from the mock audio's record)."""
        return [path.split(":", 1)[1] for kind, path in self.audio.played if kind == "voice"]

    def effects(self) -> list[str]:
        """Every sound effect played, in order."""
        return [name for kind, name in self.audio.played if kind == "effect"]

    def assert_said(self, word: str) -> None:
        assert any(word in text for text in self.said()), f"{word!r} not in {self.said()[-5:]}"
