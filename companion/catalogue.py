"""The one phrase catalogue: every word the table says or shows, one data file per language.

``sounds/phrases/<lang>.toml`` (package data ``companion/sounds/phrases``) holds, by section:

- ``[meta]`` the language's name and espeak-ng ``voice``;
- ``[words]``, ``[places]``, ``[sidebets]``, ``[outcomes]``: the shared vocabulary every output fills phrases
  with (joining words and list items, place words, side bet questions, life outcomes);
- ``[shown]`` the plain form of each phrase the screen, the phone and the console show (race call lines,
  refusals); the voice says it too, as the first phrasing of its key;
- ``[voice]`` the spoken phrasings (for a key also in ``[shown]``: the ones after it);
- ``[screen_call]`` the screen's race call panel's own long forms (a move names its space);
- ``[screen]`` the screen's labels (:func:`companion.screen.words.say`);
- ``[service]`` the service mode's words, on the screen and in the voice (:func:`companion.service.words.say`);
- ``[phone]`` the phone page's words (``GET /api/words?lang=xx``);
- ``[console]``, ``[console_words]`` (English only) the printed race call of the console and
  ``hotstreak simulate``, and the console's own lines (``console-*``).

Every output reads only its own sections and the shared vocabulary, so changing a spoken line changes the screen
only where the screen's entry names that line. A word or line two outputs show alike is written once:
``side_bet = { same_as = "screen.side_bet" }`` in ``[phone]`` (or ``[screen_call]``, ``[screen]``, ``[service]``)
takes the text of ``[screen]`` ``side_bet`` (or of another entry of ``[words]``, ``[screen]``, ``[service]`` or
``[phone]``, or a spoken phrasing: ``{ same_as = "voice.side-bet-yes.1" }`` is the second of that key). This
module imports only the standard library: every sink folder may import it.

>>> cat = load_catalogue("nl")
>>> cat.shown["fell"] == cat.phrases["fell"][0]
True
>>> cat.screen_words["your_pick"]
'{name}, jouw keuze'
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

LANGUAGES: tuple[str, ...] = ("en", "nl", "es")
"""The table's languages: a ``sounds/phrases/<lang>.toml`` each."""


@dataclass(frozen=True)
class Catalogue:
    """One language's words. ``phrases[key]`` the spoken phrasings (the first is the plain one, ``shown[key]``
    where the key has one); ``voice`` the espeak-ng voice; ``places[n]`` the word for paid place n; ``words`` the
    small words: ``all`` (a green card's ``who``), ``seat`` ("Seat {n}"), ``list_sep``/``list_and`` (or
    ``<field>_sep``/``<field>_and``) and ``<field>_item`` templates for list fields (``<field>_shared_item`` for
    the mascots of a shared place, said once); ``sidebets`` the side bet questions by card id; ``outcomes`` the
    life-outcome lines by the ``from`` dollars of their band (empty: the game data's English lines); ``shown``
    the plain written form by key; ``screen`` the race call panel's own long forms by event key
    (:mod:`companion.call.screencall`); ``screen_words`` the screen's labels; ``service`` the service mode's
    words; ``phone`` the phone page's words (strings, or a list for ``places``); ``console``/``console_words``
    the printed call's templates and small words (English only, empty elsewhere); ``same_as`` the entries written
    as another's text (``"phone.side_bet"`` -> ``"screen.side_bet"``), already put in place."""

    lang: str
    voice: str
    phrases: dict[str, tuple[str, ...]]
    places: dict[int, str]
    words: dict[str, str]
    sidebets: dict[str, str]
    outcomes: dict[int, str] = field(default_factory=dict)
    screen: dict[str, str] = field(default_factory=dict)
    shown: dict[str, str] = field(default_factory=dict)
    screen_words: dict[str, str] = field(default_factory=dict)
    service: dict[str, str] = field(default_factory=dict)
    phone: dict[str, Any] = field(default_factory=dict)
    console: dict[str, str] = field(default_factory=dict)
    console_words: dict[str, str] = field(default_factory=dict)
    same_as: dict[str, str] = field(default_factory=dict)


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


def _strings(data: dict[str, Any], section: str, path: Path) -> dict[str, str]:
    table = data.get(section, {})
    bad = [k for k, v in table.items() if not isinstance(v, str)]
    if not isinstance(table, dict) or bad:
        raise ValueError(f"{path}: [{section}] {', '.join(bad) or section} should be text")
    return dict(table)


