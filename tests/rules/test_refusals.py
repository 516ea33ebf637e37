"""Typed refusals: every refusal of the rules and the table carries a reason code and the values it names
(companion/rules/errors.py; the phone page's own are in test_phone_refusals.py), and its words on the screen,
console, phone and voice come from that code in each language (companion/call/words.py, sounds/phrases/*.toml),
never from reading the detail back."""

from __future__ import annotations

import dataclasses
import pickle
import random
from pathlib import Path

import pytest

from companion.call import words
from companion.call.caller import Caller
from companion.rules.betting import (Bet, OpenBet, Stacks, Ticket, bet_amount, check_bets, load_tickets,
                                     open_gains, settle_open)
from companion.rules.codes import Control, parse_code
from companion.rules.deck import load_deck
from companion.rules.errors import (BettingError, IllegalRevealError, InvalidCardError, InvalidCodeError, Reason,
                                    RefusalMessage, RefusedError, UnknownSideBetError)
from companion.rules.game import Game
from companion.rules.mascots import Mascot
from companion.rules.phases import Variant
from companion.rules.race import Race
from companion.rules.sidebets import SideBetTracker, load_side_bets
from companion.rules.table import Table
from companion.web.inputs import WebRefusal
from sourcecode import imported_modules

ORDER = ["any-dq", "bottom2-mum", "same-space"]
RACE_1 = "HS17 HS15 HS14 HS22 HS06 HS04 HS03 HS11 HS28 HS26 HS25 HS33".split()  # H 1, G 2, D 3, M 4
RACE_2 = "HS06 HS04 HS03 HS11 HS28 HS26 HS25 HS33 HS17 HS15 HS14 HS22".split()
RACE_3 = "HS39 HS37 HS36 HS44 HS28 HS26 HS25 HS33 HS06 HS04 HS03 HS11".split()
DRAFT_3 = ("HS-T-HURLEY-1-S", "HS-T-GOBBLER-1-R", "HS-T-NO-1-R", "HS-T-MUM-1-R", "HS-T-YES-1-S", "HS-T-HURLEY-2-R")
REPO = Path(__file__).resolve().parents[2]


def game(players: int = 3, *texts: str, variant: str = "standard", order: list[str] | None = ORDER) -> Game:
    g = Game(players, Variant(variant), side_bet_order=order)
    for text in texts:
        g.apply(parse_code(text))
    return g


def to_race_3(variant: str = "standard") -> Game:
    g = game(2, "HS-GO", variant=variant)
    for race in (RACE_1, RACE_2):
        for text in (("HS-GO", "HS-GO", *race, "HS-GO") if variant == "standard" else ("HS-GO", *race, "HS-GO")):
            g.apply(parse_code(text))
    return g


def table(*texts: str) -> Table:
    t = Table()
    for text in texts:
        t.apply(text, {"side_bet_order": list(range(12)), "variant": "standard"} if "PLAYERS" in text else {})
    return t


def refusal_of(target: Game | Table, text: str) -> RefusedError:
    """Apply ``text`` and return its refusal, checking that nothing changed."""
    g = target.game if isinstance(target, Table) else target
    before = g.to_dict() if g is not None else None
    with pytest.raises(RefusedError) as info:
        if isinstance(target, Table):
            target.apply(text)
        else:
            target.apply(parse_code(text))
    g = target.game if isinstance(target, Table) else target
    assert (g.to_dict() if g is not None else None) == before
    assert "\n" not in str(info.value)
    return info.value


def _race_1_over() -> Game:
    return game(2, "HS-GO", "HS-GO", "HS-GO", *RACE_1)


def _racing() -> Game:
    return game(3, "HS-GO", "HS-GO", "HS-GO", "HS15")


def _face_up_limit() -> tuple[Game, str]:
    g = Game(8)  # 6 random + 4 starting face-up cards
    for text in ("HS01", "HS03", "HS04", "HS05", "HS06", "HS07"):
        g.apply(parse_code(text))
    return g, "HS08"


