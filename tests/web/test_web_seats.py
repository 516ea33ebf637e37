"""A phone plays only its own seat: consent codes for seats the table plays, tokens bound to the journal's
identity, a claim applied only if its phone gets the answer, and UNDO at the scanner never taking back a
phone's input. Real HTTP and WebSocket connections to the real server on loopback."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from companion.screen.table_model import from_view
from companion.view.sink import NullSink
from companion.web import app as web_app
from companion.web.guard import RateLimit
from companion.web.seats import WEB, consent_code, journal_key, seat_codes, table_seats
from tests.web.test_web import STANDARD_GAME, entry, post, started, view
from webtable import LiveTable


OPEN_GAME = ("HS-NEW", "HS-OPEN", "HS-PLAYERS-3", "HS-GO")
FAST = RateLimit(rate=1e6, burst=1e6)  # these tests send many requests from one address


def code_on_screen(table: LiveTable, seat: int) -> str | None:
    """The consent code the kiosk's screen shows beside ``seat`` (1-based), read from its screen model."""
    shown = from_view(table.controller.view).seats[seat - 1].name
    return shown.rsplit(" · ", 1)[1] if " · " in shown else None


def journal_texts(table: LiveTable) -> list[tuple[str, str]]:
    return [(e.source, e.text) for e in table.journal.entries()]


# ----- which seats need the table's consent -----------------------------------------------------------------
def test_seats_the_table_named_or_bets_for_need_consent_until_a_phone_holds_them():
    entries = [entry(1, "HS-NEW", "scan"), entry(2, "HS-PLAYERS-4", "scan"), entry(3, "HS-NAME-1:Dora", "key"),
               entry(4, "HS-BET-2-HURLEY", "scan"), entry(5, "HS-NAME-3:Cy"), entry(6, "HS-BET-3-MUM"),
               entry(7, "HS-NAME-4:Eve", "scan"), entry(8, "HS-NAME-4:", "key")]
    assert table_seats(entries) == {1, 2}  # a phone's own name or bet is no consent; a cleared name frees
    key = journal_key(b"s" * 32, "a" * 32)
    assert seat_codes(key, entries) == {1: consent_code(key, 1, 1), 2: consent_code(key, 2, 1)}
    assert seat_codes(key, entries + [entry(9, "HS-NEW", "scan")]) == {}
    assert all(len(c) == 6 and c.isdigit() for c in seat_codes(key, entries).values())
    assert consent_code(journal_key(b"s" * 32, "b" * 32), 1, 1) != consent_code(key, 1, 1) or \
        consent_code(journal_key(b"s" * 32, "b" * 32), 2, 1) != consent_code(key, 2, 1)  # another journal


def test_a_seat_named_at_the_kiosk_is_claimed_from_a_phone_only_with_the_code_on_the_screen():
    with started(LiveTable(limit=FAST), *STANDARD_GAME, "HS-NAME-3:Dora") as table:
        code = code_on_screen(table, 3)
        assert code is not None and code_on_screen(table, 1) is None  # a free, unnamed seat needs none
        seats = view(table)["seats"]
        assert [s["locked"] for s in seats] == [False, False, True] and code not in json.dumps(seats)
        before = journal_texts(table)
        status, answer = post(table, "/api/claim", {"seat": 3, "name": "Dora"})  # the stranger of the report
        assert status == 403 and answer["reason"] == "not-yours" and "code is shown beside it" in answer["error"]
        wrong = "000000" if code != "000000" else "111111"
        status, answer = post(table, "/api/claim", {"seat": 3, "name": "Dora", "code": wrong})
        assert status == 403 and answer["error"].startswith(f"code '{wrong}' is not seat 3's")
        assert journal_texts(table) == before and not view(table)["seats"][2]["claimed"]
        status, claimed = post(table, "/api/claim", {"seat": 3, "name": "Dora", "code": code})
        assert status == 200 and claimed["token"]
        assert view(table)["seats"][2]["claimed"] and code_on_screen(table, 3) is None
        assert post(table, "/api/claim", {"seat": 1, "name": "Ann"})[0] == 200  # first phone, free seat


