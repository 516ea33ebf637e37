"""The odds: the batched core against the pure engine (final states), the estimator against the pure engine
(same probabilities within sampling error), exact enumeration against a brute force, and ``hotstreak odds``."""

from __future__ import annotations

import itertools
import json
import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.odds.core import Batch, CardTable, play, race_row_state
from companion.odds.estimate import Odds, deck_knowledge, estimate, hidden_cards
from companion.odds.reference import estimate_pure
from companion.rules import MASCOTS, Card, Mascot, Race, load_deck
from conftest import hotstreak

DECK = load_deck()
STARTING = [dc.code for dc in DECK if dc.starting]
# Cards beyond the default deck, to reach every rule of the core: green falls, stars, turns and swerves,
# and one-mascot cards with several actions.
EXOTIC = ["AF", "A*", "AT", "A>", "A<", "AR*", "A+5", "G*<F", "HT*", "DF>", "M-3<", "HR-1T", "GTF", "D+4>T"]
CARDS = [dc.card for dc in DECK] + [Card.parse(t) for t in EXOTIC]
TABLE = CardTable.of(CARDS)
POSITIONS = [
    "G1.3 H2.3 D3.3 M4.3 fold:0 pass:1 rev:0 cards:-",
    "G1.9 H2.12f D3.11t M4.6 fold:1 pass:2 rev:13 cards:-",
    "G2.5f H2.5 D2.7t M3.5 fold:0 pass:1 rev:4 cards:-",
    "G=1 H3.9ft D3.9 Mk4 fold:2 pass:3 rev:2 cards:-",
    "G4.12t H1.8f D2.13 M4.11 fold:3 pass:4 rev:14 cards:-",
]
FACE_UP_4P = STARTING + ["HS38", "HS32", "HS52", "HS16", "HS27", "HS30", "HS04", "HS23", "HS39", "HS01"]


def _pure_final(position: str, ids) -> Race:
    race = Race.from_position(position)
    for i in ids:
        if race.is_over:
            break
        race.push(CARDS[int(i)])
    return race


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("length", [1, 6, 40])
def test_core_final_states_equal_pure_engine_on_random_sequences(position, length):
    rng = np.random.default_rng(len(position) * 100 + length)
    n = 150
    seq = rng.integers(0, len(CARDS), size=(n, length))
    batch = Batch.from_race(Race.from_position(position), n)
    play(batch, TABLE, seq)
    for i in range(n):
        race = _pure_final(position, seq[i])
        assert batch.row_state(i) == race_row_state(race), (position, [CARDS[c].notation() for c in seq[i]])
        assert bool(batch.running()[i]) == (not race.is_over)
        assert (batch.folds, batch.pass_no, batch.revealed) == (race.folds, race.pass_no, race.revealed) or race.is_over


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(POSITIONS), st.lists(st.integers(0, len(CARDS) - 1), min_size=1, max_size=30))
def test_core_equals_pure_engine_property(position, ids):
    batch = Batch.from_race(Race.from_position(position), 1)
    play(batch, TABLE, np.array([ids]))
    assert batch.row_state(0) == race_row_state(_pure_final(position, ids))


def test_core_equals_pure_engine_on_sampled_decks_and_orders():
    """Realistic races: a 4-player race deck with 4 random player cards, reshuffled every pass."""
    rng = random.Random(7)
    codes = [dc.code for dc in DECK]
    index = {c: i for i, c in enumerate(codes)}
    pool = [c for c in codes if c not in FACE_UP_4P]
    n = 200
    seqs = []
    for _ in range(n):
        deck = FACE_UP_4P + rng.sample(pool, 4)
        seq = []
        for _pass in range(4):
            order = rng.sample(deck, len(deck))
            seq += order[:15]
        seqs.append([index[c] for c in seq])
    batch = Batch.from_race(Race(), n)
    play(batch, TABLE, np.array(seqs))
    for i in range(n):
        race = Race()
        for pushed in seqs[i]:
            if race.is_over:
                break
            race.push(CARDS[pushed], codes[pushed])
        assert batch.row_state(i) == race_row_state(race)


