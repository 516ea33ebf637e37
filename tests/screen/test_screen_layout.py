"""Every screen at 800x480, 1280x720 and 1920x1080 in en, nl and es: the text boxes the drawing layer records
(``Widgets.boxes``) do not overlap, are not shrunk below the size class's smallest capital, fit the room they
were given and stay inside the window. Overlays drawn on top on purpose (a refusal message, the name being
typed, the fold moment) are checked as their own layer."""

from __future__ import annotations

import functools
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest

pygame = pytest.importorskip("pygame")

from companion.screen.layout import LARGE, MEDIUM, SMALL, metrics_for
from companion.screen.model import ScreenModel, replace, sample_model
from companion.screen.widgets import TextBox

SIZES = ((800, 480), (1280, 720), (1920, 1080))
LANGS = ("en", "nl", "es")
URL = "http://192.168.100.200:8080/"


@functools.lru_cache(maxsize=None)
def _sample(screen: str, lang: str) -> ScreenModel:
    return sample_model(screen, language=lang)


def case_model(case: str, lang: str) -> ScreenModel:
    """The screen state named ``case``: a sample screen, or one of the states that have gone wrong before."""
    if case in ("attract", "setup", "betting", "race", "payouts", "game-over"):
        return _sample(case, lang)
    if case == "setup-qr":
        return replace(_sample("setup", lang), join_url=URL)
    if case == "betting-qr":
        return replace(_sample("betting", lang), join_url=URL)
    if case == "adding-cards-qr":
        return replace(_sample("betting", lang), join_url=URL, whose_pick=None, double_prompt=None,
                       table_phase="adding-cards")
    if case == "race-stale":
        return replace(_sample("race", lang), odds_stale=True, odds_card=16)
    if case == "race-name":
        return replace(_sample("race", lang), name_entry=(2, 4, "Carmen"))
    if case == "setup-name":
        return replace(_sample("setup", lang), name_entry=(3, 4, "Bram"), join_url=URL)
    if case == "race-message":
        return replace(_sample("race", lang), message="ticket hurley-top is drafted twice (each ticket exists "
                       "once)", message_at=0.0)
    raise ValueError(case)


CASES = ("attract", "setup", "betting", "race", "payouts", "game-over", "setup-qr", "betting-qr", "adding-cards-qr",
         "race-stale", "race-name", "setup-name", "race-message")


def render(case: str, size: tuple[int, int], lang: str):
    """Draw ``case`` at ``size`` in ``lang`` with the measuring hook on: (the painter, its text boxes)."""
    from companion.screen.draw import Painter
    painter = Painter(pygame.Surface(size))
    painter.boxes = []
    painter.draw(case_model(case, lang), now=1.0)
    return painter, list(painter.boxes)


def _overlap(a: TextBox, b: TextBox) -> bool:
    ax, ay, aw, ah = a.rect
    bx, by, bw, bh = b.rect
    return min(ax + aw, bx + bw) > max(ax, bx) and min(ay + ah, by + bh) > max(ay, by)


def problems(boxes: list[TextBox], size: tuple[int, int]) -> list[str]:
    """What is wrong with one frame's text boxes, one line each (empty: nothing)."""
    m = metrics_for(size)
    floor = {"text": m.min_cap, "badge": m.badge_cap, "call": m.call_cap}
    out = []
    w, h = size
    for i, b in enumerate(boxes):
        x, y, bw, bh = b.rect
        if b.kind == "text" and b.cap < floor[b.role] - 0.5:
            out.append(f"{b.text!r} ({b.role}) is {b.cap:.1f} px, under {floor[b.role]}")
        if not b.fits:
            out.append(f"{b.text!r} does not fit its room at {b.cap:.1f} px")
        if x < 0 or y < 0 or x + bw > w or y + bh > h:
            out.append(f"{b.text!r} at {b.rect} is outside the {w}x{h} window")
        for other in boxes[i + 1:]:
            if other.layer == b.layer and _overlap(b, other):
                out.append(f"{b.text!r} at {b.rect} overlaps {other.text!r} at {other.rect}")
    return out


def test_size_classes_follow_the_window():
    assert metrics_for((800, 480)) is SMALL and metrics_for((1024, 600)) is MEDIUM
    assert metrics_for((1280, 720)) is MEDIUM and metrics_for((1920, 1080)) is LARGE
    assert metrics_for((3840, 2160)) is LARGE and metrics_for((900, 1600)) is SMALL


def test_the_overlap_check_sees_an_overlap_a_small_word_and_a_word_off_the_window():
    a = TextBox((0, 0, 100, 40), "GOBBLER", 24)
    b = TextBox((90, 10, 60, 40), "31%", 24)
    tiny = TextBox((300, 300, 20, 10), "space 6", 13, role="badge")
    off = TextBox((780, 0, 60, 40), "$32", 24)
    overlay = TextBox((0, 0, 800, 200), "Not taken", 30, layer="message")
    found = problems([a, b, tiny, off, overlay], (800, 480))
    assert any("overlaps" in p and "GOBBLER" in p and "31%" in p for p in found)
    assert any("'space 6' (badge) is 13.0 px" in p for p in found)
    assert any("outside the 800x480 window" in p for p in found)
    assert not any("Not taken" in p for p in found)


def test_the_hook_is_off_by_default_and_records_when_asked():
    from companion.screen.draw import Painter
    painter = Painter(pygame.Surface((800, 480)))
    painter.draw(_sample("race", "en"), now=1.0)
    assert painter.boxes is None
    painter.boxes = []
    painter.draw(_sample("race", "en"), now=1.0)
    assert any(b.text == "GOBBLER" for b in painter.boxes)
    painter.draw(_sample("race", "en"), now=1.0)   # a new frame starts a new list
    assert sum(b.text == "GOBBLER" for b in painter.boxes) == 1


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("case", CASES)
def test_no_text_overlaps_shrinks_or_leaves_the_window(case, size, lang):
    _, boxes = render(case, size, lang)
    assert boxes, "the hook recorded nothing"
    assert problems(boxes, size) == []
