"""Barcode texts the scanner can send, parsed into typed inputs (docs/rules.md section 8; card labels in section 2).

- race cards: label codes ``HS01``..``HS53`` (through the deck data)
- controls: ``HS-NEW``, ``HS-PLAYERS-<n>`` (2-12), ``HS-GO``, ``HS-UNDO``; the variant of a new game,
  scanned before or right after the player count: ``HS-STANDARD`` (tickets) or ``HS-OPEN`` (pots, no tickets);
  ``HS-DOUBLE``: race 3, the next ticket (or open bet) scanned is the one that pays double; ``HS-SERVICE``
  enters the service mode (and leaves it), ``HS-SERVICE-EXIT`` leaves it: never game inputs (docs/service.md)
- betting tickets, one code per side: ``HS-T-<STACK>-<LEVEL>-<SIDE>`` with STACK one of GOBBLER, HURLEY,
  DANGLE, MUM, YES, NO; LEVEL 1 top, 2 middle, 3 bottom; SIDE ``S`` safe or ``R`` risky (``HS-T-DANGLE-2-R``)
- side bet cards: ``HS-S01``..``HS-S12`` in the order of the side bet data file
- open-variant bets (a bet sheet of codes, or typed/sent from a phone as the same text):
  ``HS-BET-<seat>-<CHOICE>`` with seat 1-12 and CHOICE one of GOBBLER, HURLEY, DANGLE, MUM (the mascot bet)
  or YES, NO (the side bet answer); ``HS-BET-<seat>-<CHOICE>-DOUBLE`` also circles that bet to pay double
  (race 3). Examples: ``HS-BET-3-DANGLE``, ``HS-BET-3-NO``, ``HS-BET-11-MUM-DOUBLE``
- a seat's name (typed, never printed on a label): ``HS-NAME-<seat>:<name>`` (seat 1-12, name 1-16 printable
  characters, case kept; an empty name clears it)

``parse_code`` raises InvalidCodeError with a one-line message naming the bad text and the expected forms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.rules.errors import InvalidCodeError, Reason

STACKS = ("gobbler", "hurley", "dangle", "mum", "yes", "no")
LEVELS = ("top", "middle", "bottom")
SIDES = ("safe", "risky")
MIN_PLAYERS, MAX_PLAYERS = 2, 12
EXPECTED = ("expected a card code HS01..HS53, HS-NEW, HS-PLAYERS-2..12, HS-OPEN, HS-STANDARD, HS-GO, HS-UNDO, "
            "HS-DOUBLE, HS-SERVICE, HS-T-<stack>-<1-3>-<S|R>, HS-S01..HS-S12 or HS-BET-<seat>-<mascot|YES|NO>[-DOUBLE]")
CONTROLS = ("new", "go", "undo", "double", "open", "standard", "service", "service-exit")
BET_CHOICES = ("gobbler", "hurley", "dangle", "mum", "yes", "no")


@dataclass(frozen=True, slots=True)
class CardCode:
    code: str  # HS15


@dataclass(frozen=True, slots=True)
class Control:
    action: str  # "new" | "players" | "go" | "undo" | "double" | "open" | "standard" | "service" | "service-exit"
    players: int | None = None

    def code(self) -> str:
        return f"HS-{self.action.upper()}" + (f"-{self.players}" if self.players is not None else "")


@dataclass(frozen=True, slots=True)
class TicketCode:
    stack: str   # one of STACKS
    level: str   # one of LEVELS
    side: str    # one of SIDES

    @property
    def ticket(self) -> str:
        """The ticket id used by ``hotstreak settle`` (``dangle-middle``)."""
        return f"{self.stack}-{self.level}"

    def code(self) -> str:
        return f"HS-T-{self.stack.upper()}-{LEVELS.index(self.level) + 1}-{self.side[0].upper()}"


@dataclass(frozen=True, slots=True)
class SideBetCode:
    number: int  # 1..12

    def code(self) -> str:
        return f"HS-S{self.number:02d}"


@dataclass(frozen=True, slots=True)
class SeatNameCode:
    seat: int   # 1-based seat number
    name: str   # "" clears the name

    def code(self) -> str:
        return f"HS-NAME-{self.seat}:{self.name}"


@dataclass(frozen=True, slots=True)
class OpenBetCode:
    """An open-variant bet: ``seat`` 1-based; ``choice`` a mascot name (the mascot bet) or ``yes``/``no``
    (the side bet answer); ``double`` True when this bet is the one circled to pay double (race 3)."""

    seat: int
    choice: str  # one of BET_CHOICES
    double: bool = False

    @property
    def is_side(self) -> bool:
        return self.choice in ("yes", "no")

    def code(self) -> str:
        return f"HS-BET-{self.seat}-{self.choice.upper()}" + ("-DOUBLE" if self.double else "")


Code = CardCode | Control | TicketCode | SideBetCode | SeatNameCode | OpenBetCode
NAME_LENGTH = 16

_CARD = re.compile(r"HS(\d{2,3})")
_PLAYERS = re.compile(r"HS-PLAYERS-(\d{1,2})")
_TICKET = re.compile(r"HS-T-([A-Z]+)-([123])-([SR])")
_SIDEBET = re.compile(r"HS-S(\d{2})")
_BET = re.compile(r"HS-BET-(\d{1,2})-([A-Z]+)(-DOUBLE)?")
_NAME = re.compile(r"HS-NAME-(\d{1,2}):(.*)", re.IGNORECASE | re.DOTALL)


def _seat_name(text: str, m: re.Match[str]) -> SeatNameCode:
    seat, name = int(m.group(1)), " ".join(m.group(2).split())
    if not 1 <= seat <= MAX_PLAYERS:
        raise InvalidCodeError(f"{text!r}: seat {seat} is out of range (expected 1..{MAX_PLAYERS})", code=text,
                               seat=seat)
    if problem := name_problem(name):
        raise InvalidCodeError(f"{text!r}: {problem}", Reason.NAME, code=text, seat=seat)
    return SeatNameCode(seat, name)


def name_problem(name: str) -> str | None:
    """Why ``name`` (spaces already folded) cannot be a seat name, as a phrase naming the rule (e.g. ``"a name
    is 0-16 printable characters (got 17)"``); None for a good name. The same rule for a typed name, a name
    from a phone and the config's ``[players] names``."""
    if len(name) > NAME_LENGTH:
        return f"a name is 0-{NAME_LENGTH} printable characters (got {len(name)})"
    if not name.isprintable():
        bad = next(c for c in name if not c.isprintable())
        return f"a name is 0-{NAME_LENGTH} printable characters (got {bad!r})"
    if name and _looks_like_a_code(name):
        return f"{name!r} reads as a scan code (expected a name, not a code)"
    return None


def _looks_like_a_code(name: str) -> bool:
    """True for a name that would read as a label code (``HS-GO``, ``HS15``): the screen and voice would
    confuse the table."""
    try:
        parse_code(name)
    except InvalidCodeError:
        return False
    return True


def parse_code(text: str) -> Code:
    """Classify a scanned text (any case, surrounding spaces ignored). Does not check the deck: a CardCode
    may still be unknown to it. Raises InvalidCodeError naming the text."""
    if m := _NAME.fullmatch(text.strip()):
        return _seat_name(text, m)
    raw = text.strip().upper()
    if m := _CARD.fullmatch(raw):
        return CardCode(raw)
    if raw.startswith("HS-") and raw[3:].lower() in CONTROLS:
        return Control(raw[3:].lower())
    if m := _PLAYERS.fullmatch(raw):
        n = int(m.group(1))
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise InvalidCodeError(f"{text!r}: player count {n} is out of range (expected "
                                   f"{MIN_PLAYERS}..{MAX_PLAYERS} players)", Reason.PLAYER_COUNT, code=text, players=n)
        return Control("players", n)
    if m := _TICKET.fullmatch(raw):
        stack = m.group(1).lower()
        if stack not in STACKS:
            raise InvalidCodeError(f"{text!r}: unknown ticket stack {m.group(1)} (expected one of "
                                   f"{', '.join(s.upper() for s in STACKS)})", code=text)
        return TicketCode(stack, LEVELS[int(m.group(2)) - 1], "safe" if m.group(3) == "S" else "risky")
    if m := _SIDEBET.fullmatch(raw):
        n = int(m.group(1))
        if not 1 <= n <= 12:
            raise InvalidCodeError(f"{text!r}: side bet card {n} is out of range (expected HS-S01..HS-S12)", code=text)
        return SideBetCode(n)
    if m := _BET.fullmatch(raw):
        seat, choice = int(m.group(1)), m.group(2).lower()
        if not 1 <= seat <= MAX_PLAYERS:
            raise InvalidCodeError(f"{text!r}: seat {seat} is out of range (expected 1..{MAX_PLAYERS})", code=text,
                                   seat=seat)
        if choice not in BET_CHOICES:
            raise InvalidCodeError(f"{text!r}: unknown bet {m.group(2)} (expected one of "
                                   f"{', '.join(c.upper() for c in BET_CHOICES)})", code=text)
        return OpenBetCode(seat, choice, bool(m.group(3)))
    raise InvalidCodeError(f"unknown code {text!r} ({EXPECTED})", code=text)


def all_ticket_codes() -> list[TicketCode]:
    """Every betting ticket side: 6 stacks x 3 levels x 2 sides = 36 codes (18 tickets, one code per side)."""
    return [TicketCode(s, lv, sd) for s in STACKS for lv in LEVELS for sd in SIDES]


def control_codes() -> list[str]:
    return ["HS-NEW", *(f"HS-PLAYERS-{n}" for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)), "HS-STANDARD", "HS-OPEN",
            "HS-GO", "HS-UNDO", "HS-DOUBLE", "HS-SERVICE", "HS-SERVICE-EXIT"]


def open_bet_codes(seat: int) -> list[OpenBetCode]:
    """One seat's row of the open-variant bet sheet: the 4 mascots, then YES and NO (no double forms: the
    sheet doubles with ``HS-DOUBLE`` scanned before a bet)."""
    return [OpenBetCode(seat, c) for c in BET_CHOICES]
