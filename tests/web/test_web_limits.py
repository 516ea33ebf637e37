"""The phone page under hostile requests, over real connections to the real server on loopback: body sizes
(before and while reading), request-head deadlines, connection caps per address and in all, JSON shape,
and no 5xx for any request body. Other loopback addresses (127.0.0.2, ...) play other phones."""

from __future__ import annotations

import http.client
import json
import socket
import time
from contextlib import ExitStack, contextmanager
from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.web.gate import Gate, Limits
from companion.web.guard import RateLimit
from companion.web.inputs import WebRefusal
from companion.web.limits import json_object
from companion.web.server import WebServer
from tests.web.test_web import join_of
from webtable import LiveTable

WAIT = 15.0  # generous: a busy shared machine; every wait ends as soon as its event happens


@contextmanager
def serving(**limits: float) -> Iterator[WebServer]:
    """A bare page server (no table: inputs go nowhere) with these limits."""
    server = WebServer.open("127.0.0.1", 0, submit=lambda text, source: None, secret=b"k" * 32,
                            limit=RateLimit(rate=1e6, burst=1e6), limits=Limits(**limits))
    server.start()
    try:
        yield server
    finally:
        server.close()


def address(server: WebServer) -> tuple[str, int]:
    return server.sock.getsockname()[:2]