def _same_as(data: dict[str, Any], path: Path) -> dict[str, str]:
    """Put in place every ``key = { same_as = "<section>.<key>" }`` of ``[screen_call]``, ``[screen]``, ``[service]``
    and ``[phone]``
    (a word one output shows as another does, written once): the text of that ``[words]``, ``[screen]``,
    ``[service]`` or ``[phone]`` entry or ``voice.<key>.<n>`` phrasing, which must be text by then (sections are
    put in place in that order); a list of such names gives the list of their texts. Returns the references made
    (``"phone.side_bet"`` -> ``"screen.side_bet"``, a list's names joined by ", "). Raises ValueError naming the
    file and entry for a reference to nothing."""
    made: dict[str, str] = {}
    for section in ("screen_call", "screen", "service", "phone"):
        for key, value in data.get(section, {}).items():
            if not isinstance(value, dict):
                continue
            targets = value.get("same_as")
            names = targets if isinstance(targets, list) else [targets]
            texts = [_entry(data, name) for name in names]
            if set(value) != {"same_as"} or not names or None in texts:
                raise ValueError(f"{path}: [{section}] {key} = {value!r} (expected "
                                 f"{{ same_as = \"<section>.<key>\" }} or a list of them, naming texts of [words], "
                                 f"[screen], [service] or [phone], or a spoken phrasing \"voice.<key>.<n>\")")
            data[section][key] = texts if isinstance(targets, list) else texts[0]
            made[f"{section}.{key}"] = ", ".join(str(name) for name in names)
    return made


def _entry(data: dict[str, Any], name: Any) -> str | None:
    """The text of ``"<words|screen|service|phone>.<key>"`` in the file's data (already put in place), or of the
    spoken phrasing ``"voice.<key>.<n>"`` (0-based), or None."""
    where, _, key = str(name).partition(".")
    if where == "voice":
        key, _, n = key.rpartition(".")
        phrasings = data.get("voice", {}).get(key)
        text = phrasings[int(n)] if isinstance(phrasings, list) and n.isdigit() and int(n) < len(phrasings) else None
    else:
        text = data.get(where, {}).get(key) if where in ("words", "screen", "service", "phone") else None
    return text if isinstance(text, str) else None


@functools.lru_cache(maxsize=None)
def load_catalogue(lang: str) -> Catalogue:
    """Load ``sounds/phrases/<lang>.toml``. Raises ValueError for a language not in :data:`LANGUAGES`, a file that
    is not TOML in UTF-8, or one whose ``[meta]``, ``[voice]`` or ``[places]`` is missing (naming the file and
    section); OSError when the file cannot be read."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (expected one of: {', '.join(LANGUAGES)})")
    path = sounds_dir() / "phrases" / f"{lang}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: {exc} (expected a TOML file in UTF-8)") from None
    missing = [s for s in ("meta", "voice", "places") if s not in data]
    if missing:
        raise ValueError(f"{path}: no [{'], ['.join(missing)}] section")
    same_as = _same_as(data, path)
    shown = _strings(data, "shown", path)
    spoken: dict[str, list[str]] = data["voice"]
    phrases = {k: ((shown[k],) if k in shown else ()) + tuple(spoken.get(k, ())) for k in {**shown, **spoken}}
    return Catalogue(
        lang, data["meta"]["voice"], phrases, {int(k): v for k, v in data["places"].items()},
        _strings(data, "words", path), _strings(data, "sidebets", path),
        outcomes={int(k): v for k, v in data.get("outcomes", {}).items()},
        screen=_strings(data, "screen_call", path), shown=shown, screen_words=_strings(data, "screen", path),
        service=_strings(data, "service", path), phone=dict(data.get("phone", {})),
        console=_strings(data, "console", path), console_words=_strings(data, "console_words", path),
        same_as=same_as)


class ByLanguage(Mapping[str, T]):
    """One part of every language's catalogue, by language, read when first asked for (so importing a module
    that holds one never reads a file): ``ByLanguage(lambda cat: cat.screen_words)["nl"]``. A language not in
    :data:`LANGUAGES` is a KeyError; a broken file raises as :func:`load_catalogue` does."""

    def __init__(self, part: Callable[[Catalogue], T]):
        self._part = part

    def __getitem__(self, lang: str) -> T:
        if lang not in LANGUAGES:
            raise KeyError(lang)
        return self._part(load_catalogue(lang))

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


__all__ = ["LANGUAGES", "ByLanguage", "Catalogue", "load_catalogue", "sounds_dir"]
