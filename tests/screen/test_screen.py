"""The screen under the SDL dummy driver: every screen renders, and the pixels that matter are right."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pytest

pygame = pytest.importorskip("pygame")

from companion import colours as C
from companion.screen.draw import Screen, layout_for, order_rect, space_rect
from companion.screen.model import (SCREENS, CardView, MascotView, ScreenModel, TrackView, from_race, replace,
                                    sample_model, sample_race)
from companion.screen.layout import card_tile_rect
from conftest import hotstreak


@pytest.fixture(scope="module")
def screen():
    s = Screen.offscreen((1280, 720))
    yield s
    s.close()


def pixels(surface, rect) -> np.ndarray:
    """The (w, h, 3) pixels of ``rect``; ``surface`` is a pygame surface or an array3d of one (faster, reuse it)."""
    arr = surface if isinstance(surface, np.ndarray) else pygame.surfarray.array3d(surface)
    x, y, w, h = rect
    return arr[x:x + w, y:y + h]


def count(surface, rect, colour) -> int:
    return int(np.all(pixels(surface, rect) == np.array(colour), axis=-1).sum())


def race_model(*mascots: MascotView, **kw) -> ScreenModel:
    return ScreenModel(screen="race", mascots=tuple(mascots), **kw)


def track_spaces(layout):
    return [(lane, space) for lane in range(1, layout.lanes + 1) for space in range(1, layout.spaces + 1)]


@pytest.mark.parametrize("name", SCREENS)
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_every_sample_screen_renders_at_720p_and_1080p(name, size):
    surf = pygame.Surface(size)
    from companion.screen.draw import Painter
    Painter(surf).draw(sample_model(name), now=1.0)
    arr = pygame.surfarray.array3d(surf).astype(np.int32)
    # the title is drawn in gold (in the header, or large on the attract screen) and the picture is not blank
    assert count(arr, layout_for(size).header if name != "attract" else (0, 0, *size), C.GOLD) > 50
    packed = (arr[::3, ::3, 0] << 16) | (arr[::3, ::3, 1] << 8) | arr[::3, ::3, 2]
    assert len(np.unique(packed)) > 20


@pytest.mark.parametrize("lane,space", [(1, 1), (2, 6), (3, 9), (4, 13), (4, 14)])
def test_a_mascot_is_drawn_in_its_lane_at_its_space_and_nowhere_else(screen, lane, space):
    surf = pygame.surfarray.array3d(screen.draw(race_model(MascotView("hurley", lane, space)), now=0.0))
    layout = layout_for(screen.size)
    rect = space_rect(lane, space, layout)
    assert count(surf, rect, C.colour("hurley")) > 0.12 * rect[2] * rect[3]
    for other in track_spaces(layout):
        if other != (lane, space):
            assert count(surf, space_rect(*other, layout), C.colour("hurley")) < 0.02 * rect[2] * rect[3], other


def test_each_mascot_has_its_own_colour_on_the_track(screen):
    ms = [MascotView("gobbler", 1, 3), MascotView("hurley", 2, 5), MascotView("dangle", 3, 8), MascotView("mum", 4, 12)]
    surf = screen.draw(race_model(*ms), now=0.0)
    layout = layout_for(screen.size)
    for m in ms:
        assert count(surf, space_rect(m.lane, m.space, layout), C.colour(m.mascot)) > 300, m.mascot


def test_two_mascots_on_one_space_are_both_visible(screen):
    surf = screen.draw(race_model(MascotView("gobbler", 2, 7), MascotView("mum", 2, 7, fallen=True)), now=0.0)
    rect = space_rect(2, 7, layout_for(screen.size))
    area = rect[2] * rect[3]
    assert count(surf, rect, C.colour("gobbler")) > 0.04 * area
    assert count(surf, rect, C.colour("mum")) > 0.02 * area


def _bbox(surface, rect, colour):
    mask = np.all(pixels(surface, rect) == np.array(colour), axis=-1)
    xs, ys = np.nonzero(mask)
    return xs.min(), xs.max(), ys.min(), ys.max(), xs.mean()


def test_a_fallen_mascot_points_its_nose_to_the_ground_and_a_standing_one_ahead(screen):
    """The letter stays upright (tests/screen/test_fallen_mascot.py); the fall shows in the nose and the mark."""
    layout = layout_for(screen.size)
    rect = space_rect(2, 6, layout)
    surf = screen.draw(race_model(MascotView("dangle", 2, 6, fallen=True)), now=0.0)
    fx0, fx1, fy0, fy1, _ = _bbox(surf, rect, C.colour("dangle"))
    surf = screen.draw(race_model(MascotView("dangle", 2, 6)), now=0.0)
    sx0, sx1, sy0, sy1, _ = _bbox(surf, rect, C.colour("dangle"))
    assert fy1 - sy1 >= 0.15 * (sy1 - sy0)   # the nose reaches down past the standing figure's body


@pytest.mark.parametrize("fallen", [False, True])
def test_the_nose_points_where_the_mascot_faces(screen, fallen):
    layout = layout_for(screen.size)
    rect = space_rect(3, 8, layout)
    centre = rect[2] / 2
    surf = screen.draw(race_model(MascotView("gobbler", 3, 8, fallen=fallen, facing="forward")), now=0.0)
    ahead = _bbox(surf, rect, C.colour("gobbler"))[4]
    surf = screen.draw(race_model(MascotView("gobbler", 3, 8, fallen=fallen, facing="backward")), now=0.0)
    back = _bbox(surf, rect, C.colour("gobbler"))[4]
    assert ahead > centre > back and ahead - back > 1.5


def test_a_dq_mascot_is_shown_out_in_the_running_order_and_not_on_the_track(screen):
    model = race_model(MascotView("gobbler", 2, 14, status="finished", place=1, exit="crossed"),
                       MascotView("dangle", 3, 5, fallen=True, status="dq", place=4, exit="knockout"),
                       MascotView("mum", 4, 9), MascotView("hurley", 2, 6), podium=(("gobbler", 1), ("dangle", 4)))
    surf = pygame.surfarray.array3d(screen.draw(model, now=0.0))
    layout = layout_for(screen.size)
    for spot in track_spaces(layout):
        assert count(surf, space_rect(*spot, layout), C.colour("dangle")) == 0, spot
    win_row, out_row = order_rect(0, layout), order_rect(3, layout)   # 1st: Gobbler; last: the DQ
    assert count(surf, out_row, C.OUT) > 100 and count(surf, out_row, C.OUT_MARK) > 100
    assert count(surf, out_row, C.colour("dangle")) == 0
    assert count(surf, win_row, C.colour("gobbler")) > 100 and count(surf, win_row, C.GOLD) > 50


@pytest.mark.parametrize("folds", [0, 1, 2, 3])
def test_the_folded_part_is_dark_and_the_rest_is_not(screen, folds):
    track = TrackView()
    surf = pygame.surfarray.array3d(screen.draw(race_model(MascotView("mum", 4, 13), folds=folds), now=0.0))
    layout = layout_for(screen.size)
    edge = track.back_edge(folds)
    for lane in (1, 4):
        for space in range(1, track.spaces + 1):
            mean = pixels(surf, space_rect(lane, space, layout)).mean()
            if space < edge:
                assert mean < 30, (lane, space, mean)
            elif space != 13 or lane != 4:
                assert mean > 50, (lane, space, mean)


def test_a_message_shows_for_a_few_seconds_then_goes(screen):
    model = race_model(MascotView("mum", 4, 3), message="Card HS15 was already revealed this pass", message_at=100.0)
    whole = (0, 0, *screen.size)
    assert count(screen.draw(model, now=99.0), whole, C.MESSAGE) == 0
    assert count(screen.draw(model, now=100.5), whole, C.MESSAGE) > 10_000
    assert count(screen.draw(model, now=103.5), whole, C.MESSAGE) > 10_000
    assert count(screen.draw(model, now=104.5), whole, C.MESSAGE) == 0


@pytest.mark.parametrize("card,colour", [(CardView("H+3", "HS15", "hurley"), "hurley"), (CardView("A-2", "HS53"), "green")])
def test_the_last_card_is_drawn_large_in_its_colour(screen, card, colour):
    surf = screen.draw(race_model(last_card=card), now=0.0)
    rect = card_tile_rect(layout_for(screen.size))
    assert count(surf, rect, C.colour(colour)) > 0.5 * rect[2] * rect[3]


def test_the_race_screen_from_a_real_race_puts_every_racing_mascot_where_the_engine_says(screen):
    race, _ = sample_race()
    model = from_race(race)
    surf = screen.draw(model, now=0.0)
    layout = layout_for(screen.size)
    racing = [m for m in model.mascots if m.status == "racing"]
    assert racing
    for m in racing:
        assert count(surf, space_rect(m.lane, m.space, layout), C.colour(m.mascot)) > 100, m


def test_geometry_tiles_the_track_and_rejects_spaces_off_it():
    for size in [(1280, 720), (1920, 1080), (800, 480)]:
        layout = layout_for(size)
        tx, ty, tw, th = layout.track
        area = sum(space_rect(l, s, layout)[2] * space_rect(l, s, layout)[3] for l, s in track_spaces(layout))
        assert area == tw * th
        assert space_rect(1, 1, layout)[:2] == (tx, ty)
    with pytest.raises(ValueError, match="lane 5, space 3"):
        space_rect(5, 3, layout_for((1280, 720)))
    with pytest.raises(ValueError, match="too small"):
        layout_for((100, 100))


def test_screen_model_rejects_an_unknown_screen():
    with pytest.raises(ValueError, match="'podium'"):
        ScreenModel(screen="podium")
    with pytest.raises(ValueError, match="'nope'"):
        sample_model("nope")


@pytest.mark.slow
def test_screenshot_command_writes_a_png_of_the_asked_size(tmp_path):
    out = tmp_path / "race.png"
    result = hotstreak("screenshot", "--screen", "race", "--out", str(out), "--size", "960x540")
    assert result.returncode == 0, result.stderr
    assert pygame.image.load(str(out)).get_size() == (960, 540)


@pytest.mark.slow
def test_screenshot_command_bad_size_exits_2_naming_it(tmp_path):
    result = hotstreak("screenshot", "--screen", "race", "--out", str(tmp_path / "x.png"), "--size", "big")
    assert result.returncode == 2
    assert "'big'" in result.stderr and "WIDTHxHEIGHT" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("args,said", [(("--size", "320x240"), "'320x240'"), (("--now", "nan"), "'nan'"),
                                       (("--now", "-5"), "'-5'"), (("--now", "inf"), "'inf'")])
def test_screenshot_refuses_sizes_under_the_panel_and_times_that_are_not_times(tmp_path, args, said):
    out = tmp_path / "x.png"
    result = hotstreak("screenshot", "--screen", "race", "--out", str(out), *args)
    assert result.returncode == 2 and said in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0 or not os.path.isdir("/sys/kernel"), reason="needs root and /sys")
def test_screenshot_into_a_place_that_cannot_be_written_is_one_line(tmp_path):
    # root passes the access checks for /sys, but the kernel refuses the file: the write itself fails
    result = hotstreak("screenshot", "--screen", "race", "--out", "/sys/kernel/hotstreak-x.png")
    assert result.returncode == 2 and "cannot write the PNG there" in result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1
