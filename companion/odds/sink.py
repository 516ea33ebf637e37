"""The odds' sink: live odds recomputed after each change, at low priority, without delaying the race call.

Two steps per situation: a quick estimate (``QUICK`` samples, about 0.1 s of CPU on a desktop core) is shown
at once, then the full one (``SAMPLES``) replaces it while the table waits. A newer situation (the next card)
supersedes the work: the full estimate is given up before its next pass of the deck and the quick estimate
of the newest situation comes next. Each result is tagged with its situation and the race
cards revealed when it was made (:class:`companion.view.table_view.OddsView`).

Where the work runs: a thread of the kiosk waits for requests and hands each one to one of two child
processes that run :func:`companion.odds.estimate.estimate` (spawned, each in its own session; see
:func:`lower_process_priority`): the quick estimates at the kiosk's priority (``QUICK_NICE``: a burst of about
0.1 s after each card, whose LED frame is already shown), the full ones at nice 10 (``NICE``). Why not nice 19
as before: in its own scheduling group at nice 19 the child got no CPU for seconds on a busy desktop (weight
15 against 1024 per busy group) and no card had odds; a superseded request is given up at once on the kiosk's
side, so a starved full estimate never holds the next card's quick one (docs/bench.md).

Why a process and not a niced thread: the sampling is mostly Python-level numpy calls, so a thread would hold the GIL most of the time and a scan would wait for it (up to the 5 ms
switch interval, again after every I/O of the main loop). Why its own session: with the kernel's autogroup
scheduling a session is one scheduling group, so a child in the kiosk's session spends the kiosk's share
of the CPU and a scan waits behind other groups (measured here: scan p99 318 ms with the child in the kiosk's
session, 22 ms in its own; bench/scan_bench.py). If the child cannot start (or dies), the work runs in the
thread instead, lowered to nice 10 on its own (Linux applies ``setpriority(PRIO_PROCESS, native thread id)``
to that one thread).
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import threading
from typing import Any, Callable, Protocol, Sequence

from companion.rules.events import Event
from companion.view.sink import NullSink
from companion.view.table_view import OddsView, TableView

log = logging.getLogger(__name__)

# Races sampled per estimate: enough that a shown whole % is within 1 point of the exact value (60,000 met it
# with 0.93 points at worst over 20 seeds and 3 situations in bench/odds_spread.py; 80,000 keeps a margin).
SAMPLES = 80000
# The quick first estimate of a new situation: about 0.1 s of CPU on one desktop core, within about 2.5 points.
QUICK = 2000
# Parts of the full estimate (a newer situation is looked for before each part and each pass of the deck; a
# part costs about 0.1 s of CPU of its own, so one).
CHUNKS = 1
NICE = 10
# The quick estimate's own child runs at the kiosk's priority: a short burst after each card, so a busy
# desktop cannot hold the first odds of a card back for seconds.
QUICK_NICE = 0


class Estimator(Protocol):
    """What computes the odds for the sink: ``estimator(known, players, race, samples=, seed=, chunks=,
    cancel=)`` returns :class:`companion.odds.estimate.Odds`; raises
    :class:`companion.odds.estimate.Cancelled` when ``cancel()`` turned True, ChildProcessError when its
    process is gone."""

    def __call__(self, known: list[str], players: int, race: Any, *, samples: int, seed: int, chunks: int,
                 cancel: Callable[[], bool] | None) -> Any: ...


def in_process(known: list[str], players: int, race: Any, *, samples: int, seed: int, chunks: int = 1,
               cancel: Callable[[], bool] | None = None) -> Any:
    """The estimator run on the caller's thread: :func:`companion.odds.estimate.estimate`."""
    from companion.odds.estimate import estimate
    return estimate(known, players, race, samples=samples, seed=seed, chunks=chunks, cancel=cancel)


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


def _serve(conn: Any, nice: int, superseded: Any = None) -> None:
    """The child process: estimate each ``(known, players, race, samples, seed, chunks)`` received, send back
    ``(True, odds)`` or ``(False, exception)``; gives an estimate up between chunks when ``superseded`` (an
    Event) is set; ends when the pipe closes (also when the kiosk is killed)."""
    lower_process_priority(nice)
    from companion.odds.estimate import estimate
    cancel = superseded.is_set if superseded is not None else None
    while True:
        try:
            known, players, race, samples, seed, chunks = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, Any] = (True, estimate(known, players, race, samples=samples, seed=seed,
                                                      chunks=chunks, cancel=cancel))
        except Exception as exc:  # noqa: BLE001 - handed back to the kiosk, which logs it once
            reply = (False, exc)
        try:
            conn.send(reply)
        except (OSError, EOFError):  # the kiosk is gone (killed, or closed the pipe): end quietly
            return


