"""The screen draws only when something changed or an animation runs, on a fake clock (no display needed)."""

from companion.kiosk.controller import Controller
from companion.kiosk.journal import Journal
from companion.rules.errors import RefusedError
from companion.screen.sink import ScreenSink
from companion.view.table_view import OddsView, build, odds_situation

FRAME = 1 / 30
MESSAGE_SECONDS = 4.0


class Painter:
    message_seconds = MESSAGE_SECONDS


class FakeDisplay:
    """Records each frame drawn (its screen model and time) and each poll of the window's keys."""

    def __init__(self):
        self.painter = Painter()
        self.drawn = []
        self.polls = 0

    def draw(self, model, now, extra=None):
        self.drawn.append((model, now))

    def present(self):
        pass

    def poll(self):
        self.polls += 1

    def close(self):
        pass


def racing(*cards):
    controller = Controller(Journal(":memory:"))
    for text in ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO", *cards):
        assert controller.handle(text).accepted, text
    return controller


def run(sink, view, start, seconds):
    """Render ``view`` every frame from ``start`` for ``seconds``; returns the time after."""
    t = start
    for _ in range(round(seconds / FRAME)):
        sink.render(view, t)
        t += FRAME
    return t


def test_an_unchanged_race_is_drawn_once_however_long_it_stands():
    controller = racing("HS15")
    display = FakeDisplay()
    sink = ScreenSink(display)
    t = run(sink, controller.view, 0.0, 10.0)
    assert sink.frames == len(display.drawn) == 1
    assert display.polls == round(10.0 / FRAME) - 1  # the window's keys are still taken every frame
    run(sink, controller.view, t, 5.0)
    assert sink.frames == 1


def test_each_change_is_drawn_once():
    controller = racing("HS15")
    display = FakeDisplay()
    sink = ScreenSink(display)
    t = run(sink, controller.view, 0.0, 1.0)
    assert sink.frames == 1
    result = controller.handle("HS03")  # a race card: events and a new view
    assert result.accepted
    sink.events((), controller.view, t)
    t = run(sink, controller.view, t, 1.0)
    assert sink.frames == 2
    situation = odds_situation(controller.view)  # new odds: a new view
    with_odds = controller.view.with_odds(OddsView({"hurley": (.4, .3, .2, .1)}, situation.key, situation.cards, 2))
    t = run(sink, with_odds, t, 1.0)
    assert sink.frames == 3 and display.drawn[-1][0].odds == {"hurley": (.4, .3, .2, .1)}
    assert sink.key("n")  # the name entry opens
    t = run(sink, with_odds, t, 1.0)
    assert sink.frames == 4 and display.drawn[-1][0].name_entry


def test_other_device_status_is_drawn():
    controller = racing()
    status = ["scanner: ok"]
    sink = ScreenSink(FakeDisplay(), status=lambda: tuple(status))
    t = run(sink, controller.view, 0.0, 1.0)
    status[0] = "scanner: not found"
    run(sink, controller.view, t, 1.0)
    assert sink.frames == 2


def test_a_message_is_drawn_and_taken_down_when_its_time_runs_out():
    controller = racing()
    display = FakeDisplay()
    sink = ScreenSink(display)
    t = run(sink, controller.view, 0.0, 1.0)
    sink.refused(RefusedError("not now"), controller.view, t)
    shown_at = t
    t = run(sink, controller.view, t, MESSAGE_SECONDS - 0.1)
    assert sink.frames == 2 and display.drawn[-1][0].message == "Can't do that now."  # the reason in words
    t = run(sink, controller.view, t, 0.2)  # the message's time runs out: one frame without it
    assert sink.frames == 3 and display.drawn[-1][1] >= shown_at + MESSAGE_SECONDS
    run(sink, controller.view, t, 5.0)
    assert sink.frames == 3


def test_the_attract_screen_moves_every_frame():
    controller = Controller(Journal(":memory:"))
    controller.handle("HS-NEW")
    display = FakeDisplay()
    sink = ScreenSink(display)
    run(sink, controller.view, 0.0, 1.0)
    assert display.drawn[0][0].screen == "attract"
    assert sink.frames == round(1.0 / FRAME)
    times = [now for _, now in display.drawn]
    assert times == sorted(set(times))


def test_at_most_one_frame_per_frame_interval_while_changes_come_faster():
    controller = racing("HS15")
    sink = ScreenSink(FakeDisplay())
    view = controller.view
    t = 0.0
    for _ in range(300):  # a new view every 1/300 s for a second
        view = view.with_odds(view.odds)
        sink.render(view, t)
        t += 1 / 300
    assert 29 <= sink.frames <= 31


def test_stale_odds_are_drawn_dimmed_with_the_card_they_were_made_for():
    controller = racing("HS15")
    earlier = odds_situation(controller.view)
    assert controller.handle("HS03").accepted
    display = FakeDisplay()
    sink = ScreenSink(display)
    view = build(controller.table, odds=OddsView({"hurley": (.4, .3, .2, .1)}, earlier.key, earlier.cards, 1))
    assert view.odds_stale and view.odds_card == 1 and view.odds_current is None
    sink.render(view, 0.0)
    model = display.drawn[-1][0]
    assert model.odds == {"hurley": (.4, .3, .2, .1)} and model.odds_stale


def test_stale_odds_look_different_on_every_screen_that_shows_odds():
    import dataclasses
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from companion.screen.draw import Screen
    from companion.screen.samples import sample_model

    for name in ("race", "setup", "betting"):
        model = sample_model(name)
        assert model.odds, name
        pictures = []
        for stale in (False, True):
            screen = Screen.offscreen((1280, 720))
            screen.draw(dataclasses.replace(model, odds_stale=stale), 0.0)
            pictures.append(pygame.image.tobytes(screen.surface, "RGB"))
        assert pictures[0] != pictures[1], name


def test_the_game_over_screen_draws_again_only_when_a_page_of_standings_turns():
    """The 7-inch panel pages the final standings (companion/screen/panel_screens.py): the sink draws a frame at
    each page turn and none between them."""
    import random

    from companion.rules.table import Table, realise
    from companion.screen.pages import PAGE_SECONDS
    from companion.tools.demo import parse_script, script_path
    table, rng = Table(), random.Random(1)
    for text, _ in parse_script(script_path().read_text("utf-8")):
        try:
            table.apply(text, realise(text, rng))
        except ValueError:
            continue
        if table.phase == "game-over":
            break
    assert table.phase == "game-over"
    display = FakeDisplay()
    sink = ScreenSink(display)
    view = build(table)
    run(sink, view, 0.1, 3 * PAGE_SECONDS - 1.0)   # two page turns: at 6 s and at 12 s
    times = [now for _, now in display.drawn]
    assert display.drawn[0][0].screen == "game-over"
    assert len(times) == 3 and all(abs(t - k * PAGE_SECONDS) < 2 * FRAME for t, k in zip(times[1:], (1, 2)))
