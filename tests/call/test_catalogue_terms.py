"""Words a table can trust: the phrase catalogues (sounds/phrases/{en,nl,es}.toml) and the screen's words
(companion/screen/words.py) say the same things in every language, moving back never sounds like a fall, a
shared place is said as shared, and the life outcomes exist for every amount band in every language
(docs/words.md has the glossary these lists follow)."""

from __future__ import annotations

import random
import re

import pytest

from companion.call import words
from companion.call.announcer import EVENT_KEYS, FIELDS, LANGUAGES, MERGED_KEYS, Announcer, placeholders
from companion.call.words import life_outcome, load_catalogue
from companion.rules import events as ev
from companion.rules.mascots import Mascot
from companion.rules.setup import default_game_rules
from companion.screen.words import WORDS

G, H, D, M = Mascot.GOBBLER, Mascot.HURLEY, Mascot.DANGLE, Mascot.MUM
OTHERS = ("nl", "es")

# Fields to render any line with: the longest mascot name, two-digit spaces.
SAMPLE: dict[str, object] = dict(
    mascot="Gobbler", mover="Hurley", steps=3, space=12, start=9, lane=2, from_lane=2, to_lane=3, who="Gobbler",
    reveal=15, pass_no=2, card="G+3", tag="", reason="no star ahead", place=3, fold=2, first_space=10,
    mascots=["Gobbler", "Hurley"], winner="Ann", money=31, count=4, name="Ann", race=2, cards=9, amount=12,
    question="?", card_id="any-dq", podium=[dict(mascot="Gobbler", place=1), dict(mascot="Mum", place=2)],
    standings=[dict(name="Ann", money=31)])

# Lines a language may say exactly as English does, and why: a name alone, or a word the language shares.
SAME_AS_ENGLISH: dict[tuple[str, str], str] = {
    ("nl", "revealed"): "the mascot's name alone",
    ("es", "revealed"): "the mascot's name alone",
    ("nl", "settled-up"): "'plus' is Dutch too",
    ("nl", "race"): "'race' is the Dutch word for a race",
    ("nl", "tickets"): "'tickets' is the Dutch word for the betting tickets",
    ("nl", "DQ"): "the badge DQ is the same everywhere",
    ("es", "DQ"): "the badge DQ is the same everywhere",
    ("es", "no"): "'no' is Spanish too",
    ("nl", "part_scanner"): "'scanner' is the Dutch word for the barcode scanner",
    ("nl", "phone:race"): "'race' is the Dutch word for a race",
    ("nl", "phone:finish"): "'finish' is the Dutch word for the finish line",
    ("es", "phone:no"): "'no' is Spanish too",
    ("es", "phone:not_happened"): "'no' is Spanish too",
    ("nl", "phone:worth"): "a sign and a sum, no word",
    ("es", "phone:worth"): "a sign and a sum, no word",
    ("nl", "phone:bet_now"): "a mascot and an answer, no word",
    ("es", "phone:bet_now"): "a mascot and an answer, no word",
}

# The words of a fall, per language: no move-back line may use one of them.
FALL_WORDS: dict[str, set[str]] = {
    "en": {"down", "fall", "falls", "fell", "fallen", "drop", "drops", "dropped", "slip", "slips", "tumble",
           "tumbles", "over", "ground"},
    "nl": {"val", "valt", "vallen", "viel", "gevallen", "neer", "onderuit", "ligt", "liggen", "zakt", "zakken",
           "glijdt", "grond"},
    "es": {"cae", "caen", "cayó", "caer", "caída", "caído", "suelo", "rueda", "resbala", "tropieza"},
}
MOVE_BACK_KEYS = ("moved-back", "moved-crawl-back", "moved-star-back", "moved-all-back")

# The words that say a place is shared, per language.
SHARED_WORDS: dict[str, set[str]] = {
    "en": {"share", "shares", "shared", "tie", "ties", "tied"},
    "nl": {"gedeeld", "deelt", "delen"},
    "es": {"comparte", "comparten", "compartido", "empate", "empatan"},
}
FOURTH = {"en": "fourth", "nl": "vierde", "es": "cuarto puesto"}

