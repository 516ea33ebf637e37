"""The race 3 double through the real scanner pipeline: the real `hotstreak run` process reading a
real pseudo-terminal, with the scanner's repeat window (0.8 s, the default config) dropping the same code
sent twice within it. Codes are written at scanner speed (a few milliseconds apart); only two identical codes
in a row are spaced past the repeat window, as a Dealer scanning GO twice would be.

This starts a real process, so it waits on real time with deadlines (as tests/kiosk/test_kiosk_e2e.py).
"""

from __future__ import annotations

import pytest
import json
import os
import time
import tty

from conftest import hotstreak
from kioskproc import first_code_stored, journal_texts, start_run, stop, wait_until

RACE_1 = "HS17 HS15 HS14 HS22 HS06 HS04 HS03 HS11 HS28 HS26 HS25 HS33".split()  # H 1, G 2, D 3, M 4
RACE_2 = "HS06 HS04 HS03 HS11 HS28 HS26 HS25 HS33 HS17 HS15 HS14 HS22".split()  # G 1, D 2, H 3, M 4
RACE_3 = "HS39 HS37 HS36 HS44 HS28 HS26 HS25 HS33 HS06 HS04 HS03 HS11".split()  # M 1, D 2, G 3, H 4
REPEAT_WINDOW = 0.8


def status(db) -> dict:
    result = hotstreak("status", "--json", "--db", str(db))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.slow
def test_race_3_double_at_scanner_speed_over_a_real_pty(tmp_path):
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    proc = start_run(tmp_path, "--scanner", port)
    db = tmp_path / "journal.db"
    last = [""]

    def scan(*codes: str, suffix: bytes = b"\r\n") -> None:
        for code in codes:
            if code == last[0]:
                time.sleep(REPEAT_WINDOW + 0.2)  # a Dealer's second GO comes later than a scanner's resend
            os.write(master, code.encode() + suffix)
            last[0] = code
            time.sleep(0.005)

    try:
        first_code_stored(proc, master, port, db)
        last[0] = "HS-NEW"
        scan("HS-PLAYERS-2", "HS-NAME-2:Bea", "HS-GO")                  # setup: the deck is not tracked
        for card, race in (("HS-S01", RACE_1), ("HS-S02", RACE_2)):    # no bets tracked in races 1 and 2
            scan(card, "HS-GO", "HS-GO", *race, "HS-GO")
        wait_until(lambda: journal_texts(db).count("HS22") == 2, 20, "race 2 to be stored")
        # race 3 asks any-dq; snake order for 2 players: seat 1, 2, 2, 1, 1, 2
        scan("HS-S12", "HS-T-MUM-1-R", "HS-T-DANGLE-1-S", "HS-T-NO-1-S", "HS-T-GOBBLER-1-R", "HS-T-HURLEY-1-S")
        # seat 1 holds its three tickets: doubles the one just drafted, right away; the scanner sends the
        # ticket twice (its repeat) and the reader drops the second copy
        scan("HS-DOUBLE", "HS-T-HURLEY-1-S")
        os.write(master, b"HS-T-HURLEY-1-S\r\n")
        scan("HS-T-YES-1-S")
        scan("HS-GO")                                                    # refused: seat 2 has no double yet
        scan("HS-DOUBLE")
        wait_until(lambda: journal_texts(db).count("HS-DOUBLE") == 2, 10, "seat 2's HS-DOUBLE to be stored")
        texts = journal_texts(db)  # inputs are handled in order: the GO before this HS-DOUBLE was refused
        assert texts[len(texts) - 1 - texts[::-1].index("HS-T-YES-1-S"):] == ["HS-T-YES-1-S", "HS-DOUBLE"]
        mid = status(db)
        assert mid["phase"] == "betting" and mid["race"] == 3
        assert [s["double"] for s in mid["seats"]] == ["hurley-top", None]
        assert mid["seats"][1]["name"] == "Bea"
        scan("HS-T-NO-1-S", "HS-GO", "HS-GO", *RACE_3)
        wait_until(lambda: journal_texts(db).count("HS11") == 3, 20, "race 3 to be stored")
        end = status(db)
        assert end["phase"] == "payouts" and end["placings"] == {"mum": 1, "dangle": 2, "gobbler": 3, "hurley": 4}
        assert [s["double"] for s in end["seats"]] == ["hurley-top", "no-top"]
        # seat 1: mum-top risky 15 + gobbler-top risky 2 + hurley-top safe 0 doubled; seat 2: dangle-top safe 7
        # + no-top safe 10 doubled (nobody was disqualified) + yes-top safe 0 = 27
        assert end["money"] == [10 + 17, 10 + 27]
        texts = journal_texts(db)
        assert texts.count("HS-DOUBLE") == 2 and texts.count("HS-T-HURLEY-1-S") == 2  # drafted, then doubled
        assert stop(proc) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
