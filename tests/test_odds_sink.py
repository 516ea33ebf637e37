"""Live odds in the kiosk: recomputed in the background after each change, never delaying the race call."""

import threading

from companion.kiosk.controller import Controller
from companion.kiosk.journal import Journal
from companion.odds.sink import OddsSink


class SlowEstimate:
    """An estimator that blocks until the test releases it, recording what it was asked."""

    def __init__(self):
        self.release = threading.Event()
        self.calls = []
        self.done = threading.Event()

    def __call__(self, known, players, race, *, samples, seed):
        self.calls.append((list(known), players, race.position() if race else None))
        self.release.wait(5)
        from companion.odds.estimate import estimate
        result = estimate(known, players, race, samples=200, seed=seed)
        self.done.set()
        return result


def test_odds_are_computed_in_the_background_and_shown_when_ready():
    slow = SlowEstimate()
    sink = OddsSink(estimate=slow)
    controller = Controller(Journal(":memory:"), sinks=[sink])
    try:
        for text in ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO"):
            assert controller.handle(text).accepted
        result = controller.handle("HS15")  # returns while the estimator is still blocked
        assert result.accepted and sink.current() is None
        slow.release.set()
        assert slow.done.wait(10)
        for _ in range(100):
            if sink.current() is not None:
                break
            threading.Event().wait(0.02)
        odds = sink.current()
        assert odds is not None and set(odds) == {"gobbler", "hurley", "dangle", "mum"}
        assert abs(sum(odds["hurley"]) - 1.0) < 1e-9
        # the newest request wins: the last position asked for is the race after H+3
        assert slow.calls[-1][2].startswith("G1.3 H2.6")
    finally:
        sink.close()


def test_no_odds_outside_a_game_and_during_payouts():
    sink = OddsSink(estimate=lambda *a, **k: (_ for _ in ()).throw(AssertionError("not asked")))
    controller = Controller(Journal(":memory:"), sinks=[sink])
    try:
        controller.handle("HS-NEW")
        assert sink.current() is None
    finally:
        sink.close()


def test_a_failing_estimator_leaves_the_race_going():
    def broken(*args, **kwargs):
        raise ValueError("too many face-up cards")

    sink = OddsSink(estimate=broken)
    controller = Controller(Journal(":memory:"), sinks=[sink])
    try:
        for text in ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO", "HS15"):
            assert controller.handle(text).accepted
        assert sink.current() is None
    finally:
        sink.close()


def test_odds_keep_coming_in_later_passes_of_a_tracked_race():
    from companion.tools.demo import parse_script, script_path

    sink = OddsSink(samples=200)
    controller = Controller(Journal(":memory:"), sinks=[sink])
    try:
        texts = [t for t, _ in parse_script(script_path().read_text())]
        start = texts.index("HS-GO", texts.index("HS-GO", texts.index("HS-GO") + 1) + 1) + 1  # race 1 begins
        for text in texts[:start + 17]:  # through pass 1 into pass 2 of race 1
            controller.handle(text)
        race = controller.table.game.race
        assert race.pass_no == 2 and controller.table.game.face_up
        for _ in range(250):
            if sink.current() is not None and sink._key in sink._cache:
                break
            threading.Event().wait(0.02)
        assert sink.current() is not None and not sink._failed
    finally:
        sink.close()
