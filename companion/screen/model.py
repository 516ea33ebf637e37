"""What a screen shows, as plain frozen data (no pygame): the controller fills it, ``companion.screen.draw`` draws it.

One :class:`ScreenModel` per frame. Mascots are lower-case names (``"hurley"``), lanes and spaces are 1-based
ints as in the rules engine, money is whole dollars, odds are probabilities 0..1. Every field has a default, so
a controller fills only what its phase knows::

    model = ScreenModel(screen="betting", race_no=2, whose_pick="Ann", side_bet="Will any mascot fall twice?")

:func:`from_race` fills the race part (mascots, folds, track, pass, podium) from a ``companion.rules.Race``;
:func:`sample_model` gives a sample state for each screen (docs, screenshots, tests).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Mapping

from companion.call import racecall

SCREENS: tuple[str, ...] = ("attract", "setup", "betting", "race", "payouts", "game-over")


@dataclass(frozen=True)
class MascotView:
    """One mascot. ``status``: ``racing``|``finished``|``dq``; ``facing``: ``forward``|``backward``;
    ``place``: the paid place once placed (1-4), else None. Lane/space matter while racing."""

    mascot: str
    lane: int
    space: int
    fallen: bool = False
    facing: str = "forward"
    status: str = "racing"
    place: int | None = None


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
    def from_track(cls, track) -> "TrackView":
        """From a ``companion.rules.Track``."""
        return cls(track.lanes, track.spaces, track.finish_space, tuple(track.stars), tuple(track.fold_lines),
                   track.final_stretch)

    def back_edge(self, folds: int) -> int:
        """The first space still on the track after ``folds`` reshuffles (docs/rules.md 4)."""
        return 1 if folds <= 0 else self.fold_lines[min(folds, len(self.fold_lines)) - 1]


@dataclass(frozen=True)
class CardView:
    """The last revealed card: notation (``H+3``), label code or None, mascot name or None for a green card."""

    notation: str
    code: str | None = None
    mascot: str | None = None


@dataclass(frozen=True)
class SeatView:
    """A player's seat: name, money now, money before the last payout (None if not shown), ticket texts
    (e.g. ``"Hurley top, risky"``, written by the controller)."""

    name: str
    money: int
    money_before: int | None = None
    tickets: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScreenModel:
    """Everything one screen shows.

    ``screen`` is one of :data:`SCREENS`. ``phase`` is a short header text. ``log`` is the running race call,
    oldest first (the screen shows the newest lines that fit). ``podium`` is ``(mascot, place)`` pairs.
    ``odds`` maps a mascot to the probabilities of being paid 1st..4th, or None when not known.
    ``known_cards`` maps a mascot name (or ``"green"``) to the notations of the face-up cards.
    ``stacks_left`` maps a ticket stack (mascot name, ``"yes"``, ``"no"``) to the tickets left in it.
    ``standings`` is ``(name, money)`` pairs, best first. ``message`` (a refusal or notice) shows on top while
    ``now - message_at`` is under the screen's message time (a few seconds). ``status`` is device status lines
    (``"scanner: ok"``). ``form`` is a line of mascot form from past games ("Mum has won 4 of the last 10"),
    shown on the attract and setup screens (companion.kiosk.history.form_line). ``join_url`` is the
    phone page's address, shown as a QR code in setup and betting (``companion.screen.qr``), or None.
    """

    screen: str = "attract"
    race_no: int = 1
    players: int = 0
    phase: str = ""
    mascots: tuple[MascotView, ...] = ()
    folds: int = 0
    track: TrackView = TrackView()
    last_card: CardView | None = None
    log: tuple[str, ...] = ()
    podium: tuple[tuple[str, int], ...] = ()
    pass_no: int = 1
    revealed: int = 0
    reveals_per_pass: int = 15
    odds: Mapping[str, tuple[float, float, float, float]] | None = None
    known_cards: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    seats: tuple[SeatView, ...] = ()
    whose_pick: str | None = None
    stacks_left: Mapping[str, int] = field(default_factory=dict)
    side_bet: str | None = None
    standings: tuple[tuple[str, int], ...] = ()
    life_outcome: str | None = None
    message: str | None = None
    message_at: float = 0.0
    status: tuple[str, ...] = ()
    form: str | None = None
    join_url: str | None = None

    def __post_init__(self) -> None:
        if self.screen not in SCREENS:
            raise ValueError(f"unknown screen {self.screen!r} (expected one of: {', '.join(SCREENS)})")


def from_race(race, **fields) -> ScreenModel:
    """A race-screen model from a ``companion.rules.Race``: mascots, folds, track, pass, reveals, podium and the
    last card; ``fields`` add or override anything else (``log=...``, ``seats=...``)."""
    state = race.state
    mascots = tuple(MascotView(s.mascot.value, s.lane, s.space, s.fallen, s.facing.value, s.status.value, s.place)
                    for s in state.mascots)
    podium = tuple((m.value, p) for m, p in sorted(race.outcome.placings.items(), key=lambda mp: (mp[1], mp[0].value)))
    last = None
    if race.cards:
        card, code = race.cards[-1]
        last = CardView(card.notation(), code, None if card.who is None else card.who.value)
    values = dict(screen="race", mascots=mascots, folds=state.folds, track=TrackView.from_track(race.track),
                  podium=podium, pass_no=state.pass_no, revealed=state.revealed,
                  reveals_per_pass=race.track.reveals_per_pass, last_card=last,
                  phase="Race over" if state.over else "Racing")
    values.update(fields)
    return ScreenModel(**values)


SAMPLE_CARDS: tuple[str, ...] = ("H+3", "G+2>", "DF", "M*", "A+1", "HT", "D+1<", "G+3", "M+2", "H+2", "A+2", "MF",
                                 "G*", "D+2", "H-2", "HS02", "DF")
"""The cards of the sample race: a fold, a finish, a knockout, a fallen and a turned-around mascot."""

_SEATS = (SeatView("Ann", 17, 10, ("Hurley top, risky", "YES top, safe")),
          SeatView("Bram", 6, 10, ("Mum top, safe", "Gobbler middle, safe")),
          SeatView("Carmen", 12, 10, ("Dangle top, safe", "NO top, risky")))
_ODDS = {"gobbler": (0.31, 0.27, 0.24, 0.18), "hurley": (0.22, 0.26, 0.27, 0.25),
         "dangle": (0.18, 0.22, 0.25, 0.35), "mum": (0.29, 0.25, 0.24, 0.22)}
_STATUS = ("scanner: ok", "lights: ok", "voice: nl")


def sample_race(cards: tuple[str, ...] = SAMPLE_CARDS):
    """The sample race: a ``companion.rules.Race`` with ``cards`` pushed, and the events."""
    from companion.rules import Race
    race = Race()
    events = []
    for text in cards:
        events.extend(race.push_text(text))
    return race, events


def sample_model(screen: str) -> ScreenModel:
    """A sample state for ``screen`` (one of :data:`SCREENS`); raises ValueError for another name."""
    if screen not in SCREENS:
        raise ValueError(f"unknown screen {screen!r} (expected one of: {', '.join(SCREENS)})")
    common = dict(players=3, status=_STATUS, race_no=2)
    if screen == "attract":
        return ScreenModel(screen="attract", phase="New game", status=_STATUS, form="Mum has won 4 of the last 10")
    if screen == "setup":
        known = {"gobbler": ("GR+2", "G+3", "G*"), "hurley": ("HR+2", "H+1>"), "dangle": ("DR+2", "DF", "D-2"),
                 "mum": ("MR+2", "M+2", "MT"), "green": ("A+1", "AR+3")}
        return ScreenModel(screen="setup", phase="Setup: scan the face-up cards", known_cards=known, odds=_ODDS,
                           seats=_SEATS, form="Mum has won 4 of the last 10", **common)
    if screen == "betting":
        stacks = {"gobbler": 2, "hurley": 1, "dangle": 3, "mum": 2, "yes": 2, "no": 3}
        return ScreenModel(screen="betting", phase="Betting: snake draft", whose_pick="Bram", stacks_left=stacks,
                           side_bet="Will any mascot be knocked out?", odds=_ODDS, seats=_SEATS, **common)
    if screen == "race":
        race, events = sample_race()
        return from_race(race, log=tuple(racecall.call(events)), seats=_SEATS, **common)
    if screen == "payouts":
        return ScreenModel(screen="payouts", phase="Payouts", seats=_SEATS,
                           podium=(("gobbler", 1), ("mum", 2), ("hurley", 3), ("dangle", 4)), **common)
    standings = (("Ann", 31), ("Carmen", 18), ("Bram", 4))
    return ScreenModel(screen="game-over", phase="Game over", standings=standings,
                       life_outcome="Ann retires to a lighthouse and names every gull after a mascot.", **common)


def replace(model: ScreenModel, **changes) -> ScreenModel:
    """A copy of ``model`` with ``changes`` (``dataclasses.replace``)."""
    return dataclasses.replace(model, **changes)


__all__ = ["CardView", "MascotView", "SCREENS", "SAMPLE_CARDS", "ScreenModel", "SeatView", "TrackView", "from_race",
           "replace", "sample_model", "sample_race"]


SCREEN_FOR_PHASE = {"new-game": "attract", "setup": "setup", "betting": "betting", "adding-cards": "betting",
                    "racing": "race", "payouts": "payouts", "game-over": "game-over"}
PHASE_TITLE = {"new-game": "New game: scan the number of players", "setup": "Setup: scan the face-up cards",
               "betting": "Betting: snake draft", "adding-cards": "Add your cards face down, then GO",
               "racing": "Racing", "payouts": "Payouts", "game-over": "Game over"}


def seat_name(seat: int) -> str:
    """The display name of a 0-based seat index."""
    return f"Seat {seat + 1}"


def ticket_text(bet) -> str:
    """A drafted ticket for the screen: ``"Hurley top, risky"`` (``x2`` when doubled)."""
    stack, level = bet.ticket.id.split("-")
    name = stack.upper() if stack in ("yes", "no") else stack.capitalize()
    return f"{name} {level}, {bet.side}" + (" x2" if bet.double else "")


def from_table(table, *, log: tuple[str, ...] = (), message: str | None = None, message_at: float = 0.0,
               odds=None, status: tuple[str, ...] = (), money_before: Mapping[int, int] | None = None,
               form: str | None = None) -> ScreenModel:
    """The screen model for a ``companion.rules.table.Table`` in any phase (the controller's view of the game).

    ``money_before`` maps seats to their money before the last payout (shown on the payouts screen).
    """
    phase = table.phase
    common = dict(screen=SCREEN_FOR_PHASE[phase], phase=PHASE_TITLE[phase], log=log, message=message,
                  message_at=message_at, status=status, odds=odds, form=form)
    game = table.game
    if game is None:
        return ScreenModel(**common)
    info = game.to_dict()
    before = money_before or {}
    seats = tuple(SeatView(seat_name(s), m, before.get(s), tuple(ticket_text(b) for b in game.tickets.get(s, ())))
                  for s, m in enumerate(game.money))
    known: dict[str, list[str]] = {}
    for code in game.known_cards:
        card = game.deck.by_code(code).card
        known.setdefault("green" if card.who is None else card.who.value, []).append(card.notation())
    stacks: dict[str, int] = {}
    for ticket_id in info.get("available_tickets", []):
        stack = ticket_id.split("-")[0]
        stacks[stack] = stacks.get(stack, 0) + 1
    drafter = game.current_drafter
    standings = tuple((seat_name(s.seat), s.money) for s in game.standings)
    fields = dict(common, race_no=game.race_no, players=game.players, seats=seats,
                  known_cards={k: tuple(v) for k, v in known.items()}, stacks_left=stacks,
                  whose_pick=seat_name(drafter) if drafter is not None else None,
                  side_bet=info.get("side_bet_question"), standings=standings,
                  life_outcome=game.standings[0].line if game.standings else None)
    race = game.race
    if race is not None and phase in ("racing", "payouts"):
        return from_race(race, **fields)
    return ScreenModel(**fields)
