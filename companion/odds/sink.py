"""The odds' sink: live odds recomputed after each change, at low priority, without delaying the race call.

Where the work runs: a thread of the kiosk waits for requests and hands each one to a child process that runs
:func:`companion.odds.estimate.estimate` (spawned, in its own session, nice 19; see
:func:`lower_process_priority`). Why a process and not a niced thread: the sampling is mostly Python-level
numpy calls, so a thread would hold the GIL most of the time and a scan would wait for it (up to the 5 ms
switch interval, again after every I/O of the main loop). Why its own session: with the kernel's autogroup
scheduling a session is one scheduling group, so a child in the kiosk's session spends the kiosk's share
of the CPU and a scan waits behind other groups (measured here: scan p99 318 ms with the child in the kiosk's
session, 22 ms in its own; bench/scan_bench.py). If the child cannot start (or dies), the work runs in the
thread instead, lowered to nice 19 on its own (Linux applies ``setpriority(PRIO_PROCESS, native thread id)``
to that one thread).
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import threading
from typing import Any, Callable, Sequence

from companion.rules.events import Event
from companion.view.sink import NullSink
from companion.view.table_view import OddsView, TableView, odds_situation

log = logging.getLogger(__name__)

# Races sampled per estimate: enough that a shown whole % is within 1 point of the exact value (60,000 met it
# with 0.93 points at worst over 20 seeds and 3 situations in bench/odds_spread.py; 80,000 keeps a margin).
SAMPLES = 80000
NICE = 19


def stable_seed(key: str) -> int:
    """A seed from ``key`` that is the same in every process and run (``hash()`` of a str is not): the first
    8 bytes of its BLAKE2b digest, as an int."""
    return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "big")


def lower_thread_priority(nice: int = NICE) -> bool:
    """Lower the calling thread (only it, on Linux) to ``nice``; False where that is not possible."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
        return True
    except (AttributeError, OSError):
        return False


def lower_process_priority(nice: int = NICE) -> None:
    """Make the calling process yield to the kiosk: its own session (with the kernel's autogroup scheduling,
    on in Debian and Raspberry Pi OS kernels, a session is one scheduling group, so the kiosk's group is not
    charged for this work), that group lowered to ``nice``, and the process itself at ``nice``. Each step is
    skipped where the system does not allow it."""
    try:
        os.setsid()
    except OSError:
        pass
    try:
        with open("/proc/self/autogroup", "w") as f:
            f.write(str(nice))
    except OSError:
        pass
    try:
        os.nice(nice)
    except OSError:
        pass


def _serve(conn: Any, nice: int) -> None:
    """The child process: estimate each ``(known, players, race, samples, seed)`` received, send back
    ``(True, odds)`` or ``(False, exception)``; ends when the pipe closes (also when the kiosk is killed)."""
    lower_process_priority(nice)
    from companion.odds.estimate import estimate
    while True:
        try:
            known, players, race, samples, seed = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, Any] = (True, estimate(known, players, race, samples=samples, seed=seed))
        except Exception as exc:  # noqa: BLE001 - handed back to the kiosk, which logs it once
            reply = (False, exc)
        try:
            conn.send(reply)
        except (OSError, EOFError):  # the kiosk is gone (killed, or closed the pipe): end quietly
            return


class OddsProcess:
    """``estimate(known, players, race, samples=, seed=)`` run in a spawned child process at ``nice``.

    Started on the first call; raises the estimator's own errors, and ChildProcessError (an OSError) when the
    child cannot start or stopped. ``close()`` ends the child."""

    def __init__(self, nice: int = NICE):
        self.nice = nice
        self._proc: Any = None
        self._conn: Any = None
        self._lock = threading.Lock()
        self._closed = False

    def __call__(self, known: list[str], players: int, race: Any, *, samples: int, seed: int) -> Any:
        with self._lock:
            if self._closed:
                raise ChildProcessError("the odds process is closed")
            if self._proc is None:
                self._start()
            conn = self._conn
        try:
            conn.send((known, players, race, samples, seed))
            ok, value = conn.recv()
        except (OSError, EOFError, ValueError) as exc:  # ValueError: the pipe was closed under us
            raise ChildProcessError(f"the odds process stopped ({exc or type(exc).__name__})") from None
        if not ok:
            raise value
        return value

    def _start(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # no fork of a process with threads and a display
        conn, child = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(child, self.nice), name="hotstreak-odds", daemon=True)
        try:
            proc.start()
        except Exception as exc:  # noqa: BLE001 - e.g. no /dev/shm, or a main module that starts the kiosk
            conn.close()
            raise ChildProcessError(f"the odds process did not start ({exc})") from None
        finally:
            child.close()
        self._proc, self._conn = proc, conn

    def close(self) -> None:
        with self._lock:
            proc, conn, self._proc, self._conn, self._closed = self._proc, self._conn, None, None, True
        if proc is not None:
            conn.close()
            proc.terminate()
            proc.join(2.0)


