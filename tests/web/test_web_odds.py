"""The phone page's odds never contradict the race: after a finish, stale odds in ``/api/view`` and in a ``/ws``
frame show the winner first for certain and nobody else any chance of 1st, before new odds arrive."""

from __future__ import annotations

import json
import urllib.request

import pytest

from companion.view.sink import NullSink
from companion.view.table_view import OddsView, odds_situation
from webtable import LiveTable


TO_RACE = ("HS-NEW", "HS-PLAYERS-2", "HS-GO", "HS-GO", "HS-GO")  # untracked deck, no bets: race 1 begins
MUM_WINS = ("HS38", "HS39", "HS37", "HS35", "HS34")             # Mum alone in lane 4 crosses on the 5th card
STALE = {"gobbler": (0.22, 0.30, 0.30, 0.18), "hurley": (0.20, 0.30, 0.30, 0.20),
         "dangle": (0.08, 0.20, 0.30, 0.42), "mum": (0.50, 0.20, 0.10, 0.20)}


class OddsOnce(NullSink):
    """Odds for the race after its 2nd card only, then none: from then on they are stale."""

    ready = None

    def events(self, events, view, now):
        situation = odds_situation(view)
        if situation is not None and situation.card == 2 and self.ready is not None:
            self.ready(OddsView(STALE, situation.key, situation.cards, card=2))


def agrees(page: dict) -> None:
    assert page["odds_stale"] is True and page["odds_card"] == 2
    odds = page["odds"]
    assert odds["mum"] == [1.0, 0.0, 0.0, 0.0]
    for name in ("gobbler", "hurley", "dangle"):
        assert odds[name][0] == 0.0 and sum(odds[name]) == pytest.approx(1.0)
    assert sum(odds[m][1] for m in ("gobbler", "hurley", "dangle")) == pytest.approx(1.0)


def test_stale_odds_on_the_phone_agree_with_a_finish_in_the_view_and_the_websocket():
    from websockets.sync.client import connect
    once = OddsOnce()
    with LiveTable(extra_sinks=(once,)) as table:
        once.ready = table.controller.odds_ready
        table.scan(*TO_RACE, *MUM_WINS[:2])
        table.wait_idle()
        with urllib.request.urlopen(table.url + "api/view", timeout=10) as r:
            before = json.load(r)
        assert before["odds_card"] == 2 and before["odds"]["gobbler"] == [0.22, 0.3, 0.3, 0.18]
        uri = table.url.replace("http://", "ws://") + "ws"
        with connect(uri, origin=table.url.rstrip("/"), open_timeout=5) as ws:
            frame = json.loads(ws.recv(timeout=5))
            table.scan(*MUM_WINS[2:])
            while frame["revealed"] < len(MUM_WINS):
                frame = json.loads(ws.recv(timeout=5))
        agrees(frame)
        table.wait_idle()
        with urllib.request.urlopen(table.url + "api/view", timeout=10) as r:
            agrees(json.load(r))
