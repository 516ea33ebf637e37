"""The big moment band: every moment's words fit inside the band at 800x480, 1280x720 and 1920x1080 in every
language, nothing in the band overlaps, and the band leaves the track and the running order in view."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pytest

pygame = pytest.importorskip("pygame")

from companion.screen.draw import Painter, layout_for
from companion.screen.layout import KEY_CAP
from companion.screen.model import replace, sample_model
from companion.screen.moments import MOMENT_SCREENS, Moment, showing
from companion.screen.words import LANGUAGES

SIZES = [(800, 480), (1280, 720), (1920, 1080)]
ALL = ("gobbler", "hurley", "dangle", "mum")
HARD = {  # the longest words a band can get: every mascot at once, two names, a long side bet question
    "fall-all": Moment("fall", ALL),
    "knockout-two": Moment("knockout", ("gobbler", "hurley"), place=4),
    "out-two": Moment("out", ("gobbler", "dangle"), place=4, way="side"),
    "out-mixed": Moment("out", ("hurley", "mum")),
    "side-bet-no": Moment("side-bet", answer=False, card_id="empty-final-stretch"),
    "winner-shared": Moment("winner", ("mum",), 1, podium=(("mum", 1), ("hurley", 2), ("dangle", 4),
                                                            ("gobbler", 4))),
}

_painters: dict[tuple[int, int], Painter] = {}


def painter(size):
    if size not in _painters:
        _painters[size] = Painter(pygame.Surface(size))
    return _painters[size]


def band(size, lang, model, moment):
    p = painter(size)
    L = layout_for(size, model.track)
    p.lang = lang
    return L, p.moment_band(model, L, moment)


def inside(rect, box) -> bool:
    x, y, w, h = rect
    bx, by, bw, bh = box
    return bx <= x and by <= y and x + w <= bx + bw and y + h <= by + bh


def overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def check(L, drawn):
    assert any(part == "title" for part, _ in drawn)
    for part, rect in drawn:
        assert inside(rect, L.bottom), (part, rect, L.bottom)
    for i, (pa, a) in enumerate(drawn):
        for pb, b in drawn[i + 1:]:
            assert not overlap(a, b), (pa, a, pb, b)
    # the title reads from across the table: capitals at least the key-information size (rect: ~1.4x the caps)
    title = min(rect[3] for part, rect in drawn if part == "title")
    assert title >= KEY_CAP * L.unit, title


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_sample_moment_fits_inside_its_band(size, lang):
    for name in MOMENT_SCREENS:
        model = sample_model(name, language=lang)
        for k in range(len(model.moments)):
            L, drawn = band(size, lang, model, model.moments[k])
            check(L, drawn)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_longest_moments_fit_too(size, lang):
    model = sample_model("moment-fall", language=lang)
    for name, moment in HARD.items():
        L, drawn = band(size, lang, model, moment)
        check(L, drawn)
        if moment.kind == "winner":
            assert sum(part == "podium" for part, _ in drawn) == 4


def test_the_band_leaves_the_track_and_the_running_order_in_view():
    size = (1280, 720)
    model = sample_model("moment-knockout")
    surf = pygame.Surface(size)
    p = Painter(surf)
    p.draw(replace(model, moments=()), now=0.0)
    plain = pygame.surfarray.array3d(surf).copy()
    p.draw(model, now=0.0)
    with_band = pygame.surfarray.array3d(surf)
    L = layout_for(size, model.track)
    for x, y, w, h in (L.track, L.order, L.header):
        assert np.array_equal(plain[x:x + w, y:y + h], with_band[x:x + w, y:y + h])
    x, y, w, h = L.bottom
    assert not np.array_equal(plain[x:x + w, y:y + h], with_band[x:x + w, y:y + h])


def test_the_band_is_drawn_while_its_moment_shows_then_the_fold_band_or_nothing():
    size = (1280, 720)
    model = sample_model("moment-fall")
    moment = model.moments[0]
    surf = pygame.Surface(size)
    p = Painter(surf)
    L = layout_for(size, model.track)
    x, y, w, h = L.bottom
    p.draw(model, now=0.0)
    during = pygame.surfarray.array3d(surf)[x:x + w, y:y + h].copy()
    p.draw(model, now=moment.seconds)
    after = pygame.surfarray.array3d(surf)[x:x + w, y:y + h].copy()
    p.draw(replace(model, moments=()), now=0.0)
    plain = pygame.surfarray.array3d(surf)[x:x + w, y:y + h]
    assert showing(model.moments, 0.0, 0.0) == moment and showing(model.moments, 0.0, moment.seconds) is None
    assert not np.array_equal(during, plain) and np.array_equal(after, plain)


def test_screenshot_names_every_moment_and_keeps_the_old_names(tmp_path):
    from conftest import hotstreak_in_process
    from companion.screen.model import SCREENS
    for name in (*MOMENT_SCREENS, *SCREENS):
        out = tmp_path / f"{name}.png"
        result = hotstreak_in_process("screenshot", "--screen", name, "--out", str(out), "--size", "800x480")
        assert result.returncode == 0, result.stderr
        assert pygame.image.load(str(out)).get_size() == (800, 480)
    result = hotstreak_in_process("screenshot", "--screen", "moment-fall", "--cards", "HF", "--out",
                                  str(tmp_path / "x.png"))
    assert result.returncode == 2 and "expected --screen race" in result.stderr
