"""Events to words: the one table from an event to a phrase key and its fields, and the rendering of a key's
template in a language. The printed race call (:mod:`companion.call.racecall`), the spoken announcer
(:mod:`companion.call.announcer`, :mod:`companion.call.caller`) and on-screen text (:func:`text`) all use it.

Fields are language-neutral: mascot names, numbers, ``place`` as a paid place 1..4, ``who`` as a mascot name or
None for a green card, lists of items (``podium``, ``standings``). :func:`render` turns them into words with a
:class:`Catalogue` (``places`` gives the ordinal word, ``words`` the joining words and list item templates).

>>> from companion.rules import Race
>>> key_and_fields(Race().push_text("HF")[-1])
('fell', {'mascot': 'Hurley'})
>>> text(Race().push_text("HF")[-1], "nl")                          # doctest: +SKIP
'Hurley valt!'
"""

from __future__ import annotations

import string
from typing import Any, Callable, Iterable

from companion.catalogue import LANGUAGES as LANGUAGES
from companion.catalogue import Catalogue as Catalogue
from companion.catalogue import load_catalogue as load_catalogue
from companion.catalogue import sounds_dir as sounds_dir
from companion.rules import events as ev
from companion.rules import game_events as gev
from companion.rules import table as tev
from companion.rules.errors import Reason, RefusedError
from companion.view.sink import Undone

Fields = dict[str, Any]


def _name(m: Any) -> str:
    return str(m.title)  # mascot names are the same in every language


def _revealed(e: ev.Revealed) -> tuple[str, Fields]:
    return ("revealed-green" if e.card.who is None else "revealed",
            dict(who=None if e.card.who is None else _name(e.card.who), reveal=e.reveal, pass_no=e.pass_no,
                 card=e.card.notation(), tag=f" [{e.code}]" if e.code else ""))


def _recovered(e: ev.Recovered) -> tuple[str, Fields]:
    key = "recovered-both" if e.stood_up and e.turned_forward else "recovered" if e.stood_up else "recovered-turn"
    return key, dict(mascot=_name(e.mascot))


def _moved(e: ev.Moved) -> tuple[str, Fields]:
    kind = "-crawl" if e.crawled else "-star" if e.to_star else ""
    back = "-back" if e.end < e.start else ""
    return ("moved" + kind + back,
            dict(mascot=_name(e.mascot), steps=abs(e.end - e.start), space=e.end, start=e.start, lane=e.lane))


def _race_ended(e: ev.RaceEnded) -> tuple[str, Fields]:
    order = sorted(e.placings, key=lambda mp: (mp[1], mp[0].value))
    count = {p: sum(q == p for _, q in order) for _, p in order}
    return "race_ended", dict(winner=_name(order[0][0]) if order else "-",
                              podium=[dict(mascot=_name(m), place=p, shared=count[p] > 1) for m, p in order])


def _settled(e: gev.Settled) -> tuple[str, Fields]:
    return ("settled-up" if e.change > 0 else "settled-down" if e.change < 0 else "settled-even",
            dict(seat=e.seat + 1, before=e.before, after=e.after, amount=abs(e.change),
                 sign="+" if e.change >= 0 else "-"))


def _game_over(e: gev.GameOver) -> tuple[str, Fields]:
    return "game_over", dict(standings=[dict(place=s.place, seat=s.seat + 1, money=s.money, line=s.line)
                                        for s in e.standings])


