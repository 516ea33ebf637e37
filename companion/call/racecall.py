"""The race call as text: one line per event that matters to the table (English).

The words come from the one event table of :mod:`companion.call.words` (event -> key + fields); this module
reads the plain, deterministic templates of the printed call used by ``hotstreak simulate``, the console and
the demo's headless output from the catalogue's ``[console]`` and ``[console_words]`` (``sounds/phrases/en.toml``,
:mod:`companion.catalogue`). The spoken announcer uses the same keys with its own phrasings.
"""

from __future__ import annotations

import functools
from typing import Iterable

from companion.call import words
from companion.rules import events as ev
from companion.rules.mascots import Mascot

_ORD = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def ordinal(n: int) -> str:
    return _ORD.get(n, f"{n}th")


@functools.cache
def printed() -> words.Catalogue:
    """The printed call's templates (``[console]`` of the English catalogue): one per key of
    :data:`companion.call.words.TABLE`, English, no variety; read when first used. Raises as
    :func:`companion.catalogue.load_catalogue` does for a broken file."""
    en = words.load_catalogue("en")
    return words.Catalogue(lang="en", voice="", phrases={k: (v,) for k, v in en.console.items()},
                           places={n: ordinal(n) for n in range(1, 21)},
                           words={"seat": en.words["seat"], **en.console_words}, sidebets={})


def __getattr__(name: str) -> words.Catalogue:
    """``PRINTED``: :func:`printed` (read on first use, not at import)."""
    if name == "PRINTED":
        return printed()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def line(e: ev.Event, names: words.Names | None = None) -> str | None:
    """One line of race call for an event, or None for an event that is not called; seats by ``names``
    (0-based seat -> name), else "Seat N"."""
    kf = words.key_and_fields(e)
    cat = printed()
    if kf is None or kf[0] not in cat.phrases:
        return None
    return words.render(cat.phrases[kf[0]][0], kf[1], cat, kf[0], names)


def call(events: Iterable[ev.Event], names: words.Names | None = None) -> list[str]:
    """The race call lines for a sequence of events (seats by ``names``, else "Seat N")."""
    return [text for text in (line(e, names) for e in events) if text is not None]


def podium_lines(placings: dict[Mascot, int]) -> list[str]:
    return [f"{ordinal(p)}: {m.title}" for m, p in sorted(placings.items(), key=lambda mp: (mp[1], mp[0].value))]
