"""Moves in motion: the paths from a card's events, the screen's frames of a move on a fake clock (positions along
the real path, a fall tipping over, rows sliding, drawing stopping when the move has played), the LED strip's
light in step with the screen."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from companion import colours as C  # noqa: E402
from companion.lights.lanemap import LaneMap  # noqa: E402
from companion.lights.render import DEFAULT_COLOURS, PULSE_LEVEL, Effects, render_lanes  # noqa: E402
from companion.motion import (SLIDE_SECONDS, TIP_SECONDS, ease, fall_time, paths_for, point, reached,  # noqa: E402
                              settled)
from companion.rules import Race  # noqa: E402
from companion.screen.draw import Screen  # noqa: E402
from companion.screen.layout import layout_for, space_rect  # noqa: E402
from companion.screen.model import from_race, replace, running_order  # noqa: E402
from companion.screen.motion import gap_badge, in_motion, order_before, row_top  # noqa: E402
from companion.screen.sink import ScreenSink  # noqa: E402
from hardware.leds import scale  # noqa: E402

SIZE = (1280, 720)
FRAME = 1 / 30


def at(position: str, card: str) -> Race:
    race = Race.from_position(position)
    race.push_text(card)
    return race


def moving(race: Race, move_at: float = 10.0):
    return replace(from_race(race), move_at=move_at)


def spot_at(screen: Screen, model, now):
    """Where each mascot is drawn on the track at ``now`` (the track's own answer)."""
    L = layout_for(screen.size, model.track)
    screen.painter.layout = L
    return screen.painter.mascots_on_track(model, L, now)


def cell(L, x, y):
    """The (lane, space) whose rect holds pixel (x, y)."""
    for lane in range(1, L.lanes + 1):
        for space in range(1, L.spaces + 1):
            rx, ry, rw, rh = space_rect(lane, space, L)
            if rx <= x < rx + rw and ry <= y < ry + rh:
                return lane, space
    return None


# ----- the paths, from the events -------------------------------------------------------------------------------
def test_a_move_then_a_swerve_runs_along_the_lane_then_across():
    race = Race.from_position("G1.3 H2.9 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    path = paths_for(race.push_text("G+2>"))["gobbler"]
    assert path.steps == ((1, 3), (1, 4), (1, 5), (2, 5))
    assert point(path.steps, 2 / 3) == (1.0, 5.0)   # on the space it reached in its own lane, not across
    lane, space = point(path.steps, 5 / 6)
    assert space == 5.0 and 1.0 < lane < 2.0        # then across to lane 2 on that space


def test_a_knock_back_and_a_step_off_the_side_and_a_collision():
    back = paths_for(Race().push_text("D-2"))["dangle"]
    assert back.steps == ((3, 3), (3, 2), (3, 1)) and not back.off
    side = paths_for(Race().push_text("G<"))["gobbler"]
    assert side.steps == ((1, 3), (0, 3)) and side.off
    race = Race.from_position("G1.3 H1.5 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    paths = paths_for(race.push_text("G+3"))
    assert paths["gobbler"].steps == ((1, 3), (1, 4), (1, 5), (1, 6))   # one path through the collision
    assert paths["hurley"].steps == () and paths["hurley"].fall == pytest.approx(2 / 3)  # falls when hit on 5
    assert fall_time(paths["hurley"]) == pytest.approx(reached(2 / 3))


def test_the_easing_and_its_inverse():
    assert ease(0) == 0 and ease(1) == 1 and ease(0.5) == pytest.approx(0.5) and ease(0.25) < 0.25
    for share in (0.1, 0.5, 0.9):
        assert ease(reached(share) / SLIDE_SECONDS) == pytest.approx(share, abs=1e-6)
    with pytest.raises(ValueError, match="at least one step"):
        point((), 0.5)


# ----- frames on a fake clock -----------------------------------------------------------------------------------
def test_frames_at_the_start_middle_and_end_follow_the_real_path():
    race = at("G1.3 H2.9 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-", "G+2>")   # 3 -> 5 in lane 1, then lane 2
    model = moving(race, move_at=10.0)
    screen = Screen.offscreen(SIZE)
    L = layout_for(SIZE, model.track)
    start = spot_at(screen, model, 10.0)["gobbler"]
    assert cell(L, *start[:2]) == (1, 3)
    middle = spot_at(screen, model, 10.0 + reached(2 / 3))["gobbler"]   # two of its three steps done
    assert cell(L, *middle[:2]) == (1, 5)                               # along lane 1, not the diagonal
    crossing = spot_at(screen, model, 10.0 + reached(5 / 6))["gobbler"]
    assert space_rect(1, 5, L)[1] + space_rect(1, 5, L)[3] // 2 < crossing[1] < space_rect(2, 5, L)[1] + \
        space_rect(2, 5, L)[3] // 2                                     # between the lanes, on space 5
    end = spot_at(screen, model, 10.0 + SLIDE_SECONDS)["gobbler"]
    rest = spot_at(screen, replace(model, move_at=None), 0.0)["gobbler"]
    assert end == rest and cell(L, *end[:2]) == (2, 5)
    # drawn: the mascot's colour is on the track where the spot says, mid-slide
    screen.draw(model, 10.0 + reached(2 / 3))
    cx, cy, r = middle
    assert screen.surface.get_at((cx - r // 2, cy - r // 2))[:3] == C.colour("gobbler")


def colour_box(surface, rect, colour):
    """The bounding box ``(w, h)`` of the pixels of ``colour`` inside ``rect``."""
    x, y, w, h = rect
    xs, ys = [], []
    for px in range(x, x + w, 2):
        for py in range(y, y + h, 2):
            if surface.get_at((px, py))[:3] == colour:
                xs.append(px)
                ys.append(py)
    return (max(xs) - min(xs), max(ys) - min(ys)) if xs else (0, 0)


def test_a_mascot_knocked_down_tips_over_when_the_mover_reaches_it():
    race = at("G1.3 H1.5 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-", "G+3")   # Gobbler passes Hurley on 5
    model = moving(race, move_at=0.0)
    screen = Screen.offscreen(SIZE)
    L = layout_for(SIZE, model.track)
    hit = fall_time(next(p for p in model.paths if p.mascot == "hurley"))
    x, y, w, h = space_rect(1, 5, L)
    rect = (x - w, y, 3 * w, h)   # its space and those beside it: the whole figure, nose included
    red = C.colour("hurley")
    screen.draw(model, hit - 0.05)
    upright = colour_box(screen.surface, rect, red)
    screen.draw(model, hit + TIP_SECONDS / 2)
    tipping = colour_box(screen.surface, rect, red)
    screen.draw(model, hit + TIP_SECONDS + 0.01)
    down = colour_box(screen.surface, rect, red)
    assert upright[0] > upright[1]          # standing: its nose ahead makes it wider than tall
    assert tipping[0] < upright[0]          # half way over: the nose turning down, less far ahead
    assert down[0] < tipping[0] and down[1] > upright[1]   # fallen: the nose to the ground, below the body
    assert in_motion(model, hit + TIP_SECONDS - 0.01) and not in_motion(model, hit + TIP_SECONDS + 0.01)
    assert settled(model.paths) == pytest.approx(max(SLIDE_SECONDS, hit + TIP_SECONDS))


class Recording:
    """A display that draws on an off-screen screen and records each frame's model and time."""

    def __init__(self):
        self.screen = Screen.offscreen(SIZE)
        self.painter = self.screen.painter
        self.drawn = []

    def draw(self, model, now, extra=None):
        self.screen.draw(model, now, extra)
        self.drawn.append((model, now))

    def present(self):
        pass

    def close(self):
        pass


def test_the_screen_draws_while_the_move_plays_and_stops_when_it_has():
    from companion.view.table_view import build
    from companion.rules.table import Table
    table = Table()
    for text in ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO"):
        table.apply(text)
    display = Recording()
    sink = ScreenSink(display)
    view = build(table)
    sink.render(view, 0.0)
    events = table.apply("HS09")    # G+1>: Gobbler 3 -> 4 in lane 1, then over to lane 2
    view = build(table)
    sink.events(events, view, 5.0)
    t = 5.0
    while t < 15.0:
        sink.render(view, t)
        t += FRAME
    times = [now - 5.0 for _, now in display.drawn[1:]]
    assert times[0] == 0.0
    assert all(b - a < FRAME * 1.5 for a, b in zip(times, times[1:]))  # every frame while it moves
    assert SLIDE_SECONDS <= times[-1] < SLIDE_SECONDS + FRAME * 1.5   # and not one after it has played
    last, now = display.drawn[-1]
    assert not in_motion(last, now)
    L = layout_for(SIZE, last.track)
    assert cell(L, *spot_at(display.screen, last, now)["gobbler"][:2]) == (2, 4)


# ----- the running order ----------------------------------------------------------------------------------------
def test_rows_slide_to_their_new_places_with_marks_and_gaps():
    race = at("G1.6 H2.5 D3.4 M4.3 fold:0 pass:1 rev:0 cards:-", "M+3")   # Mum from last to first
    model = moving(race, move_at=0.0)
    rows = running_order(model)
    assert [(r.position, r.mascot) for r in rows] == [(1, "gobbler"), (1, "mum"), (3, "hurley"), (4, "dangle")]
    change = order_before(model)
    assert change["mum"] == 3 and change["hurley"] == -1 and change["dangle"] == -1
    index = [r.mascot for r in rows].index("mum")
    assert row_top(model, "mum", index, 100, 0.0) == 300                      # where it was: 4th
    assert 0 < row_top(model, "mum", index, 100, reached(0.5)) < 300         # on its way up
    assert row_top(model, "mum", index, 100, SLIDE_SECONDS) == index * 100    # in its new place
    gaps = {r.mascot: gap_badge(model, r) for r in rows}
    assert gaps["hurley"][0][0] == "+1" and gaps["dangle"][0][0] == "+2" and gaps["gobbler"] == []


# ----- the LED strip in step ------------------------------------------------------------------------------------
def test_the_led_light_is_over_the_space_where_the_screen_mascot_slides():
    race = Race.from_position("G1.3 H2.9 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    events = race.push_text("G+3>")   # 3 -> 6 in lane 1, then lane 2: five steps
    lanes = LaneMap.default()
    fx = Effects()
    fx.trigger(events, now=0.0)
    model = moving(race, move_at=0.0)
    screen = Screen.offscreen(SIZE)
    L = layout_for(SIZE, model.track)
    dim = scale(DEFAULT_COLOURS[race.state.mascots[0].mascot], PULSE_LEVEL)
    checked = 0
    for k in range(1, 60):
        now = k * SLIDE_SECONDS / 60
        frame = render_lanes(race.state, race.track, lanes, DEFAULT_COLOURS, now=now, effects=fx)
        lit = [(lane, space) for lane in range(1, 5) for space in range(1, 15)
               if dim in [frame[p] for p in lanes.pixels_for(lane, space)]]
        where = cell(L, *spot_at(screen, model, now)["gobbler"][:2])
        if lit:
            assert lit == [where], (now, lit, where)
            checked += 1
    assert checked > 30   # most of the slide (the light is off on the space reached: the mascot stands there)


# ----- the command line's contract ------------------------------------------------------------------------------
def test_screenshot_now_shows_the_last_cards_move_in_motion_early_and_at_rest_once_played(tmp_path):
    import pygame
    from conftest import hotstreak_in_process
    cards = ("--screen", "race", "--cards", "H+3", "G+2>", "D+1<")   # Dangle: 3 -> 4 in lane 3, then lane 2
    shots = {}
    for now in ("0.1", "0.35", "5", None):
        out = tmp_path / f"{now}.png"
        result = hotstreak_in_process("screenshot", *cards, "--out", str(out), *(("--now", now) if now else ()))
        assert result.returncode == 0, result.stderr
        shots[now] = pygame.image.load(str(out))
    L = layout_for(SIZE, from_race(at("G1.3 H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-", "D+1<")).track)
    purple = C.colour("dangle")

    def dangle_in(shot, lane, space):
        x, y, w, h = space_rect(lane, space, L)
        return any(shot.get_at((px, py))[:3] == purple for px in range(x, x + w, 3) for py in range(y, y + h, 3))

    assert dangle_in(shots["0.1"], 3, 3) and not dangle_in(shots["0.1"], 2, 4)   # early: where it started
    assert dangle_in(shots["0.35"], 3, 4)                                         # on its way, still in lane 3
    assert dangle_in(shots["5"], 2, 4)                                            # at rest in lane 2
    assert pygame.image.tobytes(shots["5"], "RGB") == pygame.image.tobytes(shots[None], "RGB")


@pytest.mark.parametrize("bad", ["nan", "-0.5", "soon", "3601", "inf"])
def test_screenshot_refuses_a_bad_now_in_one_line_naming_it(tmp_path, bad):
    from conftest import hotstreak_in_process
    out = tmp_path / "x.png"
    result = hotstreak_in_process("screenshot", "--screen", "race", "--cards", "H+3", "--now", bad, "--out", str(out))
    assert result.returncode == 2 and not out.exists()
    assert result.stderr.count("\n") == 1 and f"--now {bad!r}" in result.stderr and "seconds" in result.stderr


# ----- the podium scene -----------------------------------------------------------------------------------------
def test_the_podium_rises_at_the_winners_moment_and_stands_still_after():
    from companion.screen.podium_scene import PODIUM_SECONDS, STEP_COLOURS, podium_shown, scene_rect, winner_at
    from companion.screen.samples import sample_model
    model = replace(sample_model("race-end"), move_at=0.0)   # the finish (2.5 s), the winner, the side bet
    start = winner_at(model)
    assert start == pytest.approx(2.5)
    screen = Screen.offscreen(SIZE)
    L = layout_for(SIZE, model.track)
    silver = STEP_COLOURS[2]

    def silver_pixels(now):
        screen.draw(model, now)
        x, y, w, h = scene_rect(L)
        return sum(screen.surface.get_at((px, py))[:3] == silver
                   for px in range(x, x + w, 4) for py in range(y, y + h, 4))

    assert not podium_shown(model, start - 0.1) and silver_pixels(start - 0.1) == 0   # the finish: the track
    low, mid = silver_pixels(start), silver_pixels(start + PODIUM_SECONDS / 2)
    top = silver_pixels(start + PODIUM_SECONDS)
    assert low == 0 < mid < top                                          # the 2nd's step rises
    assert in_motion(model, start + PODIUM_SECONDS / 2) and not in_motion(model, start + PODIUM_SECONDS + 0.01)
    assert silver_pixels(start + 6.0) == top and podium_shown(model, start + 6.0)  # through the side bet's moment
    at_rest = replace(model, move_at=None)                               # an undo, a restart, a still picture
    screen.draw(at_rest, start)
    x, y, w, h = scene_rect(L)
    assert sum(screen.surface.get_at((px, py))[:3] == silver for px in range(x, x + w, 4)
               for py in range(y, y + h, 4)) == top


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_the_podium_scenes_words_fit_and_are_large_enough(size, lang):
    from companion.screen.draw import Painter
    from companion.screen.samples import sample_model
    from test_screen_layout import problems
    import pygame
    painter = Painter(pygame.Surface(size))
    painter.boxes = []
    painter.draw(sample_model("moment-winner", language=lang), now=1.0)
    scene = [b for b in painter.boxes if b.layer == "podium"]
    assert len(scene) == 4   # 1st, 2nd, 3rd on the steps, 4th beside them
    assert all(b.cap >= 24 for b in scene), [(b.text, b.cap) for b in scene]
    assert problems(scene, size) == []


def test_at_rest_a_move_and_a_swerve_is_drawn_along_its_path_not_across():
    race = at("G1.3 H2.9 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-", "G+3>")   # lane 1 from 3 to 6, then lane 2
    model = from_race(race)
    screen = Screen.offscreen(SIZE)
    screen.draw(model, 0.0)
    L = layout_for(SIZE, model.track)
    from companion.screen.track import HIGHLIGHT
    x, y, w, h = space_rect(1, 5, L)
    assert screen.surface.get_at((x + w // 2, y + h // 2))[:3] == HIGHLIGHT   # the arrow runs along lane 1 ...
    x, y, w, h = space_rect(2, 4, L)
    assert screen.surface.get_at((x + w // 2, y + h // 4))[:3] != HIGHLIGHT   # ... not across the lanes


def test_through_the_real_wiring_the_strip_and_the_screen_start_the_move_together_and_the_screen_goes_still():
    from tablekit import TableKit
    with TableKit(screen=True) as table:
        sink = table.screen
        sink.leds = None     # as on a Pi: no LED preview on the screen (the desktop's redraws when the strip changes)
        table.start_race()
        table.scan("HS10")   # G+2>: Gobbler 3 -> 5 in lane 1, then over to lane 2
        moves = [e for e in table.controller.lights.effects.active(table.clock()) if e.kind == "move"]
        assert [e.path for e in moves] == [((1, 3), (1, 4), (1, 5), (2, 5))]
        assert sink.move_at is not None and moves[0].start == sink.move_at   # one origin: the card's time
        table.advance(SLIDE_SECONDS + TIP_SECONDS + 0.5)
        frames = sink.frames
        for _ in range(20):   # ten seconds of the kiosk's loop: nothing moves, nothing is drawn
            table.advance(0.5)
        assert sink.frames == frames


def test_an_undo_or_a_restart_shows_the_race_at_rest():
    from companion.rules.table import Table
    from companion.view.table_view import build
    table = Table()
    for text in ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO", "HS15"):
        table.apply(text)
    display = Recording()
    sink = ScreenSink(display)
    events = table.apply("HS10")
    sink.events(events, build(table), 5.0)
    assert sink.move_at == 5.0
    view = build(table)
    sink.reset(view, 5.1)   # a restart (or an undo): the controller rebuilds the table, resets every sink
    sink.render(view, 5.1)
    model, now = display.drawn[-1]
    assert model.move_at is None and not in_motion(model, now)
    sink.render(view, 5.2)
    assert len(display.drawn) == 1   # and nothing more is drawn


def test_every_path_runs_from_where_the_mascot_stood_to_where_the_engine_put_it():
    """Random races (seeded) with notation cards (no deck rules): for every card, each path starts where its
    mascot stood before the card and ends where the engine put it (a racing or finished mascot), or one step off
    the track (out of bounds); every step is one space or one lane."""
    import random
    from companion.rules.cards import Card
    from companion.rules.deck import load_deck
    cards = [c.card for c in load_deck()]
    rng = random.Random(29)
    checked = 0
    for _ in range(40):
        race = Race()
        while not race.is_over and len(race.cards) < 40:
            before = {s.mascot.value: s for s in race.state.mascots}
            card: Card = rng.choice(cards)
            paths = paths_for(race.push(card), {n: (s.lane, s.space) for n, s in before.items()})
            after = {s.mascot.value: s for s in race.state.mascots}
            for name, path in paths.items():
                if not path.steps:
                    continue
                was, now = before[name], after[name]
                assert path.steps[0] == (was.lane, was.space), (card.notation(), path)
                if path.off:
                    lane, space = path.steps[-1]
                    assert lane in (0, race.track.lanes + 1) or space < race.track.back_edge(race.state.folds)
                else:
                    assert path.steps[-1] == (now.lane, now.space), (card.notation(), path)
                for (l0, s0), (l1, s1) in zip(path.steps, path.steps[1:]):
                    assert abs(l1 - l0) + abs(s1 - s0) == 1, (card.notation(), path)
                checked += 1
    assert checked > 300


def test_a_mascot_that_recovers_stands_up_first():
    race = Race.from_position("G1.3 H2.5 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-")
    race.push_text("HF")
    race.push_text("HR")   # Hurley stands up where it is (space 5)
    model = moving(race, move_at=0.0)
    assert [p.stood_up for p in model.paths] == [True]
    screen = Screen.offscreen(SIZE)
    L = layout_for(SIZE, model.track)
    red = C.colour("hurley")
    screen.draw(model, 0.01)
    w0, h0 = colour_box(screen.surface, space_rect(2, 5, L), red)
    screen.draw(model, TIP_SECONDS + 0.01)
    w1, h1 = colour_box(screen.surface, space_rect(2, 5, L), red)
    assert h0 > w0 and w1 > h1   # on its side (its nose down) at first, standing (nose ahead) once up
    assert in_motion(model, TIP_SECONDS - 0.01) and not in_motion(model, TIP_SECONDS + 0.01)
