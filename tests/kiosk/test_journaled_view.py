"""The view's ``journaled`` entries: the same as the game's entries after every input, an undo and a new game,
each entry's view made once (a long game costs a tuple copy per input, not a new object per entry)."""

from __future__ import annotations

import random

from companion.kiosk.controller import Controller
from companion.kiosk.journal import Journal
from companion.view.table_view import Journaled


def expected(controller: Controller) -> tuple[Journaled, ...]:
    return tuple(Journaled(e.id, e.source, e.text, bool(e.skipped) or e.id in controller.skipped)
                 for e in controller.entries)


def test_journaled_follows_the_game_through_inputs_undo_and_a_new_game(tmp_path):
    with Journal(tmp_path / "journal.db") as journal:
        controller = Controller(journal, rng=random.Random(1))
        steps = [("HS-NEW", "scan"), ("HS-PLAYERS-3", "scan"), ("HS-NAME-1:Ann", "web"), ("HS-NAME-2:Bo", "key"),
                 ("HS-UNDO", "scan"), ("HS-NAME-1:Annie", "web"), ("HS-NEW", "scan"), ("HS-PLAYERS-4", "scan")]
        before: tuple[Journaled, ...] = ()
        for text, source in steps:
            assert controller.handle(text, source).accepted, text
            now = controller.view.journaled
            assert now == expected(controller), text
            if text.startswith("HS-NAME") and len(now) > len(before):  # one more input: the rest reused
                assert all(a is b for a, b in zip(now, before))
            before = now
        assert [j.text for j in before] == ["HS-NEW", "HS-PLAYERS-4"]