def _agree(a: Odds, b: Odds, sigmas: float = 4.5, point: str = "") -> None:
    for m in MASCOTS:
        for x, y, sx, sy in zip((*a.places[m], a.dq[m]), (*b.places[m], b.dq[m]), a.stderr[m], b.stderr[m]):
            assert abs(x - y) <= sigmas * np.hypot(sx, sy) + 1e-9, (point, m, a.places[m], b.places[m])


def _race_after(codes: list[str]) -> Race:
    race = Race()
    for c in codes:
        race.push_text(c)
    return race


@pytest.mark.slow  # 0.9-1.0 s: four estimates against the pure engine
def test_estimate_agrees_with_pure_engine_at_four_points_of_a_game():
    points = {
        "start": (FACE_UP_4P, 4, None),
        "mid-pass": (FACE_UP_4P, 4, _race_after(["HS38", "HS13", "HS52", "HS16", "HS27"])),
        # few cards left: enumerated orderings, then sampling for the rest
        "late-pass-hybrid": (FACE_UP_4P, 4, _race_after(FACE_UP_4P[:13])),
        "third-pass": (STARTING + ["HS05", "HS18", "HS29", "HS40", "HS45"], 9,
                       Race.from_position("G1.8 H2.10f D4.9t M4.7 fold:2 pass:3 rev:3 cards:HS05,HS18,HS02")),
    }
    for point, (known, players, race) in points.items():
        fast = estimate(known, players, race, samples=8000, seed=11)
        slow = estimate_pure(known, players, race, samples=1200, seed=12)
        assert fast.samples >= 8000 and slow.samples == 1200, point
        assert fast.exact is False and fast.unknown == slow.unknown, point
        _agree(fast, slow, point=point)


@pytest.mark.slow  # 0.45-0.5 s: six estimates
def test_estimate_is_deterministic_and_chunks_run_on_an_executor():
    a = estimate(FACE_UP_4P, 4, samples=900, seed=5)
    assert estimate(FACE_UP_4P, 4, samples=900, rng=np.random.default_rng(5)) == a
    c = estimate(FACE_UP_4P, 4, samples=900, seed=5, chunks=3)
    with ThreadPoolExecutor(2) as pool:
        assert estimate(FACE_UP_4P, 4, samples=900, seed=5, chunks=3, executor=pool) == c
    assert c.samples == 900 and c != a  # three chunks, seeded each: other races than one run of 900
    r1 = estimate(FACE_UP_4P, 4, samples=500, rng=random.Random(3))
    assert r1 == estimate(FACE_UP_4P, 4, samples=500, rng=random.Random(3))


def _brute_force(known: list[str], players: int, race: Race) -> np.ndarray:
    """Every deck completion and every ordering of the rest of the pass through the pure engine; races still
    running at the end of the pass are cut off by the remaining-place rule. Returns P[mascot, place-1]."""
    info = deck_knowledge(known, players, race)
    left = race.track.reveals_per_pass - race.revealed
    unrevealed = list(info.known[info.in_pass:])
    decks = [unrevealed + list(x) for x in itertools.combinations(info.pool, info.unknown)]
    probs = np.zeros((4, 4))
    for deck in decks:
        orders = list(itertools.permutations(deck, left))
        for order in orders:
            r = Race.from_position(race.position())
            for code in order:
                if not r.is_over:
                    r.push_text(code)
            b = Batch.from_race(r, 1)
            b.force_end()
            for m in range(4):
                probs[m, b.place[0, m] - 1] += 1 / len(decks) / len(orders)
    return probs


