"""Lines from a byte stream with a bounded buffer: any byte is survived, no line is held past a cap.

>>> import io
>>> dropped = []
>>> list(bounded_lines(io.BytesIO(b"HS-NEW\\r\\n\\xff\\xfeHS15\\n" + b"x" * 5000 + b"\\nHS16"), cap=64,
...                    on_drop=dropped.append))
['HS-NEW', '\\ufffd\\ufffdHS15', 'HS16']
>>> dropped
[5000]
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

__all__ = ["CHUNK", "LINE_CAP", "bounded_lines"]

LINE_CAP = 1024  # bytes: a line typed or piped to the kiosk (a code and a comment) is far shorter
CHUNK = 4096     # bytes read at a time


def bounded_lines(stream: Any, cap: int = LINE_CAP, chunk: int = CHUNK,
                  on_drop: Callable[[int], None] | None = None) -> Iterator[str]:
    """Yield the lines of ``stream`` (binary, or text: a text stream's ``buffer`` is read when it has one)
    without their line ends (LF, CRLF), decoded as UTF-8 with bad bytes replaced by U+FFFD. A line longer than
    ``cap`` bytes is dropped as it arrives, never held: ``on_drop(length in bytes)`` is called once for it. At
    most ``cap + chunk`` bytes are buffered whatever the stream holds. Reads ``chunk`` bytes at a time (a
    stream with ``read1`` returns what is there, so a keyboard line comes through as soon as it is typed)."""
    stream = getattr(stream, "buffer", stream)
    read = getattr(stream, "read1", None) or stream.read
    buf = bytearray()
    dropping = 0  # bytes of the current over-long line seen so far (0: not dropping)
    while True:
        data = read(chunk)
        if not data:
            break
        if isinstance(data, str):
            data = data.encode("utf-8", "replace")
        start = 0
        while True:
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if dropping:
                dropping += len(piece)
            else:
                buf += piece
                if len(buf) > cap:
                    dropping = len(buf)
                    buf.clear()
            if end < 0:
                break
            if dropping:
                if on_drop is not None:
                    on_drop(dropping)
                dropping = 0
            else:
                yield _text(buf)
                buf.clear()
            start = end + 1
    if dropping and on_drop is not None:
        on_drop(dropping)
    elif buf:
        yield _text(buf)


def _text(raw: bytearray) -> str:
    return raw.decode("utf-8", "replace").rstrip("\r")