TABLE: dict[type, Callable[[Any], tuple[str, Fields]]] = {
    ev.Revealed: _revealed,
    ev.NoEffect: lambda e: ("no_effect-star" if "star" in e.reason else "no_effect",
                            dict(mascot=_name(e.mascot), reason=e.reason)),
    ev.Recovered: _recovered,
    ev.Moved: _moved,
    ev.Swerved: lambda e: ("swerved", dict(mascot=_name(e.mascot), space=e.space, from_lane=e.from_lane,
                                           to_lane=e.to_lane)),
    ev.TurnedAround: lambda e: ("turned_around" if e.facing is ev.Facing.BACKWARD else "turned_around-forward",
                                dict(mascot=_name(e.mascot))),
    ev.Collided: lambda e: ("collided", dict(mover=_name(e.mover), mascot=_name(e.mascot), lane=e.lane,
                                             space=e.space)),
    ev.Fell: lambda e: ("fell-collision" if e.cause is ev.Cause.COLLISION else "fell", dict(mascot=_name(e.mascot))),
    ev.KnockedOut: lambda e: ("knocked_out", dict(mascot=_name(e.mascot))),
    ev.OutOfBounds: lambda e: ({"back": "out_of_bounds", "side": "out_of_bounds-side",
                                "fold": "out_of_bounds-fold"}[e.way.value],
                               dict(mascot=_name(e.mascot), lane=e.lane, space=e.space)),
    ev.Finished: lambda e: ("finished", dict(mascot=_name(e.mascot))),
    ev.Placed: lambda e: ("placed-shared" if e.shared else "placed", dict(mascot=_name(e.mascot), place=e.place)),
    ev.Folded: lambda e: ("folded", dict(fold=e.fold, first_space=e.first_space)),
    ev.Reshuffled: lambda e: ("reshuffled", dict(pass_no=e.pass_no)),
    ev.RaceEnded: _race_ended,
    gev.PhaseChanged: lambda e: ("phase-" + e.phase.value + ("-open" if e.open_bets else ""), dict(race=e.race_no)),
    gev.SideBetShown: lambda e: ("side_bet_shown" + ("-scanned" if e.scanned else ""),
                                 dict(number=e.number, question=e.question, card_id=e.card_id, race=e.race_no)),
    gev.TicketDrafted: lambda e: ("ticket_drafted", dict(seat=e.seat + 1, ticket=e.ticket, side=e.side,
                                                         pick=e.pick, race=e.race_no)),
    gev.DoubleMarked: lambda e: ("double_marked", dict(seat=e.seat + 1, ticket=e.ticket)),
    gev.DoubleArmed: lambda e: ("double_armed", dict(race=e.race_no)),
    gev.OpenBetPlaced: lambda e: ("open_bet_placed-double" if e.double else "open_bet_placed", dict(
        seat=e.seat + 1, kind=e.kind, choice=e.choice.upper() if e.kind == "side" else e.choice.title(),
        double=e.double, race=e.race_no)),
    gev.SideBetHappened: lambda e: ("side_bet_happened", dict(card_id=e.card_id)),
    gev.SideBetAnswered: lambda e: ("side_bet_answered-yes" if e.happened else "side_bet_answered-no",
                                    dict(card_id=e.card_id)),
    gev.Settled: _settled,
    gev.GameOver: _game_over,
    tev.NewGame: lambda e: ("new_game", {}),
    tev.PlayersSet: lambda e: ("players_set", dict(players=e.players, variant=e.variant)),
    Undone: lambda e: ("undone", dict(text=e.text)),
}
"""Event type -> function giving (key, fields): race, game and table events and the kiosk's ``Undone``; other
events (``CardLearned``, ``SeatNamed``) have no words."""


def key_and_fields(e: ev.Event) -> tuple[str, Fields] | None:
    """The phrase key and language-neutral fields of one event, or None for an event that has no words."""
    fn = TABLE.get(type(e))
    return fn(e) if fn is not None else None


# ----- templates ----------------------------------------------------------------------------------------------
# The catalogue itself (its data class, loader and languages) is companion.catalogue: one loader for every output.

def placeholders(phrase: str) -> set[str]:
    """The placeholder names in a phrasing (``"{mascot} runs"`` -> ``{"mascot"}``)."""
    return {name for _, name, _, _ in string.Formatter().parse(phrase) if name}


def capitalise(text: str) -> str:
    """Upper-case the first letter (after any opening punctuation such as Spanish ``¡``)."""
    for i, ch in enumerate(text):
        if ch.isdigit():
            return text  # "3 kaarten verder": a line that starts with a number stays as it is
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1:]
    return text


Names = Callable[[int], str]
"""0-based seat -> the name the table knows it by (``TableView.seat_name``)."""


def localise(fields: Fields, cat: Catalogue, names: Names | None = None) -> dict[str, Any]:
    """Fields in the catalogue's words: ``place`` -> ordinal word, ``who`` None -> the word for everybody,
    ``question`` -> the catalogue's own question for ``card_id`` when it has one, lists -> joined items (plain
    strings as they are, dicts through the ``<field>_item`` template). Fields with a 1-based ``seat`` gain
    ``name``: ``names(seat - 1)``, or the catalogue's "Seat N" without ``names``."""
    out: dict[str, Any] = {}
    seat = fields.get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool) and "name" not in fields:  # a phone may send any value
        given = names(seat - 1) if names is not None else ""
        out["name"] = given or cat.words["seat"].format(n=seat)
    for k, v in fields.items():
        if k == "place" and isinstance(v, int):
            v = cat.places.get(v, str(v))
        elif k == "who" and v is None:
            v = cat.words["all"]
        elif k == "question":
            v = cat.sidebets.get(str(fields.get("card_id")), v)
        elif isinstance(v, list):
            shared = f"{k}_shared_item" in cat.words
            items = [item if isinstance(item, str) else
                     cat.words[f"{k}_shared_item" if shared and item.get("shared") else f"{k}_item"].format(
                         **localise(item, cat, names))
                     for item in (_shared_places(v) if shared else v)]
            sep = cat.words.get(f"{k}_sep", cat.words.get("list_sep", ", "))
            last = cat.words.get(f"{k}_and", cat.words.get("list_and", sep))
            v = (sep.join(items[:-1]) + last + items[-1]) if len(items) > 1 else "".join(items)
        out[k] = v
    return out


