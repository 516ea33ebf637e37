"""Odds the table can place: each estimate says which card it was made for; a quick one comes first, the
full one after; a newer card supersedes older work; the view and the phone page say when odds are stale."""

import threading

import pytest

from companion.kiosk.controller import Controller
from companion.kiosk.journal import Journal
from companion.odds.estimate import Cancelled, Odds, estimate
from companion.odds.sink import CHUNKS, QUICK, SAMPLES, OddsSink
from companion.rules import MASCOTS


START = ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO")


def canned(samples: int) -> Odds:
    """Odds an estimator could give, without the work: every mascot equally likely in every place, from
    ``samples`` races. These tests are of when odds are asked for and which card they are shown for; the
    estimator's numbers are tested in test_odds.py."""
    even = (0.25, 0.25, 0.25, 0.25)
    return Odds(samples, dict.fromkeys(MASCOTS, even), dict.fromkeys(MASCOTS, 0.0),
                dict.fromkeys(MASCOTS, (0.0,) * 5), False, dict.fromkeys(MASCOTS, even))


class Recorder:
    """An estimator giving :func:`canned` odds of a hundredth of the samples asked for, recording ``(samples,
    chunks, race cards)`` of each call."""

    def __init__(self):
        self.calls = []

    def __call__(self, known, players, race, *, samples, seed, chunks, cancel):
        self.calls.append((samples, chunks, len(race.cards) if race is not None else 0))
        return canned(max(chunks, samples // 100))


def kiosk(sink):
    controller = Controller(Journal(":memory:"), sinks=[sink])
    given = []
    sink.on_odds = lambda odds: (given.append(odds), controller.odds_ready(odds))
    return controller, given


def test_each_card_gets_a_quick_estimate_then_the_full_one_tagged_with_the_cards_revealed():
    rec = Recorder()
    sink = OddsSink(estimate=rec, background=False)
    controller, given = kiosk(sink)
    try:
        for text in (*START, "HS15", "HS03"):
            assert controller.handle(text).accepted
        assert rec.calls[-4:] == [(QUICK, 1, 1), (SAMPLES, CHUNKS, 1), (QUICK, 1, 2), (SAMPLES, CHUNKS, 2)]
        assert [(o.card, o.samples) for o in given[-4:]] == [
            (1, QUICK // 100), (1, SAMPLES // 100), (2, QUICK // 100), (2, SAMPLES // 100)]
        controller.step()
        assert controller.view.odds_card == 2 and not controller.view.odds_stale
        assert controller.view.odds_shown == controller.view.odds_current == given[-1].places
    finally:
        sink.close()


def test_a_situation_seen_before_is_shown_from_the_cache_at_once():
    rec = Recorder()
    sink = OddsSink(estimate=rec, background=False)
    controller, given = kiosk(sink)
    try:
        for text in (*START, "HS15", "HS03", "HS-UNDO"):
            assert controller.handle(text).accepted
        assert rec.calls[-1] == (SAMPLES, CHUNKS, 2)  # the undo back to card 1 asked for nothing new
        assert given[-1].card == 1 and given[-1].samples == SAMPLES // 100
    finally:
        sink.close()


def test_a_newer_card_supersedes_the_full_estimate_of_the_older_one(full_priority):
    asked = []
    holding = threading.Event()
    gave_up = threading.Event()

    def estimator(known, players, race, *, samples, seed, chunks, cancel):
        card = len(race.cards) if race is not None else 0
        asked.append((card, samples))
        if card == 1 and samples == SAMPLES:  # the full estimate of card 1 runs until it is superseded
            holding.set()
            for _ in range(1000):
                if cancel():
                    gave_up.set()
                    raise Cancelled("a newer request is waiting")
                threading.Event().wait(0.01)
            raise AssertionError("never superseded")
        return canned(samples // 100)

    sink = OddsSink(estimate=estimator)
    controller, given = kiosk(sink)
    try:
        for text in (*START, "HS15"):
            assert controller.handle(text).accepted
        assert holding.wait(30), "the full estimate of card 1 did not start"
        assert controller.handle("HS03").accepted
        assert gave_up.wait(30), "the full estimate of card 1 was not given up"
        for _ in range(3000):  # up to 30 s for the odds thread to finish card 2
            if len(given) >= 2 and given[-1].card == 2 and given[-1].samples == SAMPLES // 100 and (2, SAMPLES) in asked:
                break
            threading.Event().wait(0.01)
        assert [a for a in asked if a[0] >= 1] == [(1, QUICK), (1, SAMPLES), (2, QUICK), (2, SAMPLES)]
        assert [o.card for o in given if o.card >= 1] == [1, 2, 2]  # nothing of card 1 after card 2's
        assert not sink.pending()
    finally:
        sink.close()


def test_an_estimate_gives_up_between_passes_when_asked():
    asked = []

    def cancel():
        asked.append(1)
        return len(asked) > 2

    with pytest.raises(Cancelled):
        estimate(["HS02"], 4, samples=40, seed=1, chunks=4, cancel=cancel)
    assert len(asked) == 3  # asked before the first chunk, before its first pass, then it gave up
    assert estimate(["HS02"], 4, samples=40, seed=1, chunks=4, cancel=lambda: False) == estimate(
        ["HS02"], 4, samples=40, seed=1, chunks=4)


def test_while_newer_odds_are_computed_the_view_and_phone_page_say_the_shown_ones_are_stale():
    import json
    import urllib.request

    from webtable import LiveTable

    hold = threading.Event()

    def estimator(known, players, race, *, samples, seed, chunks, cancel):
        if hold.is_set():  # the newer odds are still being computed
            raise Cancelled("not yet")
        return canned(100)

    sink = OddsSink(estimate=estimator, background=False)

    def page(table):
        with urllib.request.urlopen(table.url + "api/view", timeout=10) as r:
            return json.load(r)

    with LiveTable(extra_sinks=(sink,)) as table:
        sink.on_odds = table.controller.odds_ready
        table.scan(*START, "HS15")
        table.wait_idle()
        fresh = page(table)
        assert fresh["odds"] and fresh["odds_card"] == 1 and fresh["odds_stale"] is False
        hold.set()
        table.scan("HS03")
        table.wait_idle()
        stale = page(table)
        view = table.controller.view
        assert view.odds_stale and view.odds_card == 1 and view.odds_current is None
        assert stale["odds"] == fresh["odds"] and stale["odds_card"] == 1 and stale["odds_stale"] is True
        assert stale["revealed"] == 2
        hold.clear()
        table.scan("HS-UNDO")
        table.wait_idle()
        back = page(table)
        assert back["odds_card"] == 1 and back["odds_stale"] is False
    sink.close()


def test_no_odds_no_card():
    from companion.web.view import table_view

    controller = Controller(Journal(":memory:"))
    controller.handle("HS-NEW")
    page = table_view(controller.view, odds=controller.view.odds_shown, odds_card=controller.view.odds_card,
                      odds_stale=controller.view.odds_stale)
    assert page["odds"] is None and page["odds_card"] is None and page["odds_stale"] is False
