"""The phone page's seats without a server: the seating folded input by input (and what it costs), the join
code, the Dealer ending a phone's hold, names that impersonate, and the back-off per address with its bound."""

from __future__ import annotations

import random
import string
from types import SimpleNamespace as NS

import pytest

from companion.web import seating as seating_module
from companion.web.guard import Backoff, Origins
from companion.web.names import folded, most_marks, name_refusal
from companion.web.seating import WEB, Seating, claims_from_entries
from companion.web.seats import (CONSENT_DIGITS, JOIN_ALPHABET, consent_code, join_code, join_link, journal_key,
                                 same_join)


def entry(i: int, text: str, source: str = WEB, skipped: bool = False):
    return NS(id=i, text=text, source=source, skipped=skipped)


# ----- the Dealer always wins -------------------------------------------------------------------------------
def test_a_seat_named_or_freed_at_the_kiosk_is_no_longer_any_phones():
    entries = [entry(1, "HS-NEW", "scan"), entry(2, "HS-PLAYERS-4", "scan"), entry(3, "HS-NAME-2:Ann"),
               entry(4, "HS-NAME-3:Bo")]
    assert claims_from_entries(entries) == {2: 3, 3: 4}
    named = Seating.of([*entries, entry(5, "HS-NAME-2:Ann", "scan")])  # the Dealer names the phone's seat
    assert named.claims == {3: 4} and named.taken_back == {2} and named.table_seats() == {2}
    freed = Seating.of([*entries, entry(5, "HS-NAME-3:", "key")])      # ... or frees it
    assert freed.claims == {2: 3} and freed.taken_back == {3} and freed.table_seats() == set()
    again = Seating.of([*entries, entry(5, "HS-NAME-3:", "key"), entry(6, "HS-NAME-3:Mallory")])
    assert again.claims == {2: 3, 3: 6} and again.taken_back == set()  # a phone that claims it anew holds it


# ----- folded input by input --------------------------------------------------------------------------------
TEXTS = ["HS-NAME-{s}:Ann", "HS-NAME-{s}:", "HS-NAME-{s}:Bo", "HS-BET-{s}-HURLEY", "HS15", "HS-GO", "HS-NEW",
         "HS-PLAYERS-4", "garbage"]


def random_game(rng: random.Random, n: int) -> list[NS]:
    return [entry(i, rng.choice(TEXTS).format(s=rng.randint(1, 4)), rng.choice([WEB, WEB, "scan", "key"]),
                  skipped=rng.random() < 0.05) for i in range(1, n + 1)]


@pytest.mark.parametrize("seed", range(30))
def test_folding_one_entry_at_a_time_gives_what_a_rebuild_gives(seed):
    rng = random.Random(seed)
    entries = random_game(rng, 60)
    live = Seating()
    for k in range(1, len(entries) + 1):
        live.sync(entries[:k])
        assert live == Seating.of(entries[:k])
    undone = entries[:-3] + [entry(99, "HS-NAME-1:Cy")]  # an undo took two back, then a new input
    assert live.sync(undone) is True and live == Seating.of(undone)


def test_a_new_input_costs_one_parse_however_long_the_game(monkeypatch):
    """7,200 phone renames (one phone-hour at two a second), then a scan: the seating parses the scan only."""
    entries = [entry(1, "HS-NEW", "scan"), entry(2, "HS-PLAYERS-4", "scan"), entry(3, "HS-NAME-1:Ann")]
    entries += [entry(4 + k, f"HS-NAME-1:Ann {k % 10}") for k in range(7200)]
    live = Seating.of(entries)
    parsed = []
    real = seating_module.parse_code
    monkeypatch.setattr(seating_module, "parse_code", lambda text: parsed.append(text) or real(text))
    entries.append(entry(len(entries) + 1, "HS-NAME-2:Bo", "scan"))
    assert live.sync(entries) is False
    assert parsed == ["HS-NAME-2:Bo"] and live.named == {2}
    assert live.sync(entries) is False and parsed == ["HS-NAME-2:Bo"]  # the same view again: nothing parsed


# ----- the join code ----------------------------------------------------------------------------------------
def test_the_join_code_is_six_unambiguous_characters_new_each_game_and_kept_across_restarts():
    key = journal_key(b"s" * 32, "a" * 32)
    codes = {join_code(key, start) for start in range(1, 200)}
    assert len(codes) == 199 and all(len(c) == 6 and set(c) <= set(JOIN_ALPHABET) for c in codes)
    assert not set("01OIL") & set(JOIN_ALPHABET)
    assert join_code(key, 7) == join_code(journal_key(b"s" * 32, "a" * 32), 7)  # a restart: the same
    assert join_code(journal_key(b"t" * 32, "a" * 32), 7) != join_code(key, 7)  # another kiosk's
    code = join_code(key, 7)
    assert same_join(code.lower(), code) and same_join(f" {code[:3]}-{code[3:]} ", code)
    assert not same_join(code[:5], code) and not same_join(None, code) and not same_join("é" * 6, code)
    assert join_link("http://10.0.0.2:8080/", code) == f"http://10.0.0.2:8080/?join={code}"


