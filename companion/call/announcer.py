"""The announcer: race events and table moments to spoken lines, with variety, in English, Dutch or Spanish.

The phrase catalogue lives in ``sounds/phrases/<lang>.toml`` (installed as the package data ``companion.sounds``).
Each key has several phrasings; :class:`Announcer` picks one with its own seeded generator and never the same
phrasing twice in a row for a key.

>>> import random
>>> a = Announcer("nl", random.Random(1))
>>> from companion.rules import Race
>>> a.lines(Race().push_text("H+3"))                                        # doctest: +SKIP
['Volgende kaart, Hurley!', 'Hurley rent naar vak 6!']
>>> a.line_for("your-pick", name="Ann")                                     # doctest: +SKIP
'Aan jou, Ann.'
"""

from __future__ import annotations

import functools
import random
import re
import string
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from companion.rules import events as ev

LANGUAGES: tuple[str, ...] = ("en", "nl", "es")

# Every key of the catalogue and the placeholders its phrasings may use. Race event keys are the engine's event
# type names (companion.rules.events), "-variant" picks a phrasing family for one kind of that event.
_MASCOT = frozenset({"mascot"})
FIELDS: dict[str, frozenset[str]] = {
    "revealed": frozenset({"who", "reveal", "pass_no", "card"}),
    "revealed-green": frozenset({"who", "reveal", "pass_no", "card"}),
    "no_effect": _MASCOT,
    "no_effect-star": _MASCOT,
    "recovered": _MASCOT,
    "recovered-turn": _MASCOT,
    "moved": frozenset({"mascot", "steps", "space", "start", "lane"}),
    "moved-back": frozenset({"mascot", "steps", "space", "start", "lane"}),
    "moved-crawl": frozenset({"mascot", "steps", "space", "start", "lane"}),
    "moved-star": frozenset({"mascot", "steps", "space", "start", "lane"}),
    "swerved": frozenset({"mascot", "space", "from_lane", "to_lane"}),
    "turned_around": _MASCOT,
    "turned_around-forward": _MASCOT,
    "collided": frozenset({"mover", "mascot", "lane", "space"}),
    "fell": _MASCOT,
    "fell-collision": _MASCOT,
    "knocked_out": _MASCOT,
    "out_of_bounds": frozenset({"mascot", "lane", "space"}),
    "out_of_bounds-side": frozenset({"mascot", "lane", "space"}),
    "out_of_bounds-fold": frozenset({"mascot", "lane", "space"}),
    "finished": _MASCOT,
    "placed": frozenset({"mascot", "place"}),
    "placed-shared": frozenset({"mascot", "place"}),
    "folded": frozenset({"fold", "first_space"}),
    "reshuffled": frozenset({"pass_no"}),
    "race_ended": frozenset({"winner", "podium"}),
    # table lines (said by the controller with line_for)
    "race-start": frozenset({"race"}),
    "last-card": frozenset({"pass_no"}),
    "reshuffle": frozenset({"pass_no"}),
    "refused": frozenset({"reason"}),
    "payouts": frozenset({"race"}),
    "game-over": frozenset({"winner", "money"}),
    "new-game": frozenset(),
    "players": frozenset({"count"}),
    "betting": frozenset({"race"}),
    "your-pick": frozenset({"name"}),
    "side-bet": frozenset({"question"}),
    "race-unfinished": frozenset({"cards"}),
}
EVENT_TYPE_NAMES: tuple[str, ...] = tuple(re.sub(r"(?<!^)(?=[A-Z])", "_", t.__name__).lower()
                                          for t in ev.EVENT_TYPES)
"""The snake-case type names of the engine's events (``moved``, ``knocked_out``, ...), as in ``Event.type``."""
EVENT_KEYS: frozenset[str] = frozenset(k for k in FIELDS if k.split("-")[0] in EVENT_TYPE_NAMES)
TABLE_KEYS: frozenset[str] = frozenset(FIELDS) - EVENT_KEYS


