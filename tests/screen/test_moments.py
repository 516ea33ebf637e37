"""The big moments of the race screen: which moment each card makes, how long it shows on the fake clock, that
the next input ends it, and that the race just ended stays on the race screen before the payouts."""

from __future__ import annotations

import pytest

from companion.rules import Mascot, Race
from companion.rules import events as ev
from companion.rules.game_events import SideBetAnswered
from companion.screen.moments import SECONDS, Moment, MomentClock, length, moments_for, showing
from companion.screen.sink import ScreenSink
from test_screen_redraw import FakeDisplay, racing, run


def kinds(moments):
    return [(m.kind, m.mascots) for m in moments]


def card(position: str, text: str):
    return Race.from_position(position + " fold:0 pass:1 rev:0 cards:-").push_text(text)


START = "G1.3 H2.3 D3.3 M4.3"


# ----- each moment for its event ------------------------------------------------------------------------------
def test_a_fall_is_a_fall_moment_and_a_move_back_is_none():
    assert kinds(moments_for(Race().push_text("HF"))) == [("fall", ("hurley",))]
    assert moments_for(card("G1.8 H2.6 D3.3 M4.3", "H-2")) == ()  # moving back is not a fall
    assert moments_for(Race().push_text("H+3")) == ()


def test_a_knockout_has_the_paid_place_and_the_fall_before_it_is_not_said_again():
    moments = moments_for(card("G1.3 H2.6f D3.3 M4.3", "HF"))
    assert moments == (Moment("knockout", ("hurley",), place=4),)
    moments = moments_for(card("G1.6 H2.6f D3.3 M4.3", "G>"))  # Gobbler swerves onto fallen Hurley
    assert kinds(moments) == [("knockout", ("hurley",))]
    fell, out = ev.Fell(Mascot.HURLEY, ev.Cause.COLLISION), ev.KnockedOut(Mascot.HURLEY, ev.Cause.COLLISION)
    assert kinds(moments_for([fell, out])) == [("knockout", ("hurley",))]  # one band per mascot: the bigger news


@pytest.mark.parametrize("position, text, way", [("G1.3 H2.3 D3.3 M4.3", "G<", "side"),
                                                  ("G1.3 H2.2 D3.3 M4.3", "H-2", "back")])
def test_out_of_bounds_says_how(position, text, way):
    [moment] = moments_for(card(position, text))
    assert moment.kind == "out" and moment.way == way and moment.place == 4


def test_a_finish_has_its_place():
    assert moments_for(card("G1.13 H2.6 D3.3 M4.3", "G+1")) == (Moment("finish", ("gobbler",), place=1),)


def test_several_mascots_with_the_same_news_share_one_moment():
    moments = moments_for(Race().push_text("AF"))  # the green card: everybody falls
    assert kinds(moments) == [("fall", ("gobbler", "hurley", "dangle", "mum"))]
    moments = moments_for(card("G1.3 H2.2 D3.2 M4.3", "A-2"))  # Hurley and Dangle off the back together
    assert kinds(moments) == [("out", ("hurley", "dangle"))]
    assert moments[0].place == 4  # they share the worst places and are both paid 4th


def test_the_card_that_ends_the_race_queues_its_news_the_winner_and_the_side_bet():
    race = Race.from_position("G=1 H2.6 Dk4 M4.13f fold:1 pass:2 rev:2 cards:HS02")
    events = race.push_text("M+1") + [SideBetAnswered("knockout", True)]  # Mum crawls over the line: 2nd
    moments = moments_for(events)
    assert [m.kind for m in moments] == ["finish", "winner", "side-bet"]
    assert moments[0] == Moment("finish", ("mum",), place=2)
    assert moments[1].mascots == ("gobbler",) and moments[1].podium[0] == ("gobbler", 1)
    assert [p for _, p in moments[1].podium] == [1, 2, 3, 4]
    assert moments[2].answer is True and moments[2].card_id == "knockout"


