"""The phone page's web app (Starlette): the page, the live view over a WebSocket, and the seat actions.

Routes: ``GET /`` the page; ``GET /static/<file>`` its script and style (package data, no build step) and
``palette.css``, the screen's colours made when the app is made (:mod:`companion.web.palette`); ``GET /api/view``
the newest view as JSON; ``GET /api/words?lang=en|nl|es`` the page's words in that language (the ``[phone]`` section
of the phrase catalogue, :mod:`companion.catalogue`; English for a key it lacks); ``WS /ws`` the view, sent again at
every change; ``POST /api/claim`` ``{"seat", "name", "join", "token"?, "code"?}`` (``join``: the table's join code,
shown on its screen; ``code``: a seat's consent code), ``POST /api/leave`` ``{"seat", "token"}``, ``POST /api/bet``
``{"seat", "token", "mascot", "answer", "double"}``. A POST answers ``{"ok": true, ...}`` or ``{"ok": false,
"error": "<one line>", "reason": "<reason code>", "line": "<the reason in a few words, the table's language>",
"need"?: "join"}`` with a 4xx/5xx status (``need`` says the phone must ask for the join code); nothing changes at
the table when it is refused. Wrong join or consent codes slow down the address that sent them (:class:`Backoff`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import threading
from collections import Counter
from importlib import resources
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from companion.call.words import LANGUAGES, load_catalogue, reason_of, refusal_line
from companion.rules.errors import Reason, RefusedError
from companion.web.gate import Limits
from companion.web.guard import Backoff, Origins, RateLimit
from companion.web.hub import Hub
from companion.web.inputs import WebRefusal, bet_texts, leave_text, name_text
from companion.web.limits import RequestLimit, json_object
from companion.web.palette import palette_css
from companion.web.names import folded
from companion.web.seats import WEB, journal_key, same_join, seat_token, token_matches

log = logging.getLogger(__name__)
STATIC = {"app.js": "text/javascript", "style.css": "text/css", "index.html": "text/html", "palette.css": "text/css"}
HEADERS = {"Cache-Control": "no-cache", "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
           "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                      "style-src 'self' 'unsafe-inline'; "
                                      "frame-ancestors 'none'"}
ANSWER_SECONDS = 5.0     # how long a phone waits for the table to take its input
RENAME_SECONDS = 2.0     # a seat is renamed from its phone at most once in this long (faster is no person typing)
SEND_SECONDS = 5.0       # a phone that cannot take a view within this is dropped (it reconnects)
KEEPALIVE_SECONDS = 20.0  # a quiet table still sends its view this often (the page reconnects after 45 s)


async def _until_closed(ws: WebSocket) -> None:
    """Returns when the phone closes the connection (anything it sends is ignored)."""
    while (await ws.receive())["type"] != "websocket.disconnect":
        pass


class Ticket:
    """Whether a phone's input may still be applied: the kiosk thread :meth:`take` s it just before handling
    it, the web thread :meth:`abandon` s it when the phone stops waiting; whichever comes first wins."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state = ""

    def take(self) -> bool:
        """True (and the input is handled) unless the phone gave up first."""
        with self._lock:
            if self._state == "":
                self._state = "taken"
            return self._state == "taken"

    def abandon(self) -> bool:
        """True (and the input will never be handled) unless the kiosk already took it."""
        with self._lock:
            if self._state == "":
                self._state = "abandoned"
            return self._state == "abandoned"


def _static(name: str) -> bytes:
    return resources.files("companion.web").joinpath("static", name).read_bytes()


def phone_words(lang: str) -> bytes:
    """The phone page's words in ``lang`` as a JSON object (key -> text, ``places`` a list): the catalogue's
    ``[phone]`` section, English where it lacks a key. Raises ValueError for a language not in ``LANGUAGES``."""
    words = {**load_catalogue("en").phone, **load_catalogue(lang).phone}
    return json.dumps(words, ensure_ascii=False, separators=(",", ":")).encode()