@dataclass(frozen=True)
class Catalogue:
    """One language's phrases: ``phrases[key]`` is a tuple of phrasings; ``voice`` is the espeak-ng voice;
    ``places[n]`` the ordinal word for place n; ``words`` the small joining words."""

    lang: str
    voice: str
    phrases: dict[str, tuple[str, ...]]
    places: dict[int, str]
    words: dict[str, str]


def sounds_dir() -> Path:
    """The ``sounds`` folder: ``companion/sounds`` (installed package data, or in a checkout the symlink to the
    top-level ``sounds/``), else the checkout's ``sounds/`` next to the package (where symlinks are not kept).

    Raises FileNotFoundError naming both places if neither holds the phrase catalogue.
    """
    here = Path(__file__).resolve().parent
    for path in (here / "sounds", here.parent / "sounds"):
        if (path / "phrases").is_dir():
            return path
    raise FileNotFoundError(f"no sounds folder with phrases/: expected {here / 'sounds'} (installed) or "
                            f"{here.parent / 'sounds'} (a checkout)")


@functools.lru_cache(maxsize=None)
def load_catalogue(lang: str) -> Catalogue:
    """Load ``sounds/phrases/<lang>.toml``; raises ValueError for a language not in :data:`LANGUAGES`."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (expected one of: {', '.join(LANGUAGES)})")
    path = sounds_dir() / "phrases" / f"{lang}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    phrases = {k: tuple(v) for k, v in data["phrases"].items()}
    places = {int(k): v for k, v in data["places"].items()}
    return Catalogue(lang, data["meta"]["voice"], phrases, places, dict(data["words"]))


def _capitalise(text: str) -> str:
    """Upper-case the first letter (after any opening punctuation such as Spanish ``¡``)."""
    for i, ch in enumerate(text):
        if ch.isdigit():
            return text  # "3 kaarten verder": a line that starts with a number stays as it is
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1:]
    return text


def placeholders(phrase: str) -> set[str]:
    """The placeholder names in a phrasing (``"{mascot} runs"`` -> ``{"mascot"}``)."""
    return {name for _, name, _, _ in string.Formatter().parse(phrase) if name}


class Announcer:
    """Turns events into lines in ``lang`` (``en``, ``nl``, ``es``), choosing phrasings with ``rng``.

    Raises ValueError for an unknown language.
    """

    def __init__(self, lang: str = "en", rng: random.Random | None = None):
        self.catalogue = load_catalogue(lang)
        self.lang = lang
        self.rng = rng or random.Random()
        self._last: dict[str, int] = {}

    @property
    def voice(self) -> str:
        """The espeak-ng voice for this language."""
        return self.catalogue.voice

    def line_for(self, key: str, **fields) -> str:
        """One phrasing of ``key`` with its placeholders filled from ``fields``.

        Raises KeyError naming the key if it is not in the catalogue, ValueError naming a missing field.
        """
        options = self.catalogue.phrases.get(key)
        if not options:
            raise KeyError(f"no phrases for {key!r} in {self.lang} (expected one of: {', '.join(sorted(FIELDS))})")
        last = self._last.get(key)
        choices = [i for i in range(len(options)) if i != last] or [0]
        i = self.rng.choice(choices)
        self._last[key] = i
        try:
            return _capitalise(options[i].format(**fields))
        except KeyError as exc:
            raise ValueError(f"phrase {options[i]!r} for {key!r} needs field {exc.args[0]!r}") from None

    def place(self, n: int) -> str:
        """The ordinal word for paid place ``n`` in this language."""
        return self.catalogue.places.get(n, str(n))

    def key_and_fields(self, e: ev.Event) -> tuple[str, dict[str, object]] | None:
        """The catalogue key and fields for one event (None for an event that is not spoken)."""
        name = lambda m: m.title  # noqa: E731 - mascot names are the same in every language
        if isinstance(e, ev.Revealed):
            who = self.catalogue.words["all"] if e.card.who is None else name(e.card.who)
            return ("revealed-green" if e.card.who is None else "revealed",
                    dict(who=who, reveal=e.reveal, pass_no=e.pass_no, card=e.card.notation()))
        if isinstance(e, ev.NoEffect):
            return ("no_effect-star" if "star" in e.reason else "no_effect", dict(mascot=name(e.mascot)))
        if isinstance(e, ev.Recovered):
            return ("recovered" if e.stood_up else "recovered-turn", dict(mascot=name(e.mascot)))
        if isinstance(e, ev.Moved):
            key = ("moved-crawl" if e.crawled else "moved-star" if e.to_star
                   else "moved-back" if (e.end < e.start) else "moved")
            return key, dict(mascot=name(e.mascot), steps=abs(e.end - e.start), space=e.end, start=e.start, lane=e.lane)
        if isinstance(e, ev.Swerved):
            return "swerved", dict(mascot=name(e.mascot), space=e.space, from_lane=e.from_lane, to_lane=e.to_lane)
        if isinstance(e, ev.TurnedAround):
            return ("turned_around" if e.facing is ev.Facing.BACKWARD else "turned_around-forward",
                    dict(mascot=name(e.mascot)))
        if isinstance(e, ev.Collided):
            return "collided", dict(mover=name(e.mover), mascot=name(e.mascot), lane=e.lane, space=e.space)
        if isinstance(e, ev.Fell):
            return ("fell-collision" if e.cause is ev.Cause.COLLISION else "fell", dict(mascot=name(e.mascot)))
        if isinstance(e, ev.KnockedOut):
            return "knocked_out", dict(mascot=name(e.mascot))
        if isinstance(e, ev.OutOfBounds):
            key = {"back": "out_of_bounds", "side": "out_of_bounds-side", "fold": "out_of_bounds-fold"}[e.way.value]
            return key, dict(mascot=name(e.mascot), lane=e.lane, space=e.space)
        if isinstance(e, ev.Finished):
            return "finished", dict(mascot=name(e.mascot))
        if isinstance(e, ev.Placed):
            return ("placed-shared" if e.shared else "placed", dict(mascot=name(e.mascot), place=self.place(e.place)))
        if isinstance(e, ev.Folded):
            return "folded", dict(fold=e.fold, first_space=e.first_space)
        if isinstance(e, ev.Reshuffled):
            return "reshuffled", dict(pass_no=e.pass_no)
        if isinstance(e, ev.RaceEnded):
            order = sorted(e.placings, key=lambda mp: (mp[1], mp[0].value))
            words = self.catalogue.words
            items = [words["podium_item"].format(mascot=name(m), place=self.place(p)) for m, p in order]
            podium = (words["list_sep"].join(items[:-1]) + words["list_and"] + items[-1]) if len(items) > 1 else \
                "".join(items)
            return "race_ended", dict(winner=name(order[0][0]) if order else "-", podium=podium)
        return None

    def line(self, e: ev.Event) -> str | None:
        """One spoken line for an event, or None if it is not spoken."""
        kf = self.key_and_fields(e)
        return None if kf is None else self.line_for(kf[0], **kf[1])

    def lines(self, events: Iterable[ev.Event]) -> list[str]:
        """The spoken lines for a sequence of events, in order."""
        return [text for text in (self.line(e) for e in events) if text is not None]

    def fixed_lines(self) -> list[str]:
        """Every line whose fields come from a small fixed set (mascot names, places, pass numbers): the lines
        worth rendering ahead of time. Lines with numbers of spaces, names or reasons are rendered on demand."""
        from companion.rules.mascots import MASCOTS
        names = [m.title for m in MASCOTS]
        out: list[str] = []
        for key, options in self.catalogue.phrases.items():
            for phrase in options:
                used = placeholders(phrase)
                if not used:
                    out.append(phrase)
                elif used == {"mascot"}:
                    out.extend(phrase.format(mascot=n) for n in names)
                elif used == {"mover", "mascot"}:
                    out.extend(phrase.format(mover=a, mascot=b) for a in names for b in names if a != b)
                elif used == {"mascot", "place"}:
                    out.extend(phrase.format(mascot=n, place=p) for n in names for p in self.catalogue.places.values())
                elif used <= {"pass_no"} and key in ("reshuffled", "reshuffle", "last-card"):
                    out.extend(phrase.format(pass_no=k) for k in range(2, 5))
        return list(dict.fromkeys(out))