def test_a_seat_played_from_the_bet_sheet_needs_the_code_and_its_bet_stays_the_tables():
    with started(LiveTable(limit=FAST), *OPEN_GAME, "HS-BET-2-HURLEY") as table:
        code = code_on_screen(table, 2)
        assert code is not None
        status, _ = post(table, "/api/claim", {"seat": 2, "name": "Mallory"})
        assert status == 403
        assert post(table, "/api/bet", {"seat": 2, "mascot": "mum"})[0] == 403
        assert table.controller.view.game.open_bets[1].mascot.value == "hurley"
        status, claimed = post(table, "/api/claim", {"seat": 2, "name": "Bo", "code": code})
        assert status == 200
        status, _ = post(table, "/api/bet", {"seat": 2, "token": claimed["token"], "mascot": "mum"})
        assert status == 200 and table.controller.view.game.open_bets[1].mascot.value == "mum"


# ----- tokens are bound to their journal --------------------------------------------------------------------
def test_a_journal_moved_aside_voids_every_token_although_entry_ids_start_again(tmp_path):
    db = tmp_path / "journal.db"
    with started(LiveTable(db, language="nl"), *STANDARD_GAME) as table:
        _, yesterday = post(table, "/api/claim", {"seat": 2, "name": "Ann"})
        epoch = table.server.hub.claims[2]
        table.journal.close()
    for suffix in ("", "-wal", "-shm"):  # the documented recovery: move the journal aside, keep the key file
        if Path(f"{db}{suffix}").exists():
            Path(f"{db}{suffix}").rename(tmp_path / f"yesterday.db{suffix}")
    assert Path(f"{db}.web-key").exists()
    with started(LiveTable(db, language="nl"), *STANDARD_GAME) as table:
        _, today = post(table, "/api/claim", {"seat": 2, "name": "Bo"})
        assert table.server.hub.claims[2] == epoch  # the same entry id: only the identity tells them apart
        status, answer = post(table, "/api/claim", {"seat": 2, "name": "Eve", "token": yesterday["token"]})
        assert status == 403 and answer["reason"] == "not-yours"
        assert answer["line"] != "" and answer["line"] == post(table, "/api/leave", {"seat": 2})[1]["line"]
        assert post(table, "/api/leave", {"seat": 2, "token": yesterday["token"]})[0] == 403
        assert table.controller.view.seat_name(1) == "Bo"
        assert post(table, "/api/claim", {"seat": 2, "name": "Bea", "token": today["token"]})[0] == 200


def test_the_same_game_written_to_a_fresh_journal_keeps_its_phones(tmp_path):
    db = tmp_path / "journal.db"
    with started(LiveTable(db, limit=FAST), *STANDARD_GAME) as table:
        _, claimed = post(table, "/api/claim", {"seat": 1, "name": "Ann"})
        first = table.journal.identity
        Path(db).unlink()  # deleted while the kiosk runs: the kiosk writes its game to a new journal
        started(table, "HS-T-HURLEY-1-S")
        assert table.journal.identity != first
        status, renamed = post(table, "/api/claim", {"seat": 1, "name": "Annie", "token": claimed["token"]})
        assert status == 200 and renamed["token"] != claimed["token"]  # a token of the new journal
        assert post(table, "/api/leave", {"seat": 1, "token": renamed["token"]})[0] == 200


# ----- a claim is applied only if its phone gets the answer -------------------------------------------------
class Stall(NullSink):
    """Holds the kiosk thread in ``render`` while ``hold`` is set (``held`` tells it is there)."""

    def __init__(self) -> None:
        self.hold, self.held, self.go = threading.Event(), threading.Event(), threading.Event()

    def render(self, view, now):
        if self.hold.is_set():
            self.held.set()
            self.go.wait(10)