def create_app(hub: Hub, submit: Callable[..., int], secret: bytes, origins: Origins,
               limit: RateLimit | None = None, limits: Limits | None = None,
               backoff: Backoff | None = None) -> Starlette:
    """The app. ``submit(text, source, gate)`` queues an input for the kiosk and returns its request id
    (``Controller.submit``: thread-safe, never blocks; the answer comes back by that id, ``Hub.outcome``;
    the kiosk handles it only if ``gate()`` is True then); ``secret`` signs seat tokens (bound to the
    journal's identity, :func:`companion.web.seats.journal_key`); ``origins`` says which Host/Origin may act;
    ``limits`` bound request bodies (:class:`companion.web.limits.RequestLimit`) and WebSockets per address;
    ``backoff`` slows an address that sends wrong codes."""
    limit = limit or RateLimit()
    backoff = backoff or Backoff()
    limits = limits or Limits()
    files = {name: _static(name) for name in STATIC if name != "palette.css"}
    files["palette.css"] = palette_css().encode()  # the config's mascot colours are set by now
    sockets: Counter[str] = Counter()
    phone = {lang: phone_words(lang) for lang in LANGUAGES}  # fixed answers: a request reads nothing else

    def refuse(message: str, status: int) -> JSONResponse:
        return JSONResponse({"ok": False, "error": message, "reason": Reason.REQUEST.value, "line": request_line()},
                            status_code=status, headers=HEADERS)

    def refused(exc: WebRefusal) -> JSONResponse:
        """A refused phone request: the detail, its reason code and that reason's words in the table's language."""
        lang = hub.view.get("lang")
        line = refusal_line(exc, lang if lang in LANGUAGES else "en")
        answer = {"ok": False, "error": str(exc), "reason": exc.reason.value, "line": line}
        if exc.fields.get("need"):
            answer["need"] = exc.fields["need"]
        return JSONResponse(answer, status_code=exc.status, headers=HEADERS)

    def request_line() -> str:
        """The words of reason ``request`` in the table's language (the middleware's refusals)."""
        lang = hub.view.get("lang")
        return refusal_line(RefusedError("", Reason.REQUEST), lang if lang in LANGUAGES else "en")

    async def page(request: Request) -> Response:
        if why := origins.check_host(request.headers.get("host")):  # no DNS-rebound page reads the table
            return refuse(why, 403)
        return Response(files["index.html"], media_type="text/html", headers=HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in files or name == "index.html":
            return refuse(f"no file {name!r} (expected app.js, style.css or palette.css)", 404)
        return Response(files[name], media_type=STATIC[name], headers=HEADERS)

    async def view(request: Request) -> Response:
        if why := origins.check_host(request.headers.get("host")):
            return refuse(why, 403)
        return Response(hub.text, media_type="application/json", headers=HEADERS)

    async def words(request: Request) -> Response:
        if why := origins.check_host(request.headers.get("host")):
            return refuse(why, 403)
        lang = request.query_params.get("lang", "en")
        if lang not in phone:
            return refuse(f"no language {lang[:16]!r} (expected one of: {', '.join(LANGUAGES)})", 400)
        return Response(phone[lang], media_type="application/json", headers=HEADERS)

    async def body_of(request: Request) -> dict[str, Any]:
        client = request.client.host if request.client else "?"
        why = origins.check(request.headers.get("host"), request.headers.get("origin"))
        if why:
            raise WebRefusal(why, Reason.REQUEST, 403)
        if not limit.allow(client):
            raise WebRefusal("too many requests from this phone (expected at most a few a second)", Reason.BUSY, 429)
        return json_object(await request.body(), limits.max_json_depth)  # RequestLimit bounds its size and time

    async def send_input(text: str) -> None:
        """Queue a phone's input and wait for the table's answer. The input is applied only if this phone
        gets that answer: when it does not come in time, the input is abandoned unless the kiosk is already
        handling it, and then its answer is awaited."""
        ticket = Ticket()
        request = submit(text, WEB, ticket.take)
        future = hub.expect(request)  # before this coroutine yields: the answer runs on this loop
        try:
            accepted, message = await asyncio.wait_for(asyncio.shield(future), ANSWER_SECONDS)
        except asyncio.TimeoutError:
            if ticket.abandon():
                hub.forget(request)
                raise WebRefusal("the table did not answer in time (it is busy); nothing was changed, try again",
                                 Reason.BUSY, 503) from None
            accepted, message = await future  # the kiosk is handling it right now: its answer comes
        if not accepted:
            error = getattr(message, "error", None)  # the table's RefusedError, carried by its message
            raise WebRefusal(message, reason_of(message), 409, **(error.fields if error is not None else {}))

    def keys() -> list[bytes]:
        """The token keys: the journal's now first, then those this kiosk carried the same game from."""
        return [journal_key(secret, hub.identity), *(journal_key(secret, i) for i in reversed(hub.earlier))]

    def key_of(body: dict[str, Any]) -> bytes:
        """The key the body's token was made with (the current one when none fits: the token is refused)."""
        seat, token = body.get("seat"), body.get("token")
        if isinstance(seat, int) and isinstance(token, str) and token.isascii():
            for key in keys():
                if token_matches(key, hub.claims, seat, token):
                    return key
        return keys()[0]

    def slowed(client: str) -> None:
        """An address that sent wrong codes waits before its next claim is looked at."""
        if (wait := backoff.wait(client)) > 0:
            raise WebRefusal(f"too many wrong codes from this phone; try again in {wait:.0f} s", Reason.BUSY, 429,
                             seconds=round(wait))

    def joined(body: dict[str, Any], client: str) -> None:
        """Every claim carries the table's join code, shown on its screen (never served)."""
        given = body.get("join")
        if hub.join is None:
            raise WebRefusal("no game yet: seats open once the player count is scanned", Reason.PLAYERS_FIRST, 409)
        if given is None or given == "":
            raise WebRefusal("this phone has no join code (expected the 6 characters shown under the QR code on "
                             "the table's screen)", Reason.NOT_YOURS, 403, need="join")
        if not any(same_join(given, code) for code in (hub.join, *hub.earlier_joins)):
            backoff.miss(client)
            raise WebRefusal(f"join code {str(given)[:8]!r} is not this game's (expected the 6 characters shown "
                             "under the QR code on the table's screen)", Reason.NOT_YOURS, 403, need="join")

    def consent(body: dict[str, Any], seat: int, client: str) -> None:
        """A seat the table plays is claimed only with the code shown beside it on the screen."""
        code = hub.codes.get(seat)
        if code is None:
            return
        given = body.get("code")
        if given is None:
            raise WebRefusal(f"seat {seat} is played at the table: its code is shown beside it on the screen "
                             f"(expected that 6-digit code)", Reason.NOT_YOURS, 403, seat=seat)
        if not isinstance(given, str) or not given.strip().isascii() or \
                not hmac.compare_digest(given.strip().encode(), code.encode()):
            backoff.miss(client)
            raise WebRefusal(f"code {str(given)[:8]!r} is not seat {seat}'s (expected the 6 digits shown beside "
                             f"seat {seat} on the screen)", Reason.NOT_YOURS, 403, seat=seat)
        backoff.hit(client)

    def unchanged(seat: int, text: str) -> bool:
        """True when a rename gives seat ``seat`` the name it has (case, accents and spaces aside); a rename
        sooner than RENAME_SECONDS after the last one is refused."""
        seats = hub.view.get("seats") or []
        now_name = seats[seat - 1].get("name", "") if seat <= len(seats) else ""
        if folded(text.split(":", 1)[1]) == folded(str(now_name)):
            return True
        now = asyncio.get_running_loop().time()
        since = now - hub.renamed.get(seat, -RENAME_SECONDS)
        if since < RENAME_SECONDS:
            raise WebRefusal(f"seat {seat} was renamed {since:.1f} s ago (expected at most one rename every "
                             f"{RENAME_SECONDS:g} s)", Reason.BUSY, 429, seat=seat)
        hub.renamed[seat] = now
        return False

    async def claim(request: Request) -> Response:
        try:
            body = await body_of(request)
            client = request.client.host if request.client else "?"
            slowed(client)
            joined(body, client)
            seat, text = name_text(body, hub.view, key_of(body), hub.claims, hub.pending_seats)
            fresh = seat not in hub.claims
            if fresh:
                consent(body, seat, client)
                hub.pending_seats.add(seat)
            elif unchanged(seat, text):  # nothing changes at the table: nothing journaled
                return JSONResponse({"ok": True, "seat": seat, "token": seat_token(keys()[0], seat, hub.claims[seat])},
                                    headers=HEADERS)
            try:
                await send_input(text)
            finally:
                if fresh:
                    hub.pending_seats.discard(seat)
            epoch = hub.claims.get(seat)
            if epoch is None:
                raise WebRefusal(f"seat {seat} was not claimed (someone freed it meanwhile); try again", Reason.BUSY,
                                 409, seat=seat)
            return JSONResponse({"ok": True, "seat": seat, "token": seat_token(keys()[0], seat, epoch)},
                                headers=HEADERS)
        except WebRefusal as exc:
            return refused(exc)

    async def leave(request: Request) -> Response:
        try:
            body = await body_of(request)
            await send_input(leave_text(body, hub.view, key_of(body), hub.claims))
            return JSONResponse({"ok": True}, headers=HEADERS)
        except WebRefusal as exc:
            return refused(exc)

    async def bet(request: Request) -> Response:
        try:
            body = await body_of(request)
            for text in bet_texts(body, hub.view, key_of(body), hub.claims):
                await send_input(text)  # the mascot, then the answer: each one journaled input
            return JSONResponse({"ok": True}, headers=HEADERS)
        except WebRefusal as exc:
            return refused(exc)

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    async def live(ws: WebSocket) -> None:
        client = ws.client.host if ws.client else "?"
        why = origins.check(ws.headers.get("host"), ws.headers.get("origin"))
        if why or sockets[client] >= limits.websockets_per_address:
            await ws.close(code=1008, reason=(why or "too many connections from this address")[:120])
            return
        sockets[client] += 1
        changed = hub.watch()
        closed: asyncio.Task[None] | None = None
        try:
            await ws.accept()
            closed = asyncio.create_task(_until_closed(ws))
            sent = -1
            while not closed.done():
                if sent != hub.version:
                    sent = hub.version
                    await asyncio.wait_for(ws.send_text(hub.text), SEND_SECONDS)
                changed.clear()
                if sent == hub.version:  # wait for news; when quiet, send the view again (the phone sees it is live)
                    woken = asyncio.create_task(changed.wait())
                    done, _ = await asyncio.wait({woken, closed}, timeout=KEEPALIVE_SECONDS,
                                                 return_when=asyncio.FIRST_COMPLETED)
                    woken.cancel()
                    if not done:
                        sent = -1
        except (WebSocketDisconnect, asyncio.TimeoutError, OSError, RuntimeError):
            pass
        finally:
            if closed is not None:
                closed.cancel()
            hub.unwatch(changed)
            sockets[client] -= 1
            if sockets[client] <= 0:
                del sockets[client]

    routes = [Route("/", page), Route("/static/{name}", static), Route("/api/view", view),
              Route("/api/words", words), Route("/favicon.ico", no_icon),
              Route("/api/claim", claim, methods=["POST"]), Route("/api/leave", leave, methods=["POST"]),
              Route("/api/bet", bet, methods=["POST"]), WebSocketRoute("/ws", live)]
    app = Starlette(routes=routes, middleware=[Middleware(RequestLimit, max_body=limits.max_body,
                                                          body_seconds=limits.body_seconds,
                                                          max_head=limits.max_head, line=request_line)])
    app.state.backoff = backoff  # for the bench and the tests: which addresses wait
    return app
