"""Only words on the kiosk screen: every text drawn on every screen of a whole recorded game (attract, setup,
betting, race, payouts, game over), in English, Dutch and Spanish, holds no card notation, label code, bracket,
internal id or English word where the table's language has its own; a refusal is a short sentence in the
table's language; after a restart the race call is the race's, never "Undo"."""

from __future__ import annotations

import re

import pytest

from companion.call import screencall
from companion.call.words import load_catalogue, refusal_line
from companion.rules.errors import Reason, RefusedError
from companion.screen.model import replace
from companion.screen.words import place, say
from companion.tools.demo import parse_script, script_path
from tablekit import TableKit

NOTATION = re.compile(r"^[GHDMA](?:R|[+-]\d+|\*|T|F|<|>)+$")  # a whole card notation: G+2>, HT, DF, A-1
INSIDE = re.compile(r"\b[A-Z]{1,2}R?[+-]\d")                    # notation inside a text: "G+2>", "GR+2"
CODE = re.compile(r"\bHS-?[A-Z0-9]")                           # label codes: HS10, HS-NEW, HS-T-MUM-1-S
IDS = re.compile(r"\b[a-z]+(?:[-_][a-z0-9]+)+\b")             # snake or kebab ids: two-on-finish-space, mum-top
WORDS_WITH_A_HYPHEN = {"knock-out", "sd-kaart", "face-up", "finish-line", "mascot-themed"}  # words, not ids

# English words that have their own word in Dutch and Spanish (docs/words.md): none may show in those screens.
ENGLISH = {"the", "card", "pass", "space", "lane", "runs", "seat", "undo", "money", "betting", "payouts", "players",
           "side", "bet", "down", "back", "taken", "restored", "nothing", "happens", "takes", "crosses", "turns",
           "around", "stands", "fold", "reshuffle", "burn", "three", "standings", "wins", "loses", "your", "pick",
           "draft", "safe", "risky", "chance", "known", "scanned", "ahead", "swerve", "star", "left", "right",
           "keyboard", "name", "race call", "running order", "last", "shares", "home", "knocked"}


def _bad(text: str, lang: str) -> list[str]:
    """What is wrong with one drawn text for a screen in ``lang`` (empty: nothing)."""
    found = []
    if NOTATION.match(text.strip()) and len(text.strip()) > 1:
        found.append("card notation")
    if INSIDE.search(text):
        found.append("card notation inside")
    if CODE.search(text):
        found.append("label code")
    if "[" in text or "]" in text:
        found.append("bracket")
    if [i for i in IDS.findall(text) if i.lower() not in WORDS_WITH_A_HYPHEN]:
        found.append("id")
    if lang != "en":
        low = text.lower()
        words = set(re.findall(r"[\w']+", low))
        english = {w for w in ENGLISH if (w in low if " " in w else w in words)}
        if english:
            found.append(f"English {sorted(english)}")
    return found


def _painter(table: TableKit):
    return table.screen.display.painter


def _play(lang: str) -> dict[str, list[str]]:
    """The demo game's inputs one by one on a table with a screen; every frame's texts by screen name."""
    seen: dict[str, list[str]] = {}
    from companion.screen.samples import SAMPLE_ODDS
    with TableKit(lang=lang, screen=True, odds=lambda: SAMPLE_ODDS) as table:   # with odds: "To win" and "%"
        painter = _painter(table)
        seen.setdefault("attract", []).extend(painter.drawn_texts)
        for text, _wait in parse_script(script_path().read_text("utf-8")):
            table.scan(text)
            table.advance(0.05)
            screen = table.status()["phase"]
            seen.setdefault(screen, []).extend(painter.drawn_texts)
        assert table.status()["phase"] == "game-over"
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_every_text_on_every_screen_of_a_whole_game_is_words(lang):
    seen = _play(lang)
    assert {"new-game", "setup", "betting", "racing", "payouts", "game-over"} <= set(seen) | {"new-game"}
    problems = {(screen, text, tuple(_bad(text, lang))) for screen, texts in seen.items() for text in texts
                if _bad(text, lang)}
    assert not problems, sorted(problems)[:60]
    race = " ".join(seen["racing"])
    # the odds were on the screen: "to win" (one column) or the paid places' captions (1st, 2nd...)
    assert "%" in race and (say(lang, "to_win").upper() in race or place(lang, 2).upper() in race)
    assert say(lang, "card_of", n=1, m=15).upper() in race                  # the header chip, in the language
    first = load_catalogue(lang).screen["revealed"].split(" {reveal}")[0]
    assert first in race                                                     # the call panel's cards, in words


