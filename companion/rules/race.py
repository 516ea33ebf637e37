"""One race: push revealed cards, get typed events, pop to undo (docs/rules.md sections 3-5).

>>> race = Race()
>>> [e.type for e in race.push_text("H+3")]
['revealed', 'moved']
>>> race.position()
'G1.3 H2.6 D3.3 M4.3 fold:0 pass:1 rev:1 cards:-'
>>> race.pop()
(Card(who=<Mascot.HURLEY: 'hurley'>, actions=(Action(act=<Act.MOVE: 'move'>, amount=3),)), None)

The race holds a tiny mutable state (a :class:`~companion.rules.race_state.Runner` per mascot and a few counters)
and a snapshot for undo at the start of each pass; it never does I/O, reads no clock and uses no randomness. Its
events are shared instances (:mod:`companion.rules.interned`), so a card builds almost no new objects;
``bench/engine_bench.py`` compares its speed with a plain implementation of the same rules. The values it hands out
(:class:`MascotState`, :class:`RaceState`, :class:`Outcome`) live in :mod:`companion.rules.race_state`, the
position string in :mod:`companion.rules.position`; both are importable from here as before.
"""

from __future__ import annotations

import functools
import operator
from typing import Any, Iterable

from companion.rules.cards import Act, Card
from companion.rules.deck import Deck, load_deck
from companion.rules.errors import IllegalRevealError, Reason
from companion.rules import interned
from companion.rules.interned import (FELL as _FELL, FELL_IN_COLLISION as _FELL_IN_COLLISION, FINISHED as _FINISHED,
                                      NO_STAR as _NO_STAR, NOT_RACING as _NOT_RACING, RECOVERED as _RECOVERED,
                                      SHARED as _SHARED, TURNED_BACKWARD as _TURNED_BACKWARD,
                                      TURNED_FORWARD as _TURNED_FORWARD)
from companion.rules.events import Cause, Event, Exit, OutOfBoundsWay
from companion.rules.mascots import MASCOTS, Mascot
from companion.rules.position import format_position, parse_position
from companion.rules.race_state import DQ, FINISHED, RACING, MascotState, Outcome, RaceState, Runner, mascot_state
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
_PLACES = tuple(range(1, len(MASCOTS) + 1))
_ROW = operator.attrgetter(*Runner.__slots__[1:])  # a Runner's fields as a row (race_state's LANE .. EXIT order)


@functools.lru_cache(maxsize=None)
def default_track() -> Track:
    return load_track()


@functools.lru_cache(maxsize=None)
def default_deck() -> Deck:
    return load_deck()


class _Layout:
    """What the race reads of its track on every card, worked out once per track: the per-pass figures, the
    starting rows, the snapshot of a fresh race and the stars in order."""

    __slots__ = ("track", "per_pass", "finish", "spaces", "lanes", "to_end", "start_rows", "start", "first_edge",
                 "first_shown", "start_crowd", "stars")

    def __init__(self, track: Track):
        lanes = dict(track.start_lanes)
        self.track = track
        self.per_pass = track.reveals_per_pass
        self.finish = track.finish_space
        self.spaces = track.spaces
        self.lanes = track.lanes
        self.to_end = track.finishers_to_end
        self.start_rows = tuple((lanes[m], track.start_space, False, 1, RACING, 0, None) for m in MASCOTS)
        self.start = (self.start_rows, 0, 1, 0, (), _PLACES, False)  # Race._snapshot() of a fresh race
        self.first_edge = track.back_edge(0)
        self.first_shown = interned.revealed_slots(1)
        self.start_crowd = tuple(sum(1 for row in self.start_rows if row[0] == lane) for lane in range(track.lanes + 1))
        self.stars = tuple(sorted(set(track.stars)))


_LAYOUTS: dict[int, _Layout] = {}  # id(track) -> its layout (which holds the track, so the id stays its own)


def _layout(track: Track) -> _Layout:
    found = _LAYOUTS.get(id(track))
    if found is None or found.track is not track:
        if len(_LAYOUTS) >= 64:
            _LAYOUTS.clear()
        found = _LAYOUTS[id(track)] = _Layout(track)
    return found


