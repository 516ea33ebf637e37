"""The LED strip's sink: a frame of lane lights per render, light effects triggered by events."""

from __future__ import annotations

from typing import Any, Sequence

from companion.lights.render import Effects, render_lanes
from companion.rules.events import Event
from companion.rules.game_events import PhaseChanged
from companion.view.sink import NullSink
from companion.view.table_view import TableView


class LightsSink(NullSink):
    """Shows the race on the LED strip: a frame per render, effects triggered by events.

    Between races (no race yet, or betting for the next) the strip shows the start positions of a fresh
    race on the whole, unfolded track (the view's ``shown`` race).
    """

    def __init__(self, strip: Any, lane_map: Any, colours: dict[Any, Any], track: Any):
        self.strip = strip
        self.lane_map = lane_map
        self.colours = colours
        self.track = track
        self.effects = Effects()
        self._last: list[Any] | None = None

    def events(self, events: Sequence[Event], view: TableView, now: float) -> None:
        if any(isinstance(e, PhaseChanged) for e in events):
            self.effects.clear()  # a new phase (e.g. the next race) starts with a clean strip
        self.effects.trigger(list(events), now)

    def reset(self, view: TableView, now: float) -> None:
        self.effects.clear()
        self._last = None  # drawn again in full (the service mode may have drawn on the strip meanwhile)

    def render(self, view: TableView, now: float) -> None:
        frame = render_lanes(view.shown.state, self.track, self.lane_map, self.colours, now=now,
                             effects=self.effects, count=self.strip.count)
        if frame != self._last:
            self.strip.show(frame)
            self._last = frame

    def close(self) -> None:
        self.strip.close()
