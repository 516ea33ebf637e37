"""The voice at table pace (companion/voice/pace.py, simulate --json --pace): which lines play, when, with a fake
renderer of known lengths; one run with real espeak-ng lengths through the command."""

from __future__ import annotations

import json
import shutil

import pytest

from companion.rules.race import play
from companion.voice.pace import Said, cards_of, effects_at, heard, said_at_pace
from companion.voice.sounds import EFFECT_LEAD as LEAD
from conftest import hotstreak


def fixed(seconds: float):
    return lambda text: seconds


def by_words(per_word: float):
    return lambda text: per_word * len(text.split())


def test_one_line_per_card_at_its_reveal_time_when_lines_are_short():
    cards = cards_of(play(["H+3", "M+2", "D+1"])[1])
    said = said_at_pace(cards, 2.5, "en", fixed(1.0))
    assert [(s.card, s.start, s.end) for s in said] == [(1, 0.0, 1.0), (2, 2.5, 3.5), (3, 5.0, 6.0)]


def test_nothing_of_a_card_starts_after_the_next_card_is_revealed():
    # every line lasts 3 s, a card comes every second
    cards = cards_of(play(["H+1", "M+1", "D+1", "G+1", "H+1", "M+1"])[1])
    said = said_at_pace(cards, 1.0, "en", fixed(3.0))
    assert said                                           # something is said ...
    for s in said:
        if s.card < len(cards):                           # the last card has no next reveal
            assert s.start < s.card * 1.0                 # ... and it started before the next reveal
    assert len(said) < len(cards)                         # the rest was dropped, not delayed


def test_a_plain_line_is_cut_when_essential_news_of_the_next_card_waits():
    cards = cards_of(play(["H+3", "MF"])[1])
    said = said_at_pace(cards, 1.0, "en", fixed(2.5))
    first, fall = said
    assert first.cut and first.end == pytest.approx(1.0)
    assert fall.card == 2 and fall.start == pytest.approx(1.0 + LEAD) and not fall.cut  # after its effect
    assert heard(cards, said, 1.0) == (1, 1)


def test_essential_news_is_not_cut_by_plain_news():
    cards = cards_of(play(["MF", "H+3"])[1])
    said = said_at_pace(cards, 1.0, "en", fixed(1.5))
    assert said[0].start == pytest.approx(LEAD)                       # the fall's effect goes first
    assert not said[0].cut and said[0].end == pytest.approx(LEAD + 1.5)
    assert said[1].card == 2 and said[1].start == pytest.approx(LEAD + 1.5)


def test_a_card_with_an_effect_plays_it_on_the_reveal_and_its_line_after_the_lead():
    cards = cards_of(play(["H+3", "MF", "D+1"])[1])
    assert effects_at(cards, 2.0) == [(2.0, "fall")]
    said = said_at_pace(cards, 2.0, "en", fixed(1.0))
    assert [s.start for s in said] == pytest.approx([0.0, 2.0 + LEAD, 4.0])
    quiet = said_at_pace(cards, 2.0, "en", fixed(1.0), effects=False)   # effects off: no wait
    assert [s.start for s in quiet] == pytest.approx([0.0, 2.0, 4.0])


def test_heard_counts_essential_events_named_before_the_next_reveal():
    cards = cards_of(play(["GF", "H+3", "GF"])[1])      # a fall, a move, a knockout (the last card)
    slow = said_at_pace(cards, 2.0, "en", fixed(2.5))   # the fall line ends after card 2 is revealed
    assert heard(cards, slow, 2.0) == (1, 2)            # the last card has no next reveal
    quick = said_at_pace(cards, 2.0, "en", fixed(1.0))
    assert heard(cards, quick, 2.0) == (2, 2)


def test_longer_lines_take_longer_and_the_output_is_repeatable():
    cards = cards_of(play(["H+3", "G+2>", "HS03", "DF", "D+2", "DF", "A+1", "HS13"])[1])
    one = said_at_pace(cards, 2.5, "nl", by_words(0.35))
    two = said_at_pace(cards, 2.5, "nl", by_words(0.35))
    assert one == two
    assert all(s.end - s.start == pytest.approx(0.35 * len(s.text.split())) for s in one if not s.cut)
    assert Said(1, "x", 0.0, 1.23456).to_dict() == {"card": 1, "text": "x", "start": 0.0, "end": 1.235}


@pytest.mark.slow
def test_bad_pace_is_refused():
    with pytest.raises(ValueError, match="0"):
        said_at_pace([], 0, "en", fixed(1.0))
    result = hotstreak("simulate", "--json", "--pace", "fast", "H+3")
    assert result.returncode == 2 and "'fast'" in result.stderr
    result = hotstreak("simulate", "--pace", "2.5", "H+3")
    assert result.returncode == 2 and "--json" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_simulate_pace_gives_the_said_lines_with_real_lengths(tmp_path):
    cards = ["H+3", "G+2>", "HS03", "DF", "D+2", "DF"]
    env = {"HOTSTREAK_VOICE_CACHE": str(tmp_path)}
    result = hotstreak("simulate", "--json", "--pace", "2.5", "--lang", "es", *cards, env=env)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    plain = json.loads(hotstreak("simulate", "--json", *cards).stdout)
    assert {k: v for k, v in out.items() if k != "said"} == plain   # the rest of the contract is unchanged
    said = out["said"]
    assert said and all(set(s) == {"card", "text", "start", "end"} for s in said)
    for s in said:
        assert (s["card"] - 1) * 2.5 <= s["start"] < s["end"]
        assert 0.3 < s["end"] - s["start"] < 6                        # a rendered line, not a guess
    assert any("Dangle" in s["text"] for s in said if s["card"] == 6)  # the knockout is said
    assert list(tmp_path.glob("*/*.wav"))                             # rendered into the voice cache