class OddsSink(NullSink):
    """Recomputes the live odds after each change, in the background, without delaying the race call.

    Only the newest request is computed (older ones are dropped); results are cached by the request key.
    Before race 1 the known cards are the face-up cards scanned in setup, counted as each is scanned; before
    races 2 and 3 the deck is treated as unknown (cards were dealt out and added face down); during a race the
    revealed cards count too. The seed is :func:`stable_seed` of the key, so the same situation shows the same
    odds after a restart. Each result goes to ``on_odds(OddsView)`` (called from the odds thread: the
    controller's thread-safe :meth:`companion.kiosk.controller.Controller.odds_ready`), which puts it in the next
    TableView; ``current()`` gives ``{mascot: (p1, p2, p3, p4)}`` for the situation last asked, or None.
    ``estimate`` replaces the estimator (run in the thread; for tests); by default it runs in an
    :class:`OddsProcess`.
    """

    def __init__(self, samples: int = SAMPLES, estimate: Callable[..., Any] | None = None,
                 on_odds: Callable[[OddsView], None] = lambda odds: None):
        self._process: OddsProcess | None = None
        if estimate is None:
            self._process = OddsProcess()
            estimate = self._process
        self.estimate = estimate
        self.samples = samples
        self.on_odds = on_odds
        self._cache: dict[str, Any] = {}
        self._want: tuple[Any, ...] | None = None
        self._key: str | None = None
        self._cv = threading.Condition()
        self._stop = False
        self._failed = False
        self._thread = threading.Thread(target=self._work, name="odds", daemon=True)
        self._thread.start()

    def _request(self, view: TableView) -> None:
        situation = odds_situation(view)
        if situation is None:
            with self._cv:
                self._want, self._key = None, None
            return
        key = situation.key
        with self._cv:
            self._key = key
            cached = self._cache.get(key)
            if cached is None:  # a copy: the worker's own, whatever the other sinks do with the view
                race = situation.race.copy() if situation.race is not None else None
                self._want = (key, list(situation.known), situation.players, race, situation.cards)
                self._cv.notify()
        if cached is not None:
            self._give(key, cached, situation.cards)

    def _give(self, key: str, odds: Any, cards: int) -> None:
        self.on_odds(OddsView({m.value: tuple(p) for m, p in odds.places.items()}, key, cards))

    def events(self, events: Sequence[Event], view: TableView, now: float) -> None:
        self._request(view)

    def reset(self, view: TableView, now: float) -> None:
        self._request(view)

    def current(self) -> dict[str, tuple[float, ...]] | None:
        with self._cv:
            odds = self._cache.get(self._key) if self._key else None
        if odds is None:
            return None
        return {m.value: tuple(p) for m, p in odds.places.items()}

    def _work(self) -> None:
        lower_thread_priority()
        while True:
            with self._cv:
                while self._want is None and not self._stop:
                    self._cv.wait()
                if self._stop:
                    return
                assert self._want is not None  # the wait ends on a stop or on a situation asked for
                key, known, players, race, cards = self._want
                self._want = None
            try:
                odds = self._estimate(known, players, race, stable_seed(key))
            except Exception as exc:  # noqa: BLE001 - odds are a nicety; the race goes on without them
                if self._stop:
                    return
                if not self._failed:
                    log.warning("odds not available (%s); the race goes on without them", exc)
                    self._failed = True
                continue
            with self._cv:
                self._cache[key] = odds
                if len(self._cache) > 500:
                    self._cache.pop(next(iter(self._cache)))
            try:
                self._give(key, odds, cards)
            except Exception:  # noqa: BLE001 - a closed kiosk; the odds stay in the cache
                log.exception("odds not handed over")

    def _estimate(self, known: list[str], players: int, race: Any, seed: int) -> Any:
        try:
            return self.estimate(known, players, race, samples=self.samples, seed=seed)
        except ChildProcessError as exc:
            if self._process is None or self._stop:
                raise
            log.warning("odds process stopped (%s); odds go on in a low-priority thread", exc)
            self._process.close()
            self._process = None
            from companion.odds.estimate import estimate
            self.estimate = estimate
            return estimate(known, players, race, samples=self.samples, seed=seed)

    def close(self) -> None:
        with self._cv:
            self._stop = True
            self._cv.notify()
        if self._process is not None:
            self._process.close()
        self._thread.join(timeout=2.0)
