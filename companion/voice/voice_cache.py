"""The announcer's lines rendered by espeak-ng into a cache of WAV files (:class:`VoiceCache`).

``espeak-ng -v VOICE -w FILE TEXT`` into a cache folder, one file per hash of voice + speed + text, mastered
once (its silent tail trimmed, its level set: :mod:`companion.voice.levels`); a cached line costs only a file
lookup. The cache is capped (:data:`CACHE_CAP_BYTES`, least recently used first out). Without espeak-ng
:meth:`VoiceCache.render` raises :class:`VoiceUnavailable`.

>>> cache = VoiceCache("/tmp/hotstreak-doctest-voice", espeak="no-such-espeak")
>>> cache.available()
False
>>> cache.path_for("Hurley goes down!", "en").suffix
'.wav'
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Callable, Iterable

from companion.voice.levels import master_line

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
