"""The sinks of the controller: what shows or says the table's events (LED lights, screen, voice, console,
systemd status). Each is a small object with the ``companion.controller.Sink`` methods; a failing one is
logged by the controller and the rest carry on.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any, Callable, TextIO
import sys

from companion import racecall
from companion.controller import BaseSink, status_dict
from companion.lights import Effects, render_lanes
from companion.rules import Race
from companion.rules.events import Event, Revealed
from companion.sdnotify import Notifier
from companion.table import Table

log = logging.getLogger(__name__)


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
        from companion.rules.game_events import PhaseChanged
        if any(isinstance(e, PhaseChanged) for e in events):
            self.effects.clear()  # a new phase (e.g. the next race) starts with a clean strip
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

    def reset(self, table: Table, now: float) -> None:
        """After a start from the journal or an undo: where the table is now."""
        if table.game is not None:
            print(f"Table: {status_line(table, {})}", file=self.out, flush=True)


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


class ScreenSink(BaseSink):
    """Draws the table on the display (``hardware.display``) once per render, with the running race call,
    refusal messages for a few seconds, odds from ``odds()`` and device status from ``status()``."""

    def __init__(self, display: Any, *, odds: Callable[[], Any] = lambda: None,
                 status: Callable[[], tuple[str, ...]] = tuple, frame_interval: float = 1 / 30, keep_log: int = 60,
                 leds: Any = None, lane_map: Any = None):
        self.display = display
        self.leds = leds          # a MockStrip to preview along the lanes (desktop demo), or None
        self.lane_map = lane_map
        self.odds = odds
        self.status = status
        self.frame_interval = frame_interval
        self.log: list[str] = []
        self.keep_log = keep_log
        self.message: str | None = None
        self.message_at = 0.0
        self.money_before: dict[int, int] = {}
        self._next = 0.0

    def events(self, events: list[Event], table: Table, now: float) -> None:
        from companion.rules.game_events import PhaseChanged, Settled
        for e in events:
            if isinstance(e, Settled):
                self.money_before[e.seat] = e.before
            elif isinstance(e, PhaseChanged) and e.phase.value == "racing":
                self.log.clear()
                self.money_before.clear()
        self.log.extend(racecall.call(events))
        del self.log[:-self.keep_log]
        self._next = 0.0  # draw the change at once

    def refused(self, text: str, message: str, table: Table, now: float) -> None:
        self.message, self.message_at = message, now
        self._next = 0.0

    def reset(self, table: Table, now: float) -> None:
        self.log.append("Undo")
        self._next = 0.0

    def render(self, table: Table, now: float) -> None:
        if now < self._next:
            return
        self._next = now + self.frame_interval
        from companion.screen_model import from_table
        model = from_table(table, log=tuple(self.log), message=self.message, message_at=self.message_at,
                           odds=self.odds(), status=self.status(), money_before=self.money_before)
        self.display.draw(model, now)
        if self.leds is not None and model.screen == "race":
            self._preview_leds(model)
        self.display.present()

    def _preview_leds(self, model: Any) -> None:
        """Draw the LED strip's last frame as a thin band along the bottom of each lane's spaces."""
        import pygame

        from companion.screen import layout_for, space_rect
        surface = self.display.surface
        layout = layout_for(surface.get_size(), model.track)
        frame = self.leds.last
        if not frame:
            return
        for lane in range(1, layout.lanes + 1):
            for space in range(1, layout.spaces + 1):
                x, y, w, h = space_rect(lane, space, layout)
                pixels = self.lane_map.pixels_for(lane, space)
                band = max(3, h // 10)
                for k, p in enumerate(pixels):
                    colour = frame[p] if p < len(frame) else (0, 0, 0)
                    px = x + k * w // len(pixels)
                    pygame.draw.rect(surface, colour, (px + 1, y + h - band - 1, w // len(pixels) - 2, band))

    def close(self) -> None:
        self.display.close()


class VoiceSink(BaseSink):
    """Calls the race out loud: announcer lines per event in the configured language, through the voice
    queue (never more than a card behind), and the synthesised sound effects."""

    def __init__(self, announcer: Any, voice: Any, audio: Any, effects: bool = True):
        self.announcer = announcer
        self.voice = voice
        self.audio = audio
        self.effects = effects

    def events(self, events: list[Event], table: Table, now: float) -> None:
        from companion.effects import effects_for
        from companion.rules.game_events import PhaseChanged
        race = getattr(table.game, "race", None) if table.game is not None else None
        card = len(race.cards) if race is not None else None
        for e in events:
            if isinstance(e, PhaseChanged) and e.phase.value == "racing":
                if self.effects:
                    self.audio.play_effect("start")
                self.voice.say(self.announcer.line_for("race-start", race=e.race_no), None)
        for line in self.announcer.lines(events):
            self.voice.say(line, card)
        if race is not None and not race.is_over and any(isinstance(e, Revealed) for e in events) \
                and race.revealed == race.track.reveals_per_pass - 1:
            self.voice.say(self.announcer.line_for("last-card", pass_no=race.pass_no), card)
        if self.effects:
            for name in effects_for(events):
                self.audio.play_effect(name)

    def refused(self, text: str, message: str, table: Table, now: float) -> None:
        self.voice.say(self.announcer.line_for("refused", reason=text), None)

    def render(self, table: Table, now: float) -> None:
        self.voice.update()

    def close(self) -> None:
        self.voice.close()
        self.audio.close()


class OddsSink(BaseSink):
    """Recomputes the live odds in a background thread after each change, without delaying the race call.

    Only the newest request is computed (older ones are dropped); results are cached by race position string.
    Before race 1 the known cards are the face-up cards scanned in setup; before races 2 and 3 the deck is
    treated as unknown (cards were dealt out and added face down); during a race the revealed cards count too.
    ``current()`` gives ``{mascot: (p1, p2, p3, p4)}`` for the screen, or None.
    """

    def __init__(self, samples: int = 10000, estimate: Callable[..., Any] | None = None):
        if estimate is None:
            from companion.odds import estimate
        self.estimate = estimate
        self.samples = samples
        self._cache: dict[str, Any] = {}
        self._want: tuple | None = None
        self._shown: Any = None
        self._key: str | None = None
        self._cv = threading.Condition()
        self._stop = False
        self._failed = False
        self._thread = threading.Thread(target=self._work, name="odds", daemon=True)
        self._thread.start()

    def _request(self, table: Table) -> None:
        game = table.game
        if game is None or table.phase in ("payouts", "game-over", "new-game"):
            with self._cv:
                self._want, self._key = None, None
            return
        race = game.race if table.phase == "racing" else None
        # race 1 starts from the face-up cards scanned in setup; the race itself tells the estimator every
        # card revealed so far. Before races 2-3 cards were dealt out and added face down: unknown deck.
        known = list(game.face_up) if game.race_no == 1 else []
        key = f"{game.players}|{game.race_no}|{','.join(sorted(known))}|{race.position() if race else 'start'}"
        with self._cv:
            self._key = key
            if key not in self._cache:
                self._want = (key, known, game.players, race.copy() if race is not None else None)
                self._cv.notify()

    def events(self, events: list[Event], table: Table, now: float) -> None:
        self._request(table)

    def reset(self, table: Table, now: float) -> None:
        self._request(table)

    def current(self) -> dict[str, tuple[float, ...]] | None:
        with self._cv:
            odds = self._cache.get(self._key) if self._key else None
        if odds is None:
            return None
        return {m.value: tuple(p) for m, p in odds.places.items()}

    def _work(self) -> None:
        while True:
            with self._cv:
                while self._want is None and not self._stop:
                    self._cv.wait()
                if self._stop:
                    return
                key, known, players, race = self._want
                self._want = None
            try:
                odds = self.estimate(known, players, race, samples=self.samples, seed=hash(key) & 0xFFFF)
            except Exception as exc:  # noqa: BLE001 - odds are a nicety; the race goes on without them
                if not self._failed:
                    log.warning("odds not available (%s); the race goes on without them", exc)
                    self._failed = True
                continue
            with self._cv:
                self._cache[key] = odds
                if len(self._cache) > 500:
                    self._cache.pop(next(iter(self._cache)))

    def close(self) -> None:
        with self._cv:
            self._stop = True
            self._cv.notify()
        self._thread.join(timeout=2.0)