def test_exact_enumeration_equals_brute_force_over_pure_engine():
    race = Race.from_position("G1.9 H2.12f D3.11t M4.6 fold:1 pass:2 rev:13 "
                              "cards:HS01,HS03,HS14,HS16,HS25,HS27,HS34,HS36,HS45,HS47,HS49,HS02,HS13")
    known = ["HS01", "HS03", "HS14", "HS16", "HS25", "HS27", "HS34", "HS36", "HS45", "HS47", "HS49", "HS02",
             "HS13", "HS24", "HS35", "HS15", "HS33"]  # 17 known: one card unknown, 2 reveals left
    odds = estimate(known, 9, race, max_passes=0, seed=1)
    assert odds.exact and odds.unknown == 1
    assert odds.samples == 4 * 3 + 2 * 4 * 36  # orderings: known-known, known-pool, pool-known
    assert all(e == 0 for m in MASCOTS for e in odds.stderr[m])
    np.testing.assert_allclose(np.array([odds.places[m] for m in MASCOTS]), _brute_force(known, 9, race),
                               atol=1e-12)


def test_exact_without_cut_off_when_every_ordering_ends_the_race():
    # Hurley and Dangle on 12 with Gobbler in and Mum out: each card left makes one of them cross.
    deck18 = ["HS01", "HS03", "HS05", "HS06", "HS07", "HS08", "HS34", "HS36", "HS45", "HS47", "HS49", "HS02",
              "HS13", "HS14", "HS15", "HS25", "HS26", "HS32"]
    revealed = deck18[:13]
    race = Race.from_position(f"G=1 H2.12 D3.12 Mk4 fold:0 pass:1 rev:13 cards:{','.join(revealed)}")
    odds = estimate(deck18, 9, race, seed=2)
    assert odds.exact and odds.samples == 5 * 4 and odds.cut == 0
    assert odds.places[Mascot.GOBBLER] == pytest.approx((1, 0, 0, 0))
    # H+2 (HS14), H+3 (HS15) finish Hurley; D+2 (HS25), D+3 (HS26), D+2< (HS32) finish Dangle
    assert odds.places[Mascot.HURLEY] == pytest.approx((0, 2 / 5, 3 / 5, 0))
    assert odds.places[Mascot.DANGLE] == pytest.approx((0, 3 / 5, 2 / 5, 0))
    assert odds.places[Mascot.MUM] == pytest.approx((0, 0, 0, 1)) and odds.dq[Mascot.MUM] == pytest.approx(1)


@pytest.mark.parametrize("case", ["start", "late"])
def test_probabilities_sum_to_one(case):
    race = _race_after(FACE_UP_4P[:13]) if case == "late" else None
    odds = estimate(FACE_UP_4P, 4, race, samples=4000, seed=3)
    for m in MASCOTS:
        assert sum(odds.places[m]) == pytest.approx(1.0)
        assert sum(odds.taken[m]) == pytest.approx(1.0)
        assert odds.dq[m] <= 1.0
    for q in range(4):
        # counting a shared DQ as taking each of its places, every place is taken exactly once per race
        assert sum(odds.taken[m][q] for m in MASCOTS) == pytest.approx(1.0)
    # paid places: a shared DQ leaves better places unpaid and pays several as the worst
    paid = [sum(odds.places[m][q] for m in MASCOTS) for q in range(4)]
    assert sum(paid) == pytest.approx(4.0)
    assert paid[3] >= 1.0


