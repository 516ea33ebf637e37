"""What a screen shows, as plain frozen data (no pygame): the controller fills it, ``companion.screen.draw`` draws it.

One :class:`ScreenModel` per frame. Mascots are lower-case names (``"hurley"``), lanes and spaces are 1-based
ints as in the rules engine, money is whole dollars, odds are probabilities 0..1. Every field has a default, so
a controller fills only what its phase knows::

    model = ScreenModel(screen="betting", race_no=2, whose_pick="Ann", side_bet="Will any mascot fall twice?")

:func:`from_race` fills the race part (mascots, folds, track, pass, podium, the last card and what it moved,
the fold moment) from a ``companion.rules.Race``; :func:`companion.screen.table_model.from_view` fills a whole
table from its view; :func:`running_order` ranks the mascots; :func:`sample_model` gives a sample state per screen.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, TypedDict, Unpack

from companion.motion import Path
from companion.screen.open_bets import OpenBetView

if TYPE_CHECKING:
    from companion.rules import Race, Track
    from companion.screen.moments import Moment

SCREENS: tuple[str, ...] = ("attract", "setup", "betting", "race", "payouts", "game-over", "service")
MASCOT_ORDER: tuple[str, ...] = ("gobbler", "hurley", "dangle", "mum")


@dataclass(frozen=True)
class MascotView:
    """One mascot. ``status``: ``racing``|``finished``|``dq``; ``facing``: ``forward``|``backward``;
    ``place``: the paid place once placed (1-4), else None; ``exit``: how it left (``crossed``, ``remaining``,
    ``knockout``, ``out_of_bounds``) or None. Lane/space matter while racing."""

    mascot: str
    lane: int
    space: int
    fallen: bool = False
    facing: str = "forward"
    status: str = "racing"
    place: int | None = None
    exit: str | None = None


@dataclass(frozen=True)
class TrackView:
    """Track geometry (docs/rules.md 1), as in ``companion.rules.Track``."""

    lanes: int = 4
    spaces: int = 14
    finish_space: int = 13
    stars: tuple[int, ...] = (1, 8, 13, 14)
    fold_lines: tuple[int, ...] = (4, 7, 11)
    final_stretch: int = 11

    @classmethod
    def from_track(cls, track: Track) -> "TrackView":
        """From a ``companion.rules.Track``."""
        return cls(track.lanes, track.spaces, track.finish_space, tuple(track.stars), tuple(track.fold_lines),
                   track.final_stretch)

    def back_edge(self, folds: int) -> int:
        """The first space still on the track after ``folds`` reshuffles (docs/rules.md 4)."""
        return 1 if folds <= 0 else self.fold_lines[min(folds, len(self.fold_lines)) - 1]


_TOKEN = re.compile(r"R|[+-][0-9]+|\*|T|F|<|>")


@dataclass(frozen=True)
class CardView:
    """The last revealed card: notation (``G+2>``), label code or None, mascot name or None for a green card."""

    notation: str
    code: str | None = None
    mascot: str | None = None

    @property
    def actions(self) -> tuple[str, ...]:
        """The card's actions in order (docs/rules.md 2): ``("R", "+2")``, ``("+2", ">")``, ``("*",)``."""
        return tuple(_TOKEN.findall(self.notation[1:].upper()))


@dataclass(frozen=True)
class MoveView:
    """What the last card did to one mascot: from (lane, space) to (lane, space); ``what`` is a short word
    for a change of state (``fell``, ``knocked out``, ``out``, ``finished``, ``placed``, ``turned``, ``up``) or ""."""

    mascot: str
    from_lane: int
    from_space: int
    to_lane: int
    to_space: int
    what: str = ""


@dataclass(frozen=True)
class FoldView:
    """A fold just made (docs/rules.md 4): fold number, the first space still on the track, who went under."""

    fold: int
    first_space: int
    under: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeatView:
    """A player's seat: name, money now, money before the last payout (None if not shown), ticket texts
    (e.g. ``"Hurley top, risky"``, ``" x2"`` appended when doubled), ``double_due`` in race 3 while the
    seat still has to mark a ticket to double; ``stacks`` are the tickets' stacks (``hurley``, ``yes``);
    ``pays_now`` what each ticket would pay (dollars) if the race ended now, while racing (else empty)."""

    name: str
    money: int
    money_before: int | None = None
    tickets: tuple[str, ...] = ()
    double_due: bool = False
    stacks: tuple[str, ...] = ()
    pays_now: tuple[int, ...] = ()


@dataclass(frozen=True)
class StackView:
    """One ticket stack in the draft: ``stack`` (mascot, ``yes`` or ``no``), tickets ``left`` (0-3), the
    ``top`` ticket's level or None when empty, and what the top ticket pays on each side: per paid place
    for a mascot stack, ``(right, wrong)`` for YES/NO."""

    stack: str
    left: int
    top: str | None = None
    safe: tuple[int, ...] = ()
    risky: tuple[int, ...] = ()


