"""The one table from events to words (companion/call/words.py): every event has a key, the printed race call
and the announcer both render from it, and on-screen text follows the language."""

from __future__ import annotations

import pytest

from companion.call import racecall, words
from companion.call.announcer import FIELDS, LANGUAGES, Announcer
from companion.rules import Card, events as ev
from companion.rules import game_events as gev
from companion.rules.mascots import Mascot
from companion.rules.phases import Phase
from companion.rules.race import play
from conftest import hotstreak
from test_announcer import EVERY_EVENT

G, H, D, M = Mascot.GOBBLER, Mascot.HURLEY, Mascot.DANGLE, Mascot.MUM


def test_every_race_and_game_event_type_is_in_the_one_table():
    for t in (*ev.EVENT_TYPES, *gev.GAME_EVENT_TYPES):
        if t is not gev.CardLearned:  # a card becoming known is shown, never called
            assert t in words.TABLE, t.__name__


def test_printed_call_and_announcer_use_the_same_key_for_every_event():
    a = Announcer("en")
    for e in EVERY_EVENT:
        key, fields = words.key_and_fields(e)
        assert a.key_and_fields(e) == (key, fields)
        assert key in racecall.PRINTED.phrases and key in FIELDS
        assert racecall.line(e) == words.render(racecall.PRINTED.phrases[key][0], fields, racecall.PRINTED)


def test_the_printed_call_is_word_for_word_the_plain_call():
    """The printed form (simulate, the console, the demo), word for word."""
    _, events = play(["GF", "G+2", "HT", "H+2", "M*", "GF", "D+1<", "A+3"])
    assert racecall.call(events) == [
        "Card 1 of pass 1: GF (Gobbler)", "  Gobbler goes down!",
        "Card 2 of pass 1: G+2 (Gobbler)", "  Gobbler crawls 1 to space 4",
        "Card 3 of pass 1: HT (Hurley)", "  Hurley turns around, now facing backward",
        "Card 4 of pass 1: H+2 (Hurley)", "  Hurley runs back 2 to space 1",
        "Card 5 of pass 1: M* (Mum)", "  Mum runs 5 to the star on space 8",
        "Card 6 of pass 1: GF (Gobbler)", "  Gobbler is knocked out - DQ!", "  Gobbler takes 4th place",
        "Card 7 of pass 1: D+1< (Dangle)", "  Dangle runs 1 to space 4", "  Dangle swerves from lane 3 to lane 2",
        "Card 8 of pass 1: A+3 (All mascots)", "  Dangle runs 3 to space 7", "  Mum runs 3 to space 11",
        "  Hurley goes out of bounds off the back - DQ!", "  Hurley takes 3rd place"]
    standings = gev.GameOver((gev.Standing(3, 1, 53, "Retires."), gev.Standing(0, 2, 27, "Bakes."),
                              gev.Standing(2, 2, 27, "Bakes.")))
    assert racecall.line(standings) == ("Final standings: 1st Seat 4 $53 - Retires.; 2nd Seat 1 $27 - Bakes.; "
                                        "2nd Seat 3 $27 - Bakes.")
    assert racecall.line(gev.Settled(1, 1, 10, 7, -3, (-3,))) == "  Seat 2: $10 - $3 = $7"
    assert racecall.line(gev.PhaseChanged(Phase.BETTING, 2)) == "Race 2: betting - draft your tickets"
    assert racecall.line(ev.Revealed(Card.parse("A+1"), "HS48", 1, 2)) == "Card 2 of pass 1: A+1 [HS48] (All mascots)"


@pytest.mark.slow
def test_simulate_prints_the_plain_call():
    out = hotstreak("simulate", "GF", "GF").stdout.splitlines()
    assert out[:4] == ["Card 1 of pass 1: GF (Gobbler)", "  Gobbler goes down!", "Card 2 of pass 1: GF (Gobbler)",
                       "  Gobbler is knocked out - DQ!"]


@pytest.mark.parametrize("lang,word", [("en", "Hurley"), ("nl", "Hurley"), ("es", "Hurley")])
def test_on_screen_text_follows_the_language(lang, word):
    fell = ev.Fell(H, ev.Cause.CARD)
    text = words.text(fell, lang)
    assert word in text and text in {words.capitalise(p.format(mascot="Hurley"))
                                     for p in words.load_catalogue(lang).phrases["fell"]}
    assert words.text(ev.Revealed(Card.parse("H+3"), None, 1, 1), lang)
    assert words.text(gev.CardLearned("HS15", Card.parse("H+3")), lang) is None