def connect(server: WebServer, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(address(server), timeout=WAIT, source_address=(source, 0))
    return sock


def request_head(server: WebServer, method: str = "POST", path: str = "/api/claim", **headers: str) -> bytes:
    host = "%s:%d" % address(server)
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", f"Origin: http://{host}",
             "Content-Type: application/json", *(f"{k.replace('_', '-')}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (fails after WAIT s without the close)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def read_response(sock: socket.socket) -> bytes:
    """One response (head and a Content-Length body) from a connection that stays open."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536) or b"!closed"
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536) or b"!closed"
    return head + b"\r\n\r\n" + body


def status_and_body(raw: bytes) -> tuple[int, dict]:
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def page(server: WebServer, source: str = "127.0.0.1") -> int:
    conn = http.client.HTTPConnection(*address(server), timeout=WAIT, source_address=(source, 0))
    try:
        conn.request("GET", "/")
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def wait_for(condition, what: str) -> None:
    """Wait until ``condition()`` (the server noticed a close); fails after WAIT s."""
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


# ----- body size -----------------------------------------------------------------------------------------
def test_a_too_large_content_length_gets_413_before_the_body_is_sent():
    with serving() as server, connect(server) as sock:
        sock.sendall(request_head(server, Content_Length="150000000"))   # not one byte of the body follows
        status, body = status_and_body(read_until_closed(sock))
        assert status == 413
        assert body == {"ok": False, "error": "request of 150000000 bytes is too large (expected at most 2048)",
                        "reason": "request", "line": "That request doesn't work here."}


def test_a_content_length_that_is_no_number_gets_400():
    with serving() as server, connect(server) as sock:
        sock.sendall(request_head(server, Content_Length="lots"))
        raw = read_until_closed(sock)
        assert raw.startswith(b"HTTP/1.1 400 ")


def test_a_chunked_body_is_cut_as_soon_as_it_passes_the_limit():
    with serving(max_body=2048) as server, connect(server) as sock:
        chunk = b"x" * 1000      # 3000 bytes and no last chunk: never ends (one send: all read before the cut)
        sock.sendall(request_head(server, Transfer_Encoding="chunked") + b"%x\r\n%s\r\n" % (len(chunk), chunk) * 3)
        status, body = status_and_body(read_until_closed(sock))
        assert status == 413
        assert body["error"] == "request of more than 2048 bytes is too large (expected at most 2048)"


def test_a_request_answered_before_its_body_is_read_is_closed():
    with serving() as server, connect(server) as sock:   # a refused Origin: 403 without reading the body
        # a chunked body that has not begun: left open, the connection would wait for it (and read it all)
        sock.sendall(request_head(server, Transfer_Encoding="chunked").replace(b"Origin: http://", b"Origin: http://evil."))
        raw = read_until_closed(sock)
        assert raw.startswith(b"HTTP/1.1 403 ") and b"connection: close" in raw.lower()


def test_a_body_within_the_limit_still_reaches_the_app():
    with serving(max_body=2048) as server, connect(server) as sock:
        body = json.dumps({"seat": 1, "name": "Ann", "pad": "x" * 1900}).encode()
        sock.sendall(request_head(server, Content_Length=str(len(body))) + body)
        status, answer = status_and_body(read_response(sock))
        assert (status, answer["error"]) == (409, "no game yet: seats open once the player count is scanned")


@pytest.mark.slow
def test_a_body_that_trickles_gets_408():
    with serving(body_seconds=0.3) as server, connect(server) as sock:
        sock.sendall(request_head(server, Content_Length="100") + b'{"seat"')   # the rest never comes
        status, body = status_and_body(read_until_closed(sock))
        assert status == 408 and body["error"].startswith("request body not complete within 0.3 s")


# ----- request-head deadline (slowloris) -----------------------------------------------------------------
@pytest.mark.slow
def test_a_connection_that_sends_nothing_is_closed():
    with serving(head_seconds=0.3) as server, connect(server) as sock:
        assert read_until_closed(sock) == b""


@pytest.mark.slow  # waits out real deadlines
def test_a_request_head_sent_slowly_is_closed():
    with serving(head_seconds=0.3) as server, connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")   # a slowloris: headers never end
        sock.sendall(b"X-a: b\r\n")
        assert read_until_closed(sock) == b""


@pytest.mark.slow  # waits out real deadlines
def test_after_a_response_the_next_head_has_the_same_deadline():
    with serving(head_seconds=0.3, keep_alive_seconds=60) as server, connect(server) as sock:
        sock.sendall(request_head(server, "GET", "/api/view"))
        assert read_response(sock).startswith(b"HTTP/1.1 200 ")
        sock.sendall(b"GET / HTTP/1.1\r\nHo")   # the keep-alive timer stops at this byte; the deadline does not
        assert read_until_closed(sock) == b""


def test_a_slow_but_complete_request_is_answered():
    with serving(head_seconds=WAIT) as server, connect(server) as sock:
        head = request_head(server, "GET", "/api/view")
        for i in range(0, len(head), 7):
            sock.sendall(head[i:i + 7])
        assert read_response(sock).startswith(b"HTTP/1.1 200 ")


def test_an_oversized_request_head_arriving_in_parts_gets_400():
    with serving(max_head=4096) as server, connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 8000)   # h11 stops reading here
        assert read_until_closed(sock).startswith(b"HTTP/1.1 400 ")


def test_an_oversized_request_head_arriving_at_once_gets_431():
    with serving(max_head=4096) as server, connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 8000 + b"\r\n\r\n")
        status, body = status_and_body(read_until_closed(sock))
        assert (status, body["error"]) == (431, "request headers of 8026 bytes are too large (expected at most 4096)")


# ----- connection caps -------------------------------------------------------------------------------------
def test_one_address_holds_at_most_its_cap_of_connections():
    with serving(http_per_address=3) as server, ExitStack() as held:
        socks = [held.enter_context(connect(server)) for _ in range(3)]
        with connect(server) as fourth:
            raw = read_until_closed(fourth)
        assert raw.startswith(b"HTTP/1.1 503 ")
        assert b"too many http connections from 127.0.0.1 (expected at most 3 at once)" in raw
        assert page(server, "127.0.0.2") == 200          # another phone is not held up
        socks[0].close()                                  # a place comes free once the server sees the close
        wait_for(lambda: server.gate.open["127.0.0.1", "http"] < 3, "the server never saw the close")
        assert page(server) == 200


def test_a_new_phone_loads_the_page_while_others_hold_every_place_but_the_reserve():
    with serving(http_per_address=3, total=10, reserve=4, newcomer=2) as server, ExitStack() as held:
        for source in ("127.0.0.3", "127.0.0.4"):        # 6 connections: the reserve starts here
            for _ in range(3):
                held.enter_context(connect(server, source))
        held.enter_context(connect(server, "127.0.0.5"))
        held.enter_context(connect(server, "127.0.0.5"))
        with connect(server, "127.0.0.5") as third:       # an address with 2 already is no newcomer
            assert b"the table's page is full (8 connections)" in read_until_closed(third)
        assert page(server, "127.0.0.2") == 200           # a new phone gets in


def test_no_connection_past_the_total_when_no_address_holds_more_than_a_newcomer_would():
    with serving(http_per_address=3, total=4, reserve=0) as server, ExitStack() as held:
        for source in ("127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6"):
            held.enter_context(connect(server, source))
        with connect(server, "127.0.0.2") as late:      # nobody holds 2: nobody gives way
            assert read_until_closed(late).startswith(b"HTTP/1.1 503 ")
        assert server.gate.evicted == 0


def test_a_new_address_gets_in_when_every_place_is_taken_and_the_heaviest_gives_way():
    with serving(http_per_address=3, total=4, reserve=0) as server, ExitStack() as held:
        oldest = held.enter_context(connect(server, "127.0.0.3"))
        for source in ("127.0.0.3", "127.0.0.3", "127.0.0.4"):
            held.enter_context(connect(server, source))
        wait_for(lambda: server.gate.total == 4, "the server never counted the four connections")
        assert page(server, "127.0.0.2") == 200           # a new phone loads the page at once
        assert read_until_closed(oldest) == b""           # the heaviest address's longest-idle one gave way
        assert server.gate.evicted == 1 and server.gate.per_address["127.0.0.3"] <= 2


class FakeConn:
    def __init__(self) -> None:
        self.aborted = False

    def abort(self) -> None:
        self.aborted = True


def test_caps_leave_room_for_every_new_address_whatever_the_others_hold():
    """The report's attack: 16 WebSockets from each of 12 addresses and 3 from each of 25 more take every
    place; then 41 new phones come, each with its page, script, style and WebSocket."""
    now = [0.0]
    gate = Gate(Limits(), clock=lambda: now[0])
    held: dict[str, list[FakeConn]] = {}
    for k, (count, n) in enumerate([(16, 12), (3, 25)]):
        for a in range(n):
            for _ in range(count):
                now[0] += 0.001
                conn = FakeConn()
                if gate.admit(f"10.{k}.0.{a}", "websocket", conn) is None:
                    held.setdefault(f"10.{k}.0.{a}", []).append(conn)
    assert gate.total == Limits().total
    for phone in range(41):  # each loads the page, its script and style (then closes them), opens its WebSocket
        address, pages = f"10.9.0.{phone}", [FakeConn() for _ in range(3)]
        for conn in pages:
            assert gate.admit(address, "http", conn) is None, f"phone {phone}'s page refused"
            assert gate.total <= Limits().total
        for conn in pages:
            gate.give_back(address, "http", conn)
        assert gate.admit(address, "websocket", FakeConn()) is None, f"phone {phone}'s WebSocket refused"
    aborted = [c for conns in held.values() for c in conns if c.aborted]
    assert len(aborted) == gate.evicted and gate.evicted > 0
    assert all(gate.open[f"10.9.0.{phone}", "websocket"] == 1 for phone in range(41))  # every new phone follows
    assert gate.total <= Limits().total and max(gate.per_address.values()) < 16


def test_the_longest_idle_connection_of_the_heaviest_address_gives_way():
    now = [0.0]
    gate = Gate(Limits(total=4, reserve=0), clock=lambda: now[0])
    a1, a2, a3, b1 = FakeConn(), FakeConn(), FakeConn(), FakeConn()
    for address, conn in (("a", a1), ("a", a2), ("a", a3), ("b", b1)):
        now[0] += 1.0
        assert gate.admit(address, "http", conn) is None
    gate.touch(a1)                                    # a1 just answered a request: a2 is now the idlest
    assert gate.admit("c", "http", FakeConn()) is None
    assert (a1.aborted, a2.aborted, a3.aborted, b1.aborted) == (False, True, False, False)
    gate.give_back("a", "http", a2)                   # its close arrives later: counted once only
    assert gate.per_address == {"a": 2, "b": 1, "c": 1}


def test_websockets_per_address_are_capped_and_free_http_places():
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect as ws_connect
    with serving(http_per_address=1, websockets_per_address=2) as server, ExitStack() as held:
        url = "ws://%s:%d/ws" % address(server)
        origin = "http://%s:%d" % address(server)
        for _ in range(2):
            ws = held.enter_context(ws_connect(url, origin=origin, open_timeout=WAIT))
            assert json.loads(ws.recv(timeout=WAIT))["phase"] == "new-game"
        with pytest.raises(InvalidStatus) as refused:
            ws_connect(url, origin=origin, open_timeout=WAIT)
        assert refused.value.response.status_code == 503
        assert b"too many websocket connections from 127.0.0.1 (expected at most 2 at once)" in refused.value.response.body
        assert page(server) == 200          # the WebSockets do not count against the HTTP cap


def test_gate_counts_come_back_to_zero():
    gate = Gate(Limits(http_per_address=2, total=3, reserve=1, newcomer=1))
    gate.take("a", "http")
    assert gate.upgrade("a") is None and gate.open == {("a", "websocket"): 1}
    gate.take("a", "http")
    assert gate.refusal("a", "http") == "the table's page is full (2 connections); try again in a minute"
    assert gate.refusal("b", "http") is None
    gate.give_back("a", "http")
    gate.give_back("a", "websocket")
    assert not gate.open and not gate.per_address and gate.total == 0


# ----- JSON bodies -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw, message", [
    (b"[" * 1000 + b"]" * 1000, 'request body nests deeper than 4 levels (expected an object like {"seat": 1})'),
    (b'{"a": ' * 1000 + b"1" + b"}" * 1000, 'request body nests deeper than 4 levels (expected an object like {"seat": 1})'),
    (b'\xff{"seat": 1}', 'request body is not UTF-8 text (bad byte at 0) (expected an object like {"seat": 1})'),
    (b'{"seat": NaN}', 'request body is not JSON (expected an object like {"seat": 1})'),
    (b'"[[[[[["', 'request body is not a JSON object (expected an object like {"seat": 1})'),
])
def test_json_bodies_of_the_wrong_shape_are_refused(raw, message):
    with pytest.raises(WebRefusal) as refused:
        json_object(raw, max_depth=4)
    assert (str(refused.value), refused.value.status) == (message, 400)


def test_json_depth_counts_brackets_outside_strings_only():
    assert json_object(b'{"name": "[[[[[[{{{{\\"[["}', max_depth=1) == {"name": '[[[[[[{{{{"[['}
    assert json_object(b'{"a": {"b": [1]}}', max_depth=3) == {"a": {"b": [1]}}


def test_deep_json_over_http_gets_400():
    with serving() as server, connect(server) as sock:
        body = b"[" * 1000 + b"]" * 1000
        sock.sendall(request_head(server, Content_Length=str(len(body))) + body)
        status, answer = status_and_body(read_response(sock))
        assert status == 400 and "nests deeper than 4 levels" in answer["error"]


# ----- no 5xx for any body -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def betting_table():
    """A table in the betting phase (open variant) with seat 1 claimed; no rate limit."""
    with LiveTable(limit=RateLimit(rate=1e6, burst=1e6)) as table:
        table.scan("HS-NEW", "HS-PLAYERS-3", "HS-GO")
        table.wait_idle()
        host = table.url.split("/")[2]
        conn = http.client.HTTPConnection(host, timeout=WAIT)
        conn.request("POST", "/api/claim", json.dumps({"seat": 1, "name": "Ann", "join": join_of(table)}),
                     {"Origin": f"http://{host}", "Content-Type": "application/json"})
        token = json.load(conn.getresponse())["token"]
        conn.close()
        yield table, host, token, join_of(table)


def post_raw(host: str, path: str, raw: bytes) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(host, timeout=WAIT)
    try:
        conn.request("POST", path, raw, {"Origin": f"http://{host}", "Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


GARBAGE = [b"", b"\x00", b"\xff\xfe\xfd", b"null", b"[]", b"1" * 2000, b"1e999", b'{"seat": 1e999}',
           b'{"seat": 123456789012345678901234567890}', b'{"seat": -1}', b'{"seat": true}', b'{"seat": [1]}',
           b'{"seat": 1, "name": "\\ud800"}', b'{"seat": 1, "name": "a\\u0000b"}', b'{"seat": 1, "token": "\\ud800"}',
           b'{"seat": 1, "token": "\xc3\xa9"}', b'{"seat": 1, "token": 5}', b'{"seat": 1, "token": {}}',
           b'{"seat": 1, "mascot": ["x"]}', b'{"seat": 1, "answer": {"a": 1}}', b'{"seat": 1, "double": 1.5}',
           b'{"seat": 1, "name": "HS-UNDO"}', b'{"seat": 1, "name": "\\n\\r\\t"}', b'{"seat": 1,', b'{' * 20]
PATHS = ("/api/claim", "/api/bet", "/api/leave")


@pytest.mark.parametrize("raw", GARBAGE)
def test_garbage_bodies_get_a_4xx_with_one_line(betting_table, raw):
    table, host, _, _ = betting_table
    for path in PATHS:
        status, answer = post_raw(host, path, raw)
        assert 400 <= status < 500 or status == 200, (path, raw, status, answer)
        assert answer["ok"] is (status == 200) and "\n" not in answer.get("error", "")


VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
                   st.sampled_from(["yes", "no", "side", "mascot", "GREEN", "HS-UNDO", "1"]),
                   st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
BODIES = st.dictionaries(st.sampled_from(["seat", "name", "token", "mascot", "answer", "double"]), VALUES, max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=BODIES, path=st.sampled_from(PATHS), owner=st.booleans())
def test_no_request_body_gives_a_5xx(betting_table, body, path, owner):
    table, host, token, join = betting_table
    if owner:  # the seat's phone, with the join code (a wrong one would only slow this address down)
        body = {**body, "seat": 1, "token": token, "join": join}
    raw = json.dumps(body, allow_nan=True).encode()
    status, answer = post_raw(host, path, raw)
    assert status < 500 or answer["error"].startswith("the table did not answer in time"), (body, status, answer)
    assert table.thread.is_alive()