def test_shared_dq_is_paid_as_the_worst_place():
    # Gobbler and Hurley fallen on space 1; one reveal left in the pass, then the first fold (edge 4).
    race = Race.from_position("G1.1f H2.1f D3.5 M4.6 fold:0 pass:1 rev:14 cards:HS01,HS03,HS05,HS06,HS07,"
                              "HS08,HS09,HS10,HS11,HS12,HS14,HS16,HS17,HS18")
    known = list(race.state.codes_in_pass) + ["HS53", "HS25", "HS26", "HS34"]  # A-2, D+2, D+3, MR+1
    odds = estimate(known, 9, race, max_passes=0, seed=1)
    assert odds.exact and odds.samples == 4
    # Either A-2 crawls G and H off the back together, or the fold takes them together: paid 4th, both,
    # each taking half of 3rd and 4th.
    for m in (Mascot.GOBBLER, Mascot.HURLEY):
        assert odds.places[m] == pytest.approx((0, 0, 0, 1)) and odds.dq[m] == pytest.approx(1)
        assert odds.taken[m] == pytest.approx((0, 0, 0.5, 0.5))
    # A-2 also puts Dangle on 3: the fold DQs it alone, paid 2nd (the worst open place), Mum 1st.
    # Otherwise the race is cut off at the end of the pass: by space, D+2 and D+3 put Dangle ahead.
    assert odds.places[Mascot.DANGLE] == pytest.approx((0.5, 0.5, 0, 0))
    assert odds.dq[Mascot.DANGLE] == pytest.approx(0.25)
    assert odds.places[Mascot.MUM] == pytest.approx((0.5, 0.5, 0, 0)) and odds.dq[Mascot.MUM] == 0
    assert odds.cut == 3


def test_race_over_gives_its_placings():
    race = _race_after(["H+3", "H+3", "H+3", "H+2", "G-2", "G-2", "D-2", "D-2"])
    assert race.is_over
    odds = estimate([], 4, race, seed=1)
    assert odds.exact and odds.places[Mascot.HURLEY] == (1.0, 0.0, 0.0, 0.0)
    assert odds.places[Mascot.MUM] == (0.0, 1.0, 0.0, 0.0)


def test_knowledge_notation_codes_and_player_counts():
    info = deck_knowledge(["A+1", "A+1", "HS02"], 4, Race())
    assert info.known == ("HS45", "HS46", "HS02") and info.unknown == 15 and len(info.pool) == 50
    assert [hidden_cards(n) for n in (2, 3, 8, 9, 12)] == [4, 3, 8, 0, 0]
    race = _race_after(["HS38", "H+3"])  # H+3 by notation is HS15, not known before
    info = deck_knowledge(FACE_UP_4P, 4, race)
    assert info.known[:2] == ("HS38", "HS15") and info.in_pass == 2 and info.unknown == 3


@pytest.mark.parametrize("kwargs, message", [
    (dict(known=["HS02"], players=1), "player count 1"),
    (dict(known=["HS99"], players=4), "HS99"),
    (dict(known=["HS02", "HS02"], players=4), "HS02 is given twice"),
    (dict(known=[f"HS{i:02d}" for i in range(1, 16)], players=4), "15 face-up cards"),
    (dict(known=["HS02"], players=4, samples=0), "samples 0"),
    (dict(known=["HS02"], players=4, seed=1, rng=np.random.default_rng(1)), "not both"),
])
def test_bad_input_is_rejected_with_a_message(kwargs, message):
    with pytest.raises(ValueError, match=message):
        estimate(**kwargs)


@pytest.mark.slow
def test_cli_odds_json_shape():
    result = hotstreak("odds", "--json", "--players", "4", "--samples", "2000", "--seed", "1", *FACE_UP_4P)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["samples"] == 2000
    assert set(out["places"]) == {"gobbler", "hurley", "dangle", "mum"}
    for places in out["places"].values():
        assert len(places) == 4 and all(0 <= p <= 1 for p in places)
        assert sum(places) == pytest.approx(1.0)
    assert set(out["dq"]) == set(out["places"]) and len(out["stderr"]["mum"]) == 5
    again = hotstreak("odds", "--json", "--players", "4", "--samples", "2000", "--seed", "1", *FACE_UP_4P)
    assert json.loads(again.stdout) == out


@pytest.mark.slow
def test_cli_odds_table_and_errors():
    result = hotstreak("odds", "--samples", "500", "--seed", "1", "HS02", "H+3")
    assert result.returncode == 0, result.stderr
    assert "Gobbler" in result.stdout and "1st" in result.stdout and "DQ" in result.stdout
    bad = hotstreak("odds", "--players", "4", "Q+1")
    assert bad.returncode == 2 and "'Q+1'" in bad.stderr and bad.stderr.count("\n") == 1
