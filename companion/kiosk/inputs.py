"""What becomes of an input at the kiosk, apart from the loop that handles it (``companion.kiosk.controller``):
the :class:`Result` of one input, the refusal the sinks receive, the replay of journaled inputs into a table,
the race call's words for a table language, and the ``hotstreak status --json`` object of a table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from companion.kiosk.journal import Entry
from companion.kiosk.legacy import apply_legacy
from companion.rules.deck import Deck
from companion.rules.errors import HotStreakError, Reason, RefusalMessage, RefusedError
from companion.rules.events import Event
from companion.rules.table import Table
from companion.rules.track import Track
from companion.view.status import status_dict as view_status
from companion.view.table_view import build

__all__ = ["Result", "refused", "replay", "status_dict", "table_words"]


@dataclass
class Result:
    """What became of one input: accepted with its events, or refused with its ``error`` (reason and fields)
    and the one-line ``message``: ``str(error)``, as a :class:`RefusalMessage` that carries the error."""

    text: str
    accepted: bool
    events: list[Event] = field(default_factory=list)
    message: str | None = None
    error: RefusedError | None = None
    request: int | None = None


def refused(text: str, error: HotStreakError) -> tuple[Result, RefusedError]:
    """A refused input's Result and the RefusedError the sinks receive; an engine error that is not a refusal
    (none today) becomes one with reason ``other``."""
    refusal = error if isinstance(error, RefusedError) else RefusedError(str(error), Reason.OTHER)
    return Result(text, False, message=RefusalMessage(refusal), error=refusal), refusal


def replay(entries: Iterable[Entry], track: Track | None = None, deck: Deck | None = None,
           on_refused: Callable[[Entry, str], None] | None = None) -> Table:
    """Rebuild the table from journaled inputs; an input that is refused again is skipped and reported to
    ``on_refused(entry, message)`` (it stays in the journal)."""
    table = Table(track, deck)
    for entry in entries:
        try:
            table.apply(entry.text, entry.data)
        except HotStreakError as exc:
            if entry.legacy and apply_legacy(table, entry.text):
                continue
            if on_refused:
                on_refused(entry, str(exc))
    return table


def table_words(language: str) -> tuple[str, Callable[..., list[str]], Callable[..., list[str]]]:
    """The unnamed seat's name, the printed race call (English, for the console) and the screen's call panel
    lines in ``language`` (words only: no card notation or label codes)."""
    from companion.call import racecall, screencall, words
    seat_word = str(words.load_catalogue(language).words["seat"])

    def local(events: Sequence[Event], names: Callable[[int], str], deck: Deck | None = None) -> list[str]:
        return screencall.lines(events, language, names, deck)
    return seat_word, racecall.call, local


def status_dict(table: Table) -> dict[str, Any]:
    """The ``hotstreak status --json`` object of ``table`` (:func:`companion.view.status.status_dict`)."""
    return view_status(build(table, names=table.default_names))
