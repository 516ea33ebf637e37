"""The screen's sink: draws the table on the display once per frame, with the LED preview on a desktop, and
takes the desktop window's keys for the name entry (``window_keys``)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from companion.call import racecall, words
from companion.kiosk.controller import BaseSink
from companion.rules.events import Event
from companion.rules.table import Table
from companion.screen.keys import NameEntry
from companion.screen.words import say


class ScreenSink(BaseSink):
    """Draws the table on the display (``hardware.display``) once per render, with the running race call,
    refusal messages for a few seconds, odds from ``odds()`` and device status from ``status()``.

    ``names`` are the config's default player names by seat; ``language`` (en, nl, es) the screen's words.
    ``submit(text)`` takes an input typed in the window (``HS-NAME-<seat>:<name>``).
    """

    def __init__(self, display: Any, *, odds: Callable[[], Any] = lambda: None,
                 status: Callable[[], tuple[str, ...]] = tuple, frame_interval: float = 1 / 30, keep_log: int = 60,
                 leds: Any = None, lane_map: Any = None, names: Sequence[str] = (),
                 submit: Callable[[str], Any] | None = None, language: str = "en", form: Callable[[], str | None] = lambda: None):
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
        self.names = tuple(names)
        self.submit = submit
        self.language = language
        self.entry = NameEntry()
        self._odds: Any = None   # the last odds known in this phase, shown while the next ones are computed
        self._seats = 0
        self.join_url: str | None = None  # the phone page's address (companion.web), shown as a QR code
        self._next = 0.0

    def events(self, events: list[Event], table: Table, now: float) -> None:
        from companion.rules.game_events import PhaseChanged, Settled
        for e in events:
            if isinstance(e, Settled):
                self.money_before[e.seat] = e.before
            elif isinstance(e, PhaseChanged):
                self._odds = None
                if e.phase.value == "racing":
                    self.log.clear()
                    self.money_before.clear()
        names = self._seat_names(table)
        self.log.extend(racecall.call(events, names) if self.language == "en"
                        else words.lines(events, self.language, names))
        del self.log[:-self.keep_log]
        self._next = 0.0  # draw the change at once

    def _seat_names(self, table: Table) -> words.Names:
        """0-based seat -> the name the screen shows (typed, else the config's, else "Seat N" in its language)."""
        from companion.screen.table_view import seat_name
        return lambda seat: seat_name(seat, table, self.names, self.language)

    def refused(self, text: str, message: str, table: Table, now: float) -> None:
        if self.language != "en":  # the reason in the table's language, then the engine's whole sentence
            message = f"{words.refusal(message, self.language)} ({message})"
        self.message, self.message_at = message, now
        self._next = 0.0

    def notice(self, message: str, table: Table, now: float) -> None:
        """A one-off line from the kiosk (a journal moved aside, saving again): shown like a refusal."""
        self.message, self.message_at = message, now
        self._next = 0.0

    def reset(self, table: Table, now: float) -> None:
        self.log.append(say(self.language, "undo"))
        self._next = 0.0

    def key(self, key: str, text: str | None = None) -> bool:
        """One key press in the window (pygame's key name; ``text`` the character typed, else taken from the
        name): the name entry takes it first (``n`` opens it); returns True when it did. A finished name is
        submitted as ``HS-NAME-<seat>:<name>``."""
        if text is None:
            text = " " if key == "space" else key if len(key) == 1 else ""
        consumed, submit = self.entry.key(key, text, seats=self._seats)
        if submit is not None and self.submit is not None:
            self.submit(submit)
        if consumed:
            self._next = 0.0
        return consumed

    def window_keys(self, buttons: Callable[[str], Any] | None) -> Callable[[str], None]:
        """A key handler for the desktop window (``hardware.display`` ``on_key``): the name entry first, then
        ``buttons`` (u undo, g or space GO) for the keys it did not take."""
        def on_key(name: str) -> None:
            if not self.key(name) and buttons is not None:
                buttons(name)
        return on_key

    def render(self, table: Table, now: float) -> None:
        self._seats = table.game.players if table.game is not None else 0
        if now < self._next:
            return
        self._next = now + self.frame_interval
        from companion.screen.model import from_table
        odds = self.odds()
        if odds is not None or table.phase not in ("racing", "setup", "betting"):
            self._odds = odds
        model = from_table(table, log=tuple(self.log), message=self.message, message_at=self.message_at,
                           odds=self._odds, status=self.status(), money_before=self.money_before,
                           names=self.names, name_entry=self.entry.view(), language=self.language,
                           form=self.form())
        if self.join_url:
            from companion.screen.model import replace
            model = replace(model, join_url=self.join_url)
        if self.leds is not None:  # the LED preview goes under the overlays (a refusal stays on top)
            self.display.draw(model, now, self._preview_leds)
        else:
            self.display.draw(model, now)
        self.display.present()

    def _preview_leds(self, surface: Any, model: Any) -> None:
        """Draw the LED strip's last frame as a thin band along the bottom of each lane's spaces."""
        if model.screen != "race":
            return
        import pygame

        from companion.screen.layout import layout_for, space_rect
        layout = layout_for(surface.get_size(), model.track)
        frame = self.leds.last
        if not frame:
            return
        for lane in range(1, layout.lanes + 1):
            for space in range(1, layout.spaces + 1):
                x, y, w, h = space_rect(lane, space, layout)
                pixels = self.lane_map.pixels_for(lane, space)
                band = max(3, h // 12)
                for k, p in enumerate(pixels):
                    colour = frame[p] if p < len(frame) else (0, 0, 0)
                    px = x + k * w // len(pixels)
                    pygame.draw.rect(surface, colour, (px + 1, y + h - band - 1, w // len(pixels) - 2, band))

    def close(self) -> None:
        self.display.close()