def test_the_winners_own_crossing_on_the_last_card_is_the_winner_moment():
    race = Race.from_position("G1.13 H2.6 Dk4 Mk3 fold:0 pass:1 rev:2 cards:-")  # two out already
    events = race.push_text("G+1")  # Gobbler crosses first: the third mascot done ends the race
    assert race.is_over
    assert kinds(moments_for(events)) == [("winner", ("gobbler",))]


def test_mascots_under_a_fold_are_left_to_the_fold_band():
    race = Race.from_position("G1.2 H2.6 D3.6 M4.6 fold:0 pass:1 rev:14 cards:-")
    events = race.push_text("H+1")  # the 15th card: the mat folds, Gobbler goes under
    assert any(e.type == "folded" for e in events)
    assert moments_for(events) == ()
    assert race.state.folds == 1


# ----- on the clock -------------------------------------------------------------------------------------------
def test_moments_show_one_after_the_other_for_their_seconds():
    queue = (Moment("finish", ("mum",), place=2), Moment("winner", ("gobbler",), place=1))
    assert showing(queue, at=10.0, now=9.9) is None
    assert showing(queue, at=10.0, now=10.0) == queue[0]
    assert showing(queue, at=10.0, now=10.0 + SECONDS["finish"] - 0.01) == queue[0]
    assert showing(queue, at=10.0, now=10.0 + SECONDS["finish"]) == queue[1]
    assert showing(queue, at=10.0, now=10.0 + length(queue)) is None


def test_the_next_input_ends_the_moment_and_an_undo_drops_it():
    clock = MomentClock()
    clock.start(Race().push_text("HF"), now=5.0)
    assert clock.next_change(5.0) == 5.0 + SECONDS["fall"]
    clock.start(Race().push_text("H+3"), now=6.0)  # the next card, with no moment of its own
    assert clock.moments == () and clock.next_change(6.0) is None
    clock.start(Race().push_text("HF"), now=7.0)
    clock.clear()
    assert clock.moments == () and not clock.race_end(7.0)


# ----- through the screen's sink (the frames it draws, on a fake clock) --------------------------------------
ENDING = ("HS17", "HS15", "HS14", "HS12", "HS28", "HS26", "HS25", "HS23", "HS39", "HS37", "HS36")
"""Hurley 1st, Dangle 2nd, Mum one card from 3rd; then HS34 ends the race."""


def scan(controller, sink, text, now):
    result = controller.handle(text)
    assert result.accepted, result.message
    sink.events(result.events, controller.view, now)
    return result


def test_a_moment_is_drawn_for_its_seconds_and_taken_down_on_time():
    controller = racing("HS15")
    display = FakeDisplay()
    sink = ScreenSink(display)
    t = run(sink, controller.view, 0.0, 0.5)
    scan(controller, sink, "HS19", t)  # Hurley: F
    assert controller.view.race.state.mascots[1].fallen
    run(sink, controller.view, t, SECONDS["fall"] + 1.0)
    shown = [(showing(model.moments, model.moment_at, now), now - t) for model, now in display.drawn[1:]]
    assert shown[0][0].kind == "fall" and shown[0][1] == 0.0
    assert shown[-1][0] is None and SECONDS["fall"] <= shown[-1][1] < SECONDS["fall"] + 0.05  # drawn away on time
    # Hurley tips over in the first TIP_SECONDS (companion.screen.motion); after that the moment stands still:
    # drawn once more when it is taken down, nothing in between
    from companion.motion import TIP_SECONDS
    still = [(moment, at) for moment, at in shown if at > TIP_SECONDS + 0.05]
    assert len(still) == 1 and still[0][0] is None


def test_the_next_card_takes_the_moment_down_at_once():
    controller = racing("HS15")
    display = FakeDisplay()
    sink = ScreenSink(display)
    scan(controller, sink, "HS19", 0.0)  # Hurley falls
    run(sink, controller.view, 0.0, 0.5)
    scan(controller, sink, "HS04", 0.5)  # the next card
    run(sink, controller.view, 0.5, 0.1)
    model, now = display.drawn[-1]
    assert showing(model.moments, model.moment_at, now) is None


