"""The phone page in a shared room, over real connections to the real server on loopback: the join code, the
Dealer ending a phone's hold, renames that change nothing, wrong codes slowing only their address, names that
impersonate, ``status --json``'s codes, and a scan reaching the phones after a phone-hour of inputs."""

from __future__ import annotations

import http.client
import json
import time
import urllib.request
from pathlib import Path

import pytest

from companion.cli import main as cli_main
from companion.kiosk.journal import Entry, Journal
from companion.web.guard import RateLimit
from tests.web.test_web import STANDARD_GAME, join_of, post, started, view
from tests.web.test_web_seats import code_on_screen, journal_texts
from webtable import LiveTable


FAST = RateLimit(rate=1e6, burst=1e6)


def post_from(table: LiveTable, source: str, path: str, body: dict) -> tuple[int, dict]:
    """A POST like the page's from loopback address ``source`` (another phone)."""
    host = table.url.split("/")[2]
    conn = http.client.HTTPConnection(*host.split(":"), timeout=10, source_address=(source, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "Origin": f"http://{host}"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def served(table: LiveTable) -> str:
    """Everything the network serves without a code: the page, its script, the view and a /ws frame."""
    from websockets.sync.client import connect
    texts = []
    for path in ("", "static/app.js", "api/view"):
        with urllib.request.urlopen(table.url + path, timeout=10) as r:
            texts.append(r.read().decode())
    with connect(table.url.replace("http", "ws") + "ws", origin=table.url.rstrip("/"), open_timeout=10) as ws:
        texts.append(str(ws.recv(timeout=10)))
    return "\n".join(texts)


# ----- the join code ----------------------------------------------------------------------------------------
def test_a_seat_is_taken_only_with_the_join_code_the_screen_shows_and_nothing_serves():
    with started(LiveTable(limit=FAST), *STANDARD_GAME) as table:
        code = join_of(table)
        assert table.controller.view.join_url == f"{table.url}?join={code}"  # the QR code's URL
        before = journal_texts(table)
        status, answer = post(table, "/api/claim", {"seat": 1, "name": "Ann"}, join=False)
        assert (status, answer["need"], answer["reason"]) == (403, "join", "not-yours")
        assert "6 characters shown under the QR code" in answer["error"] and code not in json.dumps(answer)
        status, answer = post_from(table, "127.0.0.7", "/api/claim", {"seat": 1, "name": "Ann", "join": "ABCDEF"})
        assert status == 403 and answer["need"] == "join" and code not in json.dumps(answer)
        assert journal_texts(table) == before
        assert code not in served(table)
        status, claimed = post(table, "/api/claim", {"seat": 1, "name": "Ann", "join": code.lower()})
        assert status == 200 and claimed["token"]
        assert view(table)["address"] == table.url  # the page's own address: no code

        started(table, "HS-NEW", "HS-PLAYERS-3")  # a new game, a new code; the old one takes no seat
        assert join_of(table) != code
        status, answer = post(table, "/api/claim", {"seat": 2, "name": "Bo", "join": code})
        assert status == 403 and answer["need"] == "join"


def test_a_restart_keeps_the_join_code_and_status_json_gives_it_with_the_seat_codes(tmp_path, capsys):
    db = tmp_path / "journal.db"
    with started(LiveTable(db, limit=FAST), *STANDARD_GAME, "HS-NAME-3:Dora") as table:
        code = join_of(table)
        dora = code_on_screen(table, 3)
        assert post(table, "/api/claim", {"seat": 1, "name": "Ann"})[0] == 200
    with LiveTable(db, limit=FAST) as table:
        table.wait_idle()
        assert join_of(table) == code and code_on_screen(table, 3) == dora
        url = table.controller.view.join_url  # the address of the kiosk running last (a new port here)
    assert cli_main(["status", "--json", "--db", str(db)]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["join_url"] == url
    assert [s["code"] for s in status["seats"]] == [None, None, dora]  # seat 1 is a phone's: no code


def test_status_json_without_a_page_ever_served_has_no_join_url(tmp_path, capsys):
    db = tmp_path / "journal.db"
    with Journal(db) as journal:
        journal.append("HS-NEW", "scan", 0.0)
    assert cli_main(["status", "--json", "--db", str(db)]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["join_url"] is None and all(s["code"] is None for s in status["seats"])
    assert not Path(f"{db}.web-key").exists()  # status only reads


# ----- the Dealer always wins -------------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", ["HS-NAME-2:Ann", "HS-NAME-2:"])
def test_a_seat_the_dealer_names_or_frees_is_no_longer_the_phones(dealer):
    with started(LiveTable(limit=FAST), "HS-NEW", "HS-OPEN", "HS-PLAYERS-3", "HS-GO") as table:
        status, claimed = post(table, "/api/claim", {"seat": 2, "name": "Mallory"})
        assert status == 200
        started(table, dealer)
        seat = view(table)["seats"][1]
        assert not seat["claimed"] and seat["taken_back"]  # the page says so in a sentence
        assert post(table, "/api/bet", {"seat": 2, "token": claimed["token"], "mascot": "mum"})[0] == 403
        assert post(table, "/api/leave", {"seat": 2, "token": claimed["token"]})[0] == 403
        status, _ = post(table, "/api/claim", {"seat": 2, "name": "Mal", "token": claimed["token"]})
        assert status == 403 if dealer.endswith("Ann") else status == 200  # named: only with the consent code
        assert table.controller.view.seat_name(1) == ("Ann" if dealer.endswith("Ann") else "Mal")


# ----- renames that change nothing are not journaled ------------------------------------------------------
def test_a_rename_to_the_same_name_or_faster_than_a_person_types_is_not_journaled():
    with started(LiveTable(limit=FAST), *STANDARD_GAME) as table:
        _, claimed = post(table, "/api/claim", {"seat": 1, "name": "Zoë"})
        before = journal_texts(table)
        for same in ("zoe", "  ZOË ", "Zoë"):
            status, answer = post(table, "/api/claim", {"seat": 1, "name": same, "token": claimed["token"]})
            assert status == 200 and answer["token"] == claimed["token"]
        assert journal_texts(table) == before
        assert post(table, "/api/claim", {"seat": 1, "name": "Zed", "token": claimed["token"]})[0] == 200
        status, answer = post(table, "/api/claim", {"seat": 1, "name": "Zak", "token": claimed["token"]})
        assert status == 429 and "at most one rename every 2 s" in answer["error"]
        assert journal_texts(table) == [*before, ("web", "HS-NAME-1:Zed")]


def test_names_that_impersonate_are_refused_in_one_line():
    with started(LiveTable(limit=FAST), *STANDARD_GAME, "HS-NAME-3:Dora") as table:
        for name, why in (("Seat 2", "unnamed seat"), ("DÓRA", "seat 3's already"), ("e\u0301\u0301\u0301", "accents")):
            status, answer = post(table, "/api/claim", {"seat": 1, "name": name})
            assert status == 400 and answer["reason"] == "name" and why in answer["error"], answer
        assert not view(table)["seats"][0]["claimed"]


# ----- wrong codes slow the address that sent them ----------------------------------------------------------
def test_wrong_consent_codes_slow_their_address_never_the_seats_owner():
    with started(LiveTable(limit=FAST), *STANDARD_GAME, "HS-NAME-2:Dora") as table:
        now = [0.0]
        table.server.app.state.backoff.clock = lambda: now[0]
        code = code_on_screen(table, 2)
        wrong = "000000" if code != "000000" else "111111"
        guess = {"seat": 2, "name": "X", "code": wrong, "join": join_of(table)}
        assert [post_from(table, "127.0.0.66", "/api/claim", guess)[0] for _ in range(3)] == [403, 403, 403]
        status, answer = post_from(table, "127.0.0.66", "/api/claim", {**guess, "code": code})
        assert status == 429 and "too many wrong codes from this phone" in answer["error"]  # two typos free, then 1 s
        now[0] += 1.0  # its wait is over: the next wrong code doubles it
        assert post_from(table, "127.0.0.66", "/api/claim", guess)[0] == 403
        assert table.server.app.state.backoff.wait("127.0.0.66") == 2.0
        status, claimed = post_from(table, "127.0.0.67", "/api/claim", {"seat": 2, "name": "Dora", "code": code,
                                                                        "join": join_of(table)})
        assert status == 200 and claimed["token"]  # the owner's phone: the right code always works


# ----- no phone can slow the table --------------------------------------------------------------------------
def test_a_scan_after_a_phone_hour_of_inputs_costs_the_table_one_entry_not_the_hour(tmp_path, monkeypatch):
    """A kiosk started on a journal of 7,200 phone renames (an hour at two a second), then a scan: it reaches
    /api/view, and on its way the table made one new entry's view and folded one entry into the seating,
    replaying nothing. Counted, not timed: a time limit here measured the machine's load as much as the
    table (docs/bench.md has the time, from `bench/attack.py --cafe`)."""
    from companion.kiosk import current_game
    from companion.web.seating import Seating
    db = tmp_path / "journal.db"
    game = [Entry(1, 0.0, "scan", "HS-NEW"), Entry(2, 0.0, "scan", "HS-PLAYERS-3"), Entry(3, 0.0, "scan", "HS-GO")]
    game += [Entry(4 + k, 0.0, "web", f"HS-NAME-1:Ann {k % 10}") for k in range(7200)]  # twice a second, an hour
    with Journal(db) as journal:
        journal.rebuild(game)  # written in one transaction (7,200 appends would take a minute of fsyncs)
    work: dict[str, list[object]] = {"views": [], "folds": [], "replays": []}
    made, fold, replay = current_game.Journaled, Seating.fold, current_game.replay
    with LiveTable(db, limit=FAST) as table:
        table.wait_idle()
        version = view(table)["version"]
        monkeypatch.setattr(current_game, "Journaled", lambda *a: work["views"].append(a[2]) or made(*a))
        monkeypatch.setattr(Seating, "fold", lambda self, e: work["folds"].append(e.text) or fold(self, e))
        monkeypatch.setattr(current_game, "replay", lambda *a: work["replays"].append(a) or replay(*a))
        began = time.monotonic()
        table.scan("HS-T-HURLEY-1-S")
        while (got := view(table))["version"] == version or not got["seats"][0]["tickets"]:
            assert time.monotonic() - began < 5.0, f"the scan never reached /api/view: {work}"
    assert work == {"views": ["HS-T-HURLEY-1-S"], "folds": ["HS-T-HURLEY-1-S"], "replays": []}


def test_status_text_names_the_join_url_and_the_seat_codes(tmp_path, capsys):
    db = tmp_path / "journal.db"
    with started(LiveTable(db, limit=FAST), *STANDARD_GAME, "HS-NAME-3:Dora") as table:
        url, dora = table.controller.view.join_url, code_on_screen(table, 3)
    assert cli_main(["status", "--db", str(db)]) == 0
    text = capsys.readouterr().out
    assert f"phones join at {url}" in text and f"Dora: $10, no tickets (a phone takes it with code {dora})" in text


def test_the_same_game_written_to_a_fresh_journal_keeps_its_join_code_until_the_next_game(tmp_path):
    db = tmp_path / "journal.db"
    with started(LiveTable(db, limit=FAST), *STANDARD_GAME) as table:
        before = join_of(table)
        Path(db).unlink()  # deleted while the kiosk runs: the same game goes on in a new journal (a new identity)
        started(table, "HS-T-HURLEY-1-S")
        assert join_of(table) != before  # the screen shows the new journal's code ...
        assert post(table, "/api/claim", {"seat": 2, "name": "Bo", "join": before})[0] == 200  # ... the old one holds
        started(table, "HS-NEW", "HS-PLAYERS-3")
        status, answer = post(table, "/api/claim", {"seat": 1, "name": "Cy", "join": before})
        assert status == 403 and answer["need"] == "join"  # a new game: its own code only