@pytest.mark.parametrize("text", ["G+2>", "HT", "DF", "A-1", "GR+2", "Card 8 of pass 1: G+2> [HS10] (Gobbler)",
                                  "Side bet (two-on-finish-space)", "Undo: HS-T-MUM-1-S taken back"])
def test_the_checks_find_notation_codes_brackets_and_ids(text):
    assert _bad(text, "en")


@pytest.mark.parametrize("text", ["Card 8, pass 1: Gobbler, 2 ahead", "KNOCK-OUT", "$10", "+15 / -5", "1ST", "G"])
def test_the_checks_let_words_through(text):
    assert not _bad(text, "en")


def test_the_checks_find_english_words_on_a_dutch_screen():
    assert _bad("Card 1, pass 1: Hurley", "nl") and _bad("RUNNING ORDER", "es")
    assert not _bad("Kaart 1, ronde 1: Hurley, 3 vooruit", "nl")


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_a_refusal_is_a_short_sentence_in_the_table_s_language_never_the_scanned_text(lang):
    with TableKit(lang=lang, screen=True) as table:
        table.start_race()
        table.scan("HS-NOPE")
        texts = " ".join(_painter(table).drawn_texts)
        line = refusal_line(RefusedError("x", Reason.UNKNOWN), lang)
        assert line in texts and "HS-NOPE" not in texts and "nope" not in texts.lower()
        assert "(" not in texts  # no engine detail in brackets


def test_the_refusal_banner_leaves_the_two_leading_rows_of_the_running_order_free():
    import pygame

    from companion.screen.draw import Painter
    from companion.screen.layout import layout_for, order_rect
    from companion.screen.samples import sample_model
    size = (1280, 720)
    model = sample_model("race")
    plain, with_message = pygame.Surface(size), pygame.Surface(size)
    Painter(plain).draw(model, 0.0)
    long_line = "That player count doesn't fit this game. " * 3
    Painter(with_message).draw(replace(model, message=long_line, message_at=0.0), 0.0)
    L = layout_for(size)
    for row in (0, 1):
        x, y, w, h = order_rect(row, L)
        area = (x, y, w, h)
        assert pygame.image.tobytes(plain.subsurface(area), "RGB") == \
            pygame.image.tobytes(with_message.subsurface(area), "RGB"), row


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_after_a_restart_the_race_call_is_the_race_s_and_says_the_game_was_restored(tmp_path, lang):
    db = tmp_path / "journal.db"
    with TableKit(db, lang=lang) as table:
        table.start_race()
        table.scan("HS15")  # Hurley +3
        table.scan("HS10")  # Gobbler +2, swerve right
    with TableKit(db, lang=lang, screen=True) as table:
        log = table.screen.log
        undo = say(lang, "undo")
        assert undo not in log and "Undo" not in " ".join(log)
        revealed = load_catalogue(lang).screen["revealed"]
        assert log[-1] == screencall.restored(lang)
        assert [line for line in log if not line.startswith(" ")][:2] == [
            revealed.split(":")[0].format(reveal=1, pass_no=1) + ": Hurley, " + screencall.effect(
                _card("HS15"), lang),
            revealed.split(":")[0].format(reveal=2, pass_no=1) + ": Gobbler, " + screencall.effect(
                _card("HS10"), lang)]
        table.press("undo")
        log = table.screen.log
        assert screencall.restored(lang) not in log                  # an undo is no restart
        assert len([line for line in log if not line.startswith(" ")]) == 2   # card 1 and the undo's line
        taken = load_catalogue(lang).screen["undone"].split(":")[0]
        assert log[-1].startswith(taken + ": Gobbler")


def test_a_fresh_start_shows_an_empty_race_call():
    with TableKit(screen=True) as table:
        assert table.screen.log == []


def _card(code: str):
    from companion.rules.deck import load_deck
    return load_deck().lookup(code)[0]


