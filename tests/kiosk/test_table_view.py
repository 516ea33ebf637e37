"""The one view of the table the sinks read (companion.view), the sink contract as the controller keeps it
(lights first, a failing sink does not stop the others), phone answers by request id, and the "add a sink"
recipe of docs/architecture.md followed once through the real wiring."""

from __future__ import annotations

import json
import logging
from types import SimpleNamespace as NS

import pytest

from companion.kiosk.config import DEFAULT_TOML, parse_config
from companion.kiosk.controller import Controller, status_dict
from companion.kiosk.journal import Journal
from companion.rules.phases import Phase
from companion.rules.table import Table
from companion.view.sink import NullSink, Undone
from companion.view.status import status_dict as view_status
from companion.view.table_view import build, seat_name
from companion.web.sink import WebSink
from companion.web.view import table_view
from sourcecode import imported_modules

ORDER = {"side_bet_order": list(range(12))}
TO_RACE = ("HS-NEW", "HS-PLAYERS-2", "HS-GO", "HS-GO", "HS-GO")  # untracked deck, no bets: race 1 begins
# A race of two passes that ends: every mascot is placed or out (the demo game's first race's cards).
FINISH = ("HS15", "HS23", "HS03", "HS17", "HS31", "HS04", "HS16", "HS33", "HS02", "HS18", "HS25", "HS07")


def table_at(*texts: str) -> Table:
    table = Table()
    for text in texts:
        table.apply(text, ORDER if text.startswith("HS-PLAYERS") else None)
    return table


def run_race(controller: Controller) -> None:
    """Reveal cards until the race is over (payouts)."""
    from companion.tools.demo import parse_script, script_path
    texts = [t for t, _ in parse_script(script_path().read_text("utf-8"))]
    cards = [t for t in texts if t.startswith("HS") and t[2:].isdigit()]
    for text in cards:
        if controller.table.phase is not Phase.RACING:
            break
        controller.handle(text)
    assert controller.table.phase is Phase.PAYOUTS


# ----- one name resolution ----------------------------------------------------------------------------------------
def test_a_seat_is_named_by_its_typed_name_else_the_config_else_seat_n():
    assert seat_name(0, {0: "Ann"}, ("Bob",), "Seat {n}") == ("Ann", True)
    assert seat_name(0, {}, (" Bob ",), "Seat {n}") == ("Bob", True)
    assert seat_name(1, {}, ("Bob", "  "), "Seat {n}") == ("Seat 2", False)
    assert seat_name(2, {}, (), "Plaats {n}") == ("Plaats 3", False)
    table = table_at("HS-PLAYERS-3", "HS-NAME-1:Ann")
    view = build(table, names=("Bob", "Cy"))
    assert [s.name for s in view.seats] == ["Ann", "Cy", "Seat 3"]
    assert [s.named for s in view.seats] == [True, True, False]
    # every reader takes the view's names: the status, the phone page, the lines of the race call
    assert [s["name"] for s in view_status(view)["seats"]] == ["Ann", "Cy", "Seat 3"]
    assert [s["name"] for s in table_view(view)["seats"]] == ["Ann", "Cy", "Seat 3"]
    assert view.seat_name(1) == "Cy" and view.seat_name(7) == "Seat 8"


def test_the_controller_names_seats_from_the_config_until_a_name_is_typed():
    controller = Controller(Journal(":memory:"), names=("Bob", "Cy"))
    for text in ("HS-NEW", "HS-PLAYERS-2", "HS-NAME-2:Dee"):
        controller.handle(text)
    assert [s.name for s in controller.view.seats] == ["Bob", "Dee"]


# ----- the race shown, per phase ------------------------------------------------------------------------------------
def test_the_race_shown_in_each_phase_and_its_placings_at_payouts_and_game_over():
    controller = Controller(Journal(":memory:"))
    assert controller.view.phase is Phase.NEW_GAME and controller.view.race is None
    assert controller.view.placings == {} and controller.view.shown.revealed == 0
    for text in TO_RACE[:3]:
        controller.handle(text)
    assert controller.view.phase is Phase.BETTING and controller.view.race is None
    for text in TO_RACE[3:]:
        controller.handle(text)
    controller.handle("HS15")
    view = controller.view
    assert view.phase is Phase.RACING and view.race is not None and view.race.revealed == 1
    assert view.shown is view.race
    run_race(controller)
    payouts = controller.view
    assert payouts.race is not None and payouts.race.is_over and len(payouts.placings) >= 3
    assert status_dict(controller.table)["placings"] == dict(payouts.placings)
    # the view is a snapshot: what comes next does not change it
    placed = dict(payouts.placings)
    controller.handle("HS-GO")  # betting for race 2: a fresh race is shown
    assert controller.view.race is None and controller.view.placings == {}
    assert dict(payouts.placings) == placed and payouts.race.is_over


