"""The announcer's voice: lines rendered by espeak-ng, played in order from a queue that keeps the voice within
a card of the race.

:class:`Voice` puts together a :class:`~companion.voice.line_queue.VoiceQueue` (the lines waiting, by card), a
renderer (:class:`~companion.voice.voice_cache.VoiceCache`: espeak-ng into a WAV cache) and an audio backend
(``hardware.audio``); it renders ahead in the background (fixed lines) and on demand (the rest), plays the next
line when the voice channel is free, cuts a line two cards behind or a plain line when an essential one of a
newer card waits. Call :meth:`Voice.update` once a frame. :meth:`Voice.close` returns within a fraction of a
second in every state (it kills a running espeak-ng and stops the pre-rendering). The queue's and the cache's
names are importable from here as before.

>>> from hardware.audio import MockAudio
>>> class Ready:  # a renderer whose every line is ready (the real one is VoiceCache)
...     espeak = "none"
...     def available(self): return True
...     def has(self, text, voice): return True
...     def path_for(self, text, voice): return f"{text}.wav"
...     def render(self, text, voice): return f"{text}.wav"
...     def prerender(self, lines, voice): return 0
...     def stop(self): pass
>>> voice = Voice(MockAudio(), "nl", clock=lambda: 0.0, cache=Ready(), background=False)
>>> voice.say("Hurley rent naar vak 6!", card=1)
>>> voice.update().text
'Hurley rent naar vak 6!'

Without espeak-ng the voice is a no-op after one log line; sound effects still play.
"""

from __future__ import annotations

import concurrent.futures
import logging
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Protocol

from companion.voice.line_queue import DEFAULT, Line, VoiceQueue
from companion.voice.voice_cache import (CACHE_CAP_BYTES, MASTERING, VoiceCache, VoiceUnavailable,
                                         default_cache_dir)

__all__ = ["CACHE_CAP_BYTES", "DEFAULT", "MASTERING", "Line", "LineRenderer", "Voice", "VoiceCache", "VoiceChannel",
           "VoiceQueue", "VoiceUnavailable", "default_cache_dir"]

log = logging.getLogger("hotstreak.voice")

Clock = Callable[[], float]


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