def test_a_claim_whose_phone_stopped_waiting_is_never_applied(monkeypatch):
    monkeypatch.setattr(web_app, "ANSWER_SECONDS", 0.0)
    stall = Stall()
    with started(LiveTable(limit=FAST, extra_sinks=(stall,)), *STANDARD_GAME) as table:
        stall.hold.set()
        assert stall.held.wait(10)  # the kiosk is busy: the claim waits in its queue
        status, answer = post(table, "/api/claim", {"seat": 1, "name": "Ann"})
        assert status == 503 and answer["reason"] == "busy" and "nothing was changed" in answer["error"]
        stall.hold.clear()
        stall.go.set()
        table.wait_idle()
        assert (WEB, "HS-NAME-1:Ann") not in journal_texts(table)
        assert not view(table)["seats"][0]["claimed"] and table.controller.view.seat_name(0) == "Seat 1"
        monkeypatch.setattr(web_app, "ANSWER_SECONDS", 5.0)
        assert post(table, "/api/claim", {"seat": 1, "name": "Ann"})[0] == 200  # trying again works


def test_a_claim_the_kiosk_took_before_the_phone_stopped_waiting_still_gives_the_phone_its_token(monkeypatch):
    taken = threading.Event()

    class Witnessed(web_app.Ticket):
        def take(self) -> bool:
            ok = super().take()
            taken.set()
            return ok

        def abandon(self) -> bool:
            taken.wait(10)  # the phone's time runs out only once the kiosk has taken the claim
            return super().abandon()

    monkeypatch.setattr(web_app, "Ticket", Witnessed)
    monkeypatch.setattr(web_app, "ANSWER_SECONDS", 0.0)
    with started(LiveTable(limit=FAST), *STANDARD_GAME) as table:
        status, claimed = post(table, "/api/claim", {"seat": 3, "name": "Cy"})
        assert status == 200 and claimed["token"]
        monkeypatch.setattr(web_app, "ANSWER_SECONDS", 5.0)
        assert post(table, "/api/leave", {"seat": 3, "token": claimed["token"]})[0] == 200


# ----- UNDO at the scanner is the table's --------------------------------------------------------------------
def test_undo_takes_back_the_wrong_card_not_the_phones_rename_made_after_it():
    from websockets.sync.client import connect
    draft = [f"HS-T-{s}-1-S" for s in ("HURLEY", "MUM", "DANGLE", "GOBBLER", "YES", "NO")]
    with started(LiveTable(limit=FAST), *STANDARD_GAME) as table:
        _, claimed = post(table, "/api/claim", {"seat": 1, "name": "Ann"})
        started(table, *draft, "HS-GO", "HS-GO", "HS15")  # HS15: the wrong card
        assert view(table)["revealed"] == 1
        assert post(table, "/api/claim", {"seat": 1, "name": "Annie", "token": claimed["token"]})[0] == 200
        uri = table.url.replace("http://", "ws://") + "ws"
        with connect(uri, origin=table.url.rstrip("/"), open_timeout=5) as ws:
            first = json.loads(ws.recv(timeout=5))
            table.scan("HS-UNDO")
            got = first
            while got["revealed"] != 0:
                got = json.loads(ws.recv(timeout=5))
        assert got["seats"][0]["name"] == "Annie" and got["seats"][0]["claimed"]
        assert journal_texts(table)[-1] == ("scan", "HS-UNDO")
        assert [e.text for e in table.journal.effective()][-1] == "HS-NAME-1:Annie"


@pytest.mark.parametrize("source", ["button", "key"])
def test_undo_from_a_button_or_the_keyboard_also_skips_the_phone(source):
    with started(LiveTable(limit=FAST), *STANDARD_GAME, "HS-T-HURLEY-1-S") as table:
        _, claimed = post(table, "/api/claim", {"seat": 2, "name": "Bo"})
        table.controller.submit("HS-UNDO", source)
        table.wait_idle()
        assert table.controller.table.game.tickets[0] == [] and table.controller.view.seat_name(1) == "Bo"
