"""The announcer's voice: espeak-ng renders lines to a WAV cache; a queue keeps the voice within a card of the race.

- :class:`VoiceCache`: ``espeak-ng -v VOICE -w FILE TEXT`` into a cache folder, one file per hash of
  voice + speed + text; a cached line costs only a file lookup.
- :class:`VoiceQueue`: lines tagged with the card number they belong to; when a newer card's lines arrive, lines
  more than ``max_lag_cards`` behind are dropped (and lines older than ``max_age`` seconds), on the caller's clock.
- :class:`Voice`: the two together with an audio backend (``hardware.audio``); renders ahead in the background
  (fixed lines) and on demand (the rest), plays the next line when the voice channel is free. Call
  :meth:`Voice.update` once a frame.

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
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

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


class VoiceCache:
    """Renders text to WAV files with espeak-ng, once per (voice, speed, text).

    ``cache_dir``: where the WAVs go (default :func:`default_cache_dir`). ``speed``: words per minute.
    ``run``: the subprocess runner (tests pass a fake).
    """

    def __init__(self, cache_dir: str | Path | None = None, espeak: str = "espeak-ng", speed: int = 165,
                 run: Callable[..., subprocess.CompletedProcess] = subprocess.run):
        self.dir = Path(cache_dir) if cache_dir else default_cache_dir()
        self.espeak = espeak
        self.speed = speed
        self._run = run

    def available(self) -> bool:
        """True if the espeak-ng program can be found."""
        return self._run is not subprocess.run or shutil.which(self.espeak) is not None

    def path_for(self, text: str, voice: str) -> Path:
        """The cache file of a line (it may not exist yet)."""
        digest = hashlib.sha256(f"{voice}\0{self.speed}\0{text}".encode()).hexdigest()[:32]
        return self.dir / voice / f"{digest}.wav"

    def has(self, text: str, voice: str) -> bool:
        return self.path_for(text, voice).exists()

    def render(self, text: str, voice: str) -> Path:
        """The WAV of ``text`` in ``voice``, rendered now if not cached. Raises VoiceUnavailable naming the cause."""
        path = self.path_for(text, voice)
        if path.exists():
            return path
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(suffix=".wav", dir=path.parent)
        os.close(fd)
        try:
            try:
                done = self._run([self.espeak, "-v", voice, "-s", str(self.speed), "-w", tmp, "--", text],
                                 capture_output=True, timeout=30)
            except FileNotFoundError:
                raise VoiceUnavailable(f"{self.espeak} is not installed (apt-get install espeak-ng)") from None
            except subprocess.TimeoutExpired:
                raise VoiceUnavailable(f"{self.espeak} took over 30 s on {text!r}") from None
            if done.returncode != 0 or os.path.getsize(tmp) == 0:
                err = (done.stderr or b"").decode(errors="replace").strip()
                raise VoiceUnavailable(f"{self.espeak} -v {voice} failed on {text!r}: {err or done.returncode}")
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return path

    def prerender(self, lines: Iterable[str], voice: str) -> int:
        """Render every line not yet cached; returns how many were rendered."""
        count = 0
        for text in lines:
            if not self.has(text, voice):
                self.render(text, voice)
                count += 1
        return count


@dataclass
class Line:
    """A queued voice line: ``card`` is the race card number it belongs to (None: not tied to a card, e.g. a
    table line), ``at`` the clock time it was queued."""

    text: str
    card: int | None
    at: float


class VoiceQueue:
    """Lines waiting to be spoken, oldest first, that never lag the race by more than ``max_lag_cards`` cards.

    ``clock``: seconds (monotonic). ``max_age``: also drop lines waiting longer than this many seconds (None: no
    limit). Dropped lines are kept in ``dropped`` (for tests and the log).
    """

    def __init__(self, clock: Clock, max_lag_cards: int = 1, max_age: float | None = 8.0):
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

    def __iter__(self):
        return iter(list(self._lines))

    def put(self, text: str, card: int | None = None) -> Line:
        """Queue a line for ``card``; a newer card makes lines more than ``max_lag_cards`` behind it stale."""
        if card is not None and (self.newest_card is None or card > self.newest_card):
            self.newest_card = card
        line = Line(text, card, self.clock())
        self._lines.append(line)
        self.drop_stale()
        return line

    def is_stale(self, line: Line) -> bool:
        """True if ``line`` is too far behind the newest card, or has waited longer than ``max_age``."""
        if line.card is not None and self.newest_card is not None \
                and line.card < self.newest_card - self.max_lag_cards:
            return True
        return self.max_age is not None and self.clock() - line.at > self.max_age

    def drop_stale(self) -> list[Line]:
        """Remove and return the stale lines."""
        keep, gone = collections.deque(), []
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


class Voice:
    """Speaks lines through ``audio`` in ``voice`` (an espeak-ng voice, e.g. ``nl``) with a :class:`VoiceQueue`.

    ``background``: render in worker threads (on-demand lines never wait behind the pre-rendering of fixed
    lines); False renders inside :meth:`update` (tests). A line playing for a card that became stale is cut.
    Without espeak-ng the voice logs once and says nothing.
    """

    def __init__(self, audio, voice: str, clock: Clock, cache: VoiceCache | None = None, max_lag_cards: int = 1,
                 max_age: float | None = 8.0, background: bool = True):
        self.audio = audio
        self.voice = voice
        self.clock = clock
        self.cache = cache or VoiceCache()
        self.queue = VoiceQueue(clock, max_lag_cards, max_age)
        self.current: Line | None = None
        self.enabled = self.cache.available()
        if not self.enabled:
            log.warning("no voice: %s not found; the race goes on without the announcer", self.cache.espeak)
        self._background = background
        self._now_pool = concurrent.futures.ThreadPoolExecutor(1, "voice-now") if background else None
        self._ahead_pool = concurrent.futures.ThreadPoolExecutor(1, "voice-ahead") if background else None
        self._jobs: dict[str, concurrent.futures.Future] = {}
        self._failed_once = False

    def say(self, text: str, card: int | None = None) -> None:
        """Queue ``text`` for ``card`` (its race card number; None for a table line) and start rendering it."""
        if not self.enabled:
            return
        self.queue.put(text, card)
        if self._now_pool is not None and text not in self._jobs and not self.cache.has(text, self.voice):
            self._jobs[text] = self._now_pool.submit(self.cache.render, text, self.voice)

    def prerender(self, lines: Iterable[str]) -> concurrent.futures.Future | int:
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
            log.warning("voice pre-rendering stopped: %s", exc)
            return 0

    def update(self) -> Line | None:
        """Call once a frame: cut a stale line, then start the next ready line if the channel is free.
        Returns the line started, if any."""
        if self.current is not None and self.queue.is_stale(self.current) and self.audio.voice_busy():
            self.audio.stop_voice()
            self.queue.dropped.append(self.current)
            self.current = None
        if self.audio.voice_busy():
            return None
        while True:
            line = self.queue.peek()
            if line is None:
                return None
            path = self._ready(line.text)
            if path is None:
                return None  # still rendering: keep the order, try again next frame
            self.queue.pop()
            if path is False:
                continue
            self.audio.play_voice(path)
            self.current = line
            return line

    def _ready(self, text: str):
        """The WAV path if ready, None if still rendering, False if it failed (the line is skipped)."""
        if self.cache.has(text, self.voice):
            self._jobs.pop(text, None)
            return self.cache.path_for(text, self.voice)
        job = self._jobs.get(text)
        try:
            if job is None:
                if self._background:
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

    def close(self) -> None:
        for pool in (self._now_pool, self._ahead_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