@dataclass(frozen=True)
class StandingView:
    """A final standing: ``place`` 1-based (equal money shares a place), money, and the life-outcome line."""

    name: str
    money: int
    place: int
    line: str = ""


@dataclass(frozen=True)
class OrderRow:
    """One row of the running order: ``position`` 1-4 (equal for mascots level on the same space), the
    mascot, ``badges`` in words (``FINISHED``, ``PLACED``, ``FALLEN``, ``TURNED``, ``DQ``, ``KNOCKOUT``, ``OUT``), the
    space while racing, and ``tied`` when another mascot shares the position."""

    position: int
    mascot: str
    badges: tuple[str, ...]
    space: int | None
    tied: bool = False


@dataclass(frozen=True)
class ScreenModel:
    """Everything one screen shows.

    ``screen`` is one of :data:`SCREENS`. ``phase`` is a short header text. ``log`` is the running race call,
    oldest first (the screen shows the newest lines that fit). ``podium`` is ``(mascot, place)`` pairs.
    ``odds`` maps a mascot to the probabilities of being paid 1st..4th, or None when not known;
    ``odds_stale`` says they were made for an earlier card and newer ones are being computed (drawn dimmed,
    with an "updating" mark); ``odds_card`` is how many race cards had been revealed when they were made (0
    before the start; None when not known).
    ``known_cards`` maps a mascot name (or ``"green"``) to the notations of the face-up cards;
    ``face_up_total`` is how many face-up cards setup has (0 when not known).
    ``stacks`` are the ticket stacks (``stacks_left`` maps a stack to tickets left when ``stacks`` is empty).
    ``whose_pick`` names the drafter; ``double_prompt`` is the race-3 "mark your double" line, ``double_short``
    the same in a few words (for a screen with no room for the whole line).
    ``side_bet_answer`` is the side bet's answer after the race (None while unknown). ``standings`` are
    :class:`StandingView` rows best first (``(name, money)`` pairs are accepted and placed by money).
    ``message`` (a refusal or notice) shows on top while ``now - message_at`` is under the screen's message
    time, titled by ``message_kind`` (``refusal``: "Not taken", ``notice``: "Note"). ``status`` is device status
    lines (``"scanner: ok"``); only troubled ones are shown.
    ``moves`` and ``fold`` say what the last card did; ``name_entry`` is ``(seat, seats, text)`` while a name
    is typed at the desktop keyboard. ``language`` (en, nl, es) picks the screen's own words. ``table_phase`` is
    the table's phase value (``adding-cards``...) when the model comes from a table. ``form`` is a line of
    mascot form from past games ("Mum has won 4 of the last 10"), shown on the attract and setup screens
    (companion.kiosk.history.form_line). ``join_url`` is the phone page's address, shown as a QR code
    in setup and betting (``companion.screen.qr``), or None. ``moments`` are the big moments of the last card
    (``companion.screen.moments``), shown one after the other from ``moment_at`` on the race screen.
    in setup and betting (``companion.screen.qr``), or None. ``keyboard`` says a keyboard types into the screen
    (a desktop window): only then does the screen say how to name a seat.
    ``paths`` are the paths the last card's mascots really took (``companion.motion``); ``move_at`` the time of
    that card on the screen's clock: the moves slide along their paths from then (``companion.screen.motion``);
    None shows them at rest.
    """

    screen: str = "attract"
    race_no: int = 1
    players: int = 0
    phase: str = ""
    mascots: tuple[MascotView, ...] = ()
    folds: int = 0
    track: TrackView = TrackView()
    last_card: CardView | None = None
    moves: tuple[MoveView, ...] = ()
    fold: FoldView | None = None
    log: tuple[str, ...] = ()
    podium: tuple[tuple[str, int], ...] = ()
    pass_no: int = 1
    revealed: int = 0
    reveals_per_pass: int = 15
    odds: Mapping[str, tuple[float, ...]] | None = None
    odds_stale: bool = False
    odds_card: int | None = None
    known_cards: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    face_up_total: int = 0
    seats: tuple[SeatView, ...] = ()
    whose_pick: str | None = None
    stacks: tuple[StackView, ...] = ()
    stacks_left: Mapping[str, int] = field(default_factory=dict)
    double_prompt: str | None = None
    double_short: str | None = None
    side_bet: str | None = None
    side_bet_answer: bool | None = None
    standings: tuple[StandingView, ...] = ()
    life_outcome: str | None = None
    message: str | None = None
    message_at: float = 0.0
    message_kind: str = "refusal"
    status: tuple[str, ...] = ()
    form: str | None = None
    name_entry: tuple[int, int, str] | None = None
    language: str = "en"
    table_phase: str = ""
    join_url: str | None = None
    moments: tuple[Moment, ...] = ()
    moment_at: float = 0.0
    keyboard: bool = False
    paths: tuple[Path, ...] = ()
    move_at: float | None = None
    service: Any = None  # the service screen's data (companion.service.page.ServicePage), screen "service"
    open_bets: tuple[OpenBetView, ...] = ()  # the open variant's bets while betting (companion.screen.open_bets)

    def __post_init__(self) -> None:
        if self.screen not in SCREENS:
            raise ValueError(f"unknown screen {self.screen!r} (expected one of: {', '.join(SCREENS)})")
        if any(not isinstance(s, StandingView) for s in self.standings):
            object.__setattr__(self, "standings", placed_standings(self.standings))
        if not self.stacks and self.stacks_left:
            object.__setattr__(self, "stacks", tuple(StackView(k, v) for k, v in self.stacks_left.items()))