def _race_1_deck_full() -> tuple[Table, str]:
    """Race 1 with the face-up cards scanned (the demo script): every other card is one of the players x 1 added
    face down; one more is refused."""
    from companion.rules.table import realise
    from companion.tools.demo import parse_script, script_path
    t, rng = Table(), random.Random(1)
    for text, _wait in parse_script(script_path().read_text("utf-8")):
        t.apply(text, realise(text, rng))
        if t.phase == "racing":
            break
    g = t.game
    unknown = [dc.code for dc in g.deck if dc.code not in g.face_up]
    limit = g.players * g.figures.added_per_race
    for code in unknown[:limit]:
        t.apply(code)
    return t, unknown[limit]


def _race_deck_used_up() -> tuple[Game, str]:
    """A race whose deck of 3 cards (a small track's, set once the race runs) is all revealed; a 4th is refused."""
    g = game(2, "HS-GO", "HS-GO", "HS-GO")
    g.track = dataclasses.replace(g.track, deck_size=3)
    for text in ("HS15", "HS14", "HS22"):
        g.apply(parse_code(text))
    return g, "HS04"


# (id, setup -> (target, text), reason, fields the refusal must name)
CASES = [
    # before the player count, and codes that are no code
    ("card-before-count", lambda: (table("HS-NEW"), "HS15"), Reason.PLAYERS_FIRST, {"code": "HS15"}),
    ("go-before-count", lambda: (table("HS-NEW"), "HS-GO"), Reason.PLAYERS_FIRST, {"code": "HS-GO"}),
    ("unknown-code", lambda: (table("HS-NEW"), "HSXX"), Reason.UNKNOWN, {"code": "HSXX"}),
    ("garbage", lambda: (table("HS-NEW"), "hello"), Reason.UNKNOWN, {"code": "hello"}),
    ("player-count-13", lambda: (table("HS-NEW"), "HS-PLAYERS-13"), Reason.PLAYER_COUNT, {"players": 13}),
    ("ticket-stack", lambda: (table("HS-NEW"), "HS-T-PIG-1-S"), Reason.UNKNOWN, {"code": "HS-T-PIG-1-S"}),
    ("side-bet-card-13", lambda: (table("HS-NEW"), "HS-S13"), Reason.UNKNOWN, {"code": "HS-S13"}),
    ("bet-seat-13", lambda: (table("HS-NEW"), "HS-BET-13-MUM"), Reason.UNKNOWN, {"seat": 13}),
    ("bet-choice", lambda: (table("HS-NEW"), "HS-BET-2-PIG"), Reason.UNKNOWN, {"code": "HS-BET-2-PIG"}),
    ("name-seat-13", lambda: (table("HS-NEW"), "HS-NAME-13:Bo"), Reason.UNKNOWN, {"seat": 13}),
    ("name-too-long", lambda: (table("HS-NEW"), "HS-NAME-1:" + "A" * 17), Reason.NAME, {"seat": 1}),
    ("name-reads-as-code", lambda: (table("HS-NEW"), "HS-NAME-1:HS15"), Reason.NAME, {"seat": 1}),
    ("undo-at-the-table", lambda: (table("HS-NEW"), "HS-UNDO"), Reason.WRONG_TIME, {"code": "HS-UNDO"}),
    # the table
    ("seat-not-at-table", lambda: (table("HS-NEW", "HS-PLAYERS-3"), "HS-NAME-5:Bo"), Reason.SEAT, {"seat": 5}),
    ("count-mid-game", lambda: (table("HS-NEW", "HS-PLAYERS-3", "HS-GO"), "HS-PLAYERS-4"), Reason.WRONG_TIME,
     {"players": 4}),
    ("variant-mid-game", lambda: (table("HS-NEW", "HS-PLAYERS-3", "HS-GO"), "HS-OPEN"), Reason.WRONG_TIME,
     {"code": "HS-OPEN"}),
    ("variant-again", lambda: (table("HS-NEW", "HS-PLAYERS-3"), "HS-STANDARD"), Reason.ALREADY,
     {"code": "HS-STANDARD"}),
    ("count-the-variant-cannot-seat", lambda: (table("HS-NEW", "HS-STANDARD"), "HS-PLAYERS-12"), Reason.PLAYERS,
     {"players": 12}),
    # setup
    ("unknown-card-code", lambda: (game(3), "HS99"), Reason.UNKNOWN, {"code": "HS99"}),
    ("face-up-twice", lambda: (game(3, "HS15"), "HS15"), Reason.ALREADY, {"code": "HS15", "card": "H+3"}),
    ("random-face-up-over-the-limit", _face_up_limit, Reason.NOT_IN_DECK, {"code": "HS08"}),
    ("go-with-some-face-up", lambda: (game(3, "HS15"), "HS-GO"), Reason.FACE_UP, {"code": "HS-GO"}),
    ("ticket-in-setup", lambda: (game(3), "HS-T-GOBBLER-1-S"), Reason.WRONG_TIME, {"phase": "setup"}),
    # betting
    ("card-in-betting", lambda: (game(3, "HS-GO"), "HS15"), Reason.WRONG_TIME, {"phase": "betting"}),
    ("not-the-top-ticket", lambda: (game(3, "HS-GO"), "HS-T-GOBBLER-2-S"), Reason.NOT_TOP,
     {"ticket": "gobbler-middle"}),
    ("ticket-twice", lambda: (game(3, "HS-GO", "HS-T-GOBBLER-1-S"), "HS-T-GOBBLER-1-R"), Reason.ALREADY,
     {"seat": 1, "ticket": "gobbler-top"}),
    ("go-mid-draft", lambda: (game(3, "HS-GO", "HS-T-GOBBLER-1-S"), "HS-GO"), Reason.DRAFT, {"code": "HS-GO"}),
    ("ticket-after-the-draft", lambda: (game(3, "HS-GO", *DRAFT_3), "HS-T-GOBBLER-2-S"), Reason.DRAFT_DONE,
     {"code": "HS-T-GOBBLER-2-S"}),
    ("yes-ticket-before-side-bet", lambda: (game(2, "HS-GO", order=None), "HS-T-YES-1-S"), Reason.SIDE_BET_FIRST,
     {"code": "HS-T-YES-1-S"}),
    ("double-outside-race-3", lambda: (game(3, "HS-GO"), "HS-DOUBLE"), Reason.NO_DOUBLE, {"race": 1}),
    ("handled-by-the-controller", lambda: (game(3, "HS-GO"), "HS-UNDO"), Reason.WRONG_TIME, {"code": "HS-UNDO"}),
    ("bet-in-a-standard-game", lambda: (game(3, "HS-GO"), "HS-BET-1-MUM"), Reason.VARIANT,
     {"code": "HS-BET-1-MUM"}),
    # the side bet stack
    ("side-bet-card-too-late", lambda: (game(3, "HS-GO", "HS-T-GOBBLER-1-S"), "HS-S03"), Reason.WRONG_TIME,
     {"race": 1}),
    ("side-bet-card-twice", lambda: (game(2, "HS-S02"), "HS-S02"), Reason.ALREADY, {"code": "HS-S02"}),
    ("another-side-bet-card", lambda: (game(2, "HS-S02"), "HS-S03"), Reason.ALREADY, {"code": "HS-S03"}),
    ("side-bet-card-of-race-1", lambda: (game(2, "HS-S02", "HS-GO", "HS-GO", "HS-GO", *RACE_1, "HS-GO"), "HS-S02"),
     Reason.ALREADY, {"race": 1}),
    # adding cards, racing, payouts, game over
    ("card-while-adding", lambda: (game(3, "HS-GO", "HS-GO"), "HS15"), Reason.WRONG_TIME, {"code": "HS15"}),
    ("ticket-while-adding", lambda: (game(3, "HS-GO", "HS-GO"), "HS-T-MUM-1-S"), Reason.WRONG_TIME,
     {"phase": "adding-cards"}),
    ("side-bet-card-while-racing", lambda: (_racing(), "HS-S03"), Reason.WRONG_TIME, {"phase": "racing"}),
    ("go-while-racing", lambda: (_racing(), "HS-GO"), Reason.RACING, {"code": "HS-GO"}),
    ("card-twice-in-a-pass", lambda: (_racing(), "HS15"), Reason.ALREADY, {"code": "HS15", "card": "H+3"}),
    ("card-not-in-race-1s-deck", _race_1_deck_full, Reason.NOT_IN_DECK, {}),
    ("card-past-the-race-deck", _race_deck_used_up, Reason.NOT_IN_DECK, {"code": "HS04", "card": "G+3"}),
    ("card-during-payouts", lambda: (_race_1_over(), "HS15"), Reason.WRONG_TIME, {"phase": "payouts"}),
    ("card-after-the-game", lambda: (to_race_3_over(), "HS15"), Reason.GAME_OVER, {"code": "HS15"}),
    ("go-after-the-game", lambda: (to_race_3_over(), "HS-GO"), Reason.GAME_OVER, {"code": "HS-GO"}),
    # the race 3 double
    ("double-before-a-seat-holds-all", lambda: (to_race_3(), "HS-DOUBLE"), Reason.NO_DOUBLE, {"code": "HS-DOUBLE"}),
    ("double-a-ticket-too-early", lambda: (to_race_3_drafting("HS-DOUBLE"), "HS-T-DANGLE-1-S"), Reason.NO_DOUBLE,
     {"seat": 2, "ticket": "dangle-top"}),
    ("double-armed-twice", lambda: (to_race_3_drafting("HS-DOUBLE"), "HS-DOUBLE"), Reason.ALREADY,
     {"code": "HS-DOUBLE"}),
    ("go-while-double-armed", lambda: (to_race_3_drafting("HS-DOUBLE"), "HS-GO"), Reason.DOUBLE, {"code": "HS-GO"}),
    ("double-an-undrafted-ticket", lambda: (to_race_3_drafting("HS-DOUBLE"), "HS-T-YES-1-S"), Reason.NO_DOUBLE,
     {"ticket": "yes-top"}),
    ("double-the-other-side", lambda: (to_race_3_drafting("HS-DOUBLE"), "HS-T-MUM-1-S"), Reason.NO_DOUBLE,
     {"seat": 1, "ticket": "mum-top"}),
    ("double-the-doubled", lambda: (to_race_3_drafting("HS-DOUBLE", "HS-T-MUM-1-R", "HS-DOUBLE"), "HS-T-MUM-1-R"),
     Reason.ALREADY, {"seat": 1}),
    ("go-before-the-doubles", lambda: (to_race_3_drafting("HS-DOUBLE", "HS-T-MUM-1-R", "HS-T-YES-1-S"), "HS-GO"),
     Reason.DOUBLE, {"seat": 2}),
    # the open variant
    ("ticket-in-the-open-variant", lambda: (game(5, "HS-GO", variant="open"), "HS-T-GOBBLER-1-S"), Reason.VARIANT,
     {"code": "HS-T-GOBBLER-1-S"}),
    ("bet-seat-not-at-table", lambda: (game(5, "HS-GO", variant="open"), "HS-BET-6-MUM"), Reason.SEAT, {"seat": 6}),
    ("bet-double-outside-race-3", lambda: (game(5, "HS-GO", variant="open"), "HS-BET-1-MUM-DOUBLE"),
     Reason.NO_DOUBLE, {"race": 1}),
    ("yes-bet-before-side-bet", lambda: (game(5, "HS-GO", variant="open", order=None), "HS-BET-1-YES"),
     Reason.SIDE_BET_FIRST, {"code": "HS-BET-1-YES"}),
    ("same-bet-again", lambda: (game(5, "HS-GO", "HS-BET-1-MUM", variant="open"), "HS-BET-1-MUM"), Reason.ALREADY,
     {"seat": 1}),
    ("go-with-bets-missing", lambda: (game(5, "HS-GO", "HS-BET-1-MUM", variant="open"), "HS-GO"), Reason.MISSING,
     {"code": "HS-GO"}),
    ("bet-while-racing", lambda: (game(5, "HS-GO", "HS-GO", "HS15", variant="open"), "HS-BET-1-MUM"),
     Reason.WRONG_TIME, {"phase": "racing"}),
]


