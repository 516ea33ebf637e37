"""The table's screen by model and by pixels: the running order, the whole last card and its move, the fold
moment, refusals on top, stacks after picks, the race-3 double prompt, shared places, names and name typing."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pytest

pygame = pytest.importorskip("pygame")

from companion import colours as C
from companion.kiosk.config import parse_config
from companion.kiosk.errors import ConfigError
from companion.rules.table import Table
from companion.screen.draw import Painter
from companion.screen.keys import NameEntry
from companion.screen.layout import KEY_CAP, card_tile_rect, layout_for, order_rect, space_rect, standing_rect
from companion.screen.model import (CardView, MascotView, ScreenModel, from_race, placed_standings, replace,
                                    running_order, sample_model, sample_race, trouble)
from companion.screen.sink import ScreenSink
from companion.screen.table_model import from_table
from companion.view.table_view import build
from companion.screen.widgets import ink_on, shade
from conftest import hotstreak
from tablekit import TableKit

HD = (1920, 1080)
MID_RACE = ("HS15", "HS04", "HS36", "HS24", "HS45", "HS19", "HS39", "HS10")   # ends with HS10 = G+2>
FOLD_PASS = ("HS51 HS27 HS24 HS25 HS38 HS01 HS29 HS03 HS12 HS40 HS13 HS08 HS16 HS30 HS23").split()


def draw(model, size=HD, now=0.0, extra=None) -> np.ndarray:
    surf = pygame.Surface(size)
    Painter(surf).draw(model, now, extra)
    return pygame.surfarray.array3d(surf).astype(np.int32)


def count(arr, rect, colour) -> int:
    x, y, w, h = rect
    return int(np.all(arr[x:x + w, y:y + h] == np.array(colour), axis=-1).sum())


def betting_table(players=3, names=()) -> Table:
    t = Table()
    t.apply("HS-NEW")
    t.apply(f"HS-PLAYERS-{players}", {"side_bet_order": list(range(12))})
    for seat, name in enumerate(names, 1):
        t.apply(f"HS-NAME-{seat}:{name}")
    t.apply("HS-GO")
    return t


# ----- running order -----------------------------------------------------------------------------------
ORDER_MODEL = ScreenModel(screen="race", mascots=(
    MascotView("dangle", 3, 5, status="dq", place=4, exit="knockout"),
    MascotView("mum", 4, 9, facing="backward"), MascotView("hurley", 2, 9, fallen=True),
    MascotView("gobbler", 1, 14, status="finished", place=1, exit="crossed")),
    odds={"gobbler": (1, 0, 0, 0), "hurley": (0, .5, .5, 0), "mum": (0, .5, .5, 0), "dangle": (0, 0, 0, 1)})


def test_running_order_ranks_finished_then_racing_by_space_then_dq_with_states_in_words():
    rows = running_order(ORDER_MODEL)
    assert [(r.position, r.mascot, r.badges, r.tied) for r in rows] == [
        (1, "gobbler", ("FINISHED",), False), (2, "hurley", ("FALLEN",), True), (2, "mum", ("TURNED",), True),
        (4, "dangle", ("DQ", "KNOCKOUT"), False)]


def test_running_order_rows_show_each_mascot_with_its_badge_in_big_capitals():
    arr = draw(ORDER_MODEL)
    L = layout_for(HD)
    expected = ["gobbler", "hurley", "mum", "dangle"]
    for i, name in enumerate(expected[:3]):
        row = order_rect(i, L)
        counts = {m: count(arr, row, C.colour(m)) for m in expected}
        assert max(counts, key=counts.get) == name, (i, counts)
    assert count(arr, order_rect(1, L), C.OUT_MARK) > 300          # the FALLEN badge
    assert count(arr, order_rect(2, L), C.STAR) > 300              # the TURNED badge
    assert count(arr, order_rect(3, L), C.OUT) > 300               # the DQ mascot greyed out
    # the mascot name: the tallest run of rows with near-white text in the name column is >= 35 px capitals
    x, y, w, h = order_rect(0, L)
    zone = arr[x + 190:x + w - 230, y:y + int(h * 0.6)]
    white = (np.abs(zone - np.array(C.TEXT)).sum(axis=-1) < 90).any(axis=0)
    runs, run = [], 0
    for on in white:
        run = run + 1 if on else 0
        runs.append(run)
    assert max(runs) >= 35


def test_key_text_is_at_least_35_px_capitals_at_1080p():
    painter = Painter(pygame.Surface(HD))
    assert painter.text("H", KEY_CAP).get_bounding_rect().h >= 35


# ----- the last card -------------------------------------------------------------------------------------
def _glyph_groups(arr, rect, ink) -> tuple[int, int, int]:
    x, y, w, h = rect[0] + 8, rect[1], rect[2] - 16, rect[3]   # inside the tile's white edge
    band = arr[x:x + w, y + int(h * 0.3):y + int(h * 0.7)]
    cols = np.all(band == np.array(ink), axis=-1).any(axis=1)
    groups = int(np.sum(cols[1:] & ~cols[:-1]) + cols[0])
    xs = np.nonzero(cols)[0]
    return groups, int(xs.min()), int(xs.max())


@pytest.mark.parametrize("size", [(1280, 720), HD])
@pytest.mark.parametrize("notation,mascot", [("G+2>", "gobbler"), ("HR+2", "hurley"), ("AR+3", None),
                                             ("M+1<", "mum")])
def test_the_last_card_tile_names_who_inside_it_never_its_notation_or_label_code(size, notation, mascot):
    model = ScreenModel(screen="race", last_card=CardView(notation, "HS10", mascot))
    surf = pygame.Surface(size)
    painter = Painter(surf)
    painter.draw(model, 0.0)
    assert (mascot or "all").upper() in painter.drawn_texts
    assert notation not in painter.drawn_texts and "HS10" not in painter.drawn_texts
    arr = pygame.surfarray.array3d(surf).astype(np.int32)
    tile = card_tile_rect(layout_for(size))
    groups, first, last = _glyph_groups(arr, tile, ink_on(C.colour(mascot)))
    assert groups >= 3, notation   # the name's letters, whole
    assert 4 < first and last < tile[2] - 4


def test_the_last_card_model_has_its_actions_and_the_move_from_where_to_where():
    race, _ = sample_race(MID_RACE)
    model = from_race(race)
    assert model.last_card == CardView("G+2>", "HS10", "gobbler")
    assert model.last_card.actions == ("+2", ">")
    (move,) = model.moves
    assert (move.mascot, move.from_lane, move.from_space, move.to_lane, move.to_space) == ("gobbler", 1, 7, 2, 9)
    arr = draw(model)
    L = layout_for(HD)
    assert count(arr, space_rect(1, 7, L), C.colour("gobbler")) > 200      # the ghost where it was
    assert count(arr, space_rect(2, 9, L), C.TEXT) > 300                   # the ring where it is now


# ----- fold, refusals, trouble -----------------------------------------------------------------------------
def test_the_fold_moment_says_who_went_under_until_the_next_card():
    race, _ = sample_race(tuple(FOLD_PASS))
    model = from_race(race)
    assert model.fold is not None and model.fold.under == ("mum",) and model.fold.first_space == 4
    band = layout_for(HD).bottom
    assert count(draw(model), band, shade(C.MESSAGE, 0.75)) > 0.5 * band[2] * band[3]
    race.push_text("HS44")
    assert from_race(race).fold is None


def test_a_refusal_is_a_whole_sentence_on_top_of_the_led_preview():
    text = ("card HS19 (HF) was already revealed in pass 1; expected a card not yet revealed this pass, "
            "or HS-UNDO to take back the last scan")
    painter = Painter(pygame.Surface((1280, 720)))
    cap, lines = painter.fit_wrap(text, 34 * 720 / 1080, int(1280 * 0.9) - 53, 360)
    assert " ".join(lines).split() == text.split()
    model = replace(sample_model("race"), message=text, message_at=0.0)
    green = (1, 200, 1)
    arr = draw(model, (1280, 720), extra=lambda surface, m: surface.fill(green))
    assert count(arr, (0, 0, 1280, 720), C.MESSAGE) > 40_000
    assert count(arr, (0, 0, 1280, 720), green) > 100_000


def test_device_trouble_shows_only_when_there_is_trouble():
    ok = ("scanner: ok", "leds: LEDs: mock strip, 112 pixels", "voice: en")
    assert trouble(ok) == ()
    bad = ok + ("scanner: disconnected (/dev/hotstreak-scanner missing)",)
    assert trouble(bad) == bad[-1:]
    header = layout_for(HD).header
    model = sample_model("race")
    assert count(draw(replace(model, status=ok)), header, C.MESSAGE) == 0
    assert count(draw(replace(model, status=bad)), header, C.MESSAGE) > 2000


# ----- betting ----------------------------------------------------------------------------------------------
def test_stacks_show_the_tickets_left_after_picks_and_what_the_top_ticket_pays():
    table = betting_table(3, ("Ann", "Bram", "Carmen"))
    for code in ("HS-T-GOBBLER-1-S", "HS-T-GOBBLER-2-R", "HS-T-HURLEY-1-S"):
        table.apply(code)
    model = from_table(table)
    stacks = {s.stack: s for s in model.stacks}
    assert (stacks["gobbler"].left, stacks["hurley"].left, stacks["dangle"].left) == (1, 2, 3)
    assert stacks["gobbler"].top == "bottom" and stacks["gobbler"].safe == (5, 3, 2)
    assert stacks["dangle"].risky == (15, 5, 2) and stacks["yes"].risky == (15, -5)
    assert model.whose_pick == "Carmen"                       # snake order: 1, 2, 3, 3, 2, 1
    assert model.seats[0].tickets == ("Gobbler top, safe",)
    painter = Painter(pygame.Surface(HD))
    painter.boxes = []
    painter.draw(model, 0.0)
    rows: dict[int, set[str]] = {}   # the stacks table: a row per stack, its texts at one height
    for b in painter.boxes:
        rows.setdefault(b.rect[1], set()).add(b.text)
    assert any({"GOBBLER", "1 LEFT", "BOTTOM", "5 3 2"} <= texts for texts in rows.values())
    assert any({"DANGLE", "3 LEFT", "TOP", "15 5 2"} <= texts for texts in rows.values())


def _table_at(stop) -> Table:
    from companion.rules.table import realise
    from companion.tools.demo import parse_script, script_path
    import random
    table, rng = Table(), random.Random(1)
    for text, _ in parse_script(script_path().read_text("utf-8")):
        try:
            table.apply(text, realise(text, rng))
        except ValueError:
            continue
        if stop(table):
            return table
    raise AssertionError("the demo game never reached the point")


def test_after_the_last_pick_of_race_3_the_screen_asks_for_doubles_not_a_pick():
    table = _table_at(lambda t: t.game is not None and t.game.race_no == 3 and t.game.draft_complete)
    model = from_table(table)
    assert model.whose_pick is None
    assert model.double_prompt.startswith("Race 3: Seat") and "double" in model.double_prompt
    assert model.double_short.startswith("Seat") and model.double_short.endswith(": mark a double")
    assert all(s.double_due for s in model.seats)
    draw(model)


def test_while_race_3_is_drafted_the_screen_says_the_double_comes_after_the_last_pick():
    table = _table_at(lambda t: t.game is not None and t.game.race_no == 3 and t.game.current_drafter is not None)
    model = from_table(table)
    assert model.whose_pick is not None
    assert model.double_prompt.startswith("Race 3: after your last pick")
    assert model.double_short == "After your last pick: mark a double"


# ----- payouts and game over ------------------------------------------------------------------------------
def test_payouts_have_the_side_bet_answer_and_money_before():
    model = sample_model("payouts")
    assert model.side_bet and model.side_bet_answer is not None
    assert all(s.money_before is not None for s in model.seats)


def test_equal_money_shares_a_place_and_every_player_has_a_life_outcome():
    rows = placed_standings([("Ann", 27), ("Bram", 45), ("Carmen", 27), ("Dev", 53)])
    assert [(r.name, r.place) for r in rows] == [("Dev", 1), ("Bram", 2), ("Ann", 3), ("Carmen", 3)]
    table = _table_at(lambda t: t.phase == "game-over")
    model = from_table(table)
    places = [s.place for s in model.standings]
    assert places == sorted(places) and all(s.line for s in model.standings)
    model = sample_model("game-over")
    assert [s.place for s in model.standings] == [1, 2, 3, 3]
    arr = draw(model)
    L = layout_for(HD)

    def place_label(i):
        x, y, w, h = standing_rect(i, 4, L)
        return arr[x:x + 190, y:y + h // 2]
    assert np.array_equal(place_label(2), place_label(3))
    assert not np.array_equal(place_label(1), place_label(2))
    for i in range(4):
        assert count(arr, standing_rect(i, 4, L), C.DIM_TEXT) > 300, i   # a life-outcome line per player


# ----- names ------------------------------------------------------------------------------------------------
def test_players_go_by_typed_name_then_config_name_then_seat_number():
    table = betting_table(3, ("Zoe",))
    seats = from_table(table, names=("Ann", "Bram")).seats
    assert [s.name for s in seats] == ["Zoe", "Bram", "Seat 3"]
    assert parse_config('[players]\nnames = ["Ann", " Bram  B "]').names == ("Ann", "Bram B")
    with pytest.raises(ConfigError, match="players.names"):
        parse_config('[players]\nnames = ["Ann", 3]')


def test_typing_a_name_submits_a_seat_name_input_and_keeps_u_and_g_from_the_buttons():
    submitted, buttons = [], []

    class Display:
        def draw(self, model, now, extra=None):
            self.model = model

        def present(self):
            pass
    sink = ScreenSink(Display(), submit=submitted.append)
    on_key = sink.window_keys(buttons.append)
    table = build(betting_table(2))
    sink.render(table, 0.0)
    on_key("u")                                          # no entry open: u is for the buttons
    for key in ["n", "g", "u", "s", "return"]:           # key names only, as the window gives them
        on_key(key)
    assert submitted == ["HS-NAME-1:Gus"] and buttons == ["u"]
    sink.render(table, 1.0)
    assert sink.display.model.name_entry == (2, 2, "")
    on_key("escape")
    on_key("g")
    assert buttons == ["u", "g"]
    assert not sink.key("b") and not sink.entry.active
    entry = NameEntry()
    assert entry.key("n", "n", seats=0) == (False, None)  # no game yet: nobody to name


def test_the_window_hands_its_keys_to_the_name_entry_first():
    from hardware.display import open_display
    buttons, submitted = [], []
    device = open_display("dummy", (640, 360))
    try:
        sink = ScreenSink(device, submit=submitted.append)
        device.on_key = sink.window_keys(buttons.append)
        sink._seats = 2
        for key in (pygame.K_n, pygame.K_g, pygame.K_u, pygame.K_RETURN, pygame.K_ESCAPE, pygame.K_u):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode="", mod=0, scancode=0))
        device.present()
        assert submitted == ["HS-NAME-1:Gu"] and buttons == ["u"] and not sink.entry.active
    finally:
        device.close()


# ----- the screenshot command -------------------------------------------------------------------------------
@pytest.mark.slow
def test_screenshot_cards_renders_the_race_after_those_cards(tmp_path):
    out = tmp_path / "race.png"
    result = hotstreak("screenshot", "--screen", "race", "--size", "960x540", "--cards", *MID_RACE, "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert pygame.image.load(str(out)).get_size() == (960, 540)
    bad = hotstreak("screenshot", "--screen", "race", "--cards", "H+3", "Q+9", "--out", str(tmp_path / "x.png"))
    assert bad.returncode == 2 and "Q+9" in bad.stderr and "Traceback" not in bad.stderr
    other = hotstreak("screenshot", "--screen", "betting", "--cards", "H+3", "--out", str(tmp_path / "y.png"))
    assert other.returncode == 2 and "--screen race" in other.stderr


def test_the_screen_words_follow_the_language_and_every_language_has_every_word():
    from companion.screen.words import WORDS
    for lang in ("nl", "es"):
        assert set(WORDS[lang]) == set(WORDS["en"]), lang
    table = betting_table(3)
    model = from_table(table, language="nl")
    assert model.phase == "Inzetten" and model.seats[2].name == "Speler 3" and model.whose_pick == "Speler 1"
    table.apply("HS-T-HURLEY-1-R")
    assert from_table(table, language="es").seats[0].tickets == ("Hurley arriba, arriesgado",)
    arr = draw(sample_model("race", MID_RACE, "es"))
    assert count(arr, card_tile_rect(layout_for(HD)), C.colour("gobbler")) > 1000


def test_the_last_odds_stay_up_while_the_next_ones_are_computed_within_a_phase():
    import dataclasses

    from companion.rules.phases import Phase
    from companion.view.table_view import OddsView, odds_situation
    shown, places = [], {"gobbler": (.4, .3, .2, .1)}

    class Display:
        def draw(self, model, now, extra=None):
            shown.append(model.odds)

        def present(self):
            pass
    sink = ScreenSink(Display(), frame_interval=0)
    table = betting_table(2)
    situation = odds_situation(build(table))
    sink.render(build(table, odds=OddsView(places, situation.key, situation.cards)), 0.0)  # made for now
    stale = build(table, odds=OddsView(places, "an earlier situation", 0))
    sink.render(stale, 1.0)  # the next ones are being computed: the last ones stay up
    assert shown == [places, places]
    sink.render(dataclasses.replace(stale, phase=Phase.ADDING_CARDS), 2.0)  # not outside racing, setup, betting
    assert shown[-1] is None


def test_a_new_phase_drops_the_odds_of_the_last_one():
    from companion.kiosk.controller import Controller
    from companion.kiosk.journal import Journal
    from companion.view.table_view import OddsView, odds_situation
    controller = Controller(Journal(":memory:"))
    for text in ("HS-NEW", "HS-PLAYERS-2"):
        controller.handle(text)
    situation = odds_situation(controller.view)
    controller.odds_ready(OddsView({"gobbler": (.4, .3, .2, .1)}, situation.key, situation.cards))
    controller.step()
    assert controller.view.odds_current == {"gobbler": (.4, .3, .2, .1)}
    controller.handle("HS-GO")  # setup -> betting
    assert controller.view.odds is None


def test_the_screen_log_and_refusals_follow_the_language():
    from companion.call import racecall
    with TableKit(lang="nl", screen=True) as table:  # the real screen sink on a dummy SDL display
        table.start_race(players=2)  # to race 1, no bets
        result = table.scan("HS15")  # Hurley +3
        english = racecall.call(result.events)
        log = table.screen.log
        assert "Hurley" in log[-1] and log[-1] not in english and table.controller.view.call == tuple(english)
        table.scan("XYZ")
        assert table.screen.message == "Onbekende code." and "XYZ" not in table.screen.message  # the detail: the log


def test_the_side_bet_question_follows_the_language():
    from companion.rules.table import Table
    from companion.screen.table_model import from_table
    table = Table()
    table.apply("HS-PLAYERS-2")
    table.apply("HS-S01")
    english = from_table(table).side_bet
    dutch = from_table(table, language="nl").side_bet
    assert english and dutch and english != dutch and dutch.endswith("?")
