"""The one phrase catalogue (companion/catalogue.py, sounds/phrases/<lang>.toml): every output reads its words from
it, each from its own sections, so a spoken line never changes the screen and no phrase lives twice."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from companion import catalogue
from companion.call import racecall, screencall, words
from companion.catalogue import LANGUAGES, load_catalogue
from companion.rules import Race
from companion.screen import words as screen_words
from companion.service import words as service_words

APP_JS = Path(screencall.__file__).resolve().parent.parent / "web" / "static" / "app.js"


@pytest.fixture
def edited_catalogue(tmp_path, monkeypatch):
    """A copy of the catalogue whose files a test may edit, loaded in place of the real one."""
    shutil.copytree(catalogue.sounds_dir() / "phrases", tmp_path / "phrases")
    monkeypatch.setattr(catalogue, "sounds_dir", lambda: tmp_path)
    load_catalogue.cache_clear()
    racecall.printed.cache_clear()
    yield tmp_path / "phrases"
    load_catalogue.cache_clear()
    racecall.printed.cache_clear()


def test_changing_a_spoken_line_changes_what_the_table_hears_but_not_the_screen(edited_catalogue):
    events = Race().push_text("HF")
    screen_before, shown_before = screencall.lines(events, "en"), words.lines(events, "en")
    path = edited_catalogue / "en.toml"
    text = path.read_text(encoding="utf-8")
    spoken = re.search(r"^\[voice\]$.*?^fell = [^\n]*$", text, re.S | re.M)
    assert spoken is not None
    path.write_text(text[:spoken.start()] + re.sub(r"^fell = .*$", 'fell = ["{mascot} hits the deck!"]',
                                                   spoken.group(), flags=re.M) + text[spoken.end():],
                    encoding="utf-8")
    load_catalogue.cache_clear()
    assert "{mascot} hits the deck!" in load_catalogue("en").phrases["fell"]  # the voice says the new line
    assert screencall.lines(events, "en") == screen_before == ["Card 1, pass 1: Hurley, fall", "  Hurley down!"]
    assert words.lines(events, "en") == shown_before  # the phone's and the console's lines too


def test_a_shown_line_is_the_voice_s_first_phrasing_and_never_copied_into_voice():
    for lang in LANGUAGES:
        cat = load_catalogue(lang)
        for key, line in cat.shown.items():
            assert cat.phrases[key][0] == line, (lang, key)
            assert line not in cat.phrases[key][1:], (lang, key, "a copy of the shown line in [voice]")
        for key, long_form in cat.screen.items():  # the screen's long forms are other words, not a copy
            assert long_form not in cat.phrases.get(key, ()), (lang, key)


# Screen lines that are word for word a spoken phrasing of another key (found when the catalogue was made one;
# this move keeps every text as it was): to be merged by a rewording, never added to.
KNOWN_COPIES = {("screen", "moment_side_yes"): "side-bet-yes", ("screen_call", "side_bet_happened"): "side-bet-yes"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_screen_or_phone_line_copies_a_spoken_one(lang):
    cat = load_catalogue(lang)
    spoken = {line: key for key, lines in cat.phrases.items() for line in lines}
    copies = {(section, key): spoken[text]
              for section, table in (("screen", cat.screen_words), ("screen_call", cat.screen),
                                     ("service", cat.service), ("phone", cat.phone))
              for key, text in table.items() if isinstance(text, str) and text in spoken}
    assert copies == KNOWN_COPIES


def _entries(cat: catalogue.Catalogue) -> dict[str, object]:
    return {f"{name}.{key}": text for name, table in (("words", cat.words), ("screen", cat.screen_words),
                                                       ("service", cat.service), ("phone", cat.phone))
            for key, text in table.items()}


def test_a_word_two_outputs_show_alike_in_every_language_is_written_once():
    cats = [load_catalogue(lang) for lang in LANGUAGES]
    entries = [_entries(c) for c in cats]
    names = list(entries[0])
    for i, one in enumerate(names):
        for other in names[i + 1:]:
            text = entries[0][one]
            if isinstance(text, str) and re.search(r"[^\W\d_]", text) and all(e[one] == e[other] for e in entries):
                refs = {cats[0].same_as.get(one), cats[0].same_as.get(other)}  # the same words everywhere: one phrase
                assert one in refs or other in refs or len(refs - {None}) == 1 and None not in refs, (
                    one, other, "written twice: use same_as")
    for c in cats:
        assert c.same_as["phone.side_bet"] == "screen.side_bet" and c.phone["side_bet"] == c.screen_words["side_bet"]
    assert [load_catalogue("es").phone["places"][i] for i in (0, 3)] == ["1º", "4º"]


def test_same_as_naming_nothing_is_refused_naming_the_entry(edited_catalogue):
    path = edited_catalogue / "nl.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('same_as = "screen.side_bet"', 'same_as = "screen.nope"'), encoding="utf-8")
    with pytest.raises(ValueError, match=r"nl\.toml: \[phone\] side_bet = \{'same_as': 'screen.nope'\} \(expected"):
        load_catalogue("nl")


def test_every_output_reads_the_one_catalogue():
    en = load_catalogue("en")
    assert racecall.PRINTED.phrases == {k: (v,) for k, v in en.console.items()}
    assert racecall.PRINTED.words == {"seat": en.words["seat"], **en.console_words}  # an unnamed seat: [words]
    assert {lang: load_catalogue(lang).screen_words for lang in LANGUAGES} == screen_words.WORDS
    assert {lang: load_catalogue(lang).service for lang in LANGUAGES} == service_words.WORDS
    assert words.phrase("refused-unknown", "nl") == load_catalogue("nl").shown["refused-unknown"]
    assert not load_catalogue("nl").console and not load_catalogue("es").console  # the printed call is English


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_phone_words_have_every_key_with_the_same_placeholders(lang):
    en, phone = load_catalogue("en").phone, load_catalogue(lang).phone
    assert set(phone) == set(en), set(phone) ^ set(en)
    for key, text in phone.items():
        if isinstance(text, list):
            assert len(text) == len(en[key]), (lang, key)
        else:
            assert words.placeholders(text) == words.placeholders(en[key]), (lang, key)


def test_the_phone_page_script_holds_no_phrase_table():
    script = re.sub(r"//\s.*", "", APP_JS.read_text(encoding="utf-8"))  # its code, not its comments
    assert not re.search(r"\b(const|let|var)\s+T\s*=\s*\{\s*[^}\s]", script), "a phrase table in app.js"
    for lang in LANGUAGES:
        for key, text in load_catalogue(lang).phone.items():
            for item in text if isinstance(text, list) else [text]:
                if len(item) > 6 and item not in load_catalogue("en").phone:  # words, not "NO" or a key
                    assert f'"{item}"' not in script, (lang, key, item)


def test_an_unknown_language_is_refused_with_the_languages_expected():
    with pytest.raises(ValueError, match=r"unknown language 'fr' \(expected one of: en, nl, es\)"):
        load_catalogue("fr")


def test_a_catalogue_file_without_its_voice_is_refused_naming_the_file(edited_catalogue):
    path = edited_catalogue / "es.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("[voice]", "[voices]"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"es\.toml: no \[voice\] section"):
        load_catalogue("es")


def test_a_broken_catalogue_file_is_one_line_naming_it_never_a_traceback(edited_catalogue, capsys):
    from companion.cli import main
    (edited_catalogue / "en.toml").write_text("[meta\nvoice = 1\n", encoding="utf-8")
    assert main(["simulate", "H+3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("hotstreak simulate: ") and "en.toml: " in err and "expected a TOML file in UTF-8" in err


FAMILIES = {"voice": "voice", "shown": "voice", "screen": "screen", "screen_call": "screen", "service": "service",
            "phone": "phone", "console": "console"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_phrase_is_written_twice_for_two_outputs(lang):
    """A line the voice and the screen (or the phone, the service mode, the console) both use is written once and
    named by the other with ``same_as``: no copy to drift apart or to change by accident."""
    import tomllib
    data = tomllib.loads((Path(words.__file__).resolve().parents[1] / "sounds" / "phrases" / f"{lang}.toml")
                         .read_text(encoding="utf-8"))
    seen: dict[str, set[str]] = {}
    for section, family in FAMILIES.items():
        for key, value in data.get(section, {}).items():
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str) and len(text.split()) >= 3:  # a line, not a label (a word may mean two)
                    seen.setdefault(text, set()).add(f"{family}:{section}.{key}")
    copies = {text: sorted(where) for text, where in seen.items() if len({w.split(":")[0] for w in where}) > 1}
    assert not copies, copies
