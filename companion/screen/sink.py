"""The screen's sink: draws the table on the display when something changed (at most once per frame), with the
LED preview on a desktop, and takes the desktop window's keys for the name entry (``window_keys``)."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Sequence

from companion.call import screencall, words
from companion.rules.errors import RefusedError
from companion.rules.events import Event, Revealed
from companion.rules.game_events import PhaseChanged, Settled
from companion.rules.phases import Phase
from companion.screen.keys import NameEntry
from companion.screen.moments import MomentClock
from companion.screen.motion import in_motion
from companion.screen.pages import next_page_at
from companion.screen.words import say
from companion.view.sink import NullSink
from companion.view.table_view import STALE_ODDS, TableView  # noqa: F401 - STALE_ODDS: where it was

ANIMATED = ("attract",)
"""The screens that move on their own (drawn every frame)."""


class ScreenSink(NullSink):
    """Draws the table's view on the display (``hardware.display``), with the running race call (the view's
    ``lines``), refusal messages for a few seconds, the view's odds (dimmed while newer ones are computed), the
    phone page's QR code and device status from ``status()``.

    A frame is drawn only when something changed: a new view (an input, new odds, a new address), an event,
    refusal, notice, reset or key, other device status, a new LED preview frame, a message's time running
    out, or an animated screen (the attract screen); at most one every ``frame_interval`` seconds. Otherwise
    ``render`` only hands the window's keys on (``display.poll()``). ``frames`` counts the frames drawn.

    ``language`` (en, nl, es) is the screen's words. ``submit(text)`` takes an input typed in the window
    (``HS-NAME-<seat>:<name>``); ``keyboard`` says that a keyboard types into the window (a desktop window), so
    the screen shows how to name a seat.

    The big moments of each accepted input (``companion.screen.moments``) show from the time of the input, one
    after the other; the next input ends them. After the card that ends a race the race screen stays up while
    that card's moments show (the final crossing, the winner, the side bet's answer), then the payouts screen
    follows; an input before then shows its own screen at once. A frame is drawn each time the moment shown
    changes.

    A card's moves play from the time of the card (``move_at``, ``companion.screen.motion``): frames are drawn
    while they play, then the screen is still again. An undo or a restart shows the race at rest.
    """

    def __init__(self, display: Any, *, status: Callable[[], tuple[str, ...]] = tuple,
                 frame_interval: float = 1 / 30, keep_log: int = 60, leds: Any = None, lane_map: Any = None,
                 submit: Callable[[str], Any] | None = None, language: str = "en", keyboard: bool = False):
        self.display = display
        self.leds = leds          # a MockStrip to preview along the lanes (desktop demo), or None
        self.lane_map = lane_map
        self.status = status
        self.frame_interval = frame_interval
        self.log: list[str] = []
        self.keep_log = keep_log
        self.message: str | None = None
        self.message_at = 0.0
        self.message_kind = "refusal"   # or "notice": the message's title
        self.money_before: dict[int, int] = {}
        self.submit = submit
        self.language = language
        self.keyboard = keyboard
        self.entry = NameEntry()
        self.frames = 0
        self._seats = 0
        self._next = 0.0
        self._dirty = True
        self._drawn: tuple[Any, ...] | None = None   # what the last frame was drawn from
        self._animated = False                         # the last frame's screen moves on its own
        self._until: float | None = None               # when the message or the moment on screen runs out
        self.moments = MomentClock()                    # the big moments of the last input, the race-end hold
        self._started = False                          # a frame was drawn (a reset before it is a start)
        self.move_at: float | None = None              # when the last card's moves started (None: at rest)

    def events(self, events: Sequence[Event], view: TableView, now: float) -> None:
        for e in events:
            if isinstance(e, Settled):
                self.money_before[e.seat] = e.before
            elif isinstance(e, PhaseChanged) and e.phase is Phase.RACING:
                self.log.clear()
                self.money_before.clear()
        self.log.extend(view.lines)
        del self.log[:-self.keep_log]
        self.moments.start(events, now)
        if any(isinstance(e, Revealed) for e in events):
            self.move_at = now
        self._next, self._dirty = 0.0, True  # draw the change at once

    def refused(self, error: RefusedError, view: TableView, now: float) -> None:
        """A refusal on top of the screen: its reason as a short sentence in the table's language
        (:func:`companion.call.words.refusal_line`); the engine's detail is for the log (the console sink prints
        it), never the table's screen."""
        self.message, self.message_at = words.refusal_line(error, self.language), now
        self.message_kind = "refusal"
        self._next, self._dirty = 0.0, True

    def notice(self, message: str, view: TableView, now: float) -> None:
        """A one-off line from the kiosk (a journal moved aside, saving again), shown on top like a refusal: a
        :class:`companion.kiosk.notices.Notice` in the screen's words for it, plain text as it is."""
        key = getattr(message, "key", None)
        self.message = say(self.language, f"notice_{key}") if key else message
        self.message_at, self.message_kind = now, "notice"
        self._next, self._dirty = 0.0, True

    def reset(self, view: TableView, now: float) -> None:
        """The table was read again (a start from the journal, an undo, a journal opened again): the big moments
        end; the race call is rebuilt from the race as it stands (an undo adds its own line through its event);
        at a start with a game in the journal, "Game restored" follows."""
        self.moments.clear()
        self.move_at = None
        race = view.race
        self.log = screencall.race_lines(race, self.language, view.seat_name) if race is not None else []
        if not self._started and view.journaled:
            self.log.append(screencall.restored(self.language))
        del self.log[:-self.keep_log]
        self._next, self._dirty = 0.0, True

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
            self._next, self._dirty = 0.0, True
        return consumed

    def window_keys(self, buttons: Callable[[str], Any] | None) -> Callable[[str], bool]:
        """A key handler for the desktop window (``hardware.display`` ``on_key``): the name entry first, then
        ``buttons`` (u undo, g or space GO) for the keys it did not take. True when one of them took the key
        (so Esc while a name is typed cancels the name; a second Esc closes the window)."""
        def on_key(name: str) -> bool:
            if self.key(name):
                return True
            return bool(buttons(name)) if buttons is not None else False
        return on_key

    def render(self, view: TableView, now: float) -> None:
        self._seats = view.players
        if now < self._next:
            return
        status = self.status()
        leds = tuple(self.leds.last or ()) if self.leds is not None else None
        drawn = (view, status, leds)
        expired = self._until is not None and now >= self._until
        if not (self._dirty or self._animated or expired or self._changed(drawn)):
            self._poll()
            return
        self._next = now + self.frame_interval
        self._dirty = False
        self._started = True
        self._drawn = drawn
        from companion.screen.table_model import from_view
        model = from_view(view, log=tuple(self.log), message=self.message, message_at=self.message_at,
                          odds=view.odds_shown, odds_stale=view.odds_stale, odds_card=view.odds_card, status=status,
                          money_before=self.money_before, name_entry=self.entry.view(), language=self.language,
                          form=view.form, join_url=view.join_url, moments=self.moments.moments,
                          moment_at=self.moments.at, race_end=self.moments.race_end(now))
        if self.keyboard or self.message_kind != "refusal":
            model = dataclasses.replace(model, keyboard=self.keyboard, message_kind=self.message_kind)
        if self.move_at is not None:
            model = dataclasses.replace(model, move_at=self.move_at)
        self._animated = model.screen in ANIMATED or in_motion(model, now)
        until = self.message_at + self._message_seconds() if self.message else None
        paged = (model.screen == "game-over" or model.screen == "race" and len(model.seats) > 4
                 or model.screen == "betting" and len(model.open_bets) > 4)   # the open variant's bets
        page = next_page_at(now) if paged else None   # the panel's standings, money or bets: the next page
        times = [t for t in (until, self.moments.next_change(now), page) if t is not None and now < t]
        self._until = min(times) if times else None
        if self.leds is not None:  # the LED preview goes under the overlays (a refusal stays on top)
            self.display.draw(model, now, self._preview_leds)
        else:
            self.display.draw(model, now)
        self.display.present()
        self.frames += 1

    def _changed(self, drawn: tuple[Any, ...]) -> bool:
        """True when the view, the device status or the LED preview differ from the last frame's."""
        last = self._drawn
        return last is None or drawn[0] is not last[0] or drawn[1:] != last[1:]

    def _message_seconds(self) -> float:
        from companion.screen.draw import MESSAGE_SECONDS
        painter = getattr(self.display, "painter", None)
        return float(getattr(painter, "message_seconds", MESSAGE_SECONDS))

    def _poll(self) -> None:
        poll = getattr(self.display, "poll", None)
        if poll is not None:
            poll()

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
