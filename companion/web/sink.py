"""The phone page's sink: on the kiosk thread, turns each new TableView into the page's view for the web thread.

Every method returns at once: it builds the page's view (a plain dict, ``companion.web.view``) and hands it over
with ``post`` (``loop.call_soon_threadsafe`` of the web server's loop), which only appends to that loop's
queue. The kiosk loop and its watchdog never wait for a phone. A phone's input is answered by its request id
(``view.input.request``, the id ``Controller.submit`` gave it).
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Sequence

from companion.call.words import refusal_line
from companion.rules.errors import RefusalMessage, RefusedError
from companion.rules.events import Event
from companion.rules.game_events import PhaseChanged
from companion.rules.phases import Phase
from companion.rules.table import NewGame, PlayersSet
from companion.view.sink import NullSink
from companion.view.table_view import TableView
from companion.web.seating import Seating
from companion.web.seats import codes_of, join_code, journal_key
from companion.web.view import table_view

log = logging.getLogger(__name__)
KEEP_CALL = 40  # race call lines kept for the page


class WebSink(NullSink):
    """Publishes the table to the web thread. ``post(fn, *args)`` runs ``fn`` on the web loop (never blocks);
    ``hub`` is the :class:`companion.web.hub.Hub` there; ``language`` the kiosk's (en, nl, es), sent to the
    page; ``on_close`` stops the server. The claims come from the view's journaled inputs, folded in one at a
    time (:class:`companion.web.seating.Seating`: never re-read whole), the race call from
    the view's ``announced`` lines, the odds from the view (its ``odds_shown``, tagged with ``odds_card`` and
    ``odds_stale``), the page's address from the view's ``join_url``. ``secret`` (the page's token secret) makes
    the consent codes of the seats the table plays (:meth:`codes`) and the table's join code (:meth:`join`);
    neither without it."""

    def __init__(self, post: Callable[..., Any], hub: Any, *, language: str = "en",
                 on_close: Callable[[], Any] | None = None, secret: bytes | None = None):
        self.post = post
        self.hub = hub
        self.secret = secret
        self.language = language
        self.on_close = on_close
        self.call: list[str] = []
        self.claims: dict[int, int] = {}
        self.seating = Seating()
        self._rebuilt_for: object = None  # the journaled entries the seating was last read whole from
        self.phone_notice: str | None = None  # the line every phone shows (not the Sink method `notice`)
        self._view: TableView | None = None
        self._failed = False

    def events(self, events: Sequence[Event], view: TableView, now: float) -> None:
        if any(isinstance(e, PhaseChanged) and e.phase is Phase.RACING or isinstance(e, (NewGame, PlayersSet))
               for e in events):
            self.call.clear()
        self._load_claims(view)
        self.call.extend(view.announced)
        del self.call[:-KEEP_CALL]
        self.phone_notice = None
        self._publish(view)
        self._answer(view, True, "")

    def refused(self, error: RefusedError, view: TableView, now: float) -> None:
        self.phone_notice = refusal_line(error, self.language)  # to every phone: a short line in the table's language
        self._publish(view)
        self._answer(view, False, RefusalMessage(error))  # the asking phone: the reason code and its fields too

    def reset(self, view: TableView, now: float) -> None:
        self._load_claims(view, rebuild=True)  # an undo, a restart: read the game's entries again, once
        self.phone_notice = None
        self._publish(view)

    def render(self, view: TableView, now: float) -> None:
        if view is not self._view:  # the first frame, new odds, a new address
            self._publish(view)

    def _answer(self, view: TableView, accepted: bool, message: str) -> None:
        """Answer the phone that sent this input, if one did (it waits on the request id)."""
        if view.input is not None and view.input.request is not None:
            self._send(self.hub.outcome, view.input.request, accepted, message)

    def _load_claims(self, view: TableView, rebuild: bool = False) -> None:
        """Fold the view's new journal entries into :attr:`seating`; with ``rebuild`` read them all again, unless
        the seating was just read whole from these very entries (the controller asks for codes first)."""
        journaled = view.journaled
        try:
            if rebuild and self._rebuilt_for is not journaled:
                self.seating = Seating.of(journaled)
                self._rebuilt_for = journaled
            elif self.seating.sync(journaled):
                self._rebuilt_for = journaled
        except Exception as exc:  # noqa: BLE001 - a bad entry: read them all again next time
            log.warning("seat claims not read from the journal entries (%s)", exc)
            self.seating, self._rebuilt_for = Seating(), None
        self.claims = dict(self.seating.claims)

    def codes(self, view: TableView) -> dict[int, str]:
        """``{seat: 6-digit consent code}`` of the seats a phone claims only with the table's consent (named at
        the kiosk or played from the bet sheet, held by no phone); the screen shows them beside the seats."""
        if self.secret is None:
            return {}
        self._load_claims(view)
        return codes_of(journal_key(self.secret, view.journal_identity), self.seating)

    def join(self, view: TableView) -> str | None:
        """The table's join code (:func:`companion.web.seats.join_code`) for the game of ``view``; the screen
        shows it, the page never serves it. None without a secret."""
        if self.secret is None:
            return None
        self._load_claims(view)
        return join_code(journal_key(self.secret, view.journal_identity), self.seating.start)

    def _publish(self, view: TableView) -> None:
        self._view = view
        codes = self.codes(view)
        join = self.join(view)
        page = table_view(view, odds=view.odds_shown, call=tuple(self.call), claims=self.claims,
                          notice=self.phone_notice, odds_card=view.odds_card, odds_stale=view.odds_stale)
        for seat in page["seats"]:
            seat["locked"] = seat["seat"] in codes  # claimed with the code shown on the screen
            seat["taken_back"] = seat["seat"] in self.seating.taken_back  # the Dealer named or freed it
        page["lang"] = self.language
        page["address"] = view.join_url.split("?", 1)[0] if view.join_url else None  # never the join code
        self._send(self.hub.publish, page, dict(self.claims), codes, view.journal_identity, join)

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
