"""One race: push revealed cards, get typed events, pop to undo (docs/rules.md sections 3-5).

>>> race = Race()
>>> [e.type for e in race.push_text("H+3")]
['revealed', 'moved']
>>> race.position()
'G1.3 H2.6 D3.3 M4.3 fold:0 pass:1 rev:1 cards:-'
>>> race.pop()
(Card(who=<Mascot.HURLEY: 'hurley'>, actions=(Action(act=<_ACT_MOVE: 'move'>, amount=3),)), None)

The race holds a tiny mutable state and a stack of snapshots for undo; it never does I/O, reads no clock and
uses no randomness. The values it hands out (:class:`MascotState`, :class:`RaceState`, :class:`Outcome`) live in
:mod:`companion.rules.race_state`, the position string in :mod:`companion.rules.position`; both are importable
from here as before.
"""

from __future__ import annotations

import functools
from typing import Any, Iterable

from companion.rules.cards import Act, Card
from companion.rules.deck import Deck, load_deck
from companion.rules.errors import IllegalRevealError, Reason
from companion.rules import interned
from companion.rules.interned import SHARED as _SHARED
from companion.rules.events import (Cause, Event, Exit, Folded, KnockedOut, NoEffect, OutOfBounds, OutOfBoundsWay,
                                    RaceEnded, Reshuffled)
from companion.rules.mascots import MASCOTS, Mascot
from companion.rules.position import format_position, parse_position
from companion.rules.race_state import (DQ, EXIT, FACING, FALLEN, FINISHED, LANE, PLACE, RACING, SPACE, STATUS,
                                        MascotState, Outcome, RaceState, mascot_state)
from companion.rules.track import Track, load_track

__all__ = ["MascotState", "Outcome", "Race", "RaceState", "default_deck", "default_track", "play"]

# Enum members as module constants: `Act.MOVE` is a slow class look-up on every use in Python 3.11
_ACT_FALL = Act.FALL
_ACT_MOVE = Act.MOVE
_ACT_RECOVER = Act.RECOVER
_ACT_STAR = Act.STAR
_ACT_SWERVE_RIGHT = Act.SWERVE_RIGHT
_ACT_TURN = Act.TURN
_CAUSE_CARD = Cause.CARD
_CAUSE_COLLISION = Cause.COLLISION
_EXIT_CROSSED = Exit.CROSSED
_EXIT_KNOCKOUT = Exit.KNOCKOUT
_EXIT_LAST_STANDING = Exit.LAST_STANDING
_EXIT_OUT_OF_BOUNDS = Exit.OUT_OF_BOUNDS
_OUTOFBOUNDSWAY_BACK = OutOfBoundsWay.BACK
_OUTOFBOUNDSWAY_FOLD = OutOfBoundsWay.FOLD
_OUTOFBOUNDSWAY_SIDE = OutOfBoundsWay.SIDE
MARK_EVERY = 8  # a snapshot for undo every this many cards (pop replays at most this many)


@functools.lru_cache(maxsize=None)
def default_track() -> Track:
    return load_track()


@functools.lru_cache(maxsize=None)
def default_deck() -> Deck:
    return load_deck()


