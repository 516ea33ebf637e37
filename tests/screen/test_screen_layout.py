"""Every screen at 800x480, 1280x720 and 1920x1080 in en, nl and es: the text boxes the drawing layer records
(``Widgets.boxes``) do not overlap, are not shrunk below the size class's smallest capital, fit the room they
were given and stay inside the window. Overlays drawn on top on purpose (a refusal message, the name being
typed, the fold moment) are checked as their own layer."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest

pygame = pytest.importorskip("pygame")

from companion.screen.layout import LARGE, MEDIUM, SMALL, layout_for, metrics_for
from companion.screen.model import ScreenModel, replace, sample_model
from companion.screen.widgets import TextBox

SIZES = ((800, 480), (1280, 720), (1920, 1080))
LANGS = ("en", "nl", "es")
URL = "http://192.168.100.200:8080/"
TURNED = tuple("HS32 HS51 HS02 HS24 HS21 HS35 HS53 HS10 HS05 HS12 HS49 HS18 HS13".split())
ALL_CARD = ("H+2", "G+1", "A+1")
FOLD_PASS = tuple("HS51 HS27 HS24 HS25 HS38 HS01 HS29 HS03 HS12 HS40 HS13 HS08 HS16 HS30 HS23".split())


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
    if case == "race-fold":   # the fifteenth card of a pass: the fold moment on top
        return sample_model("race", cards=FOLD_PASS, language=lang)
    if case.startswith("moment-"):
        return sample_model(case, language=lang)
    if case == "race-turned":   # Hurley stands up and runs facing home: the TURNED word in the last card panel
        return sample_model("race", cards=TURNED, language=lang)
    if case == "race-all":   # an "All" card moves every mascot: each move in the last card panel
        return sample_model("race", cards=ALL_CARD, language=lang)
    if case == "race-8-seats":   # eight seats: the money in two columns, on the 7-inch panel four at a time
        model = _sample("race", lang)
        return replace(model, seats=tuple(dataclasses.replace(s, name=f"{s.name} {k}") for k in (1, 2)
                                          for s in model.seats))
    if case == "setup-codes":   # seats named at the kiosk: each shows the 6-digit code a phone types to take it
        model = replace(_sample("setup", lang), join_url=URL)
        return replace(model, seats=tuple(dataclasses.replace(s, name=f"{s.name}{'a' * k} · 48219{k}")
                                          for k, s in enumerate(model.seats)))
    if case.startswith("betting-open-"):   # the open variant's bets: 3 or 12 seats; "-double": race 3's doubles
        from companion.screen.samples import sample_open_betting
        model = sample_open_betting(int(case.split("-")[2]), lang)
        if case.endswith("-double"):
            doubles = ("mascot", "side", None)
            return replace(model, open_bets=tuple(dataclasses.replace(b, need_double=True, double=doubles[k % 3])
                                                  for k, b in enumerate(model.open_bets)))
        return model
    if case == "race-message":
        return replace(_sample("race", lang), message="ticket hurley-top is drafted twice (each ticket exists "
                       "once)", message_at=0.0)
    raise ValueError(case)


CASES = ("attract", "setup", "betting", "race", "payouts", "game-over", "setup-qr", "betting-qr", "adding-cards-qr",
         "race-stale", "race-name", "setup-name", "race-message", "race-fold", "race-turned", "race-all",
         "race-8-seats", "setup-codes", "betting-open-3", "betting-open-12", "betting-open-12-double",
         "moment-fall", "moment-knockout", "moment-out", "moment-finish", "moment-side-bet", "moment-winner")


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


def _inside(a: TextBox, b: TextBox) -> bool:
    ax, ay, aw, ah = a.rect
    bx, by, bw, bh = b.rect
    return ax >= bx and ay >= by and ax + aw <= bx + bw and ay + ah <= by + bh


def problems(boxes: list[TextBox], size: tuple[int, int]) -> list[str]:
    """What is wrong with one frame's text boxes, one line each (empty: nothing)."""
    m = metrics_for(size)
    floor = {"text": m.min_cap, "badge": m.badge_cap, "call": m.call_cap, "letter": m.letter_cap,
             "figure": max(m.figure_cap, m.min_cap)}
    out = []
    w, h = size
    for band in (b for b in boxes if b.kind == "band"):   # a band covers what it covers whole: nothing cut
        for b in boxes:
            if b.layer == "screen" and _overlap(b, band) and not _inside(b, band):
                out.append(f"{b.text!r} at {b.rect} is cut by the {band.layer} band at {band.rect}")
    boxes = [b for b in boxes if b.kind != "band"]
    for i, b in enumerate(boxes):
        x, y, bw, bh = b.rect
        if b.kind == "text" and b.cap < floor[b.role] - 0.5:
            out.append(f"{b.text!r} ({b.role}) is {b.cap:.1f} px, under {floor[b.role]}")
        if not b.fits:
            out.append(f"{b.text!r} does not fit its room at {b.cap:.1f} px")
        if x < 0 or y < 0 or x + bw > w or y + bh > h:
            out.append(f"{b.text!r} at {b.rect} is outside the {w}x{h} window")
    by_left = sorted(boxes, key=lambda box: box.rect[0])  # a sweep: only boxes that start left of one's right edge
    for i, b in enumerate(by_left):
        right = b.rect[0] + b.rect[2]
        for other in itertools.takewhile(lambda o: o.rect[0] < right, by_left[i + 1:]):
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


