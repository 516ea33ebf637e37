"""Dutch and Spanish said as a race caller says them (docs/words.md): the stiff word-for-word lines a listener
named do not come back, and the end of a race is one short line in every language."""

from __future__ import annotations

import random
import re

import pytest

from companion.call.announcer import Announcer
from companion.call.words import LANGUAGES, load_catalogue
from companion.rules import events as ev
from companion.rules.mascots import Mascot

G, H, D, M = Mascot.GOBBLER, Mascot.HURLEY, Mascot.DANGLE, Mascot.MUM
FOUR_PLACES = ev.RaceEnded(((H, 1), (D, 2), (G, 3), (M, 4)))
SHARED_FOURTH = ev.RaceEnded(((H, 1), (D, 2), (G, 4), (M, 4)))

# Lines a listener heard as translated word for word, as patterns over the catalogue's phrasings.
STIFF: dict[str, tuple[str, ...]] = {
    "nl": (r"^Kruipend", r"^Uitwijken,", r"^\{place\}, \{mascot\}", r"^Gedeeld \{place\}, ", r"\{mascot\} eraf, "),
    "es": (r"se arrastra atrás", r"¡Plegad", r"barajad!", r"¡Barajad", r"^¡?\{place\}, \{mascot\}"),
}


@pytest.mark.parametrize("lang", sorted(STIFF))
def test_the_stiff_lines_do_not_come_back(lang):
    cat = load_catalogue(lang)
    for key, phrases in cat.phrases.items():
        for phrase in phrases:
            assert not [p for p in STIFF[lang] if re.search(p, phrase)], (lang, key, phrase)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_end_of_a_race_is_one_short_line(lang):
    """Every phrasing of the podium with four places fits in 75 characters (English says a place per mascot in
    at most 71), and Spanish says its four mascots in order without "puesto" at all."""
    a = Announcer(lang, random.Random(3))
    said = {a.line(FOUR_PLACES) for _ in range(12)}
    assert len(said) == len(load_catalogue(lang).phrases["race_ended"])
    for text in said:
        assert len(text) <= 75 and text.index("Hurley") < text.index("Dangle") < text.index("Gobbler") < text.index(
            "Mum"), text
        if lang == "es":
            assert "puesto" not in text and len(text) <= 50, text


def test_a_shared_spanish_place_is_said_once_with_its_place():
    text = Announcer("es", random.Random(4)).line(SHARED_FOURTH)
    assert text.count("puesto") == 1 and "Gobbler y Mum, cuarto puesto compartido" in text, text


@pytest.mark.slow  # espeak-ng renders the lines (about 1 s)
def test_the_spanish_podium_is_said_in_under_4_seconds(tmp_path):
    from companion.voice.pace import espeak_length
    from companion.voice.speech import VoiceCache
    length = espeak_length("es", VoiceCache(tmp_path))
    cat = load_catalogue("es")
    a = Announcer("es", random.Random(5))
    for _ in range(len(cat.phrases["race_ended"]) * 3):
        text = a.line(FOUR_PLACES)
        assert length(text) < 4.0, (text, length(text))