def test_consent_codes_have_six_digits():
    key = journal_key(b"s" * 32, "a" * 32)
    assert all(len(consent_code(key, seat, 3)) == CONSENT_DIGITS == 6 for seat in range(1, 13))


# ----- names ------------------------------------------------------------------------------------------------
SEATS = [{"seat": 1, "name": "Ann", "named": True}, {"seat": 2, "name": "Seat 2", "named": False},
         {"seat": 3, "name": "Bo", "named": True}]


@pytest.mark.parametrize("name, why", [
    ("Seat 2", "how the table calls an unnamed seat"), ("seat  4", "how the table calls an unnamed seat"),
    ("SPELER 1", "how the table calls an unnamed seat"), ("Jugador 9", "how the table calls an unnamed seat"),
    ("Ann", "seat 1's already"), (" ÁNN ", "seat 1's already"), ("ａｎｎ", "seat 1's already"),
    ("A\u0301\u0302\u0303nn", "stacks 3 accents on one letter"),
])
def test_a_phone_may_not_take_an_unnamed_seats_name_another_seats_or_a_tower_of_accents(name, why):
    refusal = name_refusal(" ".join(name.split()), 3, SEATS)
    assert refusal is not None and why in refusal and "\n" not in refusal


@pytest.mark.parametrize("name", ["Bo", "bo", "Annie", "Seattle", "Nguyễn", "Zoë", "Seat Ann"])
def test_own_names_and_real_accents_are_fine(name):
    assert name_refusal(name, 3, SEATS) is None


def test_names_fold_without_case_accents_or_extra_spaces():
    assert folded("  Ánn   Marie ") == folded("ann marie") == "ann marie"
    assert most_marks("Nguyễn") == 2 and most_marks("Ann") == 0


# ----- wrong codes slow the address that sent them --------------------------------------------------------
def test_wrong_codes_slow_only_their_address_and_double_each_time():
    now = [0.0]
    backoff = Backoff(clock=lambda: now[0])
    waits = [backoff.miss("10.0.0.66") for _ in range(7)]
    assert waits == [0.0, 0.0, 1.0, 2.0, 4.0, 8.0, 16.0]  # two typos are free
    assert backoff.wait("10.0.0.66") == 16.0 and backoff.wait("10.0.0.7") == 0.0  # the owner's phone: never
    now[0] += 16.0
    assert backoff.wait("10.0.0.66") == 0.0
    backoff.hit("10.0.0.66")
    assert [backoff.miss("10.0.0.66") for _ in range(3)] == [0.0, 0.0, 1.0]


def guesses_in(seconds: float, backoff: Backoff, now: list[float]) -> int:
    """How many codes one address gets looked at in ``seconds``, guessing as fast as the back-off allows."""
    count = 0
    while now[0] < seconds:
        now[0] += backoff.wait("guesser")
        if now[0] >= seconds:
            break
        backoff.miss("guesser")
        count += 1
    return count


def test_guessing_any_seats_code_from_40_addresses_in_3_hours_stays_under_a_thousandth():
    now = [0.0]
    per_address = guesses_in(3 * 3600, Backoff(clock=lambda: now[0]), now)
    assert per_address == 16  # docs/web-hardening.md derives it: 2 free, 2**13 - 1 s, then waits of an hour
    chance = 40 * per_address / 10 ** CONSENT_DIGITS  # each guess names one seat: a union bound over them all
    assert chance < 0.001
    join_chance = 40 * per_address / len(JOIN_ALPHABET) ** 6
    assert join_chance < 1e-6


# ----- a refused Host names nothing ---------------------------------------------------------------------------
def test_a_refused_host_lists_none_of_the_kiosks_names():
    origins = Origins({"127.0.0.1", "hotstreak.local", "192.168.1.20"})
    why = origins.check_host("evil.example:8080")
    assert why is not None and "evil.example" in why
    assert not any(name in why for name in ("hotstreak.local", "192.168.1.20", "127.0.0.1"))
    long = origins.check_host("x" * 500)
    assert long is not None and len(long) < 200


def test_random_text_never_breaks_the_fold():
    rng = random.Random(5)
    for _ in range(200):
        text = "HS-NAME-" + "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 12)))
        Seating.of([entry(1, text, rng.choice([WEB, "scan"]))])
