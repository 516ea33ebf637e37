"""The kiosk's one-off lines for the table (a journal moved aside, a slow SD card, saving again), each with the
key of its words on the screen.

A :class:`Notice` is a ``str``: the English line the console and the logs print, as before. Its ``key`` names
the screen's words for it (``notice_<key>`` in :mod:`companion.screen.words`), so a Dutch or Spanish table reads
it in its own language; the details (file names, the engine's reasons) stay in the log.

>>> n = Notice("Saving again - play on", "saved")
>>> n == "Saving again - play on", n.key
(True, 'saved')
"""

from __future__ import annotations

KEYS = ("saving", "saved", "cannot-save", "rescued", "moved-aside", "skipped", "typed-slowly")
"""The notices the kiosk gives."""


class Notice(str):
    """A notice: the English line (``str(notice)``) and ``key``, one of :data:`KEYS`. Raises ValueError for
    another key."""

    key: str

    def __new__(cls, text: str, key: str) -> "Notice":
        if key not in KEYS:
            raise ValueError(f"unknown notice {key!r} (expected one of: {', '.join(KEYS)})")
        notice = super().__new__(cls, text)
        notice.key = key
        return notice


def notice_key(message: str) -> str | None:
    """The key of a notice, or None for a plain line."""
    return getattr(message, "key", None)


__all__ = ["KEYS", "Notice", "notice_key"]
