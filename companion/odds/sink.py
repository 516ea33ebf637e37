"""The odds' sink: live odds recomputed in a background thread after each change."""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

from companion.kiosk.controller import BaseSink
from companion.rules.events import Event
from companion.rules.table import Table

log = logging.getLogger(__name__)


class OddsSink(BaseSink):
    """Recomputes the live odds in a background thread after each change, without delaying the race call.

    Only the newest request is computed (older ones are dropped); results are cached by race position string.
    Before race 1 the known cards are the face-up cards scanned in setup; before races 2 and 3 the deck is
    treated as unknown (cards were dealt out and added face down); during a race the revealed cards count too.
    ``current()`` gives ``{mascot: (p1, p2, p3, p4)}`` for the screen, or None.
    """

    def __init__(self, samples: int = 10000, estimate: Callable[..., Any] | None = None):
        if estimate is None:
            from companion.odds.estimate import estimate
        self.estimate = estimate
        self.samples = samples
        self._cache: dict[str, Any] = {}
        self._want: tuple | None = None
        self._shown: Any = None
        self._key: str | None = None
        self._cv = threading.Condition()
        self._stop = False
        self._failed = False
        self._thread = threading.Thread(target=self._work, name="odds", daemon=True)
        self._thread.start()

    def _request(self, table: Table) -> None:
        game = table.game
        if game is None or table.phase in ("payouts", "game-over", "new-game"):
            with self._cv:
                self._want, self._key = None, None
            return
        race = game.race if table.phase == "racing" else None
        # race 1 starts from the face-up cards scanned in setup; the race itself tells the estimator every
        # card revealed so far. Before races 2-3 cards were dealt out and added face down: unknown deck.
        known = list(game.face_up) if game.race_no == 1 else []
        key = f"{game.players}|{game.race_no}|{','.join(sorted(known))}|{race.position() if race else 'start'}"
        with self._cv:
            self._key = key
            if key not in self._cache:
                self._want = (key, known, game.players, race.copy() if race is not None else None)
                self._cv.notify()

    def events(self, events: list[Event], table: Table, now: float) -> None:
        self._request(table)

    def reset(self, table: Table, now: float) -> None:
        self._request(table)

    def current(self) -> dict[str, tuple[float, ...]] | None:
        with self._cv:
            odds = self._cache.get(self._key) if self._key else None
        if odds is None:
            return None
        return {m.value: tuple(p) for m, p in odds.places.items()}

    def _work(self) -> None:
        while True:
            with self._cv:
                while self._want is None and not self._stop:
                    self._cv.wait()
                if self._stop:
                    return
                key, known, players, race = self._want
                self._want = None
            try:
                odds = self.estimate(known, players, race, samples=self.samples, seed=hash(key) & 0xFFFF)
            except Exception as exc:  # noqa: BLE001 - odds are a nicety; the race goes on without them
                if not self._failed:
                    log.warning("odds not available (%s); the race goes on without them", exc)
                    self._failed = True
                continue
            with self._cv:
                self._cache[key] = odds
                if len(self._cache) > 500:
                    self._cache.pop(next(iter(self._cache)))

    def close(self) -> None:
        with self._cv:
            self._stop = True
            self._cv.notify()
        self._thread.join(timeout=2.0)
