"""Request bodies the phone page accepts: size, time and JSON shape, checked before the app sees them.

:class:`RequestLimit` is an ASGI middleware: headers over ``max_head`` bytes are answered ``431`` (h11 cuts
a head that arrives in parts at the same size, uvicorn's ``h11_max_incomplete_event_size``); a ``Content-Length`` over ``max_body`` is answered ``413`` at once,
before a byte of the body is read; a body without one (chunked) is counted as it arrives and cut with a
``413`` as soon as it passes ``max_body``; a body not complete ``body_seconds`` after its request head gets a
``408``. Every refusal is ``{"ok": false, "error": "<one line>"}`` and closes the connection; so does any
answer given before the request's body was read to its end (uvicorn would read and drop the rest, unbounded).
:func:`json_object` reads a body as a JSON object no deeper than ``max_depth`` or raises :class:`WebRefusal`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable, Callable

from companion.rules.errors import Reason
from companion.web.inputs import WebRefusal

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
EXAMPLE = '(expected an object like {"seat": 1})'


class _Cut(Exception):
    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class RequestLimit:
    """ASGI middleware limiting HTTP request heads to ``max_head`` bytes and bodies to ``max_body`` bytes and
    ``body_seconds`` seconds."""

    def __init__(self, app: Callable[..., Awaitable[None]], max_body: int = 2048, body_seconds: float = 10.0,
                 max_head: int = 8192, line: Callable[[], str] = lambda: ""):
        self.app = app
        self.line = line  # the words of reason ``request`` in the table's language, for the phone to show
        self.max_head = max_head
        self.max_body = max_body
        self.body_seconds = body_seconds

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = sum(len(name) + len(value) + 4 for name, value in scope["headers"])
        if head > self.max_head:
            await _answer(send, 431, f"request headers of {head} bytes are too large (expected at most {self.max_head})",
                          self.line())
            return
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            shown = length[:20].decode("latin-1")
            await _answer(send, 413 if length.isdigit() else 400,
                          f"request of {shown} bytes is too large (expected at most {self.max_body})"
                          if length.isdigit() else f"Content-Length {shown!r} is not a number (expected a size in bytes)",
                          self.line())
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_seconds
        seen = 0
        started = False
        complete = length in (None, b"0") and b"transfer-encoding" not in headers   # no body to read

        async def limited_receive() -> dict[str, Any]:
            nonlocal seen, complete
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise _Cut(f"request body not complete within {self.body_seconds:g} s "
                           f"(expected at most {self.max_body} bytes at once)", 408) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _Cut(f"request of more than {self.max_body} bytes is too large "
                               f"(expected at most {self.max_body})", 413)
                complete = not message.get("more_body", False)
            return message

        async def watched_send(message: dict[str, Any]) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if not complete:  # answered before its body was read (403, 429...): close, or uvicorn reads on
                    message = {**message, "headers": [*message.get("headers", []), (b"connection", b"close")]}
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except _Cut as cut:
            if started:
                raise
            await _answer(send, cut.status, str(cut), self.line())


async def _answer(send: Send, status: int, message: str, line: str = "") -> None:
    """A refused request (reason ``request``) in the shape of every phone refusal, and the connection closed."""
    body = json.dumps({"ok": False, "error": message, "reason": Reason.REQUEST.value, "line": line}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), (b"cache-control", b"no-cache"),
                            (b"x-content-type-options", b"nosniff")]})
    await send({"type": "http.response.body", "body": body})


def json_object(raw: bytes, max_depth: int = 4) -> dict[str, Any]:
    """``raw`` (UTF-8 JSON) as a dict whose arrays and objects nest at most ``max_depth`` deep. Raises
    WebRefusal (400) with a one-line reason for anything else: bad UTF-8, not JSON, too deep, not an object."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WebRefusal(f"request body is not UTF-8 text (bad byte at {exc.start}) {EXAMPLE}",
                         Reason.REQUEST) from None
    depth = 0
    in_string = escaped = False
    for char in text:  # the nesting is measured before parsing: the parser recurses once per level
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                raise WebRefusal(f"request body nests deeper than {max_depth} levels {EXAMPLE}", Reason.REQUEST)
        elif char in "]}":
            depth -= 1
    try:
        body = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        raise WebRefusal(f"request body is not JSON {EXAMPLE}", Reason.REQUEST) from None
    if not isinstance(body, dict):
        raise WebRefusal(f"request body is not a JSON object {EXAMPLE}", Reason.REQUEST)
    return body


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