def to_race_3_drafting(*texts: str) -> Game:
    """Race 3's betting, 2 players: seat 1 holds its 3 tickets (mum-top risky first), seat 2 two."""
    g = to_race_3()
    for text in ("HS-T-MUM-1-R", "HS-T-DANGLE-1-S", "HS-T-NO-1-S", "HS-T-GOBBLER-1-R", "HS-T-HURLEY-1-S", *texts):
        g.apply(parse_code(text))
    return g


def to_race_3_over() -> Game:
    g = to_race_3()
    for text in ("HS-GO", "HS-GO", *RACE_3, "HS-GO"):
        g.apply(parse_code(text))
    return g


@pytest.mark.parametrize("setup, reason, fields", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_every_refusal_of_an_input_carries_its_reason_and_the_values_it_names(setup, reason, fields):
    target, text = setup()
    error = refusal_of(target, text)
    assert error.reason is reason, str(error)
    assert {k: error.fields.get(k) for k in fields} == fields, dict(error.fields)


def test_the_reasons_of_the_cases_cover_every_reason_the_rules_raise_for_a_scan():
    raised = {c[2] for c in CASES}
    elsewhere = {Reason.RACE_OVER, Reason.SAVE, Reason.NOTHING_TO_UNDO, Reason.NOT_YOURS, Reason.BUSY,
                 Reason.REQUEST, Reason.OTHER}  # the engine's own Race, the controller, the phone page; OTHER: text
    assert raised | elsewhere == set(Reason)


@pytest.mark.parametrize("before", [(), ("HS-PLAYERS-3",), ("HS-PLAYERS-3", "HS-GO"),
                                    ("HS-PLAYERS-3", "HS-GO", "HS-GO")],
                         ids=["before the players", "setup", "betting", "adding cards"])
def test_a_code_that_is_no_card_is_refused_as_unknown_in_every_phase(before):
    """HS99 names no card: the table says so, not "not now" or "the player count first"."""
    t = table(*before)
    state = (t.phase, t.game.to_dict() if t.game is not None else None)
    with pytest.raises(InvalidCardError) as info:
        t.apply("HS99")
    assert info.value.reason is Reason.UNKNOWN and "HS99" in str(info.value)
    assert (t.phase, t.game.to_dict() if t.game is not None else None) == state


# ----- the rules' errors below the table ----------------------------------------------------------------------
def test_a_card_after_the_race_is_over_is_refused_as_race_over():
    race = Race()
    for text in RACE_1:
        race.push(*_card(text))
    with pytest.raises(IllegalRevealError) as info:
        race.push(*_card("HS01"))
    assert info.value.reason is Reason.RACE_OVER and info.value.fields["code"] == "HS01"


def _card(code: str):
    dc = load_deck().by_code(code)
    return dc.card, dc.code


@pytest.mark.parametrize("call, reason", [
    (lambda: load_deck().by_code("HS99"), Reason.UNKNOWN),
    (lambda: Race().push_text("X+3"), Reason.UNKNOWN),
    (lambda: Race().push_text("H+100"), Reason.UNKNOWN),
    (lambda: parse_code("HS-PLAYERS-1"), Reason.PLAYER_COUNT),
    (lambda: load_side_bets().by_number(13), Reason.UNKNOWN),
    (lambda: load_side_bets().by_id("pigs-fly"), Reason.UNKNOWN),
    (lambda: SideBetTracker("pigs-fly"), Reason.UNKNOWN),
    (lambda: Ticket.parse("pig-top"), Reason.UNKNOWN),
    (lambda: Bet(Ticket("mum", "top"), "wild"), Reason.UNKNOWN),
    (lambda: OpenBet(Mascot.MUM, False, "both"), Reason.UNKNOWN),
    (lambda: _stack_taken("mum", 3).check(Ticket("mum", "bottom")), Reason.NOT_TOP),
    (lambda: _stack_taken("mum", 2).check(Ticket("mum", "top")), Reason.ALREADY),
    (lambda: _stack_taken("mum", 0).check(Ticket("mum", "middle")), Reason.NOT_TOP),
    (lambda: bet_amount(Bet(Ticket("mum", "top"), "safe", True), _PLACINGS, None, load_tickets(), 1),
     Reason.NO_DOUBLE),
    (lambda: bet_amount(Bet(Ticket("yes", "top"), "safe"), _PLACINGS, None, load_tickets(), 1), Reason.MISSING),
    (lambda: bet_amount(Bet(Ticket("mum", "top"), "safe"), {}, None, load_tickets(), 1), Reason.MISSING),
    (lambda: check_bets([[Bet(Ticket("mum", "top"), "safe")], [Bet(Ticket("mum", "top"), "risky")]], 1,
                        load_tickets()), Reason.ALREADY),
    (lambda: check_bets([[Bet(Ticket("mum", "top"), "safe", True)]], 1, load_tickets()), Reason.NO_DOUBLE),
    (lambda: check_bets([[Bet(Ticket("mum", "top"), "safe", True), Bet(Ticket("dangle", "top"), "safe", True)]], 3,
                        load_tickets()), Reason.NO_DOUBLE),
    (lambda: open_gains([OpenBet(Mascot.MUM, False, "mascot")], _PLACINGS, False, load_tickets(), 1),
     Reason.NO_DOUBLE),
    (lambda: settle_open([10, 10], [OpenBet(Mascot.MUM, False, None)], _PLACINGS, False, load_tickets(), 1),
     Reason.MISSING),
    (lambda: Game(3).apply(Control("new")), Reason.WRONG_TIME),
    (lambda: Game(3).apply("HS15"), Reason.UNKNOWN),  # not a parsed code
], ids=["deck-code", "notation-who", "notation-move", "players-1", "side-bet-number", "side-bet-id",
        "side-bet-predicate", "ticket-name", "ticket-side", "open-double", "stack-empty", "stack-taken",
        "stack-not-top", "settle-double-race", "settle-side-answer", "settle-place", "settle-twice",
        "settle-double-race-check", "settle-two-doubles", "open-double-race", "open-money", "game-control",
        "game-not-a-code"])
def test_the_rules_refusals_below_the_table_carry_a_reason(call, reason):
    with pytest.raises(RefusedError) as info:
        call()
    assert info.value.reason is reason, str(info.value)


_PLACINGS = {Mascot.HURLEY: 1, Mascot.GOBBLER: 2, Mascot.DANGLE: 3, Mascot.MUM: 4}


def _stack_taken(stack: str, levels: int) -> Stacks:
    stacks = Stacks()
    for level in ("top", "middle", "bottom")[:levels]:
        stacks.take(Ticket(stack, level))
    return stacks


def test_scan_errors_are_refusals_with_a_usual_reason():
    assert issubclass(InvalidCodeError, RefusedError) and InvalidCodeError("x").reason is Reason.UNKNOWN
    assert issubclass(InvalidCardError, RefusedError) and InvalidCardError("x").reason is Reason.UNKNOWN
    assert issubclass(UnknownSideBetError, RefusedError) and issubclass(BettingError, RefusedError)
    assert issubclass(IllegalRevealError, RefusedError) and issubclass(RefusedError, ValueError)


def test_a_refusal_keeps_its_reason_and_fields_through_pickle_and_its_message():
    error = RefusedError("seat 5 is not at this table (expected a seat 1..4)", Reason.SEAT, seat=5)
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), str(again), again.reason, dict(again.fields)) == (RefusedError, str(error), Reason.SEAT,
                                                                         {"seat": 5})
    web = pickle.loads(pickle.dumps(WebRefusal("seat 2 is not yours", Reason.NOT_YOURS, 403, seat=2)))
    assert (web.reason, web.status, dict(web.fields)) == (Reason.NOT_YOURS, 403, {"seat": 2})
    message = RefusalMessage(error)
    assert message == str(error) and message.error is error and words.reason_of(message) is Reason.SEAT
    with pytest.raises(TypeError):
        error.fields["seat"] = 6  # read only