def _shared_places(items: list[Any]) -> list[Any]:
    """List items with ``shared`` set and the same ``place`` merged into one item whose ``mascot`` is the list of
    their mascots (a shared place is said once, as shared); other items as they are."""
    out: list[Any] = []
    for item in items:
        last = out[-1] if out else None
        if (isinstance(item, dict) and item.get("shared") and isinstance(last, dict) and last.get("shared")
                and last.get("place") == item.get("place")):
            mascots = last["mascot"] if isinstance(last["mascot"], list) else [last["mascot"]]
            out[-1] = dict(last, mascot=[*mascots, item["mascot"]])
        else:
            out.append(item)
    return out


def render(template: str, fields: Fields, cat: Catalogue, key: str = "?", names: Names | None = None) -> str:
    """``template`` filled from ``fields`` localised by ``cat`` (seat names from ``names``). Raises ValueError
    naming a missing field."""
    try:
        return template.format(**localise(fields, cat, names))
    except KeyError as exc:
        raise ValueError(f"phrase {template!r} for {key!r} needs field {exc.args[0]!r}") from None


def text(e: ev.Event, lang: str, names: Names | None = None) -> str | None:
    """On-screen text for one event in ``lang`` (the ``[shown]`` line of its key), or None when the event has no
    shown words. Raises ValueError for an unknown language."""
    kf = key_and_fields(e)
    cat = load_catalogue(lang)
    if kf is None or not cat.shown.get(kf[0]):
        return None
    return capitalise(render(cat.shown[kf[0]], kf[1], cat, kf[0], names))


def lines(events: Iterable[ev.Event], lang: str, names: Names | None = None) -> list[str]:
    """On-screen text for a sequence of events in ``lang`` (:func:`text` of each, events without words left
    out; seats by ``names``). Raises ValueError for an unknown language."""
    return [t for t in (text(e, lang, names) for e in events) if t is not None]


# ----- refusals -----------------------------------------------------------------------------------------------
def reason_of(refusal: RefusedError | str) -> Reason:
    """The :class:`Reason` of a refusal: a RefusedError's own, or the one of the error a message carries
    (:class:`~companion.rules.errors.RefusalMessage`, what the controller hands the sinks); plain text has no
    reason: ``other``. The words never come from reading the text."""
    if isinstance(refusal, RefusedError):
        return refusal.reason
    error = getattr(refusal, "error", None)
    return error.reason if isinstance(error, RefusedError) else Reason.OTHER


def refusal_key(refusal: RefusedError | str) -> str:
    """The catalogue key of a refusal's words, ``refused-<reason>`` (what the voice says, one of a fixed set)."""
    return f"refused-{reason_of(refusal).value}"


def refusal_line(error: RefusedError | str, lang: str) -> str:
    """A refusal in a few words in ``lang`` for the screen, console and phone: the plain (first) phrasing of
    ``refused-<reason>``, filled from the error's fields. Never the scanned text, a label code or a card
    notation. Raises ValueError for an unknown language."""
    fields = dict(error.fields) if isinstance(error, RefusedError) else {}
    return phrase(refusal_key(error), lang, **fields)


def refusal(message: RefusedError | str, lang: str) -> str:
    """The same as :func:`refusal_line` (the name the screen uses)."""
    return refusal_line(message, lang)


def phrase(key: str, lang: str, **fields: Any) -> str:
    """Written text for a catalogue key (``refused-<reason>``, ``your-pick``...) in ``lang``: its ``[shown]`` line,
    or for a key the voice alone says its first spoken phrasing, filled from ``fields``. Raises KeyError for an
    unknown key, ValueError for a missing field or language."""
    cat = load_catalogue(lang)
    template = cat.shown.get(key) or next(iter(cat.phrases.get(key, ())), None)
    if template is None:
        raise KeyError(f"no phrases for {key!r} in {lang}")
    return capitalise(render(template, fields, cat, key))


def life_outcome(money: int, lang: str) -> str:
    """The life-outcome line for a final amount of ``money`` whole dollars, in ``lang``: the band of the game data
    (the highest ``from`` at most ``money``) in the catalogue's words, or the game data's English line where the
    catalogue has none for that band. Raises ValueError for an unknown language."""
    from companion.rules.setup import default_game_rules
    rules = default_game_rules()
    band = max((start for start, _ in rules.outcomes if start <= money), default=rules.outcomes[0][0])
    return load_catalogue(lang).outcomes.get(band) or rules.life_outcome(money)
