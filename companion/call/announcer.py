"""The announcer: phrase choice over the one event table (:mod:`companion.call.words`), with variety, in
English, Dutch or Spanish.

The phrase catalogue lives in ``sounds/phrases/<lang>.toml`` (installed as the package data ``companion.sounds``).
Each key has one or more phrasings; :class:`Announcer` picks one with its own seeded generator and never the same
phrasing twice in a row for a key. :mod:`companion.call.caller` builds the spoken race call from these lines.

>>> import random
>>> a = Announcer("nl", random.Random(1))
>>> from companion.rules import Race
>>> a.lines(Race().push_text("H+3"))                                        # doctest: +SKIP
['Hurley!', 'Hurley naar 6.']
>>> a.line_for("your-pick", name="Ann")                                     # doctest: +SKIP
'Aan jou, Ann.'
"""

from __future__ import annotations

import random
import re
from typing import Any, Iterable

from companion.call import words
from companion.call.words import (LANGUAGES, Catalogue, capitalise, load_catalogue,  # noqa: F401 - re-exported
                                  placeholders, sounds_dir)
from companion.rules import events as ev
from companion.rules import game_events as gev
from companion.rules.errors import Reason

# Every key of the catalogue and the fields it is given (its phrasings may use any of them). Race event keys are
# the engine's event type names (companion.rules.events); "-variant" picks a phrasing family for one kind.
_MASCOT = frozenset({"mascot"})
_MOVE = frozenset({"mascot", "steps", "space", "start", "lane"})
_OUT = frozenset({"mascot", "lane", "space"})
REFUSALS: tuple[str, ...] = tuple(r.value for r in Reason)
"""The reasons a refusal is spoken with (``refused-<reason>`` keys): :class:`companion.rules.errors.Reason`."""

FIELDS: dict[str, frozenset[str]] = {
    "revealed": frozenset({"who", "reveal", "pass_no", "card", "tag"}),
    "revealed-green": frozenset({"who", "reveal", "pass_no", "card", "tag"}),
    "no_effect": frozenset({"mascot", "reason"}),
    "no_effect-star": frozenset({"mascot", "reason"}),
    "recovered": _MASCOT,
    "recovered-turn": _MASCOT,
    "recovered-both": _MASCOT,
    "moved": _MOVE, "moved-back": _MOVE, "moved-crawl": _MOVE, "moved-crawl-back": _MOVE, "moved-star": _MOVE,
    "moved-star-back": _MOVE,
    "swerved": frozenset({"mascot", "space", "from_lane", "to_lane"}),
    "turned_around": _MASCOT,
    "turned_around-forward": _MASCOT,
    "collided": frozenset({"mover", "mascot", "lane", "space"}),
    "fell": _MASCOT,
    "fell-collision": _MASCOT,
    "knocked_out": _MASCOT,
    "out_of_bounds": _OUT, "out_of_bounds-side": _OUT, "out_of_bounds-fold": _OUT,
    "finished": _MASCOT,
    "placed": frozenset({"mascot", "place"}),
    "placed-shared": frozenset({"mascot", "place"}),
    "folded": frozenset({"fold", "first_space"}),
    "reshuffled": frozenset({"pass_no"}),
    "folded-reshuffled": frozenset({"fold", "first_space"}),
    "race_ended": frozenset({"winner", "podium"}),
    # the caller's merged beats
    "moved-all": frozenset({"steps"}),
    "moved-all-back": frozenset({"steps"}),
    "finished-placed": frozenset({"mascot", "place"}),
    "fell-many": frozenset({"mascots"}),
    "knocked_out-many": frozenset({"mascots"}),
    "out_of_bounds-many": frozenset({"mascots"}),
    "finished-many": frozenset({"mascots"}),
    # table moments (said by the voice sink with line_for)
    "race-start": frozenset({"race"}),
    "last-card": frozenset({"pass_no"}),
    "new-game": frozenset(),
    "players": frozenset({"count"}),
    "betting": frozenset({"race"}),
    "side-bet": frozenset({"question", "card_id"}),
    "your-pick": frozenset({"name"}),
    "mark-double": frozenset({"race"}),
    "double-armed": frozenset({"race"}),
    "add-cards": frozenset({"race"}),
    "side-bet-yes": frozenset(),
    "side-bet-no": frozenset(),
    "payouts": frozenset({"race"}),
    "settled-up": frozenset({"name", "amount"}),
    "settled-down": frozenset({"name", "amount"}),
    "settled-even": frozenset({"name", "amount"}),
    "game-over": frozenset({"winner", "money"}),
    "standings": frozenset({"standings"}),
    "race-unfinished": frozenset({"cards"}),
    "race-unfinished-one": frozenset(),
    **{f"refused-{r}": frozenset() for r in REFUSALS},
}
EVENT_TYPE_NAMES: tuple[str, ...] = tuple(re.sub(r"(?<!^)(?=[A-Z])", "_", t.__name__).lower()
                                          for t in ev.EVENT_TYPES)