# One term per concept (docs/words.md): the other words the reviewers heard for a concept must not come back.
NOT_OUR_TERMS: dict[str, set[str]] = {
    "en": {"drops", "slips", "out cold", "deck out", "all up"},
    "nl": {"zijweddenschap", "zwenkt", "snijdt", "plaats {n}", "stoel", "nieuw spel,", "zet je inzet", "dan start",
           "een tafel van", "buiten de baan", "zakt"},
    "es": {"apuesta lateral", "asiento", "doblad", "dobla el", "nocaut", "se cambia", "perdida",
           "una mesa de", "noquead", "clasificad", "nueva partida y", "doble y luego"},
}


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[\w']+", text.lower()))


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[\w{}]+", text.lower()))


def _render(cat: words.Catalogue, key: str, phrase: str) -> str:
    return words.render(phrase, {f: SAMPLE[f] for f in FIELDS[key]}, cat, key)


def _lines(lang: str) -> dict[str, list[str]]:
    """Every line of the language (catalogue phrasings rendered, side bet questions, small words, life outcomes,
    the screen's words and race call lines, the phone page's words) by key; refusal lines left out (:func:`_refusals` has them)."""
    cat = load_catalogue(lang)
    out: dict[str, list[str]] = {k: [_render(cat, k, p) for p in ps] for k, ps in cat.phrases.items()
                                 if not k.startswith("refused-")}
    out.update({f"sidebet:{k}": [q] for k, q in cat.sidebets.items()})
    out.update({k: [v] for k, v in WORDS[lang].items()})
    out.update({f"outcome:{start}": [life_outcome(start, lang)] for start, _ in default_game_rules().outcomes})
    out.update({f"screen:{k}": [v] for k, v in cat.screen.items()})
    out.update({f"phone:{k}": list(v) if isinstance(v, list) else [v] for k, v in cat.phone.items()})
    return out


def _refusals(lang: str) -> dict[str, list[str]]:
    """Every refusal line of the language by key (what the screen, phone and voice say for a refusal)."""
    cat = load_catalogue(lang)
    return {k: list(ps) for k, ps in cat.phrases.items() if k.startswith("refused-")}


# ----- the same keys and fields everywhere -------------------------------------------------------------------
@pytest.mark.parametrize("lang", OTHERS)
def test_every_key_is_in_every_language_with_the_same_fields(lang):
    en, cat = load_catalogue("en"), load_catalogue(lang)
    assert set(cat.phrases) == set(en.phrases) == set(FIELDS)
    for key in cat.phrases:
        used = set().union(*(placeholders(p) for p in cat.phrases[key]))
        assert used == set().union(*(placeholders(p) for p in en.phrases[key])), (lang, key)
    assert set(cat.places) == set(en.places) and set(cat.sidebets) == set(en.sidebets)
    assert set(cat.words) == set(en.words), set(cat.words) ^ set(en.words)
    assert set(WORDS[lang]) == set(WORDS["en"]), set(WORDS[lang]) ^ set(WORDS["en"])
    assert set(cat.screen) == set(en.screen), set(cat.screen) ^ set(en.screen)
    for key, text in cat.screen.items():
        assert placeholders(text) == placeholders(en.screen[key]), (lang, key)
    for key, text in WORDS[lang].items():
        assert placeholders(text) == placeholders(WORDS["en"][key]), (lang, key)


@pytest.mark.parametrize("lang", OTHERS)
def test_no_line_is_left_in_english_unless_listed_as_a_name_or_shared_word(lang):
    english, own = _lines("en"), _lines(lang)
    same = {key for key, texts in own.items()
            if {_norm(t) for t in texts} & {_norm(t) for t in english.get(key, [])}}
    assert same == {key for (lg, key) in SAME_AS_ENGLISH if lg == lang}, same


def test_the_list_of_lines_said_as_in_english_names_only_real_keys():
    keys = set(_lines("en"))
    assert {key for _, key in SAME_AS_ENGLISH} <= keys


# ----- moving back is not a fall -----------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_move_back_lines_never_use_the_fall_words(lang):
    cat = load_catalogue(lang)
    for key in MOVE_BACK_KEYS:
        for text in (_render(cat, key, p) for p in cat.phrases[key]):
            assert not _tokens(text) & FALL_WORDS[lang], (lang, key, text)
    assert not _tokens(WORDS[lang]["act_back"]) & FALL_WORDS[lang]
    for key in MOVE_BACK_KEYS:  # the screen's race call says moving back with the same words
        if key in cat.screen:
            assert not _tokens(_render(cat, key, cat.screen[key])) & FALL_WORDS[lang], (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_fall_lines_do_use_a_fall_word(lang):
    """The list of fall words is the one the fall lines really use, so the move-back check means something."""
    cat = load_catalogue(lang)
    for key in ("fell", "fell-collision", "fell-many"):
        for text in (_render(cat, key, p) for p in cat.phrases[key]):
            assert _tokens(text) & FALL_WORDS[lang], (lang, key, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_mascot_moving_back_is_called_without_a_fall(lang):
    a = Announcer(lang, random.Random(1))
    said = [a.line(ev.Moved(H, 2, 6, 4, False, False)) for _ in range(12)]
    said += [a.line(ev.Moved(M, 4, 5, 4, True, False)) for _ in range(12)]
    assert all(text and ("Hurley" in text or "Mum" in text) for text in said)
    assert not any(_tokens(text) & FALL_WORDS[lang] for text in said), said


# ----- shared places ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_shared_place_is_said_as_shared(lang):
    cat = load_catalogue(lang)
    for text in (_render(cat, "placed-shared", p) for p in cat.phrases["placed-shared"]):
        assert _tokens(text) & SHARED_WORDS[lang], (lang, text)
    for text in (_render(cat, "placed", p) for p in cat.phrases["placed"]):
        assert not _tokens(text) & SHARED_WORDS[lang], (lang, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_two_fourths_at_the_end_of_a_race_are_one_shared_fourth(lang):
    a = Announcer(lang, random.Random(2))
    ended = ev.RaceEnded(((G, 1), (M, 2), (H, 4), (D, 4)))
    for _ in range(6):
        text = a.line(ended)
        assert text.count(FOURTH[lang]) == 1 and _tokens(text) & SHARED_WORDS[lang], text
        assert "Hurley" in text and "Dangle" in text
    plain = a.line(ev.RaceEnded(((G, 1), (M, 2), (H, 3), (D, 4))))
    assert not _tokens(plain) & SHARED_WORDS[lang], plain
    shown = words.text(ended, lang)
    assert shown.count(FOURTH[lang]) == 1 and _tokens(shown) & SHARED_WORDS[lang], shown


def test_the_printed_call_keeps_one_podium_entry_per_mascot():
    from companion.call import racecall
    line = racecall.line(ev.RaceEnded(((G, 1), (M, 2), (H, 4), (D, 4))))
    assert line == "Race over: 1st Gobbler, 2nd Mum, 4th Dangle, 4th Hurley"


# ----- life outcomes -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_amount_band_has_a_life_outcome_in_every_language(lang):
    rules = default_game_rules()
    bands = [start for start, _ in rules.outcomes]
    own = load_catalogue(lang).outcomes
    if lang != "en":
        assert set(own) == set(bands), set(own) ^ set(bands)
    for start, english in rules.outcomes:
        line = life_outcome(start, lang)
        assert line.strip() and (line == english) == (lang == "en"), (lang, start, line)


def test_life_outcomes_follow_the_bands_of_the_game_data():
    rules = default_game_rules()
    for money in (0, 1, 9, 10, 34, 35, 74, 75, 500):
        assert life_outcome(money, "en") == rules.life_outcome(money)
        assert life_outcome(money, "nl") == load_catalogue("nl").outcomes[
            max(s for s, _ in rules.outcomes if s <= money)]
    with pytest.raises(ValueError, match="'fr'"):
        life_outcome(10, "fr")


# ----- one term per concept, Mum without a wobbling gender, short lines -----------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_line_uses_a_word_the_glossary_left_out(lang):
    for key, texts in {**_lines(lang), **_refusals(lang)}.items():
        for text in texts:
            low = text.lower()
            assert not [w for w in NOT_OUR_TERMS[lang] if w in low], (lang, key, text)


def test_spanish_mascot_lines_and_places_carry_no_gender():
    """Mum is a mother (feminine), the others are not said to be anything: no ordinal or participle that
    agrees with a mascot; places are nouns ("primer puesto")."""
    cat = load_catalogue("es")
    gendered = re.compile(r"\b(primer[oa]|segund[oa]|tercer[oa]|cuart[oa]|caíd[oa]|noquead[oa]|clasificad[oa]|"
                          r"sol[oa]|list[oa])\b")
    assert all(place.endswith(" puesto") for place in cat.places.values())
    for key, phrases in cat.phrases.items():
        for phrase in phrases:
            if "{mascot}" in phrase or "{mascots}" in phrase:
                assert not gendered.search(phrase.replace("{place}", "")), (key, phrase)
    for key in ("FALLEN", "fell", "placed", "TURNED", "FINISHED"):
        assert not gendered.search(WORDS["es"][key].lower()), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lines_said_between_two_cards_are_short(lang):
    """At 2.5 s a card a race line must end before the next card: at most 48 characters with the longest
    mascot name and two-digit spaces (bench/voice_pace.py measures the spoken seconds)."""
    cat = load_catalogue(lang)
    for key in sorted((EVENT_KEYS | MERGED_KEYS) - {"race_ended"}):
        for text in (_render(cat, key, p) for p in cat.phrases[key]):
            assert len(text) <= 48, (lang, key, text)


@pytest.mark.parametrize("lang", OTHERS)
def test_label_captions_stay_as_printed_on_the_labels(lang):
    """The screen tells the table to scan a label by its printed caption (NEW GAME, DOUBLE), in every language."""
    assert "NEW GAME" in WORDS[lang]["scan_new"]
    assert "DOUBLE" in WORDS[lang]["double_due"] and "DOUBLE" in WORDS[lang]["double_later"]


def test_the_side_bet_questions_of_the_data_file_are_the_english_catalogue_s():
    from companion.rules.sidebets import load_side_bets
    assert {card.id: card.question for card in load_side_bets()} == load_catalogue("en").sidebets


# ----- life outcomes where they are shown ------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_over_screen_shows_life_outcomes_in_the_table_s_language(lang):
    from companion.screen.model import sample_model
    model = sample_model("game-over", language=lang)
    assert model.standings
    for st in model.standings:
        assert st.line == life_outcome(st.money, lang)
    assert model.life_outcome == model.standings[0].line


def test_the_phone_page_gets_the_life_outcome_in_every_language():
    from companion.screen.model import sample_model  # noqa: F401 - loads the samples (model imports them)
    from companion.screen.samples import sample_table
    from companion.web.view import table_view
    table = sample_table("game-over")
    view = table_view(table)
    assert view["standings"]
    for st in view["standings"]:
        assert st["lines"] == {lang: life_outcome(st["money"], lang) for lang in LANGUAGES}
        assert st["line"] == default_game_rules().life_outcome(st["money"])