class ScreenFields(TypedDict, total=False):
    """Any of :class:`ScreenModel`'s fields by name, as ``from_race`` and ``replace`` take them."""

    screen: str
    race_no: int
    players: int
    phase: str
    mascots: tuple[MascotView, ...]
    folds: int
    track: TrackView
    last_card: CardView | None
    moves: tuple[MoveView, ...]
    fold: FoldView | None
    log: tuple[str, ...]
    podium: tuple[tuple[str, int], ...]
    pass_no: int
    revealed: int
    reveals_per_pass: int
    odds: Mapping[str, tuple[float, ...]] | None
    odds_stale: bool
    odds_card: int | None
    known_cards: Mapping[str, tuple[str, ...]]
    face_up_total: int
    seats: tuple[SeatView, ...]
    whose_pick: str | None
    stacks: tuple[StackView, ...]
    stacks_left: Mapping[str, int]
    double_prompt: str | None
    double_short: str | None
    side_bet: str | None
    side_bet_answer: bool | None
    standings: tuple[StandingView, ...]
    life_outcome: str | None
    message: str | None
    message_at: float
    message_kind: str
    status: tuple[str, ...]
    form: str | None
    name_entry: tuple[int, int, str] | None
    language: str
    table_phase: str
    join_url: str | None
    moments: tuple[Moment, ...]
    moment_at: float
    keyboard: bool
    paths: tuple[Path, ...]
    move_at: float | None
    service: Any
    open_bets: tuple[OpenBetView, ...]


def placed_standings(rows: Iterable[StandingView | tuple[str, int]]) -> tuple[StandingView, ...]:
    """``(name, money)`` pairs (or StandingViews) -> StandingViews best first, equal money sharing a place."""
    pairs = [(r.name, r.money, r.line) if isinstance(r, StandingView) else (r[0], r[1], "") for r in rows]
    pairs.sort(key=lambda p: -p[1])
    monies = [p[1] for p in pairs]
    return tuple(StandingView(n, m, 1 + sum(x > m for x in monies), line) for n, m, line in pairs)


def running_order(model: ScreenModel) -> list[OrderRow]:
    """The mascots ranked for the running order: finished ones by place, then the racing ones furthest
    ahead first (level mascots share a position), then the DQ ones by paid place. Badges in words."""
    finished = sorted((m for m in model.mascots if m.status == "finished"), key=lambda m: (m.place or 9, m.mascot))
    racing = sorted((m for m in model.mascots if m.status == "racing"), key=lambda m: (-m.space, m.lane))
    out = sorted((m for m in model.mascots if m.status == "dq"), key=lambda m: (m.place or 9, m.mascot))
    rows: list[OrderRow] = []
    for m in finished:
        # crossed the line: FINISHED; placed where it stood when the race ended (rules: remaining): PLACED
        remaining = m.exit == "remaining"
        rows.append(OrderRow(m.place or len(rows) + 1, m.mascot, ("PLACED" if remaining else "FINISHED",),
                             m.space if remaining else None))
    start = len(rows) + 1
    for m in racing:
        ahead = sum(o.space > m.space for o in racing)
        level = sum(o.space == m.space for o in racing) > 1
        badges = tuple(b for b, on in (("FALLEN", m.fallen), ("TURNED", m.facing == "backward")) if on)
        rows.append(OrderRow(start + ahead, m.mascot, badges, m.space, level))
    for m in out:
        why = {"knockout": "KNOCKOUT", "out_of_bounds": "OUT"}.get(m.exit or "", "")
        shared = sum(o.place == m.place for o in out) > 1
        rows.append(OrderRow(m.place or len(rows) + 1, m.mascot, ("DQ", why) if why else ("DQ",), None, shared))
    return rows


TROUBLE_WORDS = ("disconnected", "missing", "no-op", "failed", "error", "not ", "cannot", "off:", "lost")


