"""Audio output: the announcer's voice on its own channel and the sound effects, through pygame's mixer.

Backends (all with the same methods):

- :class:`PygameAudio`: pygame-ce mixer (ALSA on a Pi); pygame is imported when it is created.
- :class:`MockAudio`: records what was played (``played``), for tests and the desktop demo without sound.
- :class:`NullAudio`: does nothing; made when there is no audio device, after one log line. The race goes on.

>>> audio = open_audio("mock"); audio.play_effect("finish"); audio.played
[('effect', 'finish')]
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Callable, Protocol

log = logging.getLogger("hotstreak.audio")

VOICE_CHANNEL = 0
"""The mixer channel reserved for the voice; effects use the others."""


def effects_dir() -> Path:
    """The folder of the synthesised effects (``sounds/effects``, installed as ``companion/sounds/effects``)."""
    from companion.call.announcer import sounds_dir
    return sounds_dir() / "effects"


class Audio(Protocol):
    """What the rest of the program may ask of audio output."""

    name: str

    def play_voice(self, path: str | Path) -> None:
        """Start a voice WAV on the voice channel (stopping any line still playing there)."""

    def voice_busy(self) -> bool:
        """True while a voice line is playing."""

    def stop_voice(self) -> None:
        """Cut the voice line that is playing, if any."""

    def play_effect(self, name: str) -> None:
        """Play effect ``name`` (``start``, ``collision``, ``fall``, ``dq``, ``finish``, ``crowd``) on a free
        effect channel. Raises ValueError for an unknown name."""

    def close(self) -> None:
        """Release the device."""


class PygameAudio:
    """The pygame-ce mixer. ``driver``: an SDL audio driver (``"alsa"``, ``"pulseaudio"``, ``"dummy"``, ``"disk"``)
    or None for SDL's choice. Raises ``pygame.error`` (a RuntimeError) when no device can be opened."""

    name = "pygame"

    def __init__(self, driver: str | None = None, frequency: int = 22050, buffer: int = 512,
                 effects: str | Path | None = None, channels: int = 8):
        if driver:
            os.environ["SDL_AUDIODRIVER"] = driver
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame
        self._pg = pygame
        pygame.mixer.init(frequency=frequency, size=-16, channels=1, buffer=buffer)
        pygame.mixer.set_num_channels(channels)
        pygame.mixer.set_reserved(1)
        self._voice = pygame.mixer.Channel(VOICE_CHANNEL)
        self._effects_dir = Path(effects) if effects else effects_dir()
        self._effects: dict[str, object] = {}

    def play_voice(self, path: str | Path) -> None:
        self._voice.play(self._pg.mixer.Sound(str(path)))

    def voice_busy(self) -> bool:
        return bool(self._voice.get_busy())

    def stop_voice(self) -> None:
        self._voice.stop()

    def play_effect(self, name: str) -> None:
        sound = self._effects.get(name)
        if sound is None:
            path = self._effects_dir / f"{name}.wav"
            if not path.exists():
                raise ValueError(f"unknown effect {name!r} (expected a file {path})")
            sound = self._effects[name] = self._pg.mixer.Sound(str(path))
        channel = self._pg.mixer.find_channel(True)
        if channel is not None:
            channel.play(sound)

    def close(self) -> None:
        self._pg.mixer.quit()


class MockAudio:
    """Records every sound in ``played`` as ``(kind, what)``: ``("voice", path)``, ``("effect", name)``,
    ``("stop", "")``. With a ``clock``, a voice line is busy for ``voice_seconds`` after it starts."""

    name = "mock"

    def __init__(self, clock: Callable[[], float] | None = None, voice_seconds: float = 0.0):
        self.played: list[tuple[str, str]] = []
        self.started_at: list[float] = []
        self._clock = clock
        self._voice_seconds = voice_seconds
        self._busy_until = float("-inf")

    def play_voice(self, path: str | Path) -> None:
        self.played.append(("voice", str(path)))
        if self._clock is not None:
            now = self._clock()
            self.started_at.append(now)
            self._busy_until = now + self._voice_seconds

    def voice_busy(self) -> bool:
        return self._clock is not None and self._clock() < self._busy_until

    def stop_voice(self) -> None:
        self.played.append(("stop", ""))
        self._busy_until = float("-inf")

    def play_effect(self, name: str) -> None:
        self.played.append(("effect", name))

    def close(self) -> None:
        pass


class NullAudio:
    """No sound at all; logs ``reason`` once when made. Every method does nothing."""

    name = "none"

    def __init__(self, reason: str = "audio disabled"):
        self.reason = reason
        log.warning("no audio: %s; the race goes on without sound", reason)

    def play_voice(self, path: str | Path) -> None:
        pass

    def voice_busy(self) -> bool:
        return False

    def stop_voice(self) -> None:
        pass

    def play_effect(self, name: str) -> None:
        pass

    def close(self) -> None:
        pass


def open_audio(kind: str = "auto", driver: str | None = None, clock: Callable[[], float] | None = None) -> Audio:
    """The audio backend for ``kind``: ``auto``/``pygame`` (the mixer, or :class:`NullAudio` with one log line
    if it cannot open), ``mock`` (:class:`MockAudio`) or ``none``. Raises ValueError for another kind."""
    if kind == "mock":
        return MockAudio(clock)
    if kind == "none":
        return NullAudio("audio is off (kind 'none')")
    if kind not in ("auto", "pygame"):
        raise ValueError(f"unknown audio kind {kind!r} (expected auto, pygame, mock or none)")
    try:
        return PygameAudio(driver)
    except (ImportError, RuntimeError, OSError) as exc:  # pygame.error is a RuntimeError
        return NullAudio(f"cannot open the mixer ({exc})")