def test_status_at_game_over_keeps_the_placings_of_the_last_race():
    controller = Controller(Journal(":memory:"))
    for text in TO_RACE:
        controller.handle(text)
    for race in (1, 2, 3):
        run_race(controller)
        placings = dict(controller.view.placings)
        controller.handle("HS-GO")  # next race's betting, or the final standings
        if race < 3:
            controller.handle("HS-GO")  # adding cards
            controller.handle("HS-GO")  # racing
    assert controller.table.phase is Phase.GAME_OVER
    status = status_dict(controller.table)
    assert status["phase"] == "game-over" and status["placings"] == placings and placings
    assert json.loads(json.dumps(status))["placings"] == placings


def test_phase_is_a_str_enum_with_the_old_texts():
    assert Phase.NEW_GAME == "new-game" and Phase.ADDING_CARDS.value == "adding-cards"
    assert f"{Phase.RACING}" == "racing" and json.dumps({"phase": Phase.PAYOUTS}) == '{"phase": "payouts"}'
    assert Table().phase is Phase.NEW_GAME


# ----- the sink contract --------------------------------------------------------------------------------------------
class Recorder(NullSink):
    def __init__(self, name: str, calls: list[str], fail: str | None = None):
        self.name, self.calls, self.fail = name, calls, fail

    def _note(self, what: str) -> None:
        self.calls.append(f"{self.name}.{what}")
        if what == self.fail:
            raise RuntimeError(f"{self.name} broke in {what}")

    def events(self, events, view, now):
        self._note("events")

    def refused(self, error, view, now):
        self._note("refused")

    def render(self, view, now):
        self._note("render")


def test_after_an_input_the_lights_are_drawn_first_then_the_other_sinks_act():
    calls: list[str] = []
    controller = Controller(Journal(":memory:"), lights=Recorder("lights", calls),
                            sinks=[Recorder("screen", calls), Recorder("voice", calls)])
    controller.handle("HS-NEW")
    assert calls == ["lights.events", "lights.render", "screen.events", "voice.events"]
    calls.clear()
    controller.step()
    assert calls == ["lights.render", "screen.render", "voice.render"]
    calls.clear()
    controller.handle("XYZ")
    assert calls == ["lights.refused", "screen.refused", "voice.refused"]


def test_a_failing_sink_is_logged_and_the_others_go_on(caplog):
    calls: list[str] = []
    controller = Controller(Journal(":memory:"), lights=Recorder("lights", calls, fail="events"),
                            sinks=[Recorder("screen", calls, fail="render"), Recorder("voice", calls)])
    with caplog.at_level(logging.ERROR):
        result = controller.handle("HS-NEW")
        controller.step()
    assert result.accepted and controller.table.phase is Phase.NEW_GAME
    assert calls == ["lights.events", "lights.render", "screen.events", "voice.events",
                     "lights.render", "screen.render", "voice.render"]
    assert "Recorder.events failed" in caplog.text and "Recorder.render failed" in caplog.text


def test_an_undo_reaches_the_sinks_as_an_undone_event_with_words():
    seen = []

    class Words(NullSink):
        def events(self, events, view, now):
            seen.append((list(events), view.call))
    controller = Controller(Journal(":memory:"), sinks=[Words()])
    controller.handle("HS-NEW")
    controller.handle("HS-UNDO")
    events, call = seen[-1]
    assert events == [Undone("HS-NEW")] and call and "HS-NEW" in call[0]


# ----- answers by request id ----------------------------------------------------------------------------------------
def test_a_phone_is_answered_by_the_request_id_of_its_input():
    answers = []
    hub = NS(publish=lambda view, claims, *more: None, outcome=lambda *a: answers.append(a))
    sink = WebSink(lambda fn, *args: fn(*args), hub)
    controller = Controller(Journal(":memory:"), sinks=[sink])
    first = controller.submit("HS-NEW", "web")
    same_text = controller.submit("HS-NEW", "web")
    bad = controller.submit("HS-NOPE", "web")
    scanned = controller.submit("HS-PLAYERS-2", "scan")
    assert len({first, same_text, bad, scanned}) == 4
    controller.step()
    assert answers[:2] == [(first, True, ""), (same_text, True, "")]
    assert answers[2][0] == bad and answers[2][1] is False and "HS-NOPE" in answers[2][2]
    assert answers[3] == (scanned, True, "")  # answered by id; nobody waits for it, so nothing happens


