"""The announcer's voice: espeak-ng renders lines to a WAV cache; a queue keeps the voice within a card of the race.

- :class:`VoiceCache`: ``espeak-ng -v VOICE -w FILE TEXT`` into a cache folder, one file per hash of
  voice + speed + text, mastered once (its silent tail trimmed, its level set: ``companion.voice.levels``); a
  cached line costs only a file lookup.
- :class:`VoiceQueue`: lines tagged with the card they belong to; when a newer card is revealed, waiting lines
  of older cards are dropped (nothing starts after the next card is revealed), and lines older than their
  ``max_age`` seconds; a newer line with the same ``slot`` replaces a waiting one; a line may wait a ``delay``
  after it is queued (its card's sound effect goes first). On the caller's clock.
- :class:`Voice`: the two together with an audio backend (``hardware.audio``); renders ahead in the background
  (fixed lines) and on demand (the rest), plays the next line when the voice channel is free, cuts a line two
  cards behind or a plain line when an essential one of a newer card waits. Call :meth:`Voice.update` once a
  frame. :meth:`Voice.close` returns within a fraction of a second in every state (it kills a running
  espeak-ng and stops the pre-rendering).

>>> voice = Voice(MockAudio(), "nl", clock=time.monotonic)          # doctest: +SKIP
>>> voice.say("Hurley rent naar vak 6!", card=1); voice.update()     # doctest: +SKIP

Without espeak-ng the voice is a no-op after one log line; sound effects still play.
"""

from __future__ import annotations

import collections
import concurrent.futures
import hashlib
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Literal, Protocol

from companion.voice.levels import master_line

log = logging.getLogger("hotstreak.voice")

Clock = Callable[[], float]


class VoiceUnavailable(RuntimeError):
    """espeak-ng is missing or failed to render a line."""


