"""What comes into the controller's view between inputs: new odds from the odds worker and the phone page's
address (a part of :class:`companion.kiosk.controller.Controller`, kept here to keep that module small)."""

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
            self.view = dataclasses.replace(self.view, join_url=url)