# The quick loop draws each state in the windows where words run out of room first: the 7-inch panel in every
# language, and a TV in English; the full suite draws the other five windows as well (one slow test, about 1 s).
QUICK_WINDOWS = (*(((800, 480), lang) for lang in LANGS), ((1920, 1080), "en"))
OTHER_WINDOWS = tuple(w for w in itertools.product(SIZES, LANGS) if w not in QUICK_WINDOWS)


def window_problems(case: str, windows) -> list[str]:
    """:func:`problems` of ``case`` drawn in each ``(size, language)`` of ``windows``, each line saying where."""
    found = []
    for size, lang in windows:
        _, boxes = render(case, size, lang)
        where = f"{case} at {size[0]}x{size[1]} in {lang}"
        found += [f"{where}: {line}" for line in problems(boxes, size) or ([] if boxes else ["no text recorded"])]
    return found


@pytest.mark.parametrize("case", CASES)
def test_no_text_overlaps_shrinks_or_leaves_the_window(case):
    """One screen state in the quick windows (one test a state, not a window: each of the 243 windows was a test
    of its own, and the test harness's own cost came to half of theirs; docs/bench.md)."""
    assert window_problems(case, QUICK_WINDOWS) == []


@pytest.mark.slow  # about 1 s: 135 frames
def test_no_text_overlaps_shrinks_or_leaves_the_window_in_the_other_windows_either():
    assert [line for case in CASES for line in window_problems(case, OTHER_WINDOWS)] == []


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("rect", [(0, 0, 81, 122), (0, 0, 41, 54), (0, 0, 53, 81)])
def test_mascots_sharing_a_space_never_overlap_and_stay_inside_it(count, rect):
    from companion.screen.layout import mascot_spots
    spots = mascot_spots(rect, count)
    x, y, w, h = rect
    assert len(spots) == count and len({r for _, _, r in spots}) == 1
    for i, (cx, cy, r) in enumerate(spots):
        assert x <= cx - r and cx + 1.45 * r <= x + w + 1 and y <= cy - r and cy + r <= y + h
        for ox, oy, _ in spots[i + 1:]:   # a figure is its body and its nose: 2.45 r wide, 2 r high
            assert abs(ox - cx) >= 2.45 * r or abs(oy - cy) >= 2 * r


def test_two_mascots_on_a_1080p_space_are_larger_than_before():
    from companion.screen.layout import layout_for, mascot_spots, space_rect
    L = layout_for((1920, 1080))
    assert mascot_spots(space_rect(1, 5, L), 2)[0][2] >= 22   # side by side they were 16 px and overlapped


def test_if_the_race_ended_now_placed_mascots_keep_their_places_and_the_rest_go_by_how_far_ahead():
    from companion.rules import Mascot
    from companion.view.money import placings_now
    from companion.screen.samples import sample_race
    race, _ = sample_race()   # gobbler crossed (1st), dangle knocked out (4th), mum and hurley racing
    now = placings_now(race)
    assert now["gobbler"] == 1 and now["dangle"] == 4
    ahead = max(("mum", "hurley"), key=lambda m: race.mascot(Mascot(m)).space)
    assert now[ahead] == 2 and sorted(now.values()) == [1, 2, 3, 4]


