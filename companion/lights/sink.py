"""The LED strip's sink: a frame of lane lights per render, light effects triggered by events."""

from __future__ import annotations

from typing import Any

from companion.kiosk.controller import BaseSink
from companion.lights.render import Effects, render_lanes
from companion.rules import Race
from companion.rules.events import Event
from companion.rules.table import Table, shown_race


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