class Race:
    """A race in progress on ``track`` (default data) with label codes from ``deck`` (default data).

    ``is_over`` tells whether the race has ended: a plain attribute the race keeps (read it, never set it),
    because a table asks it after every card.
    """

    __slots__ = ("track", "deck", "is_over", "_per_pass", "_finish_space", "_spaces", "_lanes", "_to_end", "_stars",
                 "_rows", "_folds", "_pass", "_shown", "_revealed", "_cards", "_open", "_edge", "_crowd", "_passes",
                 "_ev")

    def __init__(self, track: Track | None = None, deck: Deck | None = None):
        self.track = track = track or default_track()
        self.deck = deck or default_deck()
        layout = self._use(track)
        self._rows = [Runner(i, row) for i, row in enumerate(layout.start_rows)]
        self._folds = 0
        self._pass = 1
        self._shown = layout.first_shown
        self._revealed = 0
        self._cards: dict[str | int, Card | None] = {}  # this pass's cards in order, by label code or (notation) reveal
        self._open: list[int] = list(_PLACES)
        self.is_over = False  # whether the race has ended; the race keeps it (read it, never set it)
        self._edge = layout.first_edge
        self._crowd = list(layout.start_crowd)
        self._passes: list[tuple[tuple[Any, ...], dict[str | int, Card | None]]] = [(layout.start, self._cards)]
        # the undo history: per pass, the snapshot at its start and the dict of its cards (see pop)
        self._ev: list[Event] = []

    def _use(self, track: Track) -> _Layout:
        """Take the figures of ``track`` the race reads on every card."""
        layout = _layout(track)
        self._per_pass = layout.per_pass
        self._finish_space = layout.finish
        self._spaces = layout.spaces
        self._lanes = layout.lanes
        self._to_end = layout.to_end
        self._stars = layout.stars
        return layout

    # ----- public API -------------------------------------------------------------------------------
    @property
    def cards(self) -> tuple[tuple[Card, str | None], ...]:
        """Every card pushed so far, with its label code (None for plain notation)."""
        return tuple(item for snapshot, cards in self._passes for item in _pushed(snapshot, cards))

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
                         self._pass_codes(), self.is_over)

    def mascot(self, mascot: Mascot) -> MascotState:
        return mascot_state(mascot, self._rows[MASCOTS.index(mascot)].row())

    @property
    def outcome(self) -> Outcome:
        placings: dict[Mascot, int] = {}
        exits: dict[Mascot, Exit] = {}
        for m, r in zip(MASCOTS, self._rows):
            if r.exit is not None:
                placings[m] = r.place
                exits[m] = r.exit
        return Outcome(placings, exits, self.is_over)

    def placings_if_ended(self) -> dict[Mascot, int]:
        """Each mascot's paid place (1-4) if the race ended after the cards so far: the placed keep their
        places, the ones still racing take the open places by how far ahead they are, as at the race's end
        (docs/rules.md 5). The race itself is not changed."""
        placings = self.outcome.placings
        racing = sorted([r for r in self._rows if r.status is RACING], key=_behind)
        placings.update((MASCOTS[r.index], place) for r, place in zip(racing, self._open))
        return placings

    def check(self, card: Card, code: str | None = None) -> None:
        """Raise IllegalRevealError if ``card`` cannot be revealed now (race over, or code seen this pass)."""
        if self.is_over:
            raise IllegalRevealError(f"cannot reveal {card.notation()}: the race is over", Reason.RACE_OVER,
                                     code=code, card=card.notation())
        if code is not None and code in self._cards:
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

        A card naming one mascot acts on it alone, action by action, as long as it races; a green card on every
        racing mascot at once. Returns the events in order. Raises IllegalRevealError (state unchanged) if the
        race is over or the label ``code`` was already revealed in this pass.
        """
        if self.is_over or code in self._cards:  # None (a card in notation) is never a key
            self.check(card, code)
        reveal = self._revealed = self._revealed + 1
        if code is not None:
            self._cards[code] = card
            try:  # the shared Revealed event (see interned.revealed_slots); a subscript is cheaper than get()
                shown = self._shown[code][reveal]
            except (KeyError, IndexError):
                shown = None
            if shown is None or shown.card is not card:  # type: ignore[attr-defined]
                shown = interned.revealed(card, code, self._pass, reveal)
        else:
            self._cards[reveal] = card
            shown = interned.revealed(card, code, self._pass, reveal)
        ev = self._ev = [shown]
        who = card.who
        if who is None:
            self._resolve_green(card)
        else:
            r = self._rows[MASCOTS.index(who)]
            if r.status is not RACING:
                ev.append(_NOT_RACING[r.index])
            else:  # a card naming one racing mascot (docs/rules.md 3); written out here, the hottest path
                for act, amount in card.actions:
                    if act is _ACT_MOVE or act is _ACT_STAR:
                        start = r.space
                        if act is _ACT_MOVE:
                            to_star = False
                            d = r.facing if amount > 0 else -r.facing
                            end = start + d if r.fallen else start + r.facing * amount  # fallen: crawls one space
                        else:
                            to_star = True
                            target = self._star_ahead(start, r.facing, self._spaces)
                            if target is None:
                                ev.append(_NO_STAR[r.index])
                                continue
                            d = r.facing
                            end = start + d if r.fallen else target
                        edge = self._edge
                        lane = r.lane
                        clear = edge <= end <= self._finish_space and start >= edge and end != start
                        if clear and self._crowd[lane] > 1:  # another mascot races in this lane: on the way?
                            for other in self._rows:
                                if (other.lane == lane and other is not r and other.status is RACING
                                        and ((start < other.space <= end) if end > start
                                             else (end <= other.space < start))):
                                    clear = False
                                    break
                        if clear:  # nobody on the way and staying on the track: just the move (see _walk)
                            r.space = end
                            i, crawled = r.index, r.fallen
                            try:
                                moved = _SHARED[1, i, lane, start, end, crawled, to_star]
                            except KeyError:
                                moved = interned.moved(i, lane, start, end, crawled, to_star)
                            ev.append(moved)
                            continue
                        self._walk(r, d, abs(end - start), to_star)
                    elif act is _ACT_RECOVER:
                        stood, turned = r.fallen, r.facing < 0
                        if stood or turned:
                            r.fallen, r.facing = False, 1
                            ev.append(_RECOVERED[r.index][stood + 2 * turned])
                        continue
                    elif act is _ACT_TURN:
                        facing = r.facing = -r.facing
                        ev.append((_TURNED_FORWARD if facing > 0 else _TURNED_BACKWARD)[r.index])
                        continue
                    elif act is _ACT_FALL:
                        if not r.fallen:
                            r.fallen = True
                            ev.append(_FELL[r.index])
                            continue
                        self._dq([r], _EXIT_KNOCKOUT, _CAUSE_CARD)
                    else:  # swerve
                        self._swerve(r, act)
                    if r.status is not RACING:
                        break  # placed (as every mascot still racing is when the race ends): the rest is ignored
        if reveal >= self._per_pass and not self.is_over:
            self._end_pass()
        return ev

    def pop(self) -> tuple[Card, str | None]:
        """Undo the last push, restoring the exact earlier state; returns the card and code taken back.

        The race keeps a snapshot at the start of every pass with the cards pushed since; undo restores the
        snapshot of the last card's pass and pushes that pass's cards before it again, at most a pass less one (the
        engine is deterministic, so that lands on the very state the race had). Raises IndexError if nothing has
        been pushed.
        """
        passes = self._passes
        while len(passes) > 1 and not _pushed(*passes[-1]):  # a pass that has just begun: undo reaches back
            passes.pop()
        snapshot, cards = passes[-1]
        again = _pushed(snapshot, cards)
        if not again:
            raise IndexError("nothing to undo: no card has been revealed in this race")
        taken = again.pop()
        self._restore(snapshot)
        passes[-1] = (snapshot, self._cards)
        for card, code in again:
            self.push(card, code)
        return taken

    def copy(self) -> "Race":
        other = Race.__new__(Race)
        other.track, other.deck = self.track, self.deck
        other._use(self.track)
        other._restore(self._snapshot())
        other._passes = [(snapshot, dict(cards)) for snapshot, cards in self._passes]
        other._cards = other._passes[-1][1]
        other._ev = []
        return other

    # ----- position string --------------------------------------------------------------------------
    def position(self) -> str:
        """A one-line string of the whole state; ``Race.from_position(r.position()).position()`` is equal.

        Racing mascot: letter, lane ``.`` space, ``f`` if fallen, ``t`` if turned around (``H2.6ft``).
        Placed: letter then ``=`` crossed, ``r`` remaining at the end, ``k`` knockout, ``o`` out of bounds,
        then the paid place (``M=1``, ``Gk4``). Then ``fold:N pass:N rev:N cards:CODES|-``.
        """
        return format_position([r.row() for r in self._rows], self._folds, self._pass, self._revealed,
                               self._pass_codes())

    @classmethod
    def from_position(cls, text: str, track: Track | None = None, deck: Deck | None = None) -> "Race":
        """Rebuild a race (without undo history) from :meth:`position` text.

        Raises InvalidPositionError naming the bad part and the expected form.
        """
        race = cls(track, deck)
        pos = parse_position(text, race.track, [r.row() for r in race._rows], race.position())
        race._rows = [Runner(i, row) for i, row in enumerate(pos.rows)]
        race._folds, race._pass, race._revealed = pos.folds, pos.pass_no, pos.revealed
        race._shown = interned.revealed_slots(race._pass)
        race._cards, race._open, race.is_over = dict.fromkeys(pos.codes), pos.open_places, pos.over
        race._edge = race.track.back_edge(race._folds)
        race._count_lanes()
        race._passes = [(race._snapshot(), race._cards)]
        return race

    # ----- internals -------------------------------------------------------------------------------
    def _pass_codes(self) -> tuple[str, ...]:
        """The label codes revealed in this pass, in order (a card given in notation has none)."""
        return tuple(key for key in self._cards if isinstance(key, str))

    def _snapshot(self) -> tuple[Any, ...]:
        rows = tuple(map(_ROW, self._rows))
        return (rows, self._folds, self._pass, self._revealed, self._pass_codes(), tuple(self._open), self.is_over)

    def _restore(self, snap: tuple[Any, ...]) -> None:
        rows, self._folds, self._pass, self._revealed, codes, open_, self.is_over = snap
        self._shown = interned.revealed_slots(self._pass)
        self._rows = [Runner(i, row) for i, row in enumerate(rows)]
        self._cards = dict.fromkeys(codes)
        self._open = list(open_)
        self._edge = self.track.back_edge(self._folds)
        self._count_lanes()

    def _count_lanes(self) -> None:
        """Count the racing mascots in each lane (``_crowd[lane]``): a walk or a swerve looks for others to
        collide with only in a lane where another mascot races."""
        crowd = [0] * (self._lanes + 1)
        for r in self._rows:
            if r.status is RACING:
                crowd[r.lane] += 1
        self._crowd = crowd

    def _swerve(self, r: Runner, act: Act) -> None:
        """``r`` swerves left or right as it sees it: out of bounds past the outer lanes, else it may collide."""
        lane = r.lane + (r.facing if act is _ACT_SWERVE_RIGHT else -r.facing)
        if not 1 <= lane <= self._lanes:
            self._dq([r], _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_SIDE, lanes={r: lane})
            return
        try:
            swerved = _SHARED[4, r.index, r.space, r.lane, lane]
        except KeyError:
            swerved = interned.swerved(r.index, r.space, r.lane, lane)
        self._ev.append(swerved)
        crowd = self._crowd
        crowd[r.lane] -= 1
        crowd[lane] += 1
        r.lane = lane
        if crowd[lane] > 1:
            self._collide(r)

    def _star_ahead(self, space: int, direction: int, limit: int) -> int | None:
        """The nearest star from ``space`` in ``direction`` (forward: up to ``limit``; back: still on the track)."""
        if direction > 0:
            for star in self._stars:  # in increasing order
                if star > space:
                    return star if star <= limit else None
            return None
        edge = self._edge
        behind = None
        for star in self._stars:
            if star >= space:
                break
            if star >= edge:
                behind = star
        return behind

    def _walk(self, r: Runner, d: int, steps: int, to_star: bool) -> None:
        """Step ``steps`` spaces in direction ``d`` (+1 toward the finish) (docs/rules.md 3).

        The mascot enters every space on the way in turn: it collides with whoever races there, is out of
        bounds on stepping behind the track and finishes on stepping over the finish line. The spaces where
        something happens are found first, so a walk costs the same however far it goes.
        """
        if steps <= 0:
            return
        start = r.space
        end = start + d * steps
        edge = self._edge
        if start + d < edge:  # the first step is already behind the track
            self._dq([r], _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_BACK, spaces={r: start + d})
            return
        lane = r.lane
        finish = self._finish_space
        if end > finish:  # over the finish line after the finish-line space
            last, leaves = finish, True
        elif end < edge:  # behind the track after the first space still on it
            last, leaves = edge, True
        else:
            last, leaves = end, False
        blockers = None  # the spaces from start to last where another mascot races in this lane
        if self._crowd[lane] > 1:
            for other in self._rows:
                if other.lane == lane and other is not r and other.status is RACING:
                    space = other.space
                    if (start < space <= last) if d > 0 else (last <= space < start):
                        if blockers is None:
                            blockers = [space]
                        else:
                            blockers.append(space)
        i = r.index
        crawled = r.fallen
        ev = self._ev
        if blockers is not None:
            if len(blockers) > 1:
                blockers = sorted(set(blockers), reverse=d < 0)  # in the order the walk reaches them
            for space in blockers:
                ev.append(interned.moved(i, lane, start, space, crawled, to_star))
                r.space = start = space
                self._collide(r)
                if self.is_over:
                    return
        if leaves:
            if d > 0:
                r.space = finish + 1
                ev.append(interned.moved(i, lane, start, finish + 1, crawled, to_star))
                self._finish(r)
            else:
                if last != start:
                    r.space = last
                    ev.append(interned.moved(i, lane, start, last, crawled, to_star))
                self._dq([r], _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_BACK, spaces={r: last - 1})
        elif end != start:
            r.space = end
            moved = _SHARED.get((1, i, lane, start, end, crawled, to_star))
            ev.append(moved if moved is not None else interned.moved(i, lane, start, end, crawled, to_star))

    def _collide(self, r: Runner) -> None:
        """``r`` entered its current space: every other racing mascot there falls or is knocked out."""
        lane, space = r.lane, r.space
        knocked = []
        for other in self._rows:
            if other.space == space and other.lane == lane and other is not r and other.status is RACING:
                self._ev.append(interned.collided(r.index, other.index, lane, space))
                if other.fallen:
                    knocked.append(other)
                else:
                    other.fallen = True
                    self._ev.append(_FELL_IN_COLLISION[other.index])
        if knocked:
            self._dq(knocked, _EXIT_KNOCKOUT, _CAUSE_COLLISION)

    def _recover(self, r: Runner) -> None:
        stood, turned = r.fallen, r.facing < 0
        if stood or turned:
            r.fallen, r.facing = False, 1
            self._ev.append(_RECOVERED[r.index][stood + 2 * turned])

    def _turn(self, r: Runner) -> None:
        r.facing = -r.facing
        self._ev.append((_TURNED_FORWARD if r.facing > 0 else _TURNED_BACKWARD)[r.index])

    def _resolve_green(self, card: Card) -> None:
        """A green multi card: every racing mascot at once, no collisions, no finishing (docs/rules.md 3)."""
        rows = self._rows
        ev = self._ev
        finish = self._finish_space
        for act, amount in card.actions:
            if self.is_over:
                return
            out: list[Runner] = []
            if act is _ACT_RECOVER:
                for r in rows:
                    if r.status is RACING and (r.fallen or r.facing < 0):
                        self._recover(r)
            elif act is _ACT_TURN:
                for r in rows:
                    if r.status is RACING:
                        self._turn(r)
            elif act is _ACT_FALL:
                for r in rows:
                    if r.status is RACING:
                        if r.fallen:
                            out.append(r)
                        else:
                            r.fallen = True
                            ev.append(_FELL[r.index])
                if out:
                    self._dq(out, _EXIT_KNOCKOUT, _CAUSE_CARD)
            elif act is _ACT_MOVE or act is _ACT_STAR:
                to_star = act is _ACT_STAR
                edge = self._edge
                spaces: dict[Runner, int] = {}
                for r in rows:
                    if r.status is not RACING:
                        continue
                    space = r.space
                    if to_star:
                        target = self._star_ahead(space, r.facing, finish)
                        if target is None:
                            ev.append(_NO_STAR[r.index])
                            continue
                        new = space + r.facing if r.fallen else target
                    elif r.fallen:  # crawls one space
                        new = space + (r.facing if amount > 0 else -r.facing)
                    else:
                        new = space + r.facing * amount
                    if new > finish:
                        new = finish  # green cards stop on the finish-line space
                    if new < edge:
                        out.append(r)
                        spaces[r] = new
                    elif new != space:
                        i, lane, fallen = r.index, r.lane, r.fallen
                        try:
                            moved = _SHARED[1, i, lane, space, new, fallen, to_star]
                        except KeyError:
                            moved = interned.moved(i, lane, space, new, fallen, to_star)
                        ev.append(moved)
                        r.space = new
                if out:
                    self._dq(out, _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_BACK, spaces=spaces)
            else:  # swerve, no collisions
                right = act is _ACT_SWERVE_RIGHT
                lanes: dict[Runner, int] = {}
                for r in rows:
                    if r.status is not RACING:
                        continue
                    lane = r.lane + (r.facing if right else -r.facing)
                    if not 1 <= lane <= self._lanes:
                        out.append(r)
                        lanes[r] = lane
                    else:
                        ev.append(interned.swerved(r.index, r.space, r.lane, lane))
                        r.lane = lane
                self._count_lanes()
                if out:
                    self._dq(out, _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_SIDE, lanes=lanes)

    def _dq(self, group: list[Runner], exit_: Exit, why: Any, spaces: dict[Runner, int] | None = None,
            lanes: dict[Runner, int] | None = None) -> None:
        """DQ ``group`` at the same time: they take the worst open places together, each paid as the worst
        of them (docs/rules.md 5). ``spaces`` / ``lanes``: where a mascot left the track, if not its own."""
        ev = self._ev
        crowd = self._crowd
        for r in group:
            r.status, r.exit = DQ, exit_
            crowd[r.lane] -= 1
            if exit_ is _EXIT_KNOCKOUT:
                ev.append(interned.knocked_out(r.index, why))
            else:
                ev.append(interned.out_of_bounds(r.index, why, lanes.get(r, r.lane) if lanes else r.lane,
                                                 spaces.get(r, r.space) if spaces else r.space))
        k = len(group)
        paid = self._open[-1]
        del self._open[-k:]
        for r in group:
            r.place = paid
            ev.append(interned.placed(r.index, paid, exit_, k > 1))
        self._check_end()

    def _finish(self, r: Runner) -> None:
        r.status, r.exit = FINISHED, _EXIT_CROSSED
        self._crowd[r.lane] -= 1
        place = r.place = self._open.pop(0)
        self._ev.append(_FINISHED[r.index])
        self._ev.append(interned.placed(r.index, place, _EXIT_CROSSED, False))
        self._check_end()

    def _check_end(self) -> None:
        """End the race once enough mascots are finished or DQ; the rest take the remaining places by how far
        ahead they are (docs/rules.md 5)."""
        rows = self._rows
        racing = sum(self._crowd)
        if racing and len(rows) - racing < self._to_end:
            return
        for r in sorted([r for r in rows if r.status is RACING], key=_behind):
            r.status, r.exit, r.place = FINISHED, _EXIT_LAST_STANDING, self._open.pop(0)
            self._crowd[r.lane] -= 1
            self._ev.append(interned.placed(r.index, r.place, _EXIT_LAST_STANDING, False))
        self.is_over = True
        self._ev.append(interned.race_ended(tuple([r.place for r in rows])))

    def _end_pass(self) -> None:
        """The deck ran out: fold at the next fold line, DQ mascots under the mat, reshuffle (docs/rules.md 4)."""
        t = self.track
        if self._folds < len(t.fold_lines):
            self._folds += 1
            edge = self._edge = t.back_edge(self._folds)
            self._ev.append(interned.folded(self._folds, edge))
            under = [r for r in self._rows if r.status is RACING and r.space < edge]
            if under:
                self._dq(under, _EXIT_OUT_OF_BOUNDS, _OUTOFBOUNDSWAY_FOLD)
        if not self.is_over:
            self._pass += 1
            self._shown = interned.revealed_slots(self._pass)
            self._revealed = 0
            self._cards = {}
            self._ev.append(interned.reshuffled(self._pass))
            rows = tuple(map(_ROW, self._rows))  # _snapshot() of a pass with no card yet, written out: once a pass
            self._passes.append(((rows, self._folds, self._pass, 0, (), tuple(self._open), False), self._cards))


def _pushed(snapshot: tuple[Any, ...], cards: dict[str | int, Card | None]) -> list[tuple[Card, str | None]]:
    """The cards pushed in one pass of the undo history, with their label codes: the ones after ``snapshot``
    (which holds the codes a race rebuilt from a position string had already seen in its pass)."""
    items = list(cards.items())[len(snapshot[4]):]
    return [(card, key if isinstance(key, str) else None) for key, card in items if card is not None]


def _behind(r: Runner) -> int:
    """Sort key: the mascot furthest ahead first."""
    return -r.space


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