def test_on_screen_phrases_and_translated_side_bets():
    assert words.phrase("your-pick", "en", name="Ann") == "Ann, your pick."
    assert words.phrase("mark-double", "nl", race=3).startswith("Race 3")
    es = words.phrase("side-bet", "es", question="Will any mascot be disqualified?", card_id="any-dq")
    assert "¿Descalificarán a alguien?" in es
    with pytest.raises(KeyError, match="'nope'"):
        words.phrase("nope", "en")
    with pytest.raises(ValueError, match="'fr'"):
        words.text(ev.Fell(H, ev.Cause.CARD), "fr")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_side_bet_question_is_translated(lang):
    from companion.rules.sidebets import load_side_bets
    cat = words.load_catalogue(lang)
    assert {card.id for card in load_side_bets()} == set(cat.sidebets)
    assert all(q.rstrip().endswith("?") for q in cat.sidebets.values())


def test_on_screen_lines_and_refusals_in_the_language():
    _, events = play(["HF", "HF"])
    nl = words.lines(events, "nl")
    assert len(nl) == len(events) and all("Hurley" in t for t in nl)
    from companion.rules.errors import InvalidCodeError
    assert words.refusal(InvalidCodeError("unknown code 'XYZ' (expected HS-...)"), "es") == "Código desconocido."


def _demo_events():
    import random
    from companion.rules.errors import HotStreakError
    from companion.rules.table import Table, realise
    from companion.tools.demo import parse_script, script_path
    table, rng, events = Table(), random.Random(1), []
    for text, _wait in parse_script(script_path().read_text("utf-8")):
        try:
            events += table.apply(text, realise(text, rng))
        except HotStreakError:
            pass
    return events


@pytest.mark.parametrize("lang", ["en", "nl", "es"])
def test_every_event_of_a_whole_game_has_its_fields_in_every_language(lang):
    """Payouts once lacked the seat's name: the phone page's call then failed at every race's end."""
    import random
    from companion.call.announcer import Announcer
    from companion.call import words
    from companion.rules.game_events import Settled
    events = _demo_events()
    names = {0: "Ann", 1: "Bo"}.get
    spoken = Announcer(lang, random.Random(0)).lines(events, lambda s: names(s) or "")
    shown = words.lines(events, lang, lambda s: names(s) or "")
    assert spoken and shown
    settled = [e for e in events if isinstance(e, Settled) and e.seat == 0]
    assert settled and not any("Ann" in line for line in Announcer(lang, random.Random(0)).lines(settled))
    assert all("Ann" in line for line in Announcer(lang, random.Random(0)).lines(settled, lambda s: "Ann"))


def test_the_printed_call_names_seats_by_name():
    from companion.call import racecall
    from companion.rules.game_events import Settled
    settled = [e for e in _demo_events() if isinstance(e, Settled)][:1]
    assert racecall.call(settled)[0].startswith("  Seat ")
    assert racecall.call(settled, lambda seat: "Ann")[0].startswith("  Ann: $")


def test_open_variant_betting_is_called_as_bets_not_a_draft():
    from companion.rules.game import Game, Variant
    from companion.rules.game_events import PhaseChanged
    from companion.rules.codes import Control
    open_game, standard = Game(3, Variant.OPEN), Game(3)
    opened = [e for e in open_game.apply(Control("go")) if isinstance(e, PhaseChanged)]
    drafted = [e for e in standard.apply(Control("go")) if isinstance(e, PhaseChanged)]
    assert racecall.call(opened) == ["Race 1: betting - everyone names a mascot and YES or NO"]
    assert racecall.call(drafted) == ["Race 1: betting - draft your tickets"]


def test_the_refusal_table_in_the_docs_gives_each_language_s_words():
    """docs/refusals.md lists each reason's words as the catalogues say them (the first phrasing)."""
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "docs" / "refusals.md").read_text("utf-8")
    rows = re.findall(r"^\| `([a-z-]+)` \| .*? \| (.*?) \| (.*?) \| (.*?) \|$", text, re.M)
    assert len(rows) >= 20
    for code, *said in rows:
        assert said == [words.load_catalogue(lang).phrases[f"refused-{code}"][0] for lang in LANGUAGES], code