def default_cache_dir() -> Path:
    """``$HOTSTREAK_VOICE_CACHE``, else ``$XDG_CACHE_HOME/hotstreak/voice``, else ``~/.cache/hotstreak/voice``."""
    if os.environ.get("HOTSTREAK_VOICE_CACHE"):
        return Path(os.environ["HOTSTREAK_VOICE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hotstreak" / "voice"


MASTERING = "trim50ms-18dB"
"""The mastering of the cached lines (:func:`companion.voice.levels.master_line`), part of each file's cache key:
a change of mastering renders every line again instead of playing a file mastered the old way."""

CACHE_CAP_BYTES = 64 * 1024 * 1024
"""The voice cache's default size cap: past it, the least recently used WAVs are deleted (a few thousand lines;
every fixed line of one language is about 25 MB)."""


class VoiceCache:
    """Renders text to WAV files with espeak-ng, once per (voice, speed, text).

    ``cache_dir``: where the WAVs go (the kiosk passes the config's cache folder + ``voice``; default
    :func:`default_cache_dir`); ``$HOTSTREAK_VOICE_CACHE``, when set, wins over both, as the environment wins
    over the config elsewhere. ``speed``: words per minute.
    ``max_bytes``: size cap of the folder; after a render the least recently used WAVs go first (None: no cap).
    ``run``: a subprocess.run-like runner (tests pass a fake); by default espeak-ng runs as a child process that
    :meth:`stop` kills at once.
    """

    def __init__(self, cache_dir: str | Path | None = None, espeak: str = "espeak-ng", speed: int = 175,
                 run: Callable[..., subprocess.CompletedProcess[bytes]] | None = None,
                 max_bytes: int | None = CACHE_CAP_BYTES) -> None:
        from_env = os.environ.get("HOTSTREAK_VOICE_CACHE")
        self.dir = Path(from_env) if from_env else Path(cache_dir) if cache_dir else default_cache_dir()
        self.espeak = espeak
        self.speed = speed
        self.max_bytes = max_bytes
        self._run = run
        self._stopped = threading.Event()
        self._procs: set[subprocess.Popen[bytes]] = set()
        self._lock = threading.Lock()
        self._size: int | None = None

    def available(self) -> bool:
        """True if the espeak-ng program can be found."""
        return self._run is not None or shutil.which(self.espeak) is not None

    def path_for(self, text: str, voice: str) -> Path:
        """The cache file of a line (it may not exist yet)."""
        digest = hashlib.sha256(f"{voice}\0{self.speed}\0{MASTERING}\0{text}".encode()).hexdigest()[:32]
        return self.dir / voice / f"{digest}.wav"

    def has(self, text: str, voice: str) -> bool:
        return self.path_for(text, voice).exists()

    def render(self, text: str, voice: str) -> Path:
        """The WAV of ``text`` in ``voice``, rendered now if not cached and mastered (silent tail trimmed, level
        set; a file espeak-ng wrote that is not 16-bit PCM WAV is kept as it is). Raises VoiceUnavailable naming
        the cause (also when the cache was stopped)."""
        path = self.path_for(text, voice)
        if path.exists():
            try:
                os.utime(path)  # recently used: evicted last
            except OSError:
                pass
            return path
        if self._stopped.is_set():
            raise VoiceUnavailable("the voice is stopping")
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(suffix=".part", dir=path.parent)  # not a *.wav until it is whole
        os.close(fd)
        try:
            argv = [self.espeak, "-v", voice, "-s", str(self.speed), "-w", tmp, "--", text]
            try:
                done = (self._run or self._run_child)(argv, capture_output=True, timeout=30)
            except FileNotFoundError:
                raise VoiceUnavailable(f"{self.espeak} is not installed (apt-get install espeak-ng)") from None
            except subprocess.TimeoutExpired:
                raise VoiceUnavailable(f"{self.espeak} took over 30 s on {text!r}") from None
            if self._stopped.is_set():
                raise VoiceUnavailable("the voice is stopping")
            if done.returncode != 0 or os.path.getsize(tmp) == 0:
                err = (done.stderr or b"").decode(errors="replace").strip()
                raise VoiceUnavailable(f"{self.espeak} -v {voice} failed on {text!r}: {err or done.returncode}")
            master_line(tmp)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        self._added(path)
        return path

    def _run_child(self, argv: list[str], capture_output: bool = True, timeout: float = 30
                   ) -> subprocess.CompletedProcess[bytes]:
        """Run espeak-ng as a child that :meth:`stop` can kill."""
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        with self._lock:
            self._procs.add(proc)
        try:
            if self._stopped.is_set():
                _kill(proc)
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            proc.communicate()
            raise
        finally:
            with self._lock:
                self._procs.discard(proc)
        return subprocess.CompletedProcess(argv, proc.returncode, out, err)

    def _added(self, path: Path) -> None:
        """Count a new file against the cap; past it, delete the least recently used WAVs."""
        if self.max_bytes is None:
            return
        with self._lock:
            if self._size is None:
                self._size = sum(_size(p) for p in self.dir.glob("*/*.wav"))
            else:
                self._size += _size(path)
            if self._size <= self.max_bytes:
                return
            files = sorted(self.dir.glob("*/*.wav"), key=_mtime)
            self._size = sum(_size(p) for p in files)
            for old in files:
                if self._size <= self.max_bytes * 0.9:
                    break
                if old == path:
                    continue
                size = _size(old)
                old.unlink(missing_ok=True)
                self._size -= size

    def size(self) -> int:
        """Bytes of WAVs in the cache now."""
        return sum(_size(p) for p in self.dir.glob("*/*.wav"))

    def prerender(self, lines: Iterable[str], voice: str) -> int:
        """Render every line not yet cached; returns how many were rendered. Ends early once :meth:`stop`."""
        count = 0
        for text in lines:
            if self._stopped.is_set():
                break
            if not self.has(text, voice):
                self.render(text, voice)
                count += 1
        return count

    def stop(self) -> None:
        """Stop rendering: kill any espeak-ng running now; later renders raise VoiceUnavailable."""
        self._stopped.set()
        with self._lock:
            procs = list(self._procs)
        for proc in procs:
            _kill(proc)


def _size(path: Path) -> int:
    """Bytes of a cached file; 0 once gone (another process sharing the cache may evict it meanwhile)."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill a renderer and anything it started (its own process group), so its pipes close at once."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        try:
            proc.kill()
        except OSError:
            pass


DEFAULT = -1.0
"""``max_age`` of a line that follows its queue's default."""


@dataclass
class Line:
    """A queued voice line: ``card`` is the race card it belongs to (a number that grows with every card
    revealed; None: not tied to a card, e.g. a table line), ``at`` the clock time it was queued, ``priority``
    0 for essential news, ``slot`` (a newer line with the same slot replaces it while waiting), ``max_age``
    seconds it may wait (None: no limit; :data:`DEFAULT`: the queue's), ``meta`` anything the caller keeps
    with it, ``delay`` seconds after ``at`` before it may start (:attr:`ready_at`)."""

    text: str
    card: int | None
    at: float
    priority: int = 1
    slot: str | None = None
    max_age: float | None = DEFAULT
    meta: Any = None
    delay: float = 0.0

    @property
    def ready_at(self) -> float:
        """The clock time from which the line may start."""
        return self.at + self.delay


class VoiceQueue:
    """Lines waiting to be spoken, oldest first. A waiting line more than ``max_lag_cards`` cards behind the
    newest card is dropped (0: nothing of a card starts once the next card is revealed).

    ``clock``: seconds (monotonic). ``max_age``: also drop lines waiting longer than this many seconds (None: no
    limit), unless a line says otherwise. Dropped lines are kept in ``dropped`` (for tests and the log).
    """

    def __init__(self, clock: Clock, max_lag_cards: int = 0, max_age: float | None = 8.0):
        if max_lag_cards < 0:
            raise ValueError(f"max_lag_cards {max_lag_cards} must be 0 or more")
        self.clock = clock
        self.max_lag_cards = max_lag_cards
        self.max_age = max_age
        self.newest_card: int | None = None
        self._lines: collections.deque[Line] = collections.deque()
        self.dropped: list[Line] = []

    def __len__(self) -> int:
        return len(self._lines)

    def __iter__(self) -> Iterator[Line]:
        return iter(list(self._lines))

    def put(self, text: str, card: int | None = None, priority: int = 1, slot: str | None = None,
            max_age: float | None = DEFAULT, meta: Any = None, delay: float = 0.0) -> Line:
        """Queue a line for ``card``, to start no sooner than ``delay`` seconds from now; a newer card makes
        waiting lines more than ``max_lag_cards`` behind it stale; a line with a ``slot`` replaces a waiting line
        of that slot."""
        if card is not None and (self.newest_card is None or card > self.newest_card):
            self.newest_card = card
        if slot is not None:
            gone = [line for line in self._lines if line.slot == slot]
            self._lines = collections.deque(line for line in self._lines if line.slot != slot)
            self.dropped.extend(gone)
        line = Line(text, card, self.clock(), priority, slot, max_age, meta, delay)
        self._lines.append(line)
        self.drop_stale()
        return line

    def behind(self, line: Line) -> int:
        """How many cards ``line`` is behind the newest card (0 for a table line)."""
        if line.card is None or self.newest_card is None:
            return 0
        return max(0, self.newest_card - line.card)

    def is_stale(self, line: Line) -> bool:
        """True if ``line`` is too far behind the newest card, or has waited longer than its max age."""
        if self.behind(line) > self.max_lag_cards:
            return True
        age = self.max_age if line.max_age == DEFAULT else line.max_age
        return age is not None and self.clock() - line.at > age

    def drop_stale(self) -> list[Line]:
        """Remove and return the stale lines."""
        keep: collections.deque[Line] = collections.deque()
        gone: list[Line] = []
        for line in self._lines:
            (gone if self.is_stale(line) else keep).append(line)
        self._lines = keep
        self.dropped.extend(gone)
        return gone

    def peek(self) -> Line | None:
        """The next line to speak (after dropping stale ones), left in the queue."""
        self.drop_stale()
        return self._lines[0] if self._lines else None

    def pop(self) -> Line | None:
        """Take the next line to speak, or None."""
        self.drop_stale()
        return self._lines.popleft() if self._lines else None

    def clear(self) -> None:
        self._lines.clear()


class VoiceChannel(Protocol):
    """Where the voice plays, one line at a time (every :class:`hardware.device.AudioOut` is one)."""

    def play_voice(self, path: str | Path) -> None: ...

    def voice_busy(self) -> bool: ...

    def stop_voice(self) -> None: ...


class LineRenderer(Protocol):
    """Renders lines to sound files for :class:`Voice` (:class:`VoiceCache` is the real one): ``espeak`` names
    the program, ``path_for``/``render`` give the file of a line (render raises VoiceUnavailable)."""

    espeak: str

    def available(self) -> bool: ...

    def has(self, text: str, voice: str) -> bool: ...

    def path_for(self, text: str, voice: str) -> str | Path: ...

    def render(self, text: str, voice: str) -> str | Path: ...

    def prerender(self, lines: Iterable[str], voice: str) -> int: ...

    def stop(self) -> None: ...


class Voice:
    """Speaks lines through ``audio`` in ``voice`` (an espeak-ng voice, e.g. ``nl``) with a :class:`VoiceQueue`.

    ``background``: render in worker threads (on-demand lines never wait behind the pre-rendering of fixed
    lines); False renders inside :meth:`update` (tests, the pace simulation). A line still playing is cut when
    it is more than ``cut_lag`` cards behind, or when it is not essential and an essential line of a newer
    card waits. Without espeak-ng the voice logs once and says nothing.
    """

    def __init__(self, audio: VoiceChannel, voice: str, clock: Clock, cache: LineRenderer | None = None,
                 max_lag_cards: int = 0, max_age: float | None = 8.0, background: bool = True,
                 cut_lag: int = 1) -> None:
        self.audio = audio
        self.voice = voice
        self.clock = clock
        self.cache: LineRenderer = cache or VoiceCache()
        self.queue = VoiceQueue(clock, max_lag_cards, max_age)
        self.cut_lag = cut_lag
        self.current: Line | None = None
        self.enabled = self.cache.available()
        if not self.enabled:
            log.warning("no voice: %s not found; the race goes on without the announcer", self.cache.espeak)
        self._background = background
        self._now_pool = concurrent.futures.ThreadPoolExecutor(1, "voice-now") if background else None
        self._ahead_pool = concurrent.futures.ThreadPoolExecutor(1, "voice-ahead") if background else None
        self._jobs: dict[str, concurrent.futures.Future[str | Path]] = {}
        self._failed_once = False
        self.closed = False

    def say(self, text: str, card: int | None = None, priority: int = 1, slot: str | None = None,
            max_age: float | None = DEFAULT, meta: Any = None, delay: float = 0.0) -> None:
        """Queue ``text`` for ``card`` (see :class:`Line`), to start no sooner than ``delay`` seconds from now,
        and start rendering it."""
        if not self.enabled or self.closed:
            return
        self.queue.put(text, card, priority, slot, max_age, meta, delay)
        if self._now_pool is not None and text not in self._jobs and not self.cache.has(text, self.voice):
            self._jobs[text] = self._now_pool.submit(self.cache.render, text, self.voice)

    def prerender(self, lines: Iterable[str]) -> concurrent.futures.Future[int] | int:
        """Render ``lines`` ahead (in the background when ``background``); returns the future or the count."""
        if not self.enabled:
            return 0
        lines = list(lines)
        if self._ahead_pool is not None:
            return self._ahead_pool.submit(self._prerender_quietly, lines)
        return self.cache.prerender(lines, self.voice)

    def _prerender_quietly(self, lines: list[str]) -> int:
        try:
            return self.cache.prerender(lines, self.voice)
        except VoiceUnavailable as exc:
            if not self.closed:
                log.warning("voice pre-rendering stopped: %s", exc)
            return 0

    def update(self) -> Line | None:
        """Call once a frame: cut a stale line, then start the next ready line if the channel is free.
        Returns the line started, if any."""
        if self.closed:
            return None
        if self.current is not None and self.audio.voice_busy() and self._cut(self.current):
            self.audio.stop_voice()
            self.queue.dropped.append(self.current)
            self.current = None
        if self.audio.voice_busy():
            return None
        while True:
            line = self.queue.peek()
            if line is None or line.ready_at > self.clock() + 1e-9:
                return None  # nothing, or its sound effect goes first: keep the order
            path = self._ready(line.text)
            if path is None:
                return None  # still rendering: keep the order, try again next frame
            self.queue.pop()
            if path is False:
                continue
            self.audio.play_voice(path)
            self.current = line
            return line

    def _cut(self, line: Line) -> bool:
        """True if the playing ``line`` should stop: too many cards behind, or plain news in the way of an
        essential line of a newer card."""
        if line.card is None:
            return False
        if self.queue.behind(line) > self.cut_lag:
            return True
        head = self.queue.peek()
        return (head is not None and head.card is not None and head.card > line.card and head.priority == 0
                and line.priority > 0)

    def _ready(self, text: str) -> str | Path | Literal[False] | None:
        """The WAV path if ready, None if still rendering, False if it failed (the line is skipped)."""
        if self.cache.has(text, self.voice):
            self._jobs.pop(text, None)
            return self.cache.path_for(text, self.voice)
        job = self._jobs.get(text)
        try:
            if job is None:
                if self._now_pool is not None:
                    self._jobs[text] = self._now_pool.submit(self.cache.render, text, self.voice)
                    return None
                return self.cache.render(text, self.voice)
            if not job.done():
                return None
            self._jobs.pop(text, None)
            return job.result()
        except VoiceUnavailable as exc:
            if not self._failed_once:
                log.warning("voice line skipped: %s", exc)
                self._failed_once = True
            return False

    def hush(self) -> None:
        """Drop every waiting line and cut the one playing (after an undo: they told of a card taken back)."""
        self.queue.dropped.extend(self.queue)
        self.queue.clear()
        if self.current is not None and self.audio.voice_busy():
            self.audio.stop_voice()
        self.current = None

    def close(self) -> None:
        """Stop at once: nothing more is said or rendered, a running espeak-ng is killed, waiting renders are
        cancelled (the worker threads end within a fraction of a second)."""
        self.closed = True
        self.queue.clear()
        self.cache.stop()
        for pool in (self._now_pool, self._ahead_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