def test_a_ticket_pays_now_what_the_payout_table_says_for_its_place_now():
    from companion.rules import Race
    from companion.rules.betting import Bet, Ticket, load_tickets
    from companion.view.money import ticket_money
    race = Race()
    race.push_text("H+3")   # hurley ahead of the field: 1st if it ended now
    table = load_tickets()
    top_risky = Bet(Ticket("hurley", "top"), "risky")
    (money,) = ticket_money([top_risky], table, 1, race, True, None)
    assert money.if_ended == table.mascot[("top", "risky")][0] and money.paid is None


@pytest.mark.parametrize("card,pass_no,lang,text", [
    (5, 1, "en", "After card 5"), (16, 2, "en", "After card 1"), (15, 2, "nl", "Na ronde 1 kaart 15"),
    (0, 1, "es", "Antes de salir"), (None, 1, "en", "")])
def test_the_odds_say_which_card_they_belong_to(card, pass_no, lang, text):
    from companion.screen.race_money import odds_label
    assert odds_label(lang, card, pass_no, 15) == text


def test_stale_odds_are_dimmed_and_say_they_are_updating():
    from companion.screen.draw import Painter
    painter = Painter(pygame.Surface((1920, 1080)))
    painter.boxes = []
    painter.draw(replace(_sample("race", "en"), odds_stale=True, odds_card=16), now=1.0)
    texts = [b.text for b in painter.boxes]
    assert "AFTER CARD 1 · UPDATING" in texts and {"1ST", "2ND"} <= set(texts)
    painter.draw(_sample("race", "en"), now=1.0)
    assert "AFTER CARD 2" in [b.text for b in painter.boxes]


def test_the_money_panel_shows_what_each_ticket_pays_if_the_race_ended_now():
    """At 1080p, 28 px: with two seats each ticket by name with its pay; with four (no room for the names),
    each ticket as its mascot's figure and its pay, YES and NO by word, in two columns; and each seat's total."""
    from companion.screen.draw import Painter
    from companion.screen.race_panels import _dollars
    model = _sample("race", "en")
    painter = Painter(pygame.Surface((1920, 1080)))
    painter.boxes = []
    painter.draw(model, now=1.0)
    money = layout_for((1920, 1080)).seats
    pays = [b for b in painter.boxes if b.role == "figure" and _inside(b, TextBox(money, "", 0))]
    for seat in model.seats:
        total = _dollars(sum(seat.pays_now))
        assert any(b.text == total for b in pays), (seat.name, total)
        for stack, paid in zip(seat.stacks, seat.pays_now):
            want = _dollars(paid) if stack not in ("yes", "no") else f"{stack.upper()} {_dollars(paid)}"
            assert any(b.text == want and b.cap >= 28 - 0.5 for b in pays), (seat.name, want)
    model = replace(model, seats=tuple(s for s in model.seats if s.name in ("Ann", "Bram")))
    painter.draw(model, now=1.0)
    texts = [b.text for b in painter.boxes]
    ann = next(s for s in model.seats if s.name == "Ann")
    assert "IF IT ENDED NOW" in texts
    for ticket, paid in zip(ann.tickets, ann.pays_now):   # "DANGLE MIDDLE: $0": the ticket without its side
        short = ticket.upper().partition(",")[0]
        hit = [b for b in painter.boxes if b.text.startswith(short + ":") and b.text.endswith(f"${abs(paid)}")]
        assert hit and hit[0].cap >= 28 - 0.5, (short, texts)
    assert f"+${sum(ann.pays_now)}" in texts


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", [(800, 480), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_payouts_show_the_side_bet_question_with_its_answer_on_every_size(size, lang):
    """On the 7-inch panel the answer is a YES/NO badge at the left of the whole question (the longer Dutch
    one too); on larger screens the whole answer sits under the question."""
    from companion.screen.words import say
    model = _sample("payouts", lang)
    assert model.side_bet and model.side_bet_answer is False
    _, boxes = render("payouts", size, lang)
    words = " ".join(b.text for b in boxes)
    assert " ".join(model.side_bet.split()) in words, words   # every word of the question, in order
    no = say(lang, "no").upper()
    answer = next(b for b in boxes if b.text == no or b.text.startswith(no + ","))
    question = [b for b in boxes if b.text and b.text in model.side_bet]
    if size == (800, 480):
        assert answer.text == no and all(answer.rect[0] + answer.rect[2] <= q.rect[0] for q in question)
    else:
        assert all(answer.rect[1] >= q.rect[1] + q.rect[3] for q in question)


