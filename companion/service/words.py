"""The service mode's words on the screen and in the voice, in every table language (en, nl, es), read from the
one phrase catalogue (:mod:`companion.catalogue`, the ``[service]`` section of ``sounds/phrases/<lang>.toml``).

Keys are shared by the three tables; :func:`say` falls back to English for a missing key. Never card notation,
label codes or internal ids: a control card is named by its caption ("SERVICE MODE"), a pixel by its number on
the strip (the builder's own count, from 0 at the data input).
"""

from __future__ import annotations

from companion.catalogue import LANGUAGES as LANGUAGES
from companion.catalogue import ByLanguage

WORDS: ByLanguage[dict[str, str]] = ByLanguage(lambda cat: cat.service)
"""The service mode's words by language and key: the ``[service]`` section of ``sounds/phrases/<lang>.toml``."""


def say(lang: str, key: str, **values: object) -> str:
    """The text for ``key`` in ``lang`` (English when the language or the key is unknown), values filled in."""
    text = WORDS.get(lang, WORDS["en"]).get(key) or WORDS["en"].get(key, key)
    return text.format(**values) if values else text


__all__ = ["LANGUAGES", "WORDS", "say"]
