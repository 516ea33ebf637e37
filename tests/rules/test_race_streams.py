"""Whole random races (tests/data/race-streams.jsonl, written by make_race_streams.py there): the events and the
position the engine gives after every card, and undo back through every card and forward again."""

import hashlib
import json

import pytest
from conftest import rule_cases

from companion.rules import Race

STREAMS = rule_cases("race-streams.jsonl")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _play(cards: list[str]) -> tuple[Race, list[list], list[str]]:
    race = Race()
    events, positions = [], []
    for code in cards:
        events.append(race.push_text(code))
        positions.append(race.position())
    return race, events, positions


def test_every_recorded_race_gives_the_recorded_events_and_positions():
    assert len(STREAMS) >= 100
    for case in STREAMS:
        race, events, positions = _play(case["cards"])
        name = f"race {case['race']} ({' '.join(case['cards'])})"
        assert race.is_over, name
        assert positions[-1] == case["final"], name
        stream = [e.to_dict() for card_events in events for e in card_events]
        assert _digest(json.dumps(stream, sort_keys=True)) == case["events"], f"{name}: other events"
        assert _digest("\n".join(positions)) == case["positions"], f"{name}: another position after some card"


def test_undo_takes_every_recorded_race_back_card_by_card_and_the_same_cards_replay_the_same_events():
    start = Race().position()
    for case in STREAMS[:30]:
        race, events, positions = _play(case["cards"])
        name = f"race {case['race']}"
        for depth in range(len(case["cards"]) - 1, -1, -1):
            card, code = race.pop()
            assert code == case["cards"][depth], name
            assert race.position() == (positions[depth - 1] if depth else start), f"{name}, undo to card {depth}"
        assert race.cards == ()
        for code, expected in zip(case["cards"], events):
            assert race.push_text(code) == expected, name
        assert race.position() == case["final"], name
