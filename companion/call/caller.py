"""The race caller: a card's events -> one short spoken line ("Hurley 2, up to 9."; "Mum down!"), and the
spoken moments around a race (whose pick, the side bet, the double, payouts, standings, refusals).

Every beat of a card comes from the one event table (:mod:`companion.call.words`) through the announcer's
phrasings. Priorities (:data:`PRIORITY`): falls, knockouts, out of bounds, finishes and placings, folds,
reshuffles and the podium (0) are always kept (several mascots downed, knocked out, out of bounds or home on
one card merge into one beat); a collision (1), a turn, swerve or recovery (2) and plain moves (3) fill the
line up to :data:`WORD_BUDGET` words (:data:`ESSENTIAL_BUDGET` beside essential news), most important first,
leaving out a mascot whose fall, knockout, out of bounds or finish is already said; a DQ's place and "nothing
happens" (4) only when nothing else is; a green card's equal moves merge into one beat ("Everybody 2."). A
fold with its reshuffle ("Fold at 4, reshuffle!") and the podium go in a second line of the same card.

>>> import random
>>> from companion.rules import Race
>>> c = Caller("en", random.Random(1))
>>> [s.text for s in c.card_lines(Race().push_text("HF"), card=1)]            # doctest: +SKIP
['Down goes Hurley!']
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from companion.call import words
from companion.call.announcer import Announcer
from companion.rules import events as ev
from companion.rules import game_events as gev
from companion.rules import table as tev
from companion.rules.errors import RefusedError

ESSENTIAL: tuple[type, ...] = (ev.Fell, ev.KnockedOut, ev.OutOfBounds, ev.Finished)
"""The events a table must hear before the next card (the pace goal of ``bench/voice_pace.py``)."""

PRIORITY: dict[type, int] = {ev.Fell: 0, ev.KnockedOut: 0, ev.OutOfBounds: 0, ev.Finished: 0, ev.Placed: 0,
                             ev.Folded: 0, ev.Reshuffled: 0, ev.RaceEnded: 0, ev.Collided: 1,
                             ev.TurnedAround: 2, ev.Swerved: 2, ev.Recovered: 2, ev.Moved: 3, ev.NoEffect: 4}
"""Event type -> priority of its beat (0: always said; a DQ's place waits for the podium, 4). Types not listed
(Revealed) are not said; a card whose only beat is over budget still says that one."""

WORD_BUDGET = 5
"""Words a card's line may grow to with beats of priority above 0 (priority 0 beats are always said)..."""
ESSENTIAL_BUDGET = 4
"""... or, when the card has a priority 0 beat, this many (the essential news must end before the next card)."""

KEEP_SECONDS = 8.0
"""How long a card's line or a refusal may wait for the voice before it is dropped. Table moments wait as long
as it takes (payouts can be long); a newer line of the same slot (whose pick, the phase) replaces a waiting one."""

_AFTER = ("folded", "reshuffled", "folded-reshuffled", "race_ended")
_MANY = {"fell": "fell-many", "knocked_out": "knocked_out-many", "out_of_bounds": "out_of_bounds-many",
         "finished": "finished-many"}


@dataclass(frozen=True)
class Spoken:
    """One line for the voice: ``card`` the race card it belongs to (None: a table line); ``priority`` 0 is
    essential; ``slot``: a newer line with the same slot replaces a waiting one; ``max_age`` seconds it may
    wait (None: no limit); ``covers`` the indexes of the events it names (in the list given)."""

    text: str
    card: int | None = None
    priority: int = 1
    slot: str | None = None
    max_age: float | None = KEEP_SECONDS
    covers: tuple[int, ...] = field(default=())


@dataclass
class _Beat:
    priority: int
    key: str
    fields: dict[str, Any]
    covers: list[int]


class Caller:
    """Builds the spoken call in ``lang`` with phrasings chosen by ``rng`` (see :class:`Announcer`).

    Raises ValueError for an unknown language.
    """

    def __init__(self, lang: str = "en", rng: random.Random | None = None):
        self.announcer = Announcer(lang, rng)

    @property
    def voice(self) -> str:
        return self.announcer.voice

    def say(self, key: str, **fields: Any) -> str:
        return self.announcer.line_for(key, **fields)

    # ----- a card --------------------------------------------------------------------------------------------
    def beats(self, events: list[ev.Event]) -> list[_Beat]:
        """The beats of one card's events, merged (finish + place, a green card's equal moves)."""
        out: list[_Beat] = []
        for i, e in enumerate(events):
            prio = PRIORITY.get(type(e))
            kf = words.key_and_fields(e)
            if prio is None or kf is None:
                continue
            key, fields = kf
            if isinstance(e, ev.Placed) and e.exit is not ev.Exit.CROSSED:
                prio = 4  # a DQ's place: the podium line says it
            if isinstance(e, ev.Placed):
                done = next((b for b in out if b.key == "finished" and b.fields["mascot"] == fields["mascot"]), None)
                if done is not None:
                    done.key, done.fields = "finished-placed", dict(fields)
                    done.covers.append(i)
                    continue
            out.append(_Beat(prio, key, fields, [i]))
        for family, many in _MANY.items():  # one card downs, knocks out, ... several mascots: one beat
            same = [b for b in out if b.key.split("-")[0] == family and "mascot" in b.fields]
            if len(same) >= 2:
                first = out.index(same[0])
                merged = _Beat(0, many, {"mascots": [b.fields["mascot"] for b in same]},
                               [i for b in same for i in b.covers])
                out = [b for b in out if b not in same]
                out.insert(min(first, len(out)), merged)
        fold = next((b for b in out if b.key == "folded"), None)
        shuffle = next((b for b in out if b.key == "reshuffled"), None)
        if fold is not None and shuffle is not None:  # "Fold at 4, reshuffle!"
            fold.key = "folded-reshuffled"
            fold.covers.extend(shuffle.covers)
            out.remove(shuffle)
        if sum(b.priority == 0 and b.key not in ("race_ended", "folded", "folded-reshuffled", "reshuffled")
               for b in out) > 1:
            for b in out:  # more news on this card: the place waits for the podium
                if b.key == "finished-placed":
                    b.key = "finished"
        ended = next((b for b in out if b.key == "race_ended"), None)
        if ended is not None:  # the podium names every place
            for b in [b for b in out if b.key.startswith("placed")]:
                ended.covers.extend(b.covers)
                out.remove(b)
        for kind in ("moved", "moved-back"):
            same = [b for b in out if b.key == kind]
            if len(same) >= 3 and len({b.fields["steps"] for b in same}) == 1:
                first = out.index(same[0])
                merged = _Beat(3, "moved-all" if kind == "moved" else "moved-all-back",
                               {"steps": same[0].fields["steps"]}, [i for b in same for i in b.covers])
                out = [b for b in out if b not in same]
                out.insert(min(first, len(out)), merged)
        return out

    def card_lines(self, events: list[ev.Event], card: int, per_pass: int | None = None) -> list[Spoken]:
        """The spoken lines of one revealed card's events (those of one ``Race.push``): the card's line, then a
        line for a fold, reshuffle or the podium, and with ``per_pass`` (reveals in a pass) a "last card of the
        pass" line when the next card is the pass's last. An empty list when nothing worth saying happened."""
        beats = self.beats(events)
        main = [b for b in beats if b.key not in _AFTER]
        after = [b for b in beats if b.key in _AFTER]
        out: list[Spoken] = []
        texts = {id(b): self.say(b.key, **b.fields) for b in beats}
        chosen = [b for b in main if b.priority == 0]
        fated = {m for b in chosen for m in [b.fields.get("mascot"), *b.fields.get("mascots", [])]} - {None}
        used = sum(len(texts[id(b)].split()) for b in chosen)
        for b in sorted((b for b in main if b.priority > 0), key=lambda b: (b.priority, b.covers[0])):
            n = len(texts[id(b)].split())
            if b.fields.get("mascot") in fated:
                continue  # its fall, knockout or finish says it all
            budget = ESSENTIAL_BUDGET if any(c.priority == 0 for c in chosen) else WORD_BUDGET
            if not chosen or (b.priority < 4 and used + n <= budget):
                chosen.append(b)
                used += n
        for group in (sorted(chosen, key=lambda b: b.covers[0]), after):
            if group:
                out.append(Spoken(" ".join(texts[id(b)] for b in group), card, min(b.priority for b in group),
                                  covers=tuple(sorted(i for b in group for i in b.covers))))
        shown = events[0] if events and isinstance(events[0], ev.Revealed) else None
        if per_pass and shown is not None and shown.reveal == per_pass - 1 \
                and not any(isinstance(e, ev.RaceEnded) for e in events):
            out.append(Spoken(self.say("last-card", pass_no=shown.pass_no), card, 2))
        return out

    # ----- around the race -----------------------------------------------------------------------------------
    def table_lines(self, events: Iterable[ev.Event], table: Any) -> list[Spoken]:
        """Spoken moments for game and table events: a new game, the player count, betting and the side bet,
        whose pick it is, the race-3 double (and the ticket to double once ``HS-DOUBLE`` is scanned), adding
        cards, the side bet's answer, payouts (who won what) and the final standings. ``table`` is the
        :class:`companion.view.table_view.TableView` (or anything with ``seat_name`` and ``game``): seat names
        and the game state."""
        out: list[Spoken] = []
        game = getattr(table, "game", None)
        name = self.seat_namer(table)
        events = list(events)
        for e in events:
            if isinstance(e, tev.NewGame):
                out.append(Spoken(self.say("new-game"), slot="phase", max_age=None))
            elif isinstance(e, tev.PlayersSet):
                out.append(Spoken(self.say("players", count=e.players), slot="phase", max_age=None))
            elif isinstance(e, gev.PhaseChanged):
                key = {"betting": "betting", "adding-cards": "add-cards", "payouts": "payouts"}.get(e.phase.value)
                if key:
                    out.append(Spoken(self.say(key, race=e.race_no), slot="phase", max_age=None))
            elif isinstance(e, gev.SideBetShown):
                out.append(Spoken(self.say("side-bet", question=e.question, card_id=e.card_id), slot="side-bet",
                                  max_age=None))
            elif isinstance(e, gev.DoubleArmed):
                out.append(Spoken(self.say("double-armed", race=e.race_no), slot="pick", max_age=None))
            elif isinstance(e, gev.SideBetAnswered):
                out.append(Spoken(self.say("side-bet-yes" if e.happened else "side-bet-no"), max_age=None))
            elif isinstance(e, gev.Settled):
                key = "settled-up" if e.change > 0 else "settled-down" if e.change < 0 else "settled-even"
                out.append(Spoken(self.say(key, name=name(e.seat), amount=abs(e.change)), max_age=None))
            elif isinstance(e, gev.GameOver) and e.standings:
                best = e.standings[0]
                out.append(Spoken(self.say("game-over", winner=name(best.seat), money=best.money), max_age=None))
                items = [dict(name=name(s.seat), money=s.money) for s in e.standings]
                out.append(Spoken(self.say("standings", standings=items), max_age=None))
        if game is not None and any(isinstance(e, (gev.PhaseChanged, gev.TicketDrafted, gev.SideBetShown))
                                    for e in events):
            out.extend(self._whose_turn(game, name))
        return out

    def seat_namer(self, table: Any) -> Callable[[int], str]:
        """0-based seat -> its one name from ``table.seat_name`` (the view's), or "Seat N" in this language when
        unnamed."""
        def name(seat: int) -> str:
            unnamed = str(self.announcer.catalogue.words["seat"]).format(n=seat + 1)
            return str(table.seat_name(seat, unnamed)) if hasattr(table, "seat_name") else unnamed
        return name

    def _whose_turn(self, game: Any, name: Any) -> list[Spoken]:
        phase = getattr(getattr(game, "phase", None), "value", None)
        if phase != "betting":
            return []
        seat = getattr(game, "current_drafter", None)
        if seat is not None and getattr(game, "side_bet", None) is not None:
            return [Spoken(self.say("your-pick", name=name(seat)), slot="pick", max_age=None)]
        if seat is None and getattr(game, "seats_without_double", None):
            return [Spoken(self.say("mark-double", race=game.race_no), slot="pick", max_age=None)]
        return []

    def race_start(self, race_no: int) -> str:
        return self.say("race-start", race=race_no)

    def refusal(self, message: RefusedError | str) -> Spoken:
        """The spoken refusal of a RefusedError (or the RefusalMessage a sink is given): its reason in
        a few words, ``refused-<reason>``, from a fixed set (never the refused text)."""
        return Spoken(self.say(words.refusal_key(message)), slot="refused")