def trouble(status: tuple[str, ...]) -> tuple[str, ...]:
    """The device status lines that report trouble (a device missing, failed, disconnected); the rest,
    such as ``scanner: ok`` or ``leds: LEDs: mock strip``, are not shown on the table's screen."""
    return tuple(s for s in status if any(w in s.lower() for w in TROUBLE_WORDS))


def _last_card_effects(race: Race) -> tuple[tuple[MoveView, ...], FoldView | None, tuple[Path, ...]]:
    """What the last pushed card did: a move per mascot it changed, the fold it caused (if any), and the paths
    its mascots took (``companion.motion.paths_for``)."""
    from companion.motion import paths_for
    from companion.rules.events import Folded, OutOfBounds, OutOfBoundsWay
    if not race.cards:
        return (), None, ()
    before = race.copy()
    card, code = before.pop()
    after_race = before.copy()
    events = after_race.push(card, code)
    moves: list[MoveView] = []
    for a, b in zip(before.state.mascots, race.state.mascots):
        what = ""
        if a.status.value == "racing" and b.status.value == "finished":
            what = "finished" if b.exit is not None and b.exit.value == "crossed" else "placed"
        elif a.status.value == "racing" and b.status.value == "dq":
            what = "knocked out" if b.exit is not None and b.exit.value == "knockout" else "out"
        elif not a.fallen and b.fallen:
            what = "fell"
        elif a.fallen and not b.fallen:
            what = "up"
        elif a.facing != b.facing:
            what = "turned"
        if what or (a.lane, a.space) != (b.lane, b.space):
            moves.append(MoveView(a.mascot.value, a.lane, a.space, b.lane, b.space, what))
    fold: FoldView | None = None
    folded = [e for e in events if isinstance(e, Folded)]
    if folded:
        under = tuple(e.mascot.value for e in events if isinstance(e, OutOfBounds) and e.way is OutOfBoundsWay.FOLD)
        fold = FoldView(folded[-1].fold, folded[-1].first_space, under)
    stood = {m.mascot.value: (m.lane, m.space) for m in before.state.mascots}
    return tuple(moves), fold, tuple(paths_for(events, stood).values())


def from_race(race: Race, **fields: Unpack[ScreenFields]) -> ScreenModel:
    """A race-screen model from a ``companion.rules.Race``: mascots, folds, track, pass, reveals, podium, the
    last card with what it moved, and the fold moment (while the next pass has no card yet); ``fields`` add
    or override anything else (``log=...``, ``seats=...``)."""
    state = race.state
    mascots = tuple(MascotView(s.mascot.value, s.lane, s.space, s.fallen, s.facing.value, s.status.value, s.place,
                               None if s.exit is None else s.exit.value) for s in state.mascots)
    podium = tuple((m.value, p) for m, p in sorted(race.outcome.placings.items(), key=lambda mp: (mp[1], mp[0].value)))
    last = None
    if race.cards:
        card, code = race.cards[-1]
        last = CardView(card.notation(), code, None if card.who is None else card.who.value)
    moves, fold, paths = _last_card_effects(race)
    if state.revealed != 0 or state.over:
        fold = None
    model = ScreenModel(screen="race", mascots=mascots, folds=state.folds, track=TrackView.from_track(race.track),
                        podium=podium, pass_no=state.pass_no, revealed=state.revealed,
                        reveals_per_pass=race.track.reveals_per_pass, last_card=last, moves=moves, fold=fold,
                        paths=paths, phase="Race over" if state.over else "Racing")
    return dataclasses.replace(model, **fields)


def replace(model: ScreenModel, **changes: Unpack[ScreenFields]) -> ScreenModel:
    """A copy of ``model`` with ``changes`` (``dataclasses.replace``)."""
    return dataclasses.replace(model, **changes)


_ELSEWHERE = {"SAMPLE_CARDS": "companion.screen.samples", "sample_model": "companion.screen.samples",
              "sample_race": "companion.screen.samples", "from_table": "companion.screen.table_model",
              "seat_name": "companion.screen.table_model", "ticket_text": "companion.screen.table_model"}


def __getattr__(name: str) -> object:
    """The samples and the table's model, still reachable from here, imported only when asked for (they
    import this module; this one never imports them)."""
    if name in _ELSEWHERE:
        import importlib
        return getattr(importlib.import_module(_ELSEWHERE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CardView", "FoldView", "MascotView", "MoveView", "OrderRow", "SCREENS", "SAMPLE_CARDS", "ScreenFields",
           "ScreenModel", "SeatView", "StackView", "StandingView", "TrackView", "from_race", "from_table",
           "placed_standings", "replace", "running_order", "sample_model", "sample_race", "seat_name", "ticket_text",
           "trouble"]
