"""The screen's race call panel (companion/call/screencall.py): every race event in words in each language, a
card as its number, pass, who and effect (never its notation or label code), the lines of what it did indented,
an undo said in words, and the whole call rebuilt from a race's cards."""

from __future__ import annotations

import re

import pytest

from companion.call import screencall
from companion.call.words import load_catalogue
from companion.rules import Card, Race
from companion.rules import events as ev
from companion.rules import game_events as gev
from companion.rules.mascots import Mascot
from companion.rules.phases import Phase
from companion.screen.words import say
from companion.view.sink import Undone
from test_announcer import EVERY_EVENT

LANGUAGES = ("en", "nl", "es")
NOT_WORDS = re.compile(r"[A-Z]{1,2}R?[+-]\d|HS-?[A-Z0-9]|[\[\]{}]|\b[a-z]+(?:[-_][a-z]+)+\b")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_race_event_has_a_line_of_words(lang):
    for e in EVERY_EVENT:
        text = screencall.line(e, lang)
        assert text and text.strip(), e
        assert not NOT_WORDS.search(text.replace("knock-out", "")), (e, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_card_is_its_number_pass_who_and_effect_in_words(lang):
    text = screencall.line(ev.Revealed(Card.parse("GR+2"), "HS10", 2, 8), lang)
    effect = say(lang, "act_R")[:1].lower() + say(lang, "act_R")[1:] + ", " + say(lang, "act_ahead", n=2)
    assert text == load_catalogue(lang).screen["revealed"].format(reveal=8, pass_no=2, who="Gobbler", effect=effect)
    assert "HS10" not in text and "GR+2" not in text and not text.startswith(" ")


def test_a_green_card_and_the_english_wording():
    assert screencall.line(ev.Revealed(Card.parse("A-1"), None, 1, 3), "en") == "Card 3, pass 1: green card, 1 back"
    assert screencall.line(ev.Revealed(Card.parse("H+2>"), "HS20", 1, 1), "en") == \
        "Card 1, pass 1: Hurley, 2 ahead, swerve right"


def test_what_a_card_did_is_indented_and_the_card_fold_and_end_are_not():
    lines = screencall.lines([ev.Revealed(Card.parse("H+3"), "HS15", 1, 1), ev.Moved(Mascot.HURLEY, 2, 3, 6, False,
                                                                                       False),
                              ev.Folded(1, 4), ev.Reshuffled(2),
                              ev.RaceEnded(((Mascot.GOBBLER, 1), (Mascot.MUM, 2)))], "en")
    assert [line.startswith("  ") for line in lines] == [False, True, False, False, False]
    assert lines[1] == "  Hurley runs 3 to space 6"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_moving_back_on_the_screen_is_never_a_fall(lang):
    from test_catalogue_terms import FALL_WORDS
    for e in (ev.Moved(Mascot.HURLEY, 2, 6, 4, False, False), ev.Moved(Mascot.MUM, 4, 5, 4, True, False),
              ev.Moved(Mascot.GOBBLER, 1, 8, 6, False, True)):
        words = set(re.findall(r"[\w']+", screencall.line(e, lang).lower()))
        assert not words & FALL_WORDS[lang], (lang, e)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_undo_says_in_words_what_it_took_back(lang):
    screen = load_catalogue(lang).screen
    card = screencall.line(Undone("HS15"), lang)          # Hurley +3 in the game's deck
    assert card == screen["undone"].format(what="Hurley, " + say(lang, "act_ahead", n=3))
    other = screencall.line(Undone("HS-T-MUM-1-S"), lang)  # a ticket: no code on the screen
    assert other == screen["undone"].format(what=screen["undone-input"])
    assert "HS" not in card + other


def test_table_events_off_the_race_screen_have_no_english_ids():
    for lang in LANGUAGES:
        for e in (gev.SideBetHappened("two-on-finish-space"), gev.PhaseChanged(Phase.RACING, 2, False)):
            text = screencall.line(e, lang)
            assert text and "two-on-finish-space" not in text, (lang, e)


def test_the_whole_call_of_a_race_is_rebuilt_from_its_cards_and_the_race_is_untouched():
    race = Race()
    events = []
    for text in ("H+3", "HS10", "A+1", "HF", "H-1"):
        events += race.push_text(text)
    before = race.position()
    assert screencall.race_lines(race, "nl") == screencall.lines(events, "nl")
    assert race.position() == before
    assert len(race.cards) == 5
    assert screencall.race_lines(Race(), "es") == []


def test_an_unknown_language_is_a_value_error():
    with pytest.raises(ValueError, match="'fr'"):
        screencall.line(ev.Fell(Mascot.MUM, ev.Cause.CARD), "fr")