def test_the_race_end_screen_comes_before_the_payouts():
    controller = racing(*ENDING)
    display = FakeDisplay()
    sink = ScreenSink(display)
    t = run(sink, controller.view, 0.0, 0.2)
    scan(controller, sink, "HS34", t)  # Mum 3rd: the race is over, the table is at payouts
    assert controller.view.phase.value == "payouts"
    queue = sink.moments.moments
    assert "winner" in [m.kind for m in queue]
    run(sink, controller.view, t, length(queue) + 0.5)
    screens = [(model.screen, now - t) for model, now in display.drawn if now >= t]
    assert [s for s, _ in screens] == ["race"] * (len(screens) - 1) + ["payouts"]
    # after the card's moves have played (companion.screen.motion), each later moment is drawn once, then payouts;
    # only the podium's steps rising at the winner's moment take frames in between (companion.screen.podium_scene)
    from companion.motion import SLIDE_SECONDS, TIP_SECONDS
    from companion.screen.podium_scene import PODIUM_SECONDS
    winner = t + sum(m.seconds for m in queue[:[m.kind for m in queue].index("winner")])
    rising = [at for _, at in screens if winner - t < at <= winner - t + PODIUM_SECONDS + 1.5 / 30]
    assert len(rising) >= PODIUM_SECONDS * 30 * 0.9
    still = [at for _, at in screens if at > SLIDE_SECONDS + TIP_SECONDS and at not in rising]
    assert len(still) == len(queue)
    assert length(queue) <= screens[-1][1] < length(queue) + 0.05  # on time, on the fake clock
    last_race = [model for model, _ in display.drawn if model.screen == "race"][-1]
    assert last_race.table_phase == "payouts" and dict(last_race.podium)["hurley"] == 1
    assert showing(last_race.moments, last_race.moment_at, screens[-2][1] + t).kind == queue[-1].kind


def test_an_input_during_the_race_end_screen_shows_its_own_screen_at_once():
    controller = racing(*ENDING)
    display = FakeDisplay()
    sink = ScreenSink(display)
    scan(controller, sink, "HS34", 0.0)
    run(sink, controller.view, 0.0, 0.5)
    assert display.drawn[-1][0].screen == "race"
    scan(controller, sink, "HS-GO", 0.5)  # on to the next race's betting
    run(sink, controller.view, 0.5, 0.2)
    assert display.drawn[-1][0].screen == "betting"


def test_the_race_end_screen_shows_the_money_before_the_payout():
    from companion.screen.table_model import from_view
    controller = racing(*ENDING, "HS34")
    view = controller.view
    before = {s.seat: s.money - 5 for s in view.seats}
    race_end = from_view(view, money_before=before, race_end=True)
    payouts = from_view(view, money_before=before)
    assert race_end.screen == "race" and payouts.screen == "payouts"
    assert [s.money for s in race_end.seats] == [before[s.seat] for s in view.seats]
    assert [s.money for s in payouts.seats] == [s.money for s in view.seats]
    assert from_view(racing(*ENDING).view, race_end=True).screen == "race"  # racing: the race screen anyway


def test_the_kiosk_keeps_the_race_screen_up_after_the_last_card_on_its_clock():
    from tablekit import TableKit
    with TableKit(screen=True) as table:
        screens = []
        draw = table.screen.display.draw
        table.screen.display.draw = lambda model, now, extra=None: (screens.append(model.screen),
                                                                    draw(model, now, extra))[1]
        table.start_race()
        table.scan(*ENDING)
        table.scan("HS34")  # the race is over: the table is at payouts
        assert table.status()["phase"] == "payouts" and screens[-1] == "race"
        until = table.screen.moments.at + length(table.screen.moments.moments)  # the card's time + its moments
        table.advance(until - 0.1 - table.clock())  # (the voice's sound effects may have moved the clock on)
        assert screens[-1] == "race"
        table.advance(0.2)
        assert screens[-1] == "payouts"
