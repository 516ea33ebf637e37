"""The screen's own words in each language of the config's ``language`` (en, nl, es), read from the one phrase
catalogue (:mod:`companion.catalogue`, the ``[screen]`` section of ``sounds/phrases/<lang>.toml``).

``say(lang, key, **values)`` gives the text for ``key`` with ``{values}`` filled in; an unknown language falls
back to English. Texts that come from elsewhere (the race call, refusal messages, side bet questions, life
outcomes, player names) are shown as they are. Label captions (NEW GAME, GO, DOUBLE) stay English in every
language: they name what is printed on the labels.

>>> say("nl", "your_pick", name="Ann")
'Ann, jouw keuze'
>>> place("es", 2)
'2º'
"""

from __future__ import annotations

from companion.catalogue import LANGUAGES as LANGUAGES
from companion.catalogue import ByLanguage

WORDS: ByLanguage[dict[str, str]] = ByLanguage(lambda cat: cat.screen_words)
"""The screen's words by language and key: the ``[screen]`` section of ``sounds/phrases/<lang>.toml``."""


def say(lang: str, key: str, **values: object) -> str:
    """The text for ``key`` in ``lang`` (English if the language or key is unknown), values filled in."""
    table = WORDS.get(lang, WORDS["en"])
    text = table.get(key, WORDS["en"].get(key, key))
    return text.format(**values) if values else text


def place(lang: str, n: int) -> str:
    """A paid place: ``1st`` / ``1e`` / ``1º`` (``place_<n>``, else ``place_n``, of the catalogue's ``[screen]``)."""
    table = WORDS.get(lang, WORDS["en"])
    return table.get(f"place_{n}") or table["place_n"].format(n=n)


def part(lang: str, status_line: str) -> str:
    """The table's word for the device a status line is about: ``"leds: failed (...)"`` -> ``"lights"``; a
    part without a word is named by its key as it is."""
    key = status_line.split(":", 1)[0].strip()
    return say(lang, "part_" + key) if "part_" + key in WORDS["en"] else key


def action(lang: str, act: str) -> str:
    """Words for one card action (docs/rules.md 2): ``+2`` -> ``2 ahead``, ``T`` -> ``Turn around``."""
    if act[:1] == "+":
        return say(lang, "act_ahead", n=act[1:])
    if act[:1] == "-":
        return say(lang, "act_back", n=act[1:])
    return say(lang, "act_" + act)


__all__ = ["LANGUAGES", "WORDS", "action", "part", "place", "say"]