def test_the_keyboard_hint_shows_only_where_a_keyboard_types_into_the_screen():
    from companion.screen.draw import Painter
    from companion.screen.samples import sample_model
    import pygame
    model = sample_model("setup")
    painter = Painter(pygame.Surface((1280, 720)))
    painter.draw(model, 0.0)
    hint = say("en", "name_key").upper()
    assert hint not in painter.drawn_texts
    painter.draw(replace(model, keyboard=True), 0.0)
    assert hint in painter.drawn_texts


def test_the_kiosk_says_a_keyboard_is_there_only_for_a_desktop_window():
    with TableKit(screen=True) as table:   # a dummy display, as a Pi's screen: no keys typed into it
        assert table.screen.keyboard is False


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_a_kiosk_notice_is_shown_in_the_table_s_language_under_its_own_title(lang):
    from companion.kiosk.controller import SAVING
    from companion.rules.table import Table
    from companion.screen.draw import Screen
    from companion.screen.sink import ScreenSink
    from companion.view.table_view import build
    screen = Screen.offscreen((640, 360))
    sink = ScreenSink(screen, language=lang)
    view = build(Table())
    sink.notice(SAVING, view, 1.0)
    sink.render(view, 1.0)
    texts = screen.painter.drawn_texts
    assert say(lang, "notice_saving") + "." in " ".join(texts)   # the sentence, wrapped into lines
    assert say(lang, "notice").upper() in texts and say(lang, "not_taken").upper() not in texts
    sink.notice("A plain line", view, 2.0)   # a line without a key is shown as it is
    sink.render(view, 2.0)
    assert "A plain line." in screen.painter.drawn_texts


def test_the_sample_form_lines_are_the_kiosk_s_words():
    from companion.kiosk.history import FORM_WORDS
    from companion.screen.samples import SAMPLE_FORMS
    assert SAMPLE_FORMS == {lang: FORM_WORDS[lang][1].format(mascot="Mum", wins=4, count=10) for lang in FORM_WORDS}


@pytest.mark.parametrize("lang,fourth", [("en", "=4TH"), ("nl", "=4E"), ("es", "=4º")])
def test_a_shared_place_on_the_payouts_screen_is_one_shared_place(lang, fourth):
    import pygame

    from companion.screen.draw import Painter
    from companion.screen.model import ScreenModel
    model = ScreenModel(screen="payouts", language=lang,
                        podium=(("gobbler", 1), ("mum", 2), ("dangle", 4), ("hurley", 4)))
    painter = Painter(pygame.Surface((1280, 720)))
    painter.draw(model, 0.0)
    assert painter.drawn_texts.count(fourth) == 2 and fourth[1:] not in painter.drawn_texts


@pytest.mark.parametrize("lang,shown", [("en", "CHECK SCANNER, LIGHTS, SD CARD"),
                                        ("nl", "CONTROLEER SCANNER, LAMPJES, SD-KAART"),
                                        ("es", "REVISAR ESCÁNER, LUCES, TARJETA SD")])
def test_device_trouble_names_the_parts_in_the_table_s_words_never_the_device_s_detail(lang, shown):
    import pygame

    from companion.screen.draw import Painter
    from companion.screen.model import ScreenModel
    status = ("scanner: disconnected (/dev/hotstreak-scanner missing)", "leds: failed: spidev error",
              "scanner: not found again", "journal: not saving: disk full", "voice: en")
    painter = Painter(pygame.Surface((1280, 720)))
    painter.draw(ScreenModel(screen="setup", language=lang, status=status), 0.0)
    assert shown in painter.drawn_texts
    assert not [t for t in painter.drawn_texts if "/dev" in t or "spidev" in t or "disk full" in t]


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
@pytest.mark.parametrize("screen", ["setup", "betting"])
def test_the_phone_page_s_code_is_captioned_in_the_table_s_language(lang, screen):
    import pygame

    from companion.screen.draw import Painter
    from companion.screen.model import ScreenModel
    painter = Painter(pygame.Surface((1280, 720)))
    painter.draw(ScreenModel(screen=screen, language=lang, join_url="http://10.0.0.2:8080/"), 0.0)
    assert say(lang, "follow") in painter.drawn_texts
    assert not [(t, _bad(t, lang)) for t in painter.drawn_texts if _bad(t, lang)]
