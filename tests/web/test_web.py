"""The phone page's server, seats and safety checks, against a live table on loopback (no browser)."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from types import SimpleNamespace as NS

import pytest

from companion.kiosk.config import parse_config
from companion.web.guard import Origins, RateLimit, split_host
from companion.web.inputs import WebRefusal, _checked, name_text, open_bet_inputs
from companion.web.seats import WEB, claims_from_entries, load_secret, seat_token, token_matches
from companion.web.start import wanted
from companion.web.view import running_order, table_view
from webtable import LiveTable


STANDARD_GAME = ("HS-NEW", "HS-PLAYERS-3", "HS-GO")  # no face-up cards scanned: straight to betting


def join_of(table: LiveTable) -> str:
    """The join code the kiosk's screen shows (in its QR code's URL, ``...?join=CODE``)."""
    url = table.controller.view.join_url or ""
    assert "?join=" in url, f"no join code in the screen's address {url!r}"
    return url.split("?join=", 1)[1]


def post(table: LiveTable, path: str, body, *, origin: str | None = "same", host: str | None = None,
         join: bool = True):
    """POST JSON like the page does (a claim carries the join code from the screen, as after scanning its QR
    code, unless ``join`` is False or the body has one); returns (status, answer)."""
    if join and path.endswith("/api/claim") and isinstance(body, dict) and "join" not in body:
        body = {**body, "join": join_of(table)}
    headers = {"Content-Type": "application/json"}
    if origin is not None:
        headers["Origin"] = table.url.rstrip("/") if origin == "same" else origin
    if host is not None:
        headers["Host"] = host
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(table.url + path.lstrip("/"), data=data, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw)
        except ValueError:
            return e.code, raw.decode()


def view(table: LiveTable) -> dict:
    with urllib.request.urlopen(table.url + "api/view", timeout=10) as r:
        return json.load(r)


def started(table: LiveTable, *texts: str) -> LiveTable:
    table.scan(*texts)
    table.wait_idle()
    return table


# ----- seats and tokens ------------------------------------------------------------------------------------
def entry(i: int, text: str, source: str = WEB):
    return NS(id=i, text=text, source=source)


def test_claims_follow_the_journal():
    entries = [entry(1, "HS-PLAYERS-4", "scan"), entry(2, "HS-NAME-2:Ann"), entry(3, "HS-NAME-2:Annie"),
               entry(4, "HS-NAME-3:Bo", "key"), entry(5, "HS-NAME-4:Cy"), entry(6, "HS-NAME-4:", "key")]
    assert claims_from_entries(entries) == {2: 2}  # a rename keeps the claim; typed names claim nothing; "" frees
    assert claims_from_entries(entries + [entry(7, "HS-NEW", "scan")]) == {}
    assert claims_from_entries(entries + [entry(7, "HS-NAME-4:Dee")]) == {2: 2, 4: 7}


def test_token_proves_only_the_current_claim():
    secret = b"s" * 32
    token = seat_token(secret, 2, epoch=5)
    assert token_matches(secret, {2: 5}, 2, token)
    assert not token_matches(secret, {2: 9}, 2, token)  # seat freed and claimed again: a new epoch
    assert not token_matches(secret, {2: 5, 3: 5}, 3, token)
    assert not token_matches(secret, {2: 5}, 2, None)


def test_secret_is_kept_beside_the_journal(tmp_path):
    db = tmp_path / "journal.db"
    first = load_secret(db)
    assert load_secret(db) == first and len(first) == 32
    assert (tmp_path / "journal.db.web-key").stat().st_mode & 0o077 == 0


def test_claim_rename_and_another_phone_refused():
    with started(LiveTable(), *STANDARD_GAME) as table:
        status, claimed = post(table, "/api/claim", {"seat": 2, "name": "Ann"})
        assert status == 200 and claimed["seat"] == 2
        assert table.controller.view.seat_name(1) == "Ann"
        status, answer = post(table, "/api/claim", {"seat": 2, "name": "Mallory"})
        assert status == 403 and answer["error"] == "seat 2 is not yours (expected the phone that claimed seat 2)"
        status, _ = post(table, "/api/claim", {"seat": 2, "name": "Annie", "token": claimed["token"]})
        assert status == 200 and table.controller.view.seat_name(1) == "Annie"
        seats = view(table)["seats"]
        assert [(s["name"], s["claimed"]) for s in seats] == [("Seat 1", False), ("Annie", True), ("Seat 3", False)]


def test_claims_and_tokens_survive_a_restart(tmp_path):
    db = tmp_path / "journal.db"
    with started(LiveTable(db), *STANDARD_GAME) as table:
        _, claimed = post(table, "/api/claim", {"seat": 1, "name": "Ann"})
    with LiveTable(db) as table:  # a power cut later: same journal, same key file
        table.wait_idle()
        assert view(table)["seats"][0]["claimed"] is True
        assert post(table, "/api/claim", {"seat": 1, "name": "Eve"})[0] == 403
        assert post(table, "/api/claim", {"seat": 1, "name": "Ann B", "token": claimed["token"]})[0] == 200


def test_the_tables_undo_leaves_a_phones_claim_and_an_empty_name_at_the_kiosk_frees_the_seat():
    with started(LiveTable(), *STANDARD_GAME) as table:
        _, claimed = post(table, "/api/claim", {"seat": 3, "name": "Cy"})
        started(table, "HS-UNDO")  # takes back the table's last input (HS-GO), never a phone's
        assert view(table)["phase"] != "betting"
        assert view(table)["seats"][2] == {**view(table)["seats"][2], "claimed": True, "name": "Cy"}
        started(table, "HS-NAME-3:")
        assert view(table)["seats"][2] == {**view(table)["seats"][2], "claimed": False, "name": "Seat 3"}
        assert post(table, "/api/leave", {"seat": 3, "token": claimed["token"]})[0] == 403


def test_leave_frees_the_seat_and_the_old_token():
    with started(LiveTable(), *STANDARD_GAME) as table:
        _, first = post(table, "/api/claim", {"seat": 1, "name": "Ann"})
        assert post(table, "/api/leave", {"seat": 1, "token": first["token"]}) == (200, {"ok": True})
        _, second = post(table, "/api/claim", {"seat": 1, "name": "Bo"})
        assert second["token"] != first["token"]
        assert post(table, "/api/claim", {"seat": 1, "name": "Ann", "token": first["token"]})[0] == 403


# ----- every web input is checked like a scan ------------------------------------------------------------
@pytest.mark.parametrize("body, status, message, reason", [
    ({"seat": 9, "name": "X"}, 400, "seat 9 is not at this table (expected a seat 1..3)", "seat"),
    ({"seat": "1", "name": "X"}, 400, "seat '1' is not at this table (expected a seat 1..3)", "seat"),
    ({"seat": 1, "name": "   "}, 400, "name '   ' is not valid (expected 1-16 letters, digits or spaces)", "name"),
    ({"seat": 1, "name": "A" * 17}, 400, "'HS-NAME-1:" + "A" * 17 + "': a name is 0-16 printable characters (got 17)",
     "name"),
    ([1, 2], 400, 'request body is not a JSON object (expected an object like {"seat": 1})', "request"),
    (b"{nope", 400, 'request body is not JSON (expected an object like {"seat": 1})', "request"),
    (b"x" * 5000, 413, "request of 5000 bytes is too large (expected at most 2048)", "request"),
])
def test_bad_requests_are_refused_in_one_line_and_change_nothing(body, status, message, reason):
    from companion.call.words import phrase
    with started(LiveTable(), *STANDARD_GAME) as table:
        before = len(table.journal.entries())
        line = phrase(f"refused-{reason}", "en")  # the phone shows the reason's words, the table's language
        assert post(table, "/api/claim", body) == (status, {"ok": False, "error": message, "reason": reason,
                                                            "line": line})
        table.wait_idle()
        assert len(table.journal.entries()) == before


def test_no_seats_before_the_player_count():
    with LiveTable() as table:
        table.wait_idle()
        status, answer = post(table, "/api/claim", {"seat": 1, "name": "Ann"})
        assert status == 409 and answer["error"] == "no game yet: seats open once the player count is scanned"


def test_open_bets_only_in_the_open_variant_while_betting():
    with started(LiveTable(), *STANDARD_GAME) as table:
        _, claimed = post(table, "/api/claim", {"seat": 1, "name": "Ann"})
        status, answer = post(table, "/api/bet", {"seat": 1, "token": claimed["token"], "mascot": "hurley",
                                                  "answer": "yes"})
        assert status == 409 and "open variant only" in answer["error"]


def test_a_phone_cannot_act_for_another_seat():
    with started(LiveTable(), *STANDARD_GAME) as table:
        _, claimed = post(table, "/api/claim", {"seat": 1, "name": "Ann"})
        post(table, "/api/claim", {"seat": 2, "name": "Bo"})
        status, answer = post(table, "/api/leave", {"seat": 2, "token": claimed["token"]})
        assert status == 403 and answer["error"] == "seat 2 is not yours (expected the phone that claimed seat 2)"
        assert table.controller.view.seat_name(1) == "Bo"


def test_control_codes_never_come_from_a_phone():
    for text in ("HS-UNDO", "HS-NEW", "HS-GO", "HS-PLAYERS-4", "HS15", "HS-T-HURLEY-1-S", "HS-S01"):
        with pytest.raises(WebRefusal, match="not an input a phone may make"):
            _checked(text, object)
    view_ = {"phase": "betting", "players": 3, "seats": []}
    with pytest.raises(WebRefusal, match="reads as a scan code"):   # a name that reads as a code is no name
        name_text({"seat": 1, "name": "HS-UNDO"}, view_, b"k", {}, set())
    with LiveTable() as table:
        for path in ("/api/undo", "/api/go", "/api/new", "/api/scan"):
            assert post(table, path, {})[0] in (404, 405)


def test_open_bet_inputs_send_only_what_changes():
    assert open_bet_inputs(3, "dangle", "no", None) == ["HS-BET-3-DANGLE", "HS-BET-3-NO"]
    now = {"mascot": "dangle", "answer": "no", "double": None}
    assert open_bet_inputs(3, "dangle", "yes", None, now) == ["HS-BET-3-YES"]
    assert open_bet_inputs(11, "mum", "no", "mascot", now) == ["HS-BET-11-MUM-DOUBLE"]
    assert open_bet_inputs(3, "dangle", "no", None, now) == []


# ----- origin, host and rate limit -------------------------------------------------------------------------
@pytest.mark.parametrize("origin, host, reason", [
    (None, None, "no Origin header"),
    ("http://evil.example", None, "origin 'http://evil.example' is not this table's page"),
    ("http://evil.example:80", "evil.example:80", "host 'evil.example:80' is not this table"),
])
def test_other_origins_cannot_drive_the_table(origin, host, reason):
    with started(LiveTable(), *STANDARD_GAME) as table:
        before = len(table.journal.entries())
        status, answer = post(table, "/api/claim", {"seat": 1, "name": "Ann"}, origin=origin, host=host)
        assert status == 403 and answer["error"].startswith(reason)
        table.wait_idle()
        assert len(table.journal.entries()) == before


def test_origins_check():
    origins = Origins({"127.0.0.1", "hotstreak.local"})
    assert origins.check("hotstreak.local:8080", "http://hotstreak.local:8080") is None
    assert origins.check("127.0.0.1:8080", "http://127.0.0.1:9999") is not None
    assert origins.check(None, "http://127.0.0.1") is not None
    assert split_host("[::1]:80") == "[::1]" and split_host("a:1") == "a"


def test_rate_limit_per_client_refills_with_time():
    now = [0.0]
    limit = RateLimit(rate=2.0, burst=3.0, clock=lambda: now[0])
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limit.allow("b")  # another phone has its own bucket
    now[0] = 0.5  # one token back
    assert [limit.allow("a"), limit.allow("a")] == [True, False]


def test_rate_limited_requests_get_429():
    frozen = RateLimit(rate=0.0, burst=2.0, clock=lambda: 0.0)
    with started(LiveTable(limit=frozen), *STANDARD_GAME) as table:
        answers = [post(table, "/api/claim", {"seat": 9, "name": "X"})[0] for _ in range(3)]
        assert answers == [400, 400, 429]


def test_websocket_from_another_origin_is_closed():
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect
    with LiveTable() as table:
        uri = table.url.replace("http://", "ws://") + "ws"
        with pytest.raises((ConnectionClosed, InvalidStatus)):
            with connect(uri, origin="http://evil.example", open_timeout=5) as ws:
                ws.recv(timeout=5)


# ----- live view ------------------------------------------------------------------------------------------
def test_a_scan_reaches_the_phone_over_the_websocket():
    from websockets.sync.client import connect
    with started(LiveTable(), *STANDARD_GAME, *[f"HS-T-{s}-1-S" for s in ("HURLEY", "MUM", "DANGLE", "GOBBLER",
                                                                          "YES", "NO")], "HS-GO", "HS-GO") as table:
        uri = table.url.replace("http://", "ws://") + "ws"
        with connect(uri, origin=table.url.rstrip("/"), open_timeout=5) as ws:
            first = json.loads(ws.recv(timeout=5))
            assert first["phase"] == "racing" and first["last_card"] is None
            table.scan("HS15")
            while True:
                got = json.loads(ws.recv(timeout=5))
                if got["last_card"]:
                    break
            assert got["version"] > first["version"]
            assert got["last_card"]["code"] == "HS15" and got["revealed"] == 1


def test_a_wedged_web_loop_does_not_stall_the_kiosk():
    with started(LiveTable(), *STANDARD_GAME) as table:
        release = threading.Event()
        table.server.post(release.wait)  # the web thread is stuck (a pathological phone, a bug)
        try:
            started(table, "HS-T-HURLEY-1-S", "HS-T-MUM-1-S", "HS-T-DANGLE-1-S")
            assert len(table.controller.table.game.tickets[0]) == 1  # the kiosk went on by itself
        finally:
            release.set()


# ----- the view -------------------------------------------------------------------------------------------
def test_view_expected_values_follow_the_odds():
    from companion.rules.table import Table
    table = Table()
    for text in STANDARD_GAME + ("HS-T-HURLEY-1-R",):
        table.apply(text, {"side_bet_order": list(range(12))} if text.startswith("HS-PLAYERS") else None)
    odds = {"hurley": (0.5, 0.3, 0.2, 0.0), "gobbler": (0.5, 0.25, 0.25, 0.0),
            "dangle": (0.0, 0.25, 0.25, 0.5), "mum": (0.0, 0.25, 0.25, 0.5)}
    v = table_view(table, odds=odds, claims={1: 7})
    ticket = v["seats"][0]["tickets"][0]
    assert ticket == {"ticket": "hurley-top", "side": "risky", "double": False, "ev": 9.4, "paid": None}
    assert [s["claimed"] for s in v["seats"]] == [True, False, False]
    assert v["whose_pick"] == 2 and v["odds"]["hurley"] == [0.5, 0.3, 0.2, 0.0]


def test_running_order_leader_first():
    mascots = [{"mascot": "gobbler", "status": "racing", "space": 4, "lane": 1, "place": None},
               {"mascot": "hurley", "status": "dq", "space": 0, "lane": 2, "place": 4},
               {"mascot": "dangle", "status": "finished", "space": 13, "lane": 3, "place": 1},
               {"mascot": "mum", "status": "racing", "space": 7, "lane": 4, "place": None}]
    assert running_order(mascots) == ["dangle", "mum", "gobbler", "hurley"]


# ----- config and start ------------------------------------------------------------------------------------
def test_web_is_on_by_default_on_the_pi_only():
    cfg = parse_config("")
    assert wanted(cfg, "pi", None) == ("0.0.0.0", 8080)
    assert wanted(cfg, "mock", None) is None
    assert wanted(cfg, "mock", "9000") == ("127.0.0.1", 9000)
    assert wanted(cfg, "mock", "0.0.0.0:9000") == ("0.0.0.0", 9000)
    assert wanted(cfg, "pi", "off") is None
    assert wanted(parse_config("[web]\nenabled = true\nport = 8181\n"), "mock", None) == ("127.0.0.1", 8181)
    assert wanted(parse_config("[web]\nenabled = false\n"), "pi", None) is None
    with pytest.raises(ValueError, match=r"--web 'eighty': expected \[HOST:\]PORT"):
        wanted(cfg, "mock", "eighty")


def test_web_config_errors_name_the_key():
    from companion.kiosk.errors import ConfigError
    with pytest.raises(ConfigError, match="web.port: 0 is not valid"):
        parse_config("[web]\nport = 0\n")


def test_a_busy_port_leaves_the_table_without_the_page(caplog):
    import socket

    from companion.kiosk.controller import Controller
    from companion.kiosk.journal import Journal
    from companion.web.start import start_web
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    try:
        with Journal(":memory:") as journal:
            page = start_web(parse_config(""), "mock", f"127.0.0.1:{port}", Controller(journal), ":memory:")
        assert page is None
        assert f"no phone page on 127.0.0.1:{port}" in caplog.text
    finally:
        busy.close()


def test_the_qr_address_follows_a_new_lan_address():
    from companion.kiosk.controller import Controller
    from companion.kiosk.journal import Journal
    from companion.web.sink import WebSink
    addresses = iter(["http://127.0.0.1:8080/", "http://127.0.0.1:8080/", "http://192.168.1.20:8080/"])
    published = []
    now = [0.0]
    sink = WebSink(lambda fn, *args: published.append(args), NS(publish=None, outcome=None))
    controller = Controller(Journal(":memory:"), sinks=[sink], clock=lambda: now[0],
                            join_url=lambda: next(addresses))
    controller.step()
    assert controller.view.join_url == "http://127.0.0.1:8080/" == published[-1][0]["address"]
    now[0] = 5.0
    controller.step()  # not looked at again before 10 s
    now[0] = 10.0
    controller.step()  # no network yet: same address
    now[0] = 20.0
    controller.step()  # the Wi-Fi came up
    assert controller.view.join_url == "http://192.168.1.20:8080/" == published[-1][0]["address"]


def test_view_of_open_bets_with_their_expected_share():
    from companion.rules.table import Table
    table = Table()
    for text in ("HS-NEW", "HS-PLAYERS-9", "HS-GO", "HS-BET-1-HURLEY", "HS-BET-2-HURLEY", "HS-BET-2-NO"):
        table.apply(text, {"side_bet_order": list(range(12))} if text.startswith("HS-PLAYERS") else None)
    odds = {"hurley": (0.5, 0.3, 0.2, 0.0), "gobbler": (0.5, 0.3, 0.2, 0.0), "dangle": (0.0, 0.2, 0.3, 0.5),
            "mum": (0.0, 0.2, 0.3, 0.5)}
    seats = table_view(table, odds=odds)["seats"]
    # two seats named Hurley share each place pot: .5 * 18//2 + .3 * 12//2 + .2 * 6//2
    assert seats[1]["bet"] == {"mascot": "hurley", "answer": "no", "double": None, "ev": 6.9}
    assert seats[0]["bet"]["answer"] is None and seats[2]["bet"] is None


def test_no_phone_bet_while_a_scanned_double_waits_for_its_bet():
    from companion.web.inputs import bet_texts
    secret, claims = b"k" * 32, {1: 4}
    view_ = {"phase": "betting", "variant": "open", "players": 9, "race": 3, "double_race": 3,
             "double_armed": True, "seats": [{"bet": None}] * 9}
    body = {"seat": 1, "token": seat_token(secret, 1, 4), "mascot": "mum", "answer": "no"}
    with pytest.raises(WebRefusal, match="HS-DOUBLE was just scanned"):
        bet_texts(body, view_, secret, claims)
    assert bet_texts(body, {**view_, "double_armed": False}, secret, claims) == ["HS-BET-1-MUM", "HS-BET-1-NO"]


def test_config_names_show_until_a_name_is_typed():
    from companion.rules.table import Table
    table = Table()
    for text in ("HS-NEW", "HS-PLAYERS-3", "HS-NAME-2:Bo"):
        table.apply(text, {"side_bet_order": list(range(12))} if text.startswith("HS-PLAYERS") else None)
    seats = table_view(table, names=("Ann", "Bram"))["seats"]
    assert [(s["name"], s["named"]) for s in seats] == [("Ann", True), ("Bo", True), ("Seat 3", False)]


def test_a_foreign_host_cannot_read_the_view():
    with LiveTable() as table:
        req = urllib.request.Request(table.url + "api/view", headers={"Host": "evil.example"})
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(req, timeout=10)
        assert caught.value.code == 403
        answer = json.load(caught.value)
        assert answer["error"].startswith("host 'evil.example' is not this table")
        assert (answer["reason"], answer["line"]) == ("request", "That request doesn't work here.")  # words for a phone


def test_the_page_loads_the_screens_palette():
    from companion.web.palette import palette_css
    with LiveTable() as table:
        with urllib.request.urlopen(table.url + "static/palette.css", timeout=10) as r:
            assert r.headers["Content-Type"].startswith("text/css") and r.read().decode() == palette_css()
        with urllib.request.urlopen(table.url, timeout=10) as r:
            page = r.read().decode()
        assert page.index("/static/palette.css") < page.index("/static/style.css")
