"""What comes into the controller's view between inputs: new odds from the odds worker and the phone page's
address with its join code (a part of :class:`companion.kiosk.controller.Controller`, kept here to keep that module small)."""

from __future__ import annotations

import dataclasses
import logging
import queue
from typing import Callable

from companion.view.table_view import ODDS_OFF, OddsView, TableView

log = logging.getLogger("companion.kiosk.controller")
ADDRESS_SECONDS = 10.0  # how often the phone page's address is looked at again (the Wi-Fi may come up late)


class ViewFeeds:
    """Takes the newest odds (``_odds_in``, filled by ``Controller.odds_ready``) and the phone page's address
    (``join_url_source()``, every ADDRESS_SECONDS) into ``view``."""

    view: TableView
    _odds: OddsView | None
    _odds_in: queue.SimpleQueue[OddsView]
    join_url_source: Callable[[], str | None] | None
    join_url: str | None
    join_code: Callable[[TableView], str | None] | None
    _address_at: float

    def _take_odds(self) -> None:
        newest = None
        while True:
            try:
                newest = self._odds_in.get_nowait()
            except queue.Empty:
                break
        if newest is not None:
            self._odds = newest
            self.view = self.view.with_odds(None if self.view.phase in ODDS_OFF else newest)

    def _look_up_address(self, now: float) -> None:
        if self.join_url_source is None or now < self._address_at:
            return
        self._address_at = now + ADDRESS_SECONDS
        try:
            url = self.join_url_source()
        except Exception:  # noqa: BLE001 - no address: the page is still served, the QR code waits
            log.exception("the phone page's address could not be read")
            return
        if url != self.join_url:
            self.join_url = url
            self.view = self._joined(dataclasses.replace(self.view, join_url=url))

    def _joined(self, view: TableView) -> TableView:
        """``view`` with the join code in its page address (``http://HOST:PORT/?join=CODE``, the QR code's)."""
        if self.join_code is None or not view.join_url:
            return view
        try:
            code = self.join_code(view)
        except Exception as exc:  # noqa: BLE001 - the address without the code rather than no table
            log.warning("join code not made (%s)", exc)
            return view
        return dataclasses.replace(view, join_url=f"{view.join_url.split('?', 1)[0]}?join={code}") if code else view
