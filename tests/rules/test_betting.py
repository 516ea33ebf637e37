"""Tickets, stacks, payouts, the race-3 double, the $0 floor and the open-variant pots (docs/rules.md 6-7)."""

from importlib import resources

import pytest

from companion.rules.betting import (Bet, OpenBet, Stacks, Ticket, bet_amount, check_bets, load_tickets, settle,
                                     settle_open)
from companion.rules.errors import BettingError, DataFileError
from companion.rules.mascots import Mascot

G, H, D, M = Mascot.GOBBLER, Mascot.HURLEY, Mascot.DANGLE, Mascot.MUM
TABLE = load_tickets()
TABLE_TEXT = resources.files("companion.rules").joinpath("data", "tickets.toml").read_text()
PLACINGS = {G: 1, H: 2, D: 3, M: 4}


def bet(text, side="safe", double=False):
    return Bet(Ticket.parse(text), side, double)


@pytest.mark.parametrize("level, side, amounts", [
    ("top", "safe", [10, 7, 5, 0]), ("top", "risky", [15, 5, 2, 0]),
    ("middle", "safe", [7, 5, 3, 0]), ("middle", "risky", [11, 3, 1, 0]),
    ("bottom", "safe", [5, 3, 2, 0]), ("bottom", "risky", [8, 2, 0, 0]),
])
def test_mascot_ticket_pays_by_paid_place(level, side, amounts):
    for mascot, place in PLACINGS.items():
        assert bet_amount(bet(f"{mascot.value}-{level}", side), PLACINGS, None, TABLE, 1) == amounts[place - 1]


def test_shared_dq_place_pays_as_the_worse_place():
    # two mascots DQ at once share 3rd and 4th: both are paid as 4th (Race.outcome gives 4 for both)
    placings = {G: 1, H: 2, D: 4, M: 4}
    assert bet_amount(bet("dangle-top", "safe"), placings, None, TABLE, 1) == 0
    assert bet_amount(bet("mum-top", "risky"), placings, None, TABLE, 1) == 0


@pytest.mark.parametrize("level, side, right, wrong", [
    ("top", "safe", 10, 0), ("middle", "safe", 7, 0), ("bottom", "safe", 5, 0),
    ("top", "risky", 15, -5), ("middle", "risky", 12, -5), ("bottom", "risky", 10, -5),
])
def test_side_ticket_pays_right_or_wrong(level, side, right, wrong):
    assert bet_amount(bet(f"yes-{level}", side), PLACINGS, True, TABLE, 1) == right
    assert bet_amount(bet(f"yes-{level}", side), PLACINGS, False, TABLE, 1) == wrong
    assert bet_amount(bet(f"no-{level}", side), PLACINGS, False, TABLE, 1) == right
    assert bet_amount(bet(f"no-{level}", side), PLACINGS, True, TABLE, 1) == wrong


def test_double_in_race_3_doubles_wins_and_losses():
    assert bet_amount(bet("gobbler-top", "risky", True), PLACINGS, None, TABLE, 3) == 30
    assert bet_amount(bet("yes-top", "risky", True), PLACINGS, False, TABLE, 3) == -10
    assert bet_amount(bet("yes-top", "risky", False), PLACINGS, False, TABLE, 3) == -5


def test_double_outside_race_3_refused():
    with pytest.raises(BettingError, match="race 2"):
        bet_amount(bet("gobbler-top", "safe", True), PLACINGS, None, TABLE, 2)


def test_settle_sums_tickets_then_floors_at_zero():
    bets = [bet("yes-top", "risky"), bet("no-middle", "risky")]
    # YES right (+15) and NO wrong (-5) settle together from $0: +10 (the -5 is not floored on its own)
    assert settle(0, bets, PLACINGS, True, TABLE, 1) == 10
    lost = [bet("yes-top", "risky"), bet("mum-top", "risky")]  # -5 and 0
    assert settle(3, lost, PLACINGS, False, TABLE, 1) == 0
    assert settle(5, lost, PLACINGS, False, TABLE, 1) == 0
    assert settle(6, lost, PLACINGS, False, TABLE, 1) == 1
    doubled = [bet("yes-top", "risky", True), bet("gobbler-bottom", "risky")]  # -10 + 8
    assert settle(1, doubled, PLACINGS, False, TABLE, 3) == 0


