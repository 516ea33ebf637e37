"""The open variant's betting screen: each seat's bet so far and who is still to bet, from real scans."""

from __future__ import annotations

import dataclasses
import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest

pygame = pytest.importorskip("pygame")

from companion.rules.table import Table, realise
from companion.screen.draw import Painter
from companion.screen.model import ScreenModel, replace
from companion.screen.open_bets import OpenBetView
from companion.screen.pages import PAGE_SECONDS
from companion.screen.samples import sample_open_betting
from companion.screen.table_model import from_table, from_view
from companion.view.table_view import build


def open_table(players: int, *bets: str) -> Table:
    table, rng = Table(), random.Random(5)
    for text in ("HS-NEW", f"HS-PLAYERS-{players}", "HS-OPEN", "HS-GO", *bets):
        if text == "HS-OPEN" and players >= 9:
            continue   # 9 or more players play the open variant from the start
        table.apply(text, realise(text, rng))
    return table


def drawn(model: ScreenModel, size: tuple[int, int] = (1280, 720), now: float = 0.0) -> list[str]:
    painter = Painter(pygame.Surface(size))
    painter.draw(model, now)
    return painter.drawn_texts


def test_after_one_bet_the_screen_shows_it_and_who_is_still_to_bet_not_the_draft():
    table = open_table(3, "HS-BET-2-MUM")
    model = from_table(table)
    assert model.screen == "betting"
    assert [(b.name, b.mascot, b.answer) for b in model.open_bets] == [
        ("Seat 1", None, None), ("Seat 2", "mum", None), ("Seat 3", None, None)]
    texts = drawn(model)
    assert "MUM" in texts and texts.count("NO BET YET") == 2 and "YES OR NO?" in texts
    assert "STILL TO BET: SEAT 1, SEAT 2, SEAT 3" in texts and texts.count("$0") == 3   # the open variant starts at $0
    assert "DRAFT DONE: PRESS GO" not in texts and not any(t.startswith("TICKET") for t in texts)


def test_when_every_seat_has_bet_the_band_says_press_go_and_go_starts_the_race():
    table = open_table(3, "HS-BET-1-DANGLE", "HS-BET-1-YES", "HS-BET-2-MUM", "HS-BET-2-NO", "HS-BET-3-MUM")
    texts = drawn(from_table(table))
    assert "2 OF 3" in " ".join(texts) and "STILL TO BET: SEAT 3" in texts
    table.apply("HS-BET-3-YES")
    model = from_table(table)
    assert all(b.complete for b in model.open_bets)
    texts = drawn(model)
    assert "ALL BETS IN: PRESS GO" in texts and ["DANGLE", "YES", "MUM", "NO", "MUM", "YES"] == [
        t for t in texts if t in ("DANGLE", "MUM", "YES", "NO")]
    table.apply("HS-GO")
    assert table.phase == "racing"


def test_before_any_bet_the_band_says_to_scan_them_or_race_without():
    texts = drawn(from_table(open_table(4)))
    assert "SCAN EACH SEAT'S BET, OR PRESS GO TO RACE WITHOUT BETS" in texts


@pytest.mark.parametrize("lang, words", [("nl", ("NOG INZETTEN: SPELER 1", "NOG NIETS INGEZET")),
                                         ("es", ("FALTAN POR APOSTAR: JUGADOR 1", "SIN APUESTA AÚN"))])
def test_the_open_bets_speak_the_tables_language(lang, words):
    texts = drawn(from_table(open_table(2, "HS-BET-2-MUM", "HS-BET-2-YES"), language=lang))
    prompt, nobet = words
    assert any(t.startswith(prompt) for t in texts) and nobet in texts


def test_in_the_double_race_the_doubled_bet_says_x2_and_a_seat_without_one_is_still_to_bet():
    bets = (OpenBetView("Ann", "mum", True, "mascot", need_answer=True, need_double=True),
            OpenBetView("Bram", "hurley", False, None, need_answer=True, need_double=True),
            OpenBetView("Carmen", "dangle", True, "side", need_answer=True, need_double=True))
    model = ScreenModel(screen="betting", race_no=3, open_bets=bets)
    texts = drawn(model)
    assert "MUM x2" in texts and "YES x2" in texts and "MARK A DOUBLE" in texts
    assert "STILL TO BET: BRAM" in texts


