"""The race caller: one short line per card with priorities, the moments around a race, refusals in a few
words (companion/call/caller.py)."""

from __future__ import annotations

import random

import pytest

from companion.call.announcer import LANGUAGES, REFUSALS
from companion.call.caller import ESSENTIAL, Caller
from companion.rules.errors import InvalidCodeError, Reason, RefusalMessage, RefusedError
from companion.call.words import load_catalogue
from companion.rules import events as ev
from companion.rules.mascots import Mascot
from companion.rules.race import Race, play
from companion.tools.demo import parse_script, script_path
from companion.voice.pace import cards_of
from conftest import rule_cases
from tablekit import TableKit

G, H, D, M = Mascot.GOBBLER, Mascot.HURLEY, Mascot.DANGLE, Mascot.MUM


def lines(cards: list[str], lang: str = "en", seed: int = 1) -> list[list[str]]:
    caller = Caller(lang, random.Random(seed))
    race = Race()
    return [[s.text for s in caller.card_lines(race.push_text(c), n)] for n, c in enumerate(cards, 1)]


def test_one_short_line_per_card():
    said = lines(["H+3", "M+2", "D-1"])
    assert all(len(card) == 1 and len(card[0].split()) <= 5 for card in said)
    assert "Hurley" in said[0][0] and "6" in said[0][0]


def test_a_fall_is_said_and_the_plain_move_of_the_same_card_gives_way():
    # H+1 then G+1> : Gobbler swerves into Hurley, who goes down
    said = lines(["H+1", "G+1>"])[1]
    assert len(said) == 1 and "Hurley" in said[0]
    phrases = load_catalogue("en").phrases
    assert any(p.format(mascot="Hurley") in said[0] for p in phrases["fell-collision"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_essential_event_of_the_golden_races_is_in_a_line(lang):
    caller = Caller(lang, random.Random(3))
    checked = 0
    for case in rule_cases("race-cases.jsonl"):
        for n, events in enumerate(cards_of(play(case["cards"])[1]), 1):
            covered = {i for s in caller.card_lines(events, n) for i in s.covers}
            for i, e in enumerate(events):
                if isinstance(e, (*ESSENTIAL, ev.Folded, ev.RaceEnded)):
                    assert i in covered, (case["name"], n, e)
                    checked += 1
    assert checked >= 20  # the golden races are read and hold essential events (24 today)


def test_a_green_card_merges_equal_moves():
    said = lines(["A+2"])[0]
    assert len(said) == 1 and not any(m.title in said[0] for m in (G, H, D, M))
    assert "2" in said[0]


def test_several_dqs_on_one_card_merge_into_one_beat():
    # both turned, then everybody back 3: Hurley and Dangle off the back together
    said = lines(["HT", "DT", "A+3"])[2]
    assert len(said) == 1 and "Hurley" in said[0] and "Dangle" in said[0]
    assert len(said[0].split()) <= 6


def test_the_finish_gives_the_place_and_the_last_card_the_podium():
    said = lines(["H*", "H*", "H*", "GF", "GF", "DF", "DF"])
    assert "first" in said[2][0].lower() and "Hurley" in said[2][0]
    last = said[6]
    assert len(last) == 2 and all(m.title in last[1] for m in (G, H, D, M))


def test_the_fold_and_reshuffle_are_one_beat_after_the_card():
    case = next(c for c in rule_cases("race-cases.jsonl") if c["name"] == "first-fold-dq")
    caller = Caller("en", random.Random(2))
    cards = cards_of(play(case["cards"])[1])
    said = caller.card_lines(cards[-1], len(cards))
    assert "Gobbler" in said[0].text           # the DQ under the fold is news of the card itself
    assert "4" in said[-1].text and said[-1].priority == 0


def test_the_last_card_of_a_pass_is_announced_with_the_track():
    caller = Caller("en", random.Random(0))
    race = Race()
    for n, code in enumerate(["HS14", "HS25", "HS36", "HS03", "HS15", "HS26", "HS37", "HS04", "HS12", "HS23",
                              "HS34", "HS01", "HS13", "HS24"], 1):
        said = [s.text for s in caller.card_lines(race.push_text(code), n, race.track.reveals_per_pass)]
    assert said[-1] in load_catalogue("en").phrases["last-card"]


@pytest.mark.parametrize("reason", list(Reason), ids=[r.value for r in Reason])
def test_refusals_are_spoken_as_their_reason_from_a_fixed_set(reason):
    error = RefusedError("whatever the detail says: already, unknown, HS-NEW", reason)
    assert reason.value in REFUSALS
    line = Caller("nl", random.Random(0)).refusal(error)
    assert line.text in load_catalogue("nl").phrases[f"refused-{reason.value}"] and line.slot == "refused"


def test_a_refusal_message_from_the_controller_is_spoken_by_its_reason_not_its_words():
    caller = Caller("en", random.Random(0))
    error = RefusedError("journal full: can't save", Reason.ALREADY)  # the words say save, the code says already
    assert caller.refusal(RefusalMessage(error)).text in load_catalogue("en").phrases["refused-already"]
    assert caller.refusal("text without its error").text in load_catalogue("en").phrases["refused-other"]


def test_garbage_gives_one_of_a_few_fixed_lines():
    caller = Caller("en", random.Random(0))
    said = {caller.refusal(InvalidCodeError(f"unknown code 'JUNK{k}' (expected HS-...)", code=f"JUNK{k}")).text
            for k in range(200)}
    assert said <= set(load_catalogue("en").phrases["refused-unknown"])


def demo_table(lang: str = "en", until: str | None = None) -> TableKit:
    table = TableKit(lang=lang)
    for code, _ in parse_script(script_path().read_text()):
        if code == until:
            break
        table.scan(code)
        if code.startswith("HS-PLAYERS"):
            table.scan("HS-NAME-2:Ann")
    return table


def test_whose_pick_uses_seat_names_and_the_side_bet_is_asked():
    table = demo_table()
    said = table.said()
    assert any(s.startswith("Ann") or "Ann." in s for s in said if "pick" in s.lower() or "over to you" in s.lower())
    assert any("Seat 1" in s for s in said if "pick" in s.lower() or "over to you" in s.lower())
    assert any("Will two mascots wait on the finish-line space together?" in s for s in said)


def test_race_three_asks_for_the_double_and_payouts_say_who_won_what():
    said = demo_table().said()
    phrases = load_catalogue("en").phrases
    assert any(s in {p.format(race=3) for p in phrases["mark-double"]} for s in said)
    won = [s for s in said if " wins " in s or " plus " in s]
    assert any(s.startswith("Ann") for s in won) or any(s.startswith("Ann") for s in said if "loses" in s)
    over = next(s for s in said if s.startswith(("Game over", "That's the game")))
    assert "Seat 4" in over and "53" in over            # the demo's winner
    assert any(s.startswith(("Final standings", "The table")) and "Ann" in s for s in said)


def test_the_side_bet_is_asked_in_dutch():
    said = demo_table("nl").said()
    assert any("Staan er twee mascottes tegelijk op het finishvak?" in s for s in said)
    assert any("Ann" in s for s in said)
    assert any("Speler 1" in s for s in said)            # an unnamed seat in the table's language
    assert not any("Seat 1" in s for s in said)