def test_stacks_only_top_ticket_can_be_drafted():
    stacks = Stacks()
    assert [t.id for t in stacks.available()] == ["gobbler-top", "hurley-top", "dangle-top", "mum-top", "yes-top",
                                                  "no-top"]
    with pytest.raises(BettingError, match="not on top.*gobbler-top"):
        stacks.take(Ticket.parse("gobbler-middle"))
    stacks.take(Ticket.parse("gobbler-top"))
    assert stacks.top("gobbler") == Ticket.parse("gobbler-middle")
    with pytest.raises(BettingError, match="already drafted"):
        stacks.take(Ticket.parse("gobbler-top"))
    stacks.take(Ticket.parse("gobbler-middle"))
    stacks.take(Ticket.parse("gobbler-bottom"))
    assert stacks.top("gobbler") is None
    assert "gobbler-bottom" not in [t.id for t in stacks.available()]
    with pytest.raises(BettingError, match="empty"):
        stacks.take(Ticket.parse("gobbler-bottom"))
    assert stacks.taken["gobbler"] == 3


def test_ticket_parse_refuses_unknown_names():
    with pytest.raises(BettingError, match="'maybe-top'.*expected"):
        Ticket.parse("maybe-top")


def test_check_bets_refuses_a_ticket_held_twice():
    with pytest.raises(BettingError, match="twice"):
        check_bets([[bet("gobbler-top")], [bet("gobbler-top", "risky")]], 1, TABLE)
    check_bets([[bet("gobbler-top")], [bet("gobbler-middle", "risky", True)]], 3, TABLE)


def test_open_pots_split_rounding_down_and_double_share():
    bets = [OpenBet(G, True), OpenBet(G, True), OpenBet(G, False), OpenBet(H, False, "mascot"), OpenBet(D, True)]
    # 1st pot 18 / 3 = 6 each; 2nd pot 12 doubled for the sole Hurley bet; 3rd pot 6;
    # side pot 18 among 3 right YES answers = 6 each
    assert settle_open([0] * 5, bets, PLACINGS, True, TABLE, 3) == [12, 12, 6, 24, 12]
    odd = [OpenBet(G, True)] * 4 + [OpenBet(M, False)]
    # 18 // 4 = 4 per Gobbler bet (2 left over), 18 // 4 = 4 per YES; nobody on 2nd/3rd; Mum paid 4th gets nothing
    assert settle_open([0] * 5, odd, PLACINGS, True, TABLE, 1) == [8, 8, 8, 8, 0]
    with pytest.raises(BettingError, match="race 1"):
        settle_open([0], [OpenBet(G, True, "side")], PLACINGS, True, TABLE, 1)


def test_ticket_data_lists_every_problem_with_key_path(tmp_path):
    path = tmp_path / "tickets.toml"
    text = (TABLE_TEXT.replace("safe = [10, 7, 5, 0]", "safe = [10, 7, 5]")
            .replace("[side.middle]\nsafe = [7, 0]\nrisky = [12, -5]", "[side.middle]\nsafe = [7, 0]"))
    path.write_text(text)
    with pytest.raises(DataFileError) as info:
        load_tickets(path)
    problems = info.value.problems
    assert any(p.startswith("mascot.top.safe:") and "3 amounts" in p for p in problems)
    assert any(p.startswith("side.middle.risky:") and "missing" in p for p in problems)
    assert len(problems) == 2


def test_default_ticket_data_figures():
    assert TABLE.start_money == {"standard": 10, "open": 0}
    assert TABLE.place_pots == (18, 12, 6) and TABLE.side_pot == 18
    assert (TABLE.double_race, TABLE.double_factor) == (3, 2)
