"""The phone page's sink: on the kiosk thread, turns each change of the table into a view for the web thread.

Every method returns at once: it builds the view (a plain dict, ``companion.web.view``) and hands it over with
``post`` (``loop.call_soon_threadsafe`` of the web server's loop), which only appends to that loop's queue.
The kiosk loop and its watchdog never wait for a phone.
"""

from __future__ import annotations

import logging
import random
from typing import Any, Callable

from companion.kiosk.controller import BaseSink, Undone
from companion.rules.events import Event
from companion.rules.table import NewGame, PlayersSet, SeatNamed, Table
from companion.web.seats import claims_from_entries
from companion.web.view import table_view

log = logging.getLogger(__name__)
KEEP_CALL = 40  # race call lines kept for the page
REFRESH_SECONDS = 10.0  # how often the LAN address is looked at again


class WebSink(BaseSink):
    """Publishes the table to the web thread. ``post(fn, *args)`` runs ``fn`` on the web loop (never blocks);
    ``hub`` is the :class:`companion.web.hub.Hub` there; ``entries()`` the journal entries of the current
    game that count (``Controller.entries``; the last one is the input just accepted), which give the claims;
    ``odds()`` the live odds or None; ``language`` the kiosk's (en, nl, es) for the race call text;
    ``on_close`` stops the server; ``refresh()`` gives the page address again (it may change); ``names`` the config's
    default player names by seat."""

    def __init__(self, post: Callable[..., Any], hub: Any, *, entries: Callable[[], list[Any]],
                 odds: Callable[[], Any] = lambda: None, language: str = "en", address: str | None = None,
                 on_close: Callable[[], Any] | None = None, refresh: Callable[[], str] | None = None,
                 names: tuple[str, ...] = ()):
        from companion.call.announcer import Announcer
        self.post = post
        self.hub = hub
        self.entries = entries
        self.odds = odds
        self.language = language
        self.address = address
        self.url = address
        self.on_close = on_close
        self.refresh = refresh
        self.names = tuple(names)
        self.screens: list[Any] = []
        self._next_refresh = 0.0
        self.announcer = Announcer(language, random.Random(0))
        self.call: list[str] = []
        self.claims: dict[int, int] = {}
        self.notice: str | None = None
        self._odds_shown: Any = None
        self._table: Table | None = None
        self._failed = False

    def events(self, events: list[Event], table: Table, now: float) -> None:
        from companion.rules.game_events import PhaseChanged
        if any(isinstance(e, PhaseChanged) and e.phase.value == "racing" or isinstance(e, (NewGame, PlayersSet))
               for e in events):
            self.call.clear()
        if any(isinstance(e, (SeatNamed, NewGame, PlayersSet)) for e in events):
            self._load_claims()
        self.call.extend(line for line in self.announcer.lines(events, table.seat_name) if line)
        del self.call[:-KEEP_CALL]
        self.notice = None
        self._publish(table)
        done = self.entries()
        if done and not any(isinstance(e, Undone) for e in events):  # answer the phone that sent it, if any
            self._send(self.hub.outcome, done[-1].text, True, "")

    def refused(self, text: str, message: str, table: Table, now: float) -> None:
        self.notice = message
        self._publish(table)
        self._send(self.hub.outcome, text, False, message)

    def reset(self, table: Table, now: float) -> None:
        self._load_claims()
        self.notice = None
        self._publish(table)

    def show_on(self, screens: list[Any]) -> None:
        """Show the page address as a QR code on these screen sinks (``join_url``), following its changes."""
        self.screens = list(screens)
        for screen in self.screens:
            screen.join_url = self.url

    def render(self, table: Table, now: float) -> None:
        if self.refresh is not None and now >= self._next_refresh:  # the Wi-Fi may come up after the kiosk
            self._next_refresh = now + REFRESH_SECONDS
            url = self.refresh()
            if url != self.url:
                self.url = self.address = url
                self.show_on(self.screens)
                self._table = None
        odds = self.odds()
        if table is not self._table or odds != self._odds_shown:  # first frame, a rebuilt table, new odds
            self._publish(table)

    def _load_claims(self) -> None:
        try:
            self.claims = claims_from_entries(self.entries())
        except Exception as exc:  # noqa: BLE001 - a bad entry leaves the claims as they were
            log.warning("seat claims not read from the journal entries (%s)", exc)

    def _publish(self, table: Table) -> None:
        self._table = table
        self._odds_shown = odds = self.odds()
        view = table_view(table, odds=odds, call=tuple(self.call), claims=self.claims, notice=self.notice,
                          names=self.names)
        view["lang"] = self.language
        view["address"] = self.address
        self._send(self.hub.publish, view, dict(self.claims))

    def _send(self, fn: Callable[..., Any], *args: Any) -> None:
        try:
            self.post(fn, *args)
        except RuntimeError as exc:  # the web loop is gone: the table goes on without the page
            if not self._failed:
                log.warning("phone page stopped (%s); the table goes on without it", exc)
                self._failed = True

    def close(self) -> None:
        if self.on_close is not None:
            self.on_close()
