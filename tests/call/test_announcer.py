"""The announcer's phrase catalogue (en, nl, es) and its choice of phrasings; simulate --lang in its words."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.call.announcer import (EVENT_KEYS, EVENT_TYPE_NAMES, FIELDS, LANGUAGES, TABLE_KEYS, Announcer,
                                 load_catalogue, placeholders)
from companion.commands.simulate import announced_call
from companion.rules import Card, events as ev
from companion.rules.mascots import Mascot
from companion.rules.race import play
from conftest import ROOT, hotstreak, rule_cases

G, H, D, M = Mascot.GOBBLER, Mascot.HURLEY, Mascot.DANGLE, Mascot.MUM

# One event of every kind and variant the announcer tells apart.
EVERY_EVENT: list[ev.Event] = [
    ev.Revealed(Card.parse("H+3"), "HS15", 1, 1),
    ev.Revealed(Card.parse("A+1"), None, 2, 4),
    ev.NoEffect(D, "Dangle is not racing"),
    ev.NoEffect(G, "no star ahead"),
    ev.Recovered(H, True, False),
    ev.Recovered(H, False, True),
    ev.Recovered(H, True, True),
    ev.Moved(H, 2, 3, 6, False, False),
    ev.Moved(H, 2, 6, 4, False, False),
    ev.Moved(M, 4, 5, 6, True, False),
    ev.Moved(G, 1, 3, 8, False, True),
    ev.Moved(M, 4, 5, 4, True, False),
    ev.Moved(G, 1, 8, 6, False, True),
    ev.Swerved(G, 5, 1, 2),
    ev.TurnedAround(D, ev.Facing.BACKWARD),
    ev.TurnedAround(D, ev.Facing.FORWARD),
    ev.Collided(G, H, 2, 6),
    ev.Fell(H, ev.Cause.COLLISION),
    ev.Fell(M, ev.Cause.CARD),
    ev.KnockedOut(M, ev.Cause.CARD),
    ev.OutOfBounds(D, ev.OutOfBoundsWay.BACK, 3, 0),
    ev.OutOfBounds(D, ev.OutOfBoundsWay.SIDE, 5, 7),
    ev.OutOfBounds(D, ev.OutOfBoundsWay.FOLD, 3, 2),
    ev.Finished(G),
    ev.Placed(G, 1, ev.Exit.CROSSED, False),
    ev.Placed(D, 4, ev.Exit.OUT_OF_BOUNDS, True),
    ev.Folded(1, 4),
    ev.Reshuffled(2),
    ev.RaceEnded(((G, 1), (M, 2), (H, 3), (D, 4))),
]

TABLE_FIELDS = {"race": 2, "pass_no": 2, "winner": "Ann", "money": 31, "count": 4, "name": "Bram",
                "question": "Will anyone be knocked out?", "card_id": "any-dq", "cards": 9, "amount": 12,
                "standings": [{"name": "Ann", "money": 31}, {"name": "Bram", "money": 20}]}


def test_every_engine_event_type_has_a_key():
    assert set(EVENT_TYPE_NAMES) == {t.split("-")[0] for t in EVENT_KEYS}
    assert len(EVENT_TYPE_NAMES) == len(ev.EVENT_TYPES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_has_several_phrasings_in_every_language(lang):
    cat = load_catalogue(lang)
    assert set(cat.phrases) == set(FIELDS), set(cat.phrases) ^ set(FIELDS)
    for key, options in cat.phrases.items():
        assert len(options) >= (3 if key in EVENT_TYPE_NAMES else 2 if not key.startswith("revealed") else 1), key
        assert len(set(options)) == len(options), key
    assert set(cat.places) == {1, 2, 3, 4}
    assert cat.voice


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_placeholder_is_one_the_key_provides(lang):
    for key, options in load_catalogue(lang).phrases.items():
        for phrase in options:
            assert placeholders(phrase) <= FIELDS[key], (lang, key, phrase)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_variant_gets_a_filled_line_from_its_own_key(lang):
    a = Announcer(lang, random.Random(3))
    keys = set()
    for e in EVERY_EVENT:
        key, fields = a.key_and_fields(e)
        keys.add(key)
        assert set(fields) == set(FIELDS[key]), key
        for _ in range(6):  # several draws, so every phrasing of the key is likely used
            text = a.line(e)
            assert text and "{" not in text and "}" not in text, (key, text)
    assert keys == set(EVENT_KEYS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_table_line_fills_all_placeholders(lang):
    a = Announcer(lang, random.Random(4))
    for key in TABLE_KEYS:
        for _ in range(6):
            text = a.line_for(key, **{f: TABLE_FIELDS[f] for f in FIELDS[key]})
            assert "{" not in text and "}" not in text, (key, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_golden_races_are_called_with_no_gaps(lang):
    a = Announcer(lang, random.Random(5))
    cases = rule_cases("race-cases.jsonl")[:40]
    assert cases
    for case in cases:
        _, events = play(case["cards"])
        lines = a.lines(events)
        assert len(lines) == len(events)  # every engine event is spoken
        assert all("{" not in text for text in lines)


def test_never_the_same_phrasing_twice_in_a_row_and_all_are_used():
    a = Announcer("en", random.Random(11))
    said = [a.line_for("fell", mascot="Mum") for _ in range(200)]
    assert all(x != y for x, y in zip(said, said[1:]))
    assert len(set(said)) == len(load_catalogue("en").phrases["fell"])


def test_same_seed_same_lines():
    _, events = play(["H+3", "G+2>", "G+3", "A+1", "HF"])
    one = Announcer("es", random.Random(7)).lines(events)
    two = Announcer("es", random.Random(7)).lines(events)
    assert one == two


def test_lines_start_with_a_capital_even_after_spanish_opening_marks():
    a = Announcer("es", random.Random(0))
    for _ in range(10):
        text = a.line(ev.Placed(G, 1, ev.Exit.CROSSED, False))
        first = next(ch for ch in text if ch.isalpha())
        assert first.isupper(), text


def test_bad_language_key_and_missing_field_are_named():
    with pytest.raises(ValueError, match="'fr'"):
        Announcer("fr")
    a = Announcer("en", random.Random(0))
    with pytest.raises(KeyError, match="'nope'"):
        a.line_for("nope")
    with pytest.raises(ValueError, match="'name'"):
        a.line_for("your-pick")


def test_fixed_lines_cover_mascot_lines_in_every_language():
    for lang in LANGUAGES:
        fixed = Announcer(lang).fixed_lines()
        assert all("{" not in line for line in fixed)
        for phrase in load_catalogue(lang).phrases["fell"]:
            assert phrase.format(mascot="Hurley")[1:] in {f[1:] for f in fixed}


@pytest.mark.slow
@pytest.mark.parametrize("lang,word", [("nl", "naar"), ("es", "la")])
def test_simulate_lang_prints_the_announcer_call(lang, word):
    cards = ["H+3", "G+2>", "HS03", "DF", "D+2", "DF", "A+1", "HS13", "M*", "M*", "M+1"]
    result = hotstreak("simulate", "--lang", lang, *cards)
    assert result.returncode == 0, result.stderr
    race, events = play(cards)
    assert result.stdout.splitlines() == announced_call(events, lang, len(race.cards), race.outcome.over)
    assert word in result.stdout
    phrases = load_catalogue(lang).phrases
    # the knock-out line is one of the language's own knock-out phrasings
    knocked = [line.strip() for line in result.stdout.splitlines() if "Dangle" in line]
    assert any(line == p.format(mascot="Dangle") for line in knocked for p in phrases["knocked_out"])


@pytest.mark.slow
def test_simulate_json_is_the_same_in_every_language():
    cards = ["H+3", "G+2>", "HS03", "DF", "D+2", "DF"]
    outs = {lang: json.loads(hotstreak("simulate", "--json", "--lang", lang, *cards).stdout) for lang in LANGUAGES}
    assert outs["nl"] == outs["en"] == outs["es"]


@pytest.mark.slow
def test_a_non_editable_install_finds_the_phrases(tmp_path):
    """pip install . (no editable) ships sounds/ as companion.sounds; the installed copy loads every language."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("companion", "sounds", "hardware"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, source / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "site"
    build = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                            "--target", str(target), str(source)], capture_output=True, text=True, timeout=120)
    assert build.returncode == 0, f"pip could not build the project: {build.stderr.strip()}"  # what this test is for
    code = ("import companion.call.announcer as a; print(a.sounds_dir()); "
            "print(sorted(len(a.load_catalogue(l).phrases) for l in a.LANGUAGES))")
    env = dict(os.environ, PYTHONPATH=str(target))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr
    where, counts = out.stdout.splitlines()
    assert Path(where).is_relative_to(target)
    assert counts == str([len(FIELDS)] * 3)
    assert (target / "companion" / "sounds" / "effects" / "crowd.wav").exists()
    # the other package data too: rule data files and the demo's scan script
    for name in ("track.toml", "deck.toml", "tickets.toml", "sidebets.toml", "game.toml"):
        assert (target / "companion" / "rules" / "data" / name).exists(), name
    assert (target / "companion" / "tools" / "data" / "demo-game.txt").exists()
