"""The race call panel of the kiosk screen: the race's events as short lines in the table's language.

Only words: a card is its number, its pass, who and what it does ("Card 8, pass 1: Gobbler, 2 ahead"), never
its notation or label code; every other event is its ``[screen_call]`` line in the phrase catalogue
(``sounds/phrases/<lang>.toml``, :mod:`companion.catalogue`) where the screen has a long form, else its
``[shown]`` line (never a spoken-only phrasing from ``[voice]``). A header line (a card,
a fold, a reshuffle, the end of the race, an undo) starts at the panel's edge; the lines of what a card did are
indented with two spaces (the panel draws them as details). The printed call (:mod:`companion.call.racecall`,
English, notation kept for the console and ``hotstreak simulate``) is another thing.

>>> from companion.rules import Race
>>> lines(Race().push_text("H+3"), "en")
['Card 1, pass 1: Hurley, 3 ahead', '  Hurley runs 3 to space 6']
"""

from __future__ import annotations

from typing import Any, Iterable

from companion.call import words
from companion.rules import events as ev
from companion.screen.words import action

HEADERS = ("revealed", "revealed-green", "folded", "reshuffled", "race_ended", "phase-", "undone",
           "side_bet_answered-")
"""Keys (or key prefixes ending in ``-``) of the lines that start at the panel's edge."""


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def effect(card: Any, lang: str) -> str:
    """A card's actions in words, in order: ``GR+2`` -> ``"stand up, 2 ahead"`` (``companion.screen.words``)."""
    return ", ".join(_lower_first(action(lang, a.notation())) for a in card.actions)


def _taken_back(text: str, lang: str, deck: Any = None) -> str:
    """What an undo took back, in words: a race card of ``deck`` (a ``companion.rules.deck.Deck``, None: the
    game's own deck file) as who and effect, any other input as "the last action"."""
    from companion.rules.deck import load_deck
    from companion.rules.errors import HotStreakError
    cat = words.load_catalogue(lang)
    try:
        card, _ = (deck if deck is not None else load_deck()).lookup(text)
    except (HotStreakError, OSError, ValueError):  # not a race card: a ticket, a control, a name...
        return cat.screen.get("undone-input", "-")
    who = cat.words["all"] if card.who is None else card.who.title
    return f"{who}, {effect(card, lang)}"


def line(e: ev.Event, lang: str, names: words.Names | None = None, deck: Any = None) -> str | None:
    """The call panel's line for one event in ``lang`` (seats by ``names``; an undone card looked up in
    ``deck``, None: the game's deck file), or None for an event the panel does not show. Raises ValueError for
    an unknown language."""
    kf = words.key_and_fields(e)
    if kf is None:
        return None
    key, fields = kf
    cat = words.load_catalogue(lang)
    template = cat.screen.get(key) or cat.shown.get(key)
    if template is None:
        return None
    if isinstance(e, ev.Revealed):
        fields = dict(fields, effect=effect(e.card, lang))
    elif key == "undone":
        fields = dict(fields, what=_taken_back(str(fields.get("text", "")), lang, deck))
    text = words.capitalise(words.render(template, fields, cat, key, names))
    if text.endswith(".") and not text.endswith(".."):
        text = text[:-1]   # the panel's lines end bare, as a list does ("Gobbler into lane 2"); "!" stays
    header = any(key == h or (h.endswith("-") and key.startswith(h)) for h in HEADERS)
    return text if header else "  " + text


def lines(events: Iterable[ev.Event], lang: str, names: words.Names | None = None, deck: Any = None) -> list[str]:
    """The call panel's lines for a sequence of events (events it does not show left out; ``deck`` as for
    :func:`line`)."""
    return [text for text in (line(e, lang, names, deck) for e in events) if text is not None]


def race_lines(race: Any, lang: str, names: words.Names | None = None) -> list[str]:
    """The whole call of ``race`` (a ``companion.rules.Race``) so far, from its cards: what the panel showed
    before a restart or an undo, rebuilt. The race is not changed."""
    start = race.copy()
    cards = []
    while start.cards:
        cards.append(start.pop())
    out: list[str] = []
    for card, code in reversed(cards):
        out += lines(start.push(card, code), lang, names)
    return out


def restored(lang: str) -> str:
    """The line that says the game was read back from the journal (a restart)."""
    return words.load_catalogue(lang).screen.get("restored", "")


__all__ = ["HEADERS", "effect", "line", "lines", "race_lines", "restored"]
