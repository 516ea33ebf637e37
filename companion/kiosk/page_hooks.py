"""The phone page's hook into the controller's view: the consent codes the screen shows beside the seats
(the web sink's ``codes``, set by the wiring as ``controller.seat_codes``). The join code in the page's
address is taken in with the address itself (``companion.kiosk.feeds``)."""

from __future__ import annotations

import dataclasses
import logging
from typing import Callable, Mapping

from companion.view.table_view import TableView

log = logging.getLogger("companion.kiosk.controller")


class PageHooks:
    """``seat_codes(view)``: 1-based seat -> the phone's consent code, or None when no page is served."""

    seat_codes: Callable[[TableView], Mapping[int, str]] | None

    def _coded(self, view: TableView) -> TableView:
        """``view`` with its ``seat_codes``; without them when the page cannot make them (logged)."""
        if self.seat_codes is None:
            return view
        try:
            return dataclasses.replace(view, seat_codes=dict(self.seat_codes(view)))
        except Exception as exc:  # noqa: BLE001 - no codes shown rather than no table
            log.warning("seat consent codes not made (%s)", exc)
            return view
