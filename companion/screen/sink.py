"""The screen's sink: draws the table on the display once per frame, with the LED preview on a desktop."""

from __future__ import annotations

from typing import Any, Callable

from companion.call import racecall
from companion.kiosk.controller import BaseSink
from companion.rules.events import Event
from companion.rules.table import Table


class ScreenSink(BaseSink):
    """Draws the table on the display (``hardware.display``) once per render, with the running race call,
    refusal messages for a few seconds, odds from ``odds()`` and device status from ``status()``."""

    def __init__(self, display: Any, *, odds: Callable[[], Any] = lambda: None,
                 status: Callable[[], tuple[str, ...]] = tuple, frame_interval: float = 1 / 30, keep_log: int = 60,
                 leds: Any = None, lane_map: Any = None, form: Callable[[], str | None] = lambda: None):
        self.display = display
        self.leds = leds          # a MockStrip to preview along the lanes (desktop demo), or None
        self.lane_map = lane_map
        self.odds = odds
        self.status = status
        self.form = form  # a line of mascot form for the attract and setup screens
        self.frame_interval = frame_interval
        self.log: list[str] = []
        self.keep_log = keep_log
        self.message: str | None = None
        self.message_at = 0.0
        self.money_before: dict[int, int] = {}
        self.join_url: str | None = None  # the phone page's address (companion.web), shown as a QR code
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

    def notice(self, message: str, table: Table, now: float) -> None:
        """A one-off line from the kiosk (a journal moved aside, saving again): shown like a refusal."""
        self.refused("", message, table, now)

    def reset(self, table: Table, now: float) -> None:
        self.log.append("Undo")
        self._next = 0.0

    def render(self, table: Table, now: float) -> None:
        if now < self._next:
            return
        self._next = now + self.frame_interval
        from companion.screen.model import from_table
        model = from_table(table, log=tuple(self.log), message=self.message, message_at=self.message_at,
                           odds=self.odds(), status=self.status(), money_before=self.money_before,
                           form=self.form())
        if self.join_url:
            from companion.screen.model import replace
            model = replace(model, join_url=self.join_url)
        self.display.draw(model, now)
        if self.leds is not None and model.screen == "race":
            self._preview_leds(model)
        self.display.present()

    def _preview_leds(self, model: Any) -> None:
        """Draw the LED strip's last frame as a thin band along the bottom of each lane's spaces."""
        import pygame

        from companion.screen.draw import layout_for, space_rect
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
