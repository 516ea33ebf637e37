"""Audio output: the announcer's voice on its own channel and the sound effects, through pygame's mixer.

Backends (all with the same methods):

- :class:`PygameAudio`: pygame-ce mixer (ALSA on a Pi); pygame is imported when it is created.
- :class:`MockAudio`: records what was played (``played``), for tests and the desktop demo without sound.
- :class:`NullAudio`: does nothing; made when there is no audio device, after one log line. The race goes on.

Each follows :class:`hardware.device.AudioOut` (``close()``, ``closed``, a context manager). The caller tells
the mixer where the effect files are (``effects``: a folder of ``<name>.wav``); audio knows nothing else. The
mixer ducks the effects under the voice (:mod:`hardware.ducking`).

>>> with open_audio("mock") as audio:
...     audio.play_effect("finish"); audio.played
[('effect', 'finish')]
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any, Callable

from hardware.device import AudioOut, Device
from hardware.ducking import Span, effects_gain, recent

log = logging.getLogger("hotstreak.audio")

VOICE_CHANNEL = 0
"""The mixer channel reserved for the voice; effects use the others."""


Audio = AudioOut
"""The audio protocol (kept under its old name)."""


class PygameAudio(Device):
    """The pygame-ce mixer. ``driver``: an SDL audio driver (``"alsa"``, ``"pulseaudio"``, ``"dummy"``, ``"disk"``)
    or None for SDL's choice; ``effects`` the folder of ``<name>.wav`` effect files (None: no effects, each
    ``play_effect`` raises ValueError). Raises ``pygame.error`` (a RuntimeError) when no device can be opened.

    The effects duck under the voice (:mod:`hardware.ducking`): each call (the voice asks :meth:`voice_busy` once
    a frame) sets every effect channel's volume to :func:`hardware.ducking.effects_gain` of ``clock()`` (seconds)
    and the voice lines played. ``volume`` (0.0-1.0, a share of the sound card's loudness) scales the voice and
    the effects alike (the duck multiplies it); ValueError outside that. ``mixer``: a ``pygame.mixer``-like module
    (tests pass a fake that records the channel volumes); None imports pygame's."""

    name = "pygame"

    def __init__(self, driver: str | None = None, frequency: int = 22050, buffer: int = 512,
                 effects: str | Path | None = None, channels: int = 8, *,
                 clock: Callable[[], float] = time.monotonic, mixer: Any = None, volume: float = 1.0):
        if not 0.0 <= volume <= 1.0:
            raise ValueError(f"volume {volume!r} is out of range (expected 0.0..1.0)")
        if mixer is None:
            if driver:
                os.environ["SDL_AUDIODRIVER"] = driver
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
            import pygame
            mixer = pygame.mixer
        self._mixer = mixer
        mixer.init(frequency=frequency, size=-16, channels=1, buffer=buffer)
        mixer.set_num_channels(channels)
        mixer.set_reserved(1)
        self._voice = mixer.Channel(VOICE_CHANNEL)
        self._volume = volume
        if volume != 1.0:
            self._voice.set_volume(volume)  # once: nothing else sets the voice channel's volume
        self._effect_channels = [mixer.Channel(i) for i in range(VOICE_CHANNEL + 1, channels)]
        self._effects_dir = Path(effects) if effects else None
        self._effects: dict[str, Any] = {}
        self._clock = clock
        self._spans: list[Span] = []
        self._gain = 1.0
        self._duck()  # sets the effect channels to the volume when it is not 1

    def play_voice(self, path: str | Path) -> None:
        sound = self._mixer.Sound(str(path))
        now = self._clock()
        self._end_voice(now)
        self._voice.play(sound)
        self._spans.append((now, now + float(sound.get_length())))
        self._duck()

    def voice_busy(self) -> bool:
        self._duck()
        return bool(self._voice.get_busy())

    def stop_voice(self) -> None:
        self._voice.stop()
        self._end_voice(self._clock())
        self._duck()

    def _end_voice(self, now: float) -> None:
        """A line cut at ``now`` ends there (the duck starts its release)."""
        if self._spans:
            start, end = self._spans[-1]
            if end is None or end > now:
                self._spans[-1] = (start, max(start, now))

    def _duck(self) -> None:
        """Set the effect channels' volume to the duck's gain now."""
        now = self._clock()
        self._spans = recent(self._spans, now)
        gain = effects_gain(now, self._spans) * self._volume
        if abs(gain - self._gain) < 1e-4:
            return
        self._gain = gain
        for channel in self._effect_channels:
            channel.set_volume(gain)

    def play_effect(self, name: str) -> None:
        sound = self._effects.get(name)
        if sound is None:
            if self._effects_dir is None:
                raise ValueError(f"effect {name!r}: no effects folder was given to the mixer")
            path = self._effects_dir / f"{name}.wav"
            if not path.exists():
                raise ValueError(f"unknown effect {name!r} (expected a file {path})")
            sound = self._effects[name] = self._mixer.Sound(str(path))
        self._duck()
        channel = self._mixer.find_channel(True)
        if channel is not None:
            channel.set_volume(self._gain)
            channel.play(sound)

    def _release(self) -> None:
        self._mixer.quit()


class MockAudio(Device):
    """Records every sound in ``played`` as ``(kind, what)``: ``("voice", path)``, ``("effect", name)``,
    ``("stop", "")``. With a ``clock``, a voice line is busy for ``voice_seconds`` after it starts. ``volume``
    is the loudness it was opened at (0.0-1.0; nothing is played, so it is only kept)."""

    name = "mock"

    def __init__(self, clock: Callable[[], float] | None = None, voice_seconds: float = 0.0):
        self.volume = 1.0
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


class NullAudio(Device):
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


def open_audio(kind: str = "auto", driver: str | None = None, clock: Callable[[], float] | None = None, *,
               effects: str | Path | None = None, volume: float = 1.0) -> AudioOut:
    """The audio backend for ``kind``: ``auto``/``pygame`` (the mixer playing effects from the folder
    ``effects`` at ``volume``, 0.0-1.0 of the sound card's loudness, or :class:`NullAudio` with one log line if it
    cannot open), ``mock`` (:class:`MockAudio`, which keeps ``volume``) or ``none``. Raises ValueError for another
    kind or a volume outside 0.0-1.0."""
    if not 0.0 <= volume <= 1.0:
        raise ValueError(f"volume {volume!r} is out of range (expected 0.0..1.0)")
    if kind == "mock":
        mock = MockAudio(clock)
        mock.volume = volume
        return mock
    if kind == "none":
        return NullAudio("audio is off (kind 'none')")
    if kind not in ("auto", "pygame"):
        raise ValueError(f"unknown audio kind {kind!r} (expected auto, pygame, mock or none)")
    try:
        return PygameAudio(driver, effects=effects, volume=volume)
    except (ImportError, RuntimeError, OSError) as exc:  # pygame.error is a RuntimeError
        return NullAudio(f"cannot open the mixer ({exc})")