def test_twelve_seats_fit_at_once_at_720p_and_turn_pages_on_the_7_inch_panel():
    model = sample_open_betting(12)
    names = [b.name.upper() for b in model.open_bets]
    at_once = drawn(model, (1280, 720))
    assert all(n in at_once for n in names) and "1/2" not in at_once
    first, second = drawn(model, (800, 480), 0.0), drawn(model, (800, 480), PAGE_SECONDS)
    assert "1/2" in first and "2/2" in second
    shown = [[n for n in names if n in page] for page in (first, second)]
    assert shown[0] and shown[1] and not set(shown[0]) & set(shown[1])
    assert sorted(shown[0] + shown[1]) == sorted(names)


def test_a_long_name_is_shortened_never_drawn_over_the_bet():
    model = sample_open_betting(3)
    long = replace(model, open_bets=(dataclasses.replace(model.open_bets[0], name="Maximiliano Bartholomew"),
                                     *model.open_bets[1:]))
    painter = Painter(pygame.Surface((800, 480)))
    painter.boxes = []
    painter.draw(long, 0.0)
    name = next(b for b in painter.boxes if b.text.startswith("MAXIMILIANO"))
    bet = next(b for b in painter.boxes if b.text == "DANGLE")
    assert name.rect[0] + name.rect[2] < bet.rect[0]


def test_the_sink_draws_again_when_a_page_of_bets_turns_and_not_between():
    """More than four seats' bets may be paged (the 7-inch panel): the screen's sink draws a frame at each page
    turn, on a fake clock, and none between them."""
    from companion.screen.sink import ScreenSink
    from test_screen_redraw import FRAME, FakeDisplay, run
    display = FakeDisplay()
    sink = ScreenSink(display)
    run(sink, build(open_table(8, "HS-BET-2-MUM")), 0.1, 2 * PAGE_SECONDS - 1.0)   # one page turn, at 6 s
    times = [now for _, now in display.drawn]
    assert display.drawn[0][0].screen == "betting" and len(display.drawn[0][0].open_bets) == 8
    assert len(times) == 2 and abs(times[1] - PAGE_SECONDS) < 2 * FRAME


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (1920, 1080)])
def test_a_seat_played_from_the_bet_sheet_shows_its_consent_code_whole_beside_its_bet(size):
    from test_screen_layout import problems
    table = open_table(12, *(f"HS-BET-{n}-{c}" for n in range(1, 13) for c in ("MUM", "YES") if n != 11),
                       "HS-BET-11-HURLEY")
    view = dataclasses.replace(build(table), seat_codes={2: "482193", 11: "905517"})
    model = from_view(view)
    painter = Painter(pygame.Surface(size))
    painter.boxes = []
    painter.draw(model, 0.0 if size != (800, 480) else PAGE_SECONDS)   # the panel: seat 11 is on page 2
    texts = [b.text for b in painter.boxes]
    assert ("482193" in texts) == (size != (800, 480)) and "905517" in texts
    assert "STILL TO BET: SEAT 11" in texts   # the band names the seat, never its code
    assert problems(painter.boxes, size) == []


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_every_text_of_the_open_bets_is_words_in_the_tables_language(lang):
    from test_screen_words import _bad
    model = sample_open_betting(12, lang)
    double = replace(model, open_bets=tuple(dataclasses.replace(b, need_double=True) for b in model.open_bets))
    texts = [t for m in (from_table(open_table(4), language=lang), model, double)
             for size in ((800, 480), (1280, 720)) for now in (0.0, PAGE_SECONDS) for t in drawn(m, size, now)]
    assert not {(t, tuple(_bad(t, lang))) for t in texts if _bad(t, lang)}
