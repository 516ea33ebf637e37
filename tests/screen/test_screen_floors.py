"""What the table reads between cards is large enough where it is read: the 7-inch panel's track letters, the
figures at 1080p, the TURNED word inside its panel in a colour that is no alarm, and an "All" card with every
mascot's move. (The layout test, tests/screen/test_screen_layout.py, checks every floor on every screen; these
name the cases the issue found.)"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest

pygame = pytest.importorskip("pygame")

from companion import colours as C
from companion.screen.layout import layout_for
from companion.screen.model import sample_model
from companion.screen.race_panels import MOVE_CALM

TURNED = tuple("HS32 HS51 HS02 HS24 HS21 HS35 HS53 HS10 HS05 HS12 HS49 HS18 HS13".split())


def render(model, size):
    from companion.screen.draw import Painter
    painter = Painter(pygame.Surface(size))
    painter.boxes = []
    painter.draw(model, now=1.0)
    return painter.surface, list(painter.boxes)


def inside(rect, outer) -> bool:
    x, y, w, h = rect
    ox, oy, ow, oh = outer
    return x >= ox and y >= oy and x + w <= ox + ow and y + h <= oy + oh


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_every_mascot_letter_on_the_panels_track_is_at_least_20_px(lang):
    model = sample_model("race", cards=TURNED, language=lang)   # two mascots share a space here
    _, boxes = render(model, (800, 480))
    letters = [b for b in boxes if b.role == "letter"]
    on_track = [m for m in model.mascots if m.status == "racing"]
    assert len(letters) == len(on_track) == 4
    assert all(b.cap >= 20 and inside(b.rect, layout_for((800, 480)).track) for b in letters)


def test_the_panels_track_takes_most_of_the_width_and_the_order_sits_under_it():
    L = layout_for((800, 480))
    assert L.track[2] >= 0.9 * 800 and L.track[3] >= 0.4 * 480
    assert L.order[1] >= L.track[1] + L.track[3] and L.seats[1] >= L.track[1] + L.track[3]


def test_at_1080p_titles_odds_money_and_action_words_are_at_least_28_px():
    model = sample_model("race", language="en")
    _, boxes = render(model, (1920, 1080))
    by_text = {b.text: b for b in boxes}
    seat = model.seats[0]
    for text in ("LAST CARD", "RACE CALL", "MONEY", "IF IT ENDED NOW", "FALL", f"${seat.money}"):
        assert by_text[text].cap >= 28 - 0.5, (text, by_text[text].cap)
    odds = [b for b in boxes if b.text.endswith("%")]
    assert odds and all(b.cap >= 28 - 0.5 for b in odds)


def test_the_turned_word_fits_its_panel_at_720p_in_a_calm_colour():
    size = (1280, 720)
    surf, boxes = render(sample_model("race", cards=TURNED, language="en"), size)
    (turned,) = [b for b in boxes if b.text == "TURNED" and inside(b.rect, layout_for(size).card)]
    x, y, w, h = turned.rect
    fill = tuple(surf.get_at((x + 3, y + h // 2)))[:3]   # the badge's left end, beside its word
    assert fill == MOVE_CALM and fill != C.OUT_MARK


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_all_card_shows_every_mascots_move(size, lang):
    model = sample_model("race", cards=("H+2", "G+1", "A+1"), language=lang)
    assert len(model.moves) == 4
    _, boxes = render(model, size)
    card = layout_for(size).card
    figures = [b.text for b in boxes if b.role == "figure" and b.text.isdigit() and inside(b.rect, card)]
    expected = sorted(str(n) for mv in model.moves for n in (mv.from_space, mv.to_space))
    assert sorted(figures) == expected


@pytest.mark.parametrize("screen", ["betting", "payouts"])
def test_at_1080p_what_tickets_pay_is_at_least_28_px(screen):
    """Betting: the stacks table's pays; payouts: each seat's tickets with what they paid."""
    model = sample_model(screen, language="en")
    _, boxes = render(model, (1920, 1080))
    if screen == "betting":
        pays = [b for b in boxes if b.text in ("5 3 2", "11 3 1", "+15 / -5")]
    else:
        pays = [b for b in boxes if ":" in b.text and b.text.rsplit(":", 1)[1].strip().lstrip("+-").isdigit()]
    assert len(pays) >= 3 and all(b.cap >= 28 - 0.5 for b in pays), [(b.text, b.cap) for b in pays]


@pytest.mark.parametrize("heights,room,pages", [
    ([100, 100, 100, 100], 330, [[0, 1], [2, 3]]),        # 3 would fit the first page: shared 2 and 2
    ([100, 100, 100], 400, [[0, 1, 2]]),                 # all on one page
    ([100, 250, 100, 100], 330, [[0], [1], [2, 3]]),     # evenly does not fit: as many as fit, in order
    ([500, 100], 330, [[0], [1]]),                       # a row taller than a page: a page of its own
])
def test_the_standings_are_shared_out_over_as_few_pages_as_fit(heights, room, pages):
    from companion.screen.panel_screens import page_split
    assert page_split(heights, room, 10) == pages


def test_the_panels_money_shows_four_seats_at_a_time_the_pages_turning():
    import dataclasses
    from companion.screen.pages import PAGE_SECONDS
    model = sample_model("race", language="en")
    seats = tuple(dataclasses.replace(s, name=f"{s.name} {k}") for k in (1, 2) for s in model.seats)
    model = dataclasses.replace(model, seats=seats)
    shown = []
    for k in range(3):
        from companion.screen.draw import Painter
        painter = Painter(pygame.Surface((800, 480)))
        painter.boxes = []
        painter.draw(model, now=k * PAGE_SECONDS + 1.0)
        names = {b.text for b in painter.boxes} & {s.name.upper() for s in seats}
        assert len(names) == 4 and f"MONEY {k % 2 + 1}/2" in {b.text for b in painter.boxes}
        shown.append(names)
    assert shown[0] | shown[1] == {s.name.upper() for s in seats} and shown[2] == shown[0]
