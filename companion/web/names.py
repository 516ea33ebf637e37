"""Names a phone may give its seat: never an unnamed seat's ("Seat 3" in any language), never another seat's,
never a tower of accents.

Two names are the same when they fold to the same text (:func:`folded`: Unicode NFKD, combining marks dropped,
casefolded, runs of spaces made one): "Ann", " ANN " and "Ánn" are one name. A base character carries at most
:data:`MARKS` combining marks (enough for any language's letters, "ệ" has two).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any, Iterable, Mapping

MARKS = 2  # combining marks one base character may carry


def folded(name: str) -> str:
    """``name`` compared as the table reads it: NFKD, no combining marks, casefolded, single spaces."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


@functools.lru_cache(maxsize=1)
def _seat_words() -> re.Pattern[str]:
    """The unnamed seat's word in every language ("seat", "speler", "jugador"), folded, as ``word [number]``."""
    from companion.call.words import LANGUAGES, load_catalogue
    words = {"seat"}
    for lang in LANGUAGES:
        template = str(load_catalogue(lang).words["seat"])
        words.add(folded(template.replace("{n}", "")))
    return re.compile(rf"(?:{'|'.join(sorted(re.escape(w) for w in words if w))})\s*\d*")


def most_marks(name: str) -> int:
    """The most combining marks on one base character of ``name`` (in its NFD form)."""
    most = run = 0
    for char in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.combining(char) else 0
        most = max(most, run)
    return most


def name_refusal(name: str, seat: int, seats: Iterable[Mapping[str, Any]]) -> str | None:
    """Why a phone may not name ``seat`` ``name`` (spaces already folded), as a one-line message naming the
    name and what was expected; None when it may. ``seats`` are the page view's (``{"seat", "name", "named"}``):
    a name another seat has is refused, compared by :func:`folded`."""
    if most_marks(name) > MARKS:
        return (f"name {name[:24]!r} stacks {most_marks(name)} accents on one letter "
                f"(expected at most {MARKS})")
    key = folded(name)
    if _seat_words().fullmatch(key):
        return f"name {name!r} is how the table calls an unnamed seat (expected a name of your own)"
    for other in seats:
        if other.get("seat") != seat and other.get("named") and folded(str(other.get("name", ""))) == key:
            return f"name {name!r} is seat {other.get('seat')}'s already (expected a name no other seat has)"
    return None