class Race:
    """A race in progress on ``track`` (default data) with label codes from ``deck`` (default data)."""

    def __init__(self, track: Track | None = None, deck: Deck | None = None):
        self.track = track or default_track()
        self.deck = deck or default_deck()
        t = self.track
        lanes = dict(t.start_lanes)
        self._per_pass = t.reveals_per_pass
        self._finish_space = t.finish_space
        self._to_end = t.finishers_to_end
        self._rows: list[list[Any]] = [[lanes[m], t.start_space, False, 1, RACING, 0, None] for m in MASCOTS]
        self._folds = 0
        self._pass = 1
        self._revealed = 0
        self._codes: list[str] = []
        self._open: list[int] = list(range(1, len(MASCOTS) + 1))
        self._over = False
        self._edge = t.back_edge(0)
        self._pushed: list[tuple[Card, str | None]] = []
        self._marks: list[tuple[int, tuple[Any, ...]]] = [(0, self._snapshot())]
        self._ev: list[Event] = []

    # ----- public API -------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def cards(self) -> tuple[tuple[Card, str | None], ...]:
        """Every card pushed so far, with its label code (None for plain notation)."""
        return tuple(self._pushed)

    @property
    def folds(self) -> int:
        return self._folds

    @property
    def pass_no(self) -> int:
        return self._pass

    @property
    def revealed(self) -> int:
        """Cards revealed so far in the current pass (0..reveals_per_pass-1 between cards)."""
        return self._revealed

    @property
    def state(self) -> RaceState:
        return RaceState(tuple(self.mascot(m) for m in MASCOTS), self._folds, self._pass, self._revealed,
                         tuple(self._codes), self._over)

    def mascot(self, mascot: Mascot) -> MascotState:
        return mascot_state(mascot, self._rows[MASCOTS.index(mascot)])

    @property
    def outcome(self) -> Outcome:
        placings = {m: r[PLACE] for m, r in zip(MASCOTS, self._rows) if r[PLACE]}
        exits = {m: r[EXIT] for m, r in zip(MASCOTS, self._rows) if r[EXIT] is not None}
        return Outcome(placings, exits, self._over)

    def check(self, card: Card, code: str | None = None) -> None:
        """Raise IllegalRevealError if ``card`` cannot be revealed now (race over, or code seen this pass)."""
        if self._over:
            raise IllegalRevealError(f"cannot reveal {card.notation()}: the race is over", Reason.RACE_OVER,
                                     code=code, card=card.notation())
        if code is not None and code in self._codes:
            raise IllegalRevealError(
                f"card {code} ({card.notation()}) was already revealed in pass {self._pass}; "
                "expected a card not yet revealed this pass", Reason.ALREADY, code=code, card=card.notation(),
                pass_no=self._pass)

    def push_text(self, text: str) -> list[Event]:
        """Reveal a card given as a label code (``HS15``) or notation (``H+3``). See :meth:`push`."""
        card, code = self.deck.lookup(text)
        return self.push(card, code)

    def push(self, card: Card, code: str | None = None) -> list[Event]:
        """Resolve one revealed card (docs/rules.md 3), then the end of the pass if it was the last (docs/rules.md 4).

        Returns the events in order. Raises IllegalRevealError (state unchanged) if the race is over or the
        label ``code`` was already revealed in this pass.
        """
        if self._over or (code is not None and code in self._codes):
            self.check(card, code)
        pushed = self._pushed
        if len(pushed) - self._marks[-1][0] >= MARK_EVERY:
            self._marks.append((len(pushed), self._snapshot()))
        pushed.append((card, code))
        self._revealed += 1
        if code is not None:
            self._codes.append(code)
        shown = _SHARED.get((0, id(card), code, self._pass, self._revealed))
        if shown is None or shown.card is not card:  # type: ignore[attr-defined]
            shown = interned.revealed(card, code, self._pass, self._revealed)
        ev = self._ev = [shown]
        if card.who is None:
            self._resolve_green(card)
        else:
            self._resolve(MASCOTS.index(card.who), card)
        if not self._over and self._revealed >= self._per_pass:
            self._end_pass()
        self._ev = []
        return ev

    def pop(self) -> tuple[Card, str | None]:
        """Undo the last push, restoring the exact earlier state; returns the card and code taken back.

        The race keeps a snapshot every ``MARK_EVERY`` cards; undo restores the nearest one and pushes the
        cards after it again (the engine is deterministic, so that lands on the very state the race had).
        Raises IndexError if nothing has been pushed.
        """
        if not self._pushed:
            raise IndexError("nothing to undo: no card has been revealed in this race")
        last = len(self._pushed) - 1
        marks = self._marks
        while marks[-1][0] > last:
            marks.pop()
        count, snapshot = marks[-1]
        self._restore(snapshot)
        again, taken = self._pushed[count:last], self._pushed[last]
        del self._pushed[count:]
        for card, code in again:
            self.push(card, code)
        return taken

    def copy(self) -> "Race":
        other = Race.__new__(Race)
        other.track, other.deck = self.track, self.deck
        other._per_pass = self.track.reveals_per_pass
        other._finish_space = self.track.finish_space
        other._to_end = self.track.finishers_to_end
        other._restore(self._snapshot())
        other._marks = list(self._marks)
        other._pushed = list(self._pushed)
        other._ev = []
        return other

    # ----- position string --------------------------------------------------------------------------
    def position(self) -> str:
        """A one-line string of the whole state; ``Race.from_position(r.position()).position()`` is equal.

        Racing mascot: letter, lane ``.`` space, ``f`` if fallen, ``t`` if turned around (``H2.6ft``).
        Placed: letter then ``=`` crossed, ``r`` remaining at the end, ``k`` knockout, ``o`` out of bounds,
        then the paid place (``M=1``, ``Gk4``). Then ``fold:N pass:N rev:N cards:CODES|-``.
        """
        return format_position(self._rows, self._folds, self._pass, self._revealed, tuple(self._codes))

    @classmethod
    def from_position(cls, text: str, track: Track | None = None, deck: Deck | None = None) -> "Race":
        """Rebuild a race (without undo history) from :meth:`position` text.

        Raises InvalidPositionError naming the bad part and the expected form.
        """
        race = cls(track, deck)
        pos = parse_position(text, race.track, race._rows, race.position())
        race._rows, race._folds, race._pass, race._revealed = pos.rows, pos.folds, pos.pass_no, pos.revealed
        race._codes, race._open, race._over = list(pos.codes), pos.open_places, pos.over
        race._edge = race.track.back_edge(race._folds)
        race._marks = [(0, race._snapshot())]
        return race

    # ----- internals -------------------------------------------------------------------------------
    def _snapshot(self) -> tuple[Any, ...]:
        return (tuple(map(tuple, self._rows)), self._folds, self._pass, self._revealed, tuple(self._codes),
                tuple(self._open), self._over)

    def _restore(self, snap: tuple[Any, ...]) -> None:
        rows, self._folds, self._pass, self._revealed, codes, open_, self._over = snap
        self._rows = [list(r) for r in rows]
        self._codes = list(codes)
        self._open = list(open_)
        self._edge = self.track.back_edge(self._folds)

    def _resolve(self, i: int, card: Card) -> None:
        """A card naming one mascot (docs/rules.md 3)."""
        row = self._rows[i]
        if row[STATUS] is not RACING:
            self._ev.append(interned.no_effect(i, False))
            return
        for act, amount in card.actions:
            if row[STATUS] is not RACING or self._over:
                return  # finished or DQ: the rest of the card is ignored for it
            if act is _ACT_MOVE:
                d = row[FACING] * (1 if amount > 0 else -1)
                self._walk(i, d, 1 if row[FALLEN] else abs(amount), False)
            elif act is _ACT_STAR:
                target = self._star_ahead(row, row[FACING], self.track.spaces)
                if target is None:
                    self._ev.append(interned.no_effect(i, True))
                else:
                    self._walk(i, row[FACING], 1 if row[FALLEN] else abs(target - row[SPACE]), True)
            elif act is _ACT_RECOVER:
                if row[FALLEN] or row[FACING] < 0:
                    self._recover(i)
            elif act is _ACT_TURN:
                self._turn(i)
            elif act is _ACT_FALL:
                if row[FALLEN]:
                    self._dq([i], _EXIT_KNOCKOUT, _CAUSE_CARD)
                else:
                    row[FALLEN] = True
                    self._ev.append(interned.fell(i, False))
            else:  # swerve
                new_lane = row[LANE] + (1 if act is _ACT_SWERVE_RIGHT else -1) * row[FACING]
                if not 1 <= new_lane <= self.track.lanes:
                    self._dq([i], _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_SIDE, lanes={i: new_lane})
                    return
                self._ev.append(interned.swerved(i, row[SPACE], row[LANE], new_lane))
                row[LANE] = new_lane
                self._collide(i)

    def _star_ahead(self, row: list[Any], direction: int, limit: int) -> int | None:
        space = row[SPACE]
        if direction > 0:
            ahead = [s for s in self.track.stars if space < s <= limit]
            return min(ahead) if ahead else None
        behind = [s for s in self.track.stars if self._edge <= s < space]
        return max(behind) if behind else None

    def _walk(self, i: int, d: int, steps: int, to_star: bool) -> None:
        """Step ``steps`` spaces in direction ``d`` (+1 toward the finish), one at a time (docs/rules.md 3)."""
        rows = self._rows
        row = rows[i]
        crawled = row[FALLEN]
        lane = row[LANE]
        start = new = row[SPACE]
        finish = self._finish_space
        edge = self._edge
        for _ in range(steps):
            new += d
            if new < edge:
                if new - d != start:
                    self._ev.append(interned.moved(i, lane, start, new - d, crawled, to_star))
                self._dq([i], _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_BACK, spaces={i: new})
                return
            row[SPACE] = new
            if new > finish:
                self._ev.append(interned.moved(i, lane, start, new, crawled, to_star))
                self._finish(i)
                return
            for r in rows:
                if r[SPACE] == new and r[LANE] == lane and r is not row and r[STATUS] is RACING:
                    self._ev.append(interned.moved(i, lane, start, new, crawled, to_star))
                    start = new
                    self._collide(i)
                    if self._over:
                        return
                    break
        if new != start:
            self._ev.append(_SHARED.get((1, i, lane, start, new, crawled, to_star))
                            or interned.moved(i, lane, start, new, crawled, to_star))

    def _collide(self, i: int) -> None:
        """Mascot ``i`` entered its current space: every other racing mascot there falls or is knocked out."""
        row = self._rows[i]
        knocked = []
        for j, r in enumerate(self._rows):
            if j != i and r[STATUS] is RACING and r[SPACE] == row[SPACE] and r[LANE] == row[LANE]:
                self._ev.append(interned.collided(i, j, row[LANE], row[SPACE]))
                if r[FALLEN]:
                    knocked.append(j)
                else:
                    r[FALLEN] = True
                    self._ev.append(interned.fell(j, True))
        if knocked:
            self._dq(knocked, _EXIT_KNOCKOUT, _CAUSE_COLLISION)

    def _recover(self, i: int) -> None:
        row = self._rows[i]
        stood, turned = row[FALLEN], row[FACING] < 0
        if stood or turned:
            row[FALLEN], row[FACING] = False, 1
            self._ev.append(interned.recovered(i, stood, turned))

    def _turn(self, i: int) -> None:
        row = self._rows[i]
        row[FACING] = -row[FACING]
        self._ev.append(interned.turned(i, row[FACING] > 0))

    def _resolve_green(self, card: Card) -> None:
        """A green multi card: every racing mascot at once, no collisions, no finishing (docs/rules.md 3)."""
        finish = self.track.finish_space
        for act, amount in card.actions:
            if self._over:
                return
            active = [i for i, r in enumerate(self._rows) if r[STATUS] is RACING]
            out: list[int] = []
            where: dict[int, int] = {}
            if act is _ACT_RECOVER:
                for i in active:
                    self._recover(i)
            elif act is _ACT_TURN:
                for i in active:
                    self._turn(i)
            elif act is _ACT_FALL:
                for i in active:
                    if self._rows[i][FALLEN]:
                        out.append(i)
                    else:
                        self._rows[i][FALLEN] = True
                        self._ev.append(interned.fell(i, False))
                if out:
                    self._dq(out, _EXIT_KNOCKOUT, _CAUSE_CARD)
                continue
            elif act in (_ACT_MOVE, _ACT_STAR):
                for i in active:
                    row = self._rows[i]
                    d = row[FACING] * (1 if act is _ACT_STAR or amount > 0 else -1)
                    if act is _ACT_STAR:
                        target = self._star_ahead(row, d, finish)
                        if target is None:
                            self._ev.append(NoEffect(MASCOTS[i], "no star ahead"))
                            continue
                        steps = abs(target - row[SPACE])
                    else:
                        steps = abs(amount)
                    new = row[SPACE] + d * (1 if row[FALLEN] else steps)
                    if new > finish:
                        new = finish  # green cards stop on the finish-line space
                    if new < self._edge:
                        out.append(i)
                        where[i] = new
                    elif new != row[SPACE]:
                        self._ev.append(interned.moved(i, row[LANE], row[SPACE], new, row[FALLEN], act is _ACT_STAR))
                        row[SPACE] = new
                if out:
                    self._dq(out, _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_BACK, spaces=where)
            else:  # swerve, no collisions
                for i in active:
                    row = self._rows[i]
                    new_lane = row[LANE] + (1 if act is _ACT_SWERVE_RIGHT else -1) * row[FACING]
                    if not 1 <= new_lane <= self.track.lanes:
                        out.append(i)
                        where[i] = new_lane
                    else:
                        self._ev.append(interned.swerved(i, row[SPACE], row[LANE], new_lane))
                        row[LANE] = new_lane
                if out:
                    self._dq(out, _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_SIDE, lanes=where)

    def _dq(self, group: list[int], exit_: Exit, why: Any, spaces: dict[int, int] | None = None,
            lanes: dict[int, int] | None = None) -> None:
        """DQ ``group`` at the same time: they take the worst open places together, each paid as the worst
        of them (docs/rules.md 5)."""
        for i in group:
            row = self._rows[i]
            row[STATUS], row[EXIT] = DQ, exit_
            if exit_ is _EXIT_KNOCKOUT:
                self._ev.append(KnockedOut(MASCOTS[i], why))
            else:
                self._ev.append(OutOfBounds(MASCOTS[i], why, (lanes or {}).get(i, row[LANE]),
                                            (spaces or {}).get(i, row[SPACE])))
        k = len(group)
        paid = self._open[-1]
        del self._open[-k:]
        for i in group:
            self._rows[i][PLACE] = paid
            self._ev.append(interned.placed(i, paid, exit_, k > 1))
        self._check_end()

    def _finish(self, i: int) -> None:
        row = self._rows[i]
        row[STATUS], row[EXIT] = FINISHED, _EXIT_CROSSED
        row[PLACE] = self._open.pop(0)
        self._ev.append(interned.finished(i))
        self._ev.append(interned.placed(i, row[PLACE], _EXIT_CROSSED, False))
        self._check_end()

    def _check_end(self) -> None:
        """End the race once enough mascots are finished or DQ; the rest take the remaining places by how far
        ahead they are (docs/rules.md 5)."""
        rows = self._rows
        racing = [i for i, r in enumerate(rows) if r[STATUS] is RACING]
        if racing and len(rows) - len(racing) < self._to_end:
            return
        for i in sorted(racing, key=lambda j: -rows[j][SPACE]):
            row = rows[i]
            row[STATUS], row[EXIT], row[PLACE] = FINISHED, _EXIT_LAST_STANDING, self._open.pop(0)
            self._ev.append(interned.placed(i, row[PLACE], _EXIT_LAST_STANDING, False))
        self._over = True
        self._ev.append(RaceEnded(tuple((m, r[PLACE]) for m, r in zip(MASCOTS, rows))))

    def _end_pass(self) -> None:
        """The deck ran out: fold at the next fold line, DQ mascots under the mat, reshuffle (docs/rules.md 4)."""
        t = self.track
        if self._folds < len(t.fold_lines):
            self._folds += 1
            self._edge = t.back_edge(self._folds)
            self._ev.append(Folded(self._folds, self._edge))
            under = [i for i, r in enumerate(self._rows) if r[STATUS] is RACING and r[SPACE] < self._edge]
            if under:
                self._dq(under, _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_FOLD)
        if not self._over:
            self._pass += 1
            self._revealed = 0
            self._codes = []
            self._ev.append(Reshuffled(self._pass))


def play(cards: Iterable[str], track: Track | None = None, deck: Deck | None = None) -> tuple[Race, list[Event]]:
    """Resolve card texts (codes or notation) as one race from the start; cards after the end are ignored.

    Returns the race and all events. Raises InvalidCardError / IllegalRevealError for a bad card.
    """
    race = Race(track, deck)
    events: list[Event] = []
    for text in cards:
        if race.is_over:
            break
        events.extend(race.push_text(text))
    return race, events