class OddsProcess:
    """An :class:`Estimator` run in a spawned child process at ``nice``.

    Started on the first call; raises the estimator's own errors, :class:`companion.odds.estimate.Cancelled`
    at once when ``cancel()`` turned True while it ran (looked at every ``poll`` seconds; the child is told
    and gives up at its next pass; its reply is skipped by the next call),
    and ChildProcessError (an OSError) when the child cannot start or stopped. ``close()`` ends the child."""

    def __init__(self, nice: int = NICE, poll: float = 0.02):
        self.nice = nice
        self.poll = poll
        self._proc: Any = None
        self._conn: Any = None
        self._superseded: Any = None
        self._owed = False  # a request was given up; its reply is still to come
        self._lock = threading.Lock()
        self._closed = False

    def __call__(self, known: list[str], players: int, race: Any, *, samples: int, seed: int, chunks: int = 1,
                 cancel: Callable[[], bool] | None = None) -> Any:
        from companion.odds.estimate import Cancelled
        with self._lock:
            if self._closed:
                raise ChildProcessError("the odds process is closed")
            if self._proc is None:
                self._start()
            conn, superseded = self._conn, self._superseded
        try:
            if self._owed:  # the reply to a request given up: the child ends it at its next pass
                if not self._wait(conn, cancel):
                    raise Cancelled("a newer request is waiting")
                conn.recv()
                self._owed = False
            superseded.clear()
            conn.send((known, players, race, samples, seed, chunks))
            if not self._wait(conn, cancel):  # given up at once: a starved child must not hold the next card
                superseded.set()
                self._owed = True
                raise Cancelled("a newer request is waiting")
            ok, value = conn.recv()
        except (OSError, EOFError, ValueError, AttributeError) as exc:  # ValueError, AttributeError: closed under us
            raise ChildProcessError(f"the odds process stopped ({exc or type(exc).__name__})") from None
        if not ok:
            raise value
        return value

    def _wait(self, conn: Any, cancel: Callable[[], bool] | None) -> bool:
        """Wait for the child's reply: True when it is there, False when ``cancel()`` turned True first."""
        while not conn.poll(self.poll):
            if cancel is not None and cancel():
                return False
            proc = self._proc
            if proc is None or (not proc.is_alive() and not conn.poll()):
                raise EOFError("the child ended")
        return True

    def _start(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # no fork of a process with threads and a display
        conn, child = ctx.Pipe()
        superseded = ctx.Event()
        proc = ctx.Process(target=_serve, args=(child, self.nice, superseded), name="hotstreak-odds", daemon=True)
        try:
            proc.start()
        except Exception as exc:  # noqa: BLE001 - e.g. no /dev/shm, or a main module that starts the kiosk
            conn.close()
            raise ChildProcessError(f"the odds process did not start ({exc})") from None
        finally:
            child.close()
        self._proc, self._conn, self._superseded = proc, conn, superseded

    def close(self) -> None:
        with self._lock:
            proc, conn, self._proc, self._conn, self._closed = self._proc, self._conn, None, None, True
        if proc is not None:
            conn.close()
            proc.terminate()
            proc.join(2.0)


_Want = tuple[str, list[str], int, Any, int, int]
"""One request: ``(key, known, players, race, cards, card)``."""


class OddsSink(NullSink):
    """Recomputes the live odds after each change, in the background, without delaying the race call.

    Only the newest situation is computed: first ``quick`` samples, then ``samples`` in ``chunks`` parts (the
    full estimate is given up, before its next pass of the deck, when a newer situation comes in). Results are cached by situation key (a full
    one replaces a quick one). Before race 1 the known cards are the face-up cards scanned in setup, counted
    as each is scanned; before races 2 and 3 the deck is treated as unknown (cards were dealt out and added
    face down); during a race the revealed cards count too. The seed is :func:`stable_seed` of the key, so
    the same situation shows the same odds after a restart. Each result goes to ``on_odds(OddsView)`` (with
    the race cards revealed and the samples), called from the odds thread (the controller's thread-safe
    :meth:`companion.kiosk.controller.Controller.odds_ready`), which puts it in the next TableView;
    ``current()`` gives ``{mascot: (p1, p2, p3, p4)}`` for the situation last asked, or None.

    ``estimate``: the :class:`Estimator` of the full estimates, ``quick_estimate`` of the quick ones (default:
    ``estimate``; without either, two :class:`OddsProcess` children: the full estimates at ``NICE``, the quick
    ones at ``QUICK_NICE``). An estimator that raises ChildProcessError is replaced by :func:`in_process` run
    in the thread (both are). ``background`` False computes
    each request at once on the caller's thread, quick then full (tests: nothing depends on scheduling).
    """

    def __init__(self, samples: int = SAMPLES, estimate: Callable[..., Any] | None = None,
                 on_odds: Callable[[OddsView], None] = lambda odds: None, *, quick: int = QUICK,
                 chunks: int = CHUNKS, background: bool = True, quick_estimate: Callable[..., Any] | None = None):
        if estimate is None:
            estimate = OddsProcess(NICE)
            quick_estimate = quick_estimate or OddsProcess(QUICK_NICE)
        self.estimate = estimate
        self.quick_estimate = quick_estimate or estimate
        self.samples = samples
        self.quick = min(quick, samples)
        self.chunks = max(1, min(chunks, samples))
        self.on_odds = on_odds
        self.background = background
        self._cache: dict[str, tuple[Any, bool]] = {}  # key -> (odds, full)
        self._want: _Want | None = None
        self._key: str | None = None
        self._cv = threading.Condition()
        self._stop = False
        self._failed = False
        self._thread: threading.Thread | None = None
        if background:
            self._thread = threading.Thread(target=self._work, name="odds", daemon=True)
            self._thread.start()

    def _request(self, view: TableView) -> None:
        situation = view.situation
        if situation is None:
            with self._cv:
                self._want, self._key = None, None
            return
        key = situation.key
        with self._cv:
            self._key = key
            cached = self._cache.get(key)
            if cached is None or not cached[1]:  # a copy: the worker's own, whatever the other sinks do with the view
                race = situation.race.copy() if situation.race is not None else None
                self._want = (key, list(situation.known), situation.players, race, situation.cards,
                              situation.card)
                self._cv.notify()
        if cached is not None:
            self._give(key, cached[0], situation.cards, situation.card)
        if not self.background:
            self._run_pending()

    def _give(self, key: str, odds: Any, cards: int, card: int) -> None:
        self.on_odds(OddsView({m.value: tuple(p) for m, p in odds.places.items()}, key, cards, card, odds.samples))

    def events(self, events: Sequence[Event], view: TableView, now: float) -> None:
        self._request(view)

    def reset(self, view: TableView, now: float) -> None:
        self._request(view)

    def current(self) -> dict[str, tuple[float, ...]] | None:
        with self._cv:
            hit = self._cache.get(self._key) if self._key else None
        if hit is None:
            return None
        return {m.value: tuple(p) for m, p in hit[0].places.items()}

    def pending(self) -> bool:
        """True while a situation waits for its (full) estimate."""
        with self._cv:
            return self._want is not None

    def _work(self) -> None:
        if not isinstance(self.estimate, OddsProcess):  # work in this thread: lowered (a child inherits its
            lower_thread_priority()                     # spawning thread's nice, so not before one starts)
        while True:
            with self._cv:
                while self._want is None and not self._stop:
                    self._cv.wait()
                if self._stop:
                    return
                want, self._want = self._want, None
            assert want is not None  # the wait ends on a stop or on a situation asked for
            self._compute(want)

    def _run_pending(self) -> None:
        with self._cv:
            want, self._want = self._want, None
        if want is not None:
            self._compute(want)

    def _newer(self, key: str) -> bool:
        """True when the work for ``key`` is superseded: a newer request, another situation, or stopping."""
        return self._want is not None or self._key != key or self._stop

    def _compute(self, want: _Want) -> None:
        """The quick estimate of ``want`` (unless cached), then the full one unless a newer request came."""
        key, known, players, race, cards, card = want
        seed = stable_seed(key)
        if key not in self._cache and self.quick < self.samples:
            if not self._estimate_and_give(want, self.quick, 1, seed, full=False):
                return
            if self._newer(key):
                return
        self._estimate_and_give(want, self.samples, self.chunks, seed, full=True)

    def _estimate_and_give(self, want: _Want, samples: int, chunks: int, seed: int, full: bool) -> bool:
        """Estimate and hand over; False when given up (superseded, failed, stopping)."""
        from companion.odds.estimate import Cancelled
        key, known, players, race, cards, card = want
        try:
            odds = self._estimate(known, players, race, samples, chunks, seed, lambda: self._newer(key), full)
        except Cancelled:
            return False
        except Exception as exc:  # noqa: BLE001 - odds are a nicety; the race goes on without them
            if self._stop:
                return False
            if not self._failed:
                log.warning("odds not available (%s); the race goes on without them", exc)
                self._failed = True
            return False
        with self._cv:
            self._cache[key] = (odds, full)
            if len(self._cache) > 500:
                self._cache.pop(next(iter(self._cache)))
            # odds of an earlier situation are handed over only while the newest has none yet
            wanted = key == self._key or self._key not in self._cache
        if not wanted:
            return False
        try:
            self._give(key, odds, cards, card)
        except Exception:  # noqa: BLE001 - a closed kiosk; the odds stay in the cache
            log.exception("odds not handed over")
        return True

    def _estimate(self, known: list[str], players: int, race: Any, samples: int, chunks: int, seed: int,
                  cancel: Callable[[], bool], full: bool) -> Any:
        estimator = self.estimate if full else self.quick_estimate
        try:
            return estimator(known, players, race, samples=samples, seed=seed, chunks=chunks, cancel=cancel)
        except ChildProcessError as exc:
            if estimator is in_process or self._stop:
                raise
            log.warning("odds process stopped (%s); odds go on in a low-priority thread", exc)
            if self.background:
                lower_thread_priority()
            self._close_estimators()
            self.estimate = self.quick_estimate = in_process
            return in_process(known, players, race, samples=samples, seed=seed, chunks=chunks, cancel=cancel)

    def _close_estimators(self) -> None:
        for estimator in {id(e): e for e in (self.estimate, self.quick_estimate)}.values():
            close = getattr(estimator, "close", None)
            if close is not None:
                close()

    def close(self) -> None:
        with self._cv:
            self._stop = True
            self._cv.notify()
        self._close_estimators()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