# ----- the words of every reason ------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", words.LANGUAGES)
def test_every_reason_has_a_line_and_spoken_words_in_every_language(lang):
    cat = words.load_catalogue(lang)
    for reason in Reason:
        assert cat.phrases.get(f"refused-{reason.value}"), f"no refused-{reason.value} in {lang}"
        line = words.refusal_line(RefusedError("detail", reason), lang)
        assert line and line[0].isupper() or line[0] in "¡¿", line


@pytest.mark.parametrize("setup, reason, fields", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_line_of_a_real_refusal_names_no_code_and_no_card(setup, reason, fields):
    target, text = setup()
    error = refusal_of(target, text)
    for lang in words.LANGUAGES:
        line = words.refusal_line(error, lang)
        assert line == words.phrase(f"refused-{reason.value}", lang), lang
        assert "HS" not in line and text not in line, (lang, line)
        assert not any(str(v) in line for k, v in error.fields.items() if k in ("code", "card", "ticket")), line


def test_the_voice_says_the_reason_in_a_few_words_never_the_refused_text():
    target, text = CASES[2][1]()
    error = refusal_of(target, text)
    spoken = Caller("es", random.Random(0)).refusal(RefusalMessage(error))
    assert spoken.text in words.load_catalogue("es").phrases["refused-unknown"] and text not in spoken.text


# ----- no sentence is read back -------------------------------------------------------------------------------
SHOWERS = ["companion/call/words.py", "companion/call/caller.py", "companion/call/console.py",
           "companion/call/announcer.py", "companion/screen/sink.py", "companion/voice/sink.py",
           "companion/web/sink.py", "companion/web/app.py", "companion/web/inputs.py", "companion/kiosk/controller.py"]


MISLEADING = ("unknown code HS99: already revealed in pass 2; the race is over; not on top; seat 9 is not at "
              "this table; can't save")  # a detail that names other reasons, values and codes


@pytest.mark.parametrize("setup, reason, fields", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_words_of_a_refusal_come_from_its_reason_whatever_its_detail_says(setup, reason, fields):
    """A twin of each real refusal with the same reason and values but another detail sentence: the screen's
    and console's line, the phone's notice and the spoken words are the same for both, in every language."""
    target, text = setup()
    error = refusal_of(target, text)
    twin = type(error)(MISLEADING, error.reason, **error.fields)
    assert str(twin) != str(error)
    for lang in words.LANGUAGES:
        assert words.refusal_line(twin, lang) == words.refusal_line(error, lang)
        assert words.refusal_line(RefusalMessage(twin), lang) == words.refusal_line(RefusalMessage(error), lang)
        said = [Caller(lang, random.Random(0)).refusal(e).text for e in (error, twin, RefusalMessage(twin))]
        assert said[0] == said[1] == said[2], said


def test_no_module_reads_a_refusal_sentence_back():
    assert not (REPO / "companion/call/refusals.py").exists()
    for name in SHOWERS:
        assert "companion.call.refusals" not in imported_modules(REPO / name), name
    js = (REPO / "companion/web/static/app.js").read_text("utf-8")
    assert ".test(answer.error" not in js and "answer.reason" in js