@pytest.mark.parametrize("lang", LANGS)
def test_the_7_inch_betting_screen_shows_the_side_bet_question_in_every_language(lang):
    """The stacks table's title is the question: in capitals where it fits, else as written (the Spanish one)."""
    model = _sample("betting", lang)
    _, small = render("betting", (800, 480), lang)
    texts = [b.text for b in small]
    assert model.side_bet.upper() in texts or model.side_bet in texts, texts


def test_the_7_inch_betting_screen_keeps_the_side_bet_question_and_the_double_in_a_few_words():
    """The stacks table takes the side bet's question as its title and the band the race-3 note's short form,
    where the whole note does not fit; the larger screens keep the whole note and the side bet panel."""
    model = _sample("betting", "en")
    assert model.side_bet and model.double_short and model.whose_pick
    _, small = render("betting", (800, 480), "en")
    texts = [b.text for b in small]
    assert model.side_bet.upper() in texts
    assert model.double_short.upper() in texts and not any(t.startswith("RACE 3: AFTER") for t in texts)
    _, large = render("betting", (1280, 720), "en")
    texts = [b.text for b in large]
    assert any(t.startswith("RACE 3: AFTER YOUR LAST PICK") for t in texts)
    assert model.double_short.upper() not in texts and model.side_bet.upper() not in texts


@pytest.mark.parametrize("lang", LANGS)
def test_the_panels_game_over_shows_every_life_outcome_line_over_its_pages(lang):
    """On the 7-inch panel each standing keeps its life-outcome line, wrapped; the standings that do not fit one
    page follow on the next, each page up for PAGE_SECONDS, and the pages turn round."""
    from companion.screen.draw import Painter
    from companion.screen.pages import PAGE_SECONDS
    model = _sample("game-over", lang)
    painter = Painter(pygame.Surface((800, 480)))
    seen: list[str] = []
    pages = []
    for k in range(3):
        painter.boxes = []
        painter.draw(model, now=k * PAGE_SECONDS + 0.5)
        pages.append([b.text for b in painter.boxes])
        seen += pages[-1]
        assert problems(painter.boxes, (800, 480)) == []
    text = " ".join(seen)
    for st in model.standings:
        assert st.name.upper() in seen and " ".join(st.line.split()) in text, st
    assert pages[0] != pages[1] and pages[2] == pages[0]   # two pages here, turning round
    assert "1/2" in pages[0] and "2/2" in pages[1]


def test_a_game_over_row_without_its_life_outcome_line_has_its_words_in_the_middle():
    """A standing without a life-outcome line has its place, name and money in the middle of its row, not at
    its top over an empty half; with its line, the line is under the name (720p)."""
    import dataclasses
    from companion.screen.draw import Painter
    from companion.screen.layout import layout_for, standing_rect
    size = (1280, 720)
    model = _sample("game-over", "en")
    without = dataclasses.replace(model, life_outcome=None,
                                  standings=tuple(dataclasses.replace(s, line="") for s in model.standings))
    for shown, with_lines in ((model, True), (without, False)):
        painter = Painter(pygame.Surface(size))
        painter.boxes = []
        painter.draw(shown, now=1.0)
        texts = [b.text for b in painter.boxes]
        assert any(t == s.line for s in model.standings for t in texts) == with_lines
        x, y, w, h = standing_rect(0, len(model.standings), layout_for(size))
        name = next(b for b in painter.boxes if b.text == model.standings[0].name.upper())
        middle = name.rect[1] + name.rect[3] / 2
        assert (abs(middle - (y + h / 2)) <= h * 0.1) != with_lines