"""The snake-case type names of the engine's events (``moved``, ``knocked_out``, ...), as in ``Event.type``."""
EVENT_KEYS: frozenset[str] = frozenset(k for k in FIELDS if k.split("-")[0] in EVENT_TYPE_NAMES)
MERGED_KEYS: frozenset[str] = frozenset({"folded-reshuffled", "moved-all", "moved-all-back", "finished-placed",
                                         "fell-many", "knocked_out-many", "out_of_bounds-many", "finished-many"})
"""The caller's merged beats (:mod:`companion.call.caller`): keys of no single event."""
EVENT_KEYS = EVENT_KEYS - MERGED_KEYS
TABLE_KEYS: frozenset[str] = frozenset(FIELDS) - EVENT_KEYS - MERGED_KEYS


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

    def line_for(self, key: str, **fields: Any) -> str:
        """One phrasing of ``key`` with its placeholders filled from ``fields`` (language-neutral: ``place`` as
        a number, lists of items; see :func:`companion.call.words.localise`).

        Raises KeyError naming the key if it is not in the catalogue, ValueError naming a missing field.
        """
        options = self.catalogue.phrases.get(key)
        if not options:
            raise KeyError(f"no phrases for {key!r} in {self.lang} (expected one of: {', '.join(sorted(FIELDS))})")
        last = self._last.get(key)
        choices = [i for i in range(len(options)) if i != last] or [0]
        i = self.rng.choice(choices)
        self._last[key] = i
        return capitalise(words.render(options[i], fields, self.catalogue, key))

    def place(self, n: int) -> str:
        """The ordinal word for paid place ``n`` in this language."""
        return self.catalogue.places.get(n, str(n))

    def key_and_fields(self, e: ev.Event) -> tuple[str, dict[str, object]] | None:
        """The catalogue key and fields for one race event (None for an event that is not spoken); from the one
        event table :data:`companion.call.words.TABLE`."""
        kf = words.key_and_fields(e)
        return kf if kf is not None and kf[0] in self.catalogue.phrases else None

    def line(self, e: ev.Event, names: words.Names | None = None) -> str | None:
        """One spoken line for an event, or None if it is not spoken; seats by ``names`` (0-based seat ->
        name), else "Seat N" in this language."""
        kf = self.key_and_fields(e)
        if kf is None:
            return None
        key, fields = kf
        if "seat" in fields and "name" not in fields:
            fields = dict(fields, name=words.localise({"seat": fields["seat"]}, self.catalogue, names)["name"])
        return self.line_for(key, **fields)

    def lines(self, events: Iterable[ev.Event], names: words.Names | None = None) -> list[str]:
        """The spoken lines for a sequence of events, one per event, in order (seats by ``names``)."""
        return [text for text in (self.line(e, names) for e in events) if text is not None]

    def fixed_lines(self) -> list[str]:
        """Every line whose fields come from a small fixed set (mascot names, places, pass numbers, race numbers,
        refusals): the lines worth rendering ahead of time. Lines with spaces, names or money are rendered on
        demand."""
        from companion.rules.mascots import MASCOTS
        names = [m.title for m in MASCOTS]
        places = list(self.catalogue.places)
        out: list[str] = []
        for key, options in self.catalogue.phrases.items():
            for phrase in options:
                used = placeholders(phrase)

                def fill(**f: object) -> str:
                    return capitalise(words.render(phrase, f, self.catalogue, key))

                if not used:
                    out.append(capitalise(phrase))
                elif used == {"mascot"}:
                    out.extend(fill(mascot=n) for n in names)
                elif used == {"mover", "mascot"}:
                    out.extend(fill(mover=a, mascot=b) for a in names for b in names if a != b)
                elif used == {"mascot", "place"}:
                    out.extend(fill(mascot=n, place=p) for n in names for p in places)
                elif used == {"pass_no"}:
                    out.extend(fill(pass_no=k) for k in range(2, 5))
                elif used == {"race"}:
                    out.extend(fill(race=k) for k in range(1, 4))
                elif used == {"question"} and key == "side-bet":
                    out.extend(fill(question=q, card_id=c) for c, q in self.catalogue.sidebets.items())
        return list(dict.fromkeys(out))


def is_game_event(e: ev.Event) -> bool:
    """True for a whole-game event (betting, phases, money) rather than a race event."""
    return isinstance(e, gev.GAME_EVENT_TYPES)