def test_handled_directly_an_input_has_no_request_and_no_phone_is_answered():
    answers = []
    hub = NS(publish=lambda view, claims, *more: None, outcome=lambda *a: answers.append(a))
    controller = Controller(Journal(":memory:"), sinks=[WebSink(lambda fn, *args: fn(*args), hub)])
    controller.handle("HS-NEW")
    assert controller.view.input.request is None and answers == []


# ----- the "add a sink" recipe (docs/architecture.md), through the real wiring -------------------------------------
class EventCounter(NullSink):
    """Counts what the kiosk hands it: accepted inputs, events by type, refusals, resets."""

    def __init__(self) -> None:
        self.inputs = 0
        self.events_seen: dict[str, int] = {}
        self.refusals: list[str] = []
        self.resets = 0

    def events(self, events, view, now):
        self.inputs += 1
        for e in events:
            self.events_seen[type(e).__name__] = self.events_seen.get(type(e).__name__, 0) + 1

    def refused(self, error, view, now):
        self.refusals.append(str(error))

    def reset(self, view, now):
        self.resets += 1


def test_an_added_sink_counts_the_events_of_real_inputs(tmp_path, monkeypatch):
    from companion.kiosk.wiring import build as wire
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    script = tmp_path / "scans.txt"
    script.write_text("\n".join(("HS-NEW", "HS-PLAYERS-2", "HS-NOPE", "HS-GO", "HS-UNDO")) + "\n")
    counter = EventCounter()
    kiosk = wire(parse_config(DEFAULT_TOML), mode="mock", db=tmp_path / "j.db", script=script,
                 sleep=lambda s: None, display="none", audio="none", web="off", extra_sinks=[counter])
    scanner = kiosk.hardware.scanner
    kiosk.run_forever(frame_interval=0.0, until=lambda: scanner.done.is_set() and kiosk.controller.inputs.empty())
    assert counter.inputs == 4  # HS-NEW, HS-PLAYERS-2, HS-GO, HS-UNDO
    assert counter.events_seen["NewGame"] == 1 and counter.events_seen["PlayersSet"] == 1
    assert counter.events_seen["Undone"] == 1 and counter.events_seen["PhaseChanged"] >= 1
    assert len(counter.refusals) == 1 and "HS-NOPE" in counter.refusals[0]
    assert counter.resets == 2  # the start from the journal, the undo
    assert kiosk.controller.table.phase is Phase.SETUP


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_race_call_is_worded_once_per_input_in_the_view(language):
    controller = Controller(Journal(":memory:"), language=language)
    controller.handle("HS-NEW")
    assert controller.view.call == ("New game: scan the player count",)
    assert controller.view.lines == ()  # the screen's race call panel has no line for a new game
    for text in TO_RACE[1:]:
        controller.handle(text)
    controller.handle("HS15")  # Hurley +3
    view = controller.view
    assert "Hurley" in " ".join(view.call) and "Hurley" in " ".join(view.lines)
    assert "HS15" in " ".join(view.call) and "HS15" not in " ".join(view.lines)  # the screen's lines are words
    assert "Hurley" in " ".join(view.announced)  # the announcer's phrasing, for the phone page
    controller.handle("XYZ")  # a refusal has no words of events
    assert controller.view.call == controller.view.lines == controller.view.announced == ()


# ----- boundaries -----------------------------------------------------------------------------------------------
def test_no_sink_folder_imports_the_kiosk_and_the_view_imports_only_the_rules():
    """The view imports the rules and, for the English name of an unnamed seat, the phrase catalogue (a leaf:
    it imports only the standard library)."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "companion"
    for folder in ("lights", "screen", "voice", "call", "odds", "web", "view", "service"):
        paths = list((root / folder).glob("*.py"))
        assert paths, f"no modules in {root / folder}"
        for path in paths:
            kiosk = {m for m in imported_modules(path) if m.startswith("companion.kiosk")}
            assert not kiosk, f"{path.relative_to(root)} imports {sorted(kiosk)}"
    for path in (root / "view").glob("*.py"):
        outside = {m for m in imported_modules(path)
                   if m.startswith("companion") and not m.startswith(("companion.rules", "companion.view"))
                   and m != "companion.catalogue"}
        assert not outside, f"{path.relative_to(root)} imports {sorted(outside)}"


def test_the_screen_model_imports_neither_the_samples_nor_the_table_model():
    import subprocess
    import sys
    code = ("import sys, companion.screen.model as m; print(sorted(k for k in sys.modules "
            "if k in ('companion.screen.samples', 'companion.screen.table_model')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    from companion.screen import model
    assert model.sample_model("attract").screen == "attract"  # still reachable from the model, on demand
