"""The mix the table hears: one level for the sounds (companion/voice/levels.py), rendered lines without a dead
tail, and the effects ducked under the voice (hardware/ducking.py) by the real mixer backend, here driving a fake
pygame mixer that records every channel volume, on a fake clock."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from companion.voice import levels
from companion.voice.speech import VoiceCache
from conftest import FakeClock
from hardware.audio import VOICE_CHANNEL, PygameAudio
from hardware.ducking import ATTACK, DUCK_DB, RELEASE, effects_gain

RATE = 22050
DUCKED = 10 ** (DUCK_DB / 20)


# ----- levels and the tail of a line -----------------------------------------------------------------------------
def test_level_and_normalise_on_known_signals():
    tone = np.sin(2 * np.pi * 440 * np.arange(RATE) / RATE)
    assert levels.level_db(tone, RATE) == pytest.approx(-3.01, abs=0.01)
    with_pause = np.concatenate([tone * 0.5, np.zeros(RATE)])            # a pause does not lower the level
    assert levels.level_db(with_pause, RATE) == pytest.approx(levels.level_db(tone * 0.5, RATE), abs=0.01)
    assert levels.level_db(np.zeros(100), RATE) == float("-inf")
    quiet = levels.normalise(tone, RATE, -30.0)
    assert levels.level_db(quiet, RATE) == pytest.approx(-30.0, abs=0.01)
    spiky = np.zeros(RATE)
    spiky[::2000] = 0.9                                                  # a loud target would clip it: capped
    assert levels.peak_db(levels.normalise(spiky, RATE, 0.0)) == pytest.approx(levels.PEAK_CEILING_DB)


def test_trim_tail_keeps_a_short_faded_release_and_nothing_dead():
    sound = np.sin(2 * np.pi * 300 * np.arange(RATE) / RATE) * 0.5
    trimmed = levels.trim_tail(np.concatenate([sound, np.zeros(int(0.34 * RATE))]), RATE)
    assert np.array_equal(trimmed[:len(sound)], sound)    # the sound is whole ...
    assert len(trimmed) - len(sound) <= (levels.TAIL_KEEP + 0.005) * RATE   # ... and 0.3 s of the 0.34 s go
    assert trimmed[-1] == 0.0                             # faded out, no click
    decay = np.concatenate([sound, sound * np.exp(-np.arange(RATE) / (0.01 * RATE)), np.zeros(RATE)])
    released = levels.trim_tail(decay, RATE)
    assert len(sound) < len(released) <= len(sound) + int((0.1 + levels.TAIL_KEEP) * RATE)


def test_master_line_leaves_a_file_that_is_not_pcm_wav_alone(tmp_path):
    odd = tmp_path / "odd.wav"
    odd.write_bytes(b"RIFF not really")
    assert levels.master_line(odd) is False and odd.read_bytes() == b"RIFF not really"


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
@pytest.mark.parametrize("voice,text", [("en-gb", "Hurley falls!"), ("nl", "Daar ligt Dangle!"),
                                        ("es", "¡Mum cruza la meta!")])
def test_a_rendered_line_ends_within_a_tenth_of_a_second_of_its_last_sound(tmp_path, voice, text):
    samples, rate = levels.read_wav(VoiceCache(tmp_path).render(text, voice))
    sounding = np.nonzero(np.abs(samples) > 10 ** (levels.SILENCE_DB / 20))[0]
    assert (len(samples) - sounding[-1]) / rate < 0.1                   # espeak-ng itself leaves about 0.34 s
    assert levels.level_db(samples, rate) == pytest.approx(levels.VOICE_LEVEL_DB, abs=1.0)
    assert levels.peak_db(samples) <= levels.PEAK_CEILING_DB + 0.01


# ----- the duck ----------------------------------------------------------------------------------------------------
def test_the_duck_falls_over_the_attack_holds_and_releases():
    line = [(1.0, 3.0)]
    assert effects_gain(0.99, line) == 1.0
    assert effects_gain(1.0 + ATTACK / 2, line) == pytest.approx(10 ** (DUCK_DB / 40))   # half way down in dB
    assert effects_gain(2.0, line) == pytest.approx(DUCKED)
    assert effects_gain(3.0 + RELEASE / 2, line) == pytest.approx(10 ** (DUCK_DB / 40))
    assert effects_gain(3.0 + RELEASE, line) == 1.0
    assert effects_gain(2.0, [(1.0, None)]) == pytest.approx(DUCKED)                   # playing, no end known
    times = np.array([0.5, 2.0, 5.0])
    assert np.allclose(effects_gain(times, line), [effects_gain(float(t), line) for t in times])


def test_a_line_starting_during_a_release_carries_on_down_without_a_jump():
    lines = [(0.0, 1.0), (1.0 + RELEASE / 2, 3.0)]
    t = np.linspace(0.9, 1.5, 601)                                       # every millisecond
    gain_db = 20 * np.log10(effects_gain(t, lines))
    steepest = abs(DUCK_DB) / ATTACK * 0.001                             # the attack's slope over 1 ms
    assert np.abs(np.diff(gain_db)).max() <= steepest + 1e-9             # no step anywhere
    second = t >= 1.0 + RELEASE / 2
    assert gain_db[second].max() <= DUCK_DB / 2 + 1.0                    # it goes on down from half way
    assert effects_gain(1.0 + RELEASE / 2 + ATTACK, lines) == pytest.approx(DUCKED)


# ----- the real backend on a fake mixer ----------------------------------------------------------------------------
class FakeSound:
    def __init__(self, path: str):
        self.path = path

    def get_length(self) -> float:
        return 2.0 if "line" in self.path else 0.7


class FakeChannel:
    def __init__(self, mixer: "FakeMixer", index: int):
        self.mixer, self.index = mixer, index
        self.sound: FakeSound | None = None
        self.until = float("-inf")

    def play(self, sound: FakeSound) -> None:
        self.sound, self.until = sound, self.mixer.clock() + sound.get_length()

    def stop(self) -> None:
        self.until = float("-inf")

    def get_busy(self) -> bool:
        return self.mixer.clock() < self.until

    def set_volume(self, value: float) -> None:
        self.mixer.volumes.append((self.mixer.clock(), self.index, value))
        self.mixer.volume[self.index] = value


class FakeMixer:
    """Stands in for ``pygame.mixer``: channels that play for a sound's length on the fake clock; every
    ``set_volume`` recorded in ``volumes`` as ``(time, channel, volume)``."""

    def __init__(self, clock: FakeClock):
        self.clock = clock
        self.volumes: list[tuple[float, int, float]] = []
        self.volume: dict[int, float] = {}
        self.channels: list[FakeChannel] = []
        self.reserved = 0

    def init(self, **kw) -> None:
        pass

    def set_num_channels(self, n: int) -> None:
        self.channels = [FakeChannel(self, i) for i in range(n)]
        self.volume = {i: 1.0 for i in range(n)}

    def set_reserved(self, n: int) -> None:
        self.reserved = n

    def Channel(self, i: int) -> FakeChannel:  # noqa: N802 - pygame's name
        return self.channels[i]

    def Sound(self, path: str) -> FakeSound:  # noqa: N802
        return FakeSound(path)

    def find_channel(self, force: bool = False) -> FakeChannel | None:
        free = [c for c in self.channels[self.reserved:] if not c.get_busy()]
        return free[0] if free else self.channels[self.reserved]

    def quit(self) -> None:
        pass


def effect_volumes(mixer: FakeMixer) -> set[float]:
    return {round(v, 4) for i, v in mixer.volume.items() if i != VOICE_CHANNEL}


def test_the_mixer_ducks_every_effect_channel_while_a_line_plays(tmp_path):
    clock = FakeClock(10.0)
    mixer = FakeMixer(clock)
    audio = PygameAudio(effects=tmp_path, clock=clock, mixer=mixer)
    (tmp_path / "fall.wav").write_bytes(b"")
    audio.play_effect("fall")                                  # on the reveal: full volume
    assert effect_volumes(mixer) == {1.0}
    clock.advance(0.25)
    audio.play_voice(tmp_path / "line.wav")                    # the line, 2 s long
    frames = []
    for _ in range(60):                                        # the voice asks once a frame, 30 a second
        clock.advance(1 / 30)
        busy = audio.voice_busy()
        frames.append((clock() - 10.25, busy, effect_volumes(mixer)))
    during = [v for t, busy, v in frames if ATTACK < t < 2.0]
    assert during and all(v == {round(DUCKED, 4)} for v in during)        # every effect channel, ducked
    assert mixer.volume[VOICE_CHANNEL] == 1.0                            # the voice is never touched
    assert not any(i == VOICE_CHANNEL for _, i, _ in mixer.volumes)
    for _ in range(round((RELEASE + 0.1) * 30)):
        clock.advance(1 / 30)
        assert audio.voice_busy() is False
    assert effect_volumes(mixer) == {1.0}                                 # back up after the release
    ramp = [v for t, i, v in mixer.volumes if i == 1 and t >= 12.25]
    assert ramp == sorted(ramp) and len(ramp) >= 5                        # rising frame by frame, not a jump


def test_a_cut_line_releases_the_duck_at_once_and_a_new_effect_starts_ducked(tmp_path):
    clock = FakeClock(0.0)
    mixer = FakeMixer(clock)
    audio = PygameAudio(effects=tmp_path, clock=clock, mixer=mixer)
    (tmp_path / "dq.wav").write_bytes(b"")
    audio.play_voice(tmp_path / "line.wav")
    clock.advance(0.5)
    audio.play_effect("dq")                                    # an effect starting under a line
    played = next(c for c in mixer.channels if c.sound is not None and c.index != VOICE_CHANNEL)
    assert mixer.volume[played.index] == pytest.approx(DUCKED)
    audio.stop_voice()                                         # cut at 0.5 s, not at its 2 s end
    clock.advance(RELEASE + 0.01)
    audio.voice_busy()
    assert effect_volumes(mixer) == {1.0}


def test_the_volume_setting_scales_the_voice_once_and_the_effects_under_the_duck(tmp_path):
    clock = FakeClock(0.0)
    mixer = FakeMixer(clock)
    audio = PygameAudio(effects=tmp_path, clock=clock, mixer=mixer, volume=0.4)
    (tmp_path / "fall.wav").write_bytes(b"")
    assert mixer.volume[VOICE_CHANNEL] == 0.4 and effect_volumes(mixer) == {0.4}   # at rest: both at 40 %
    audio.play_voice(tmp_path / "line.wav")
    clock.advance(ATTACK + 0.1)
    audio.play_effect("fall")
    assert effect_volumes(mixer) == {round(DUCKED * 0.4, 4)}                         # ducked from 40 %, not 100 %
    assert [v for _, i, v in mixer.volumes if i == VOICE_CHANNEL] == [0.4]           # the voice set once
    with pytest.raises(ValueError, match="volume 1.5 is out of range"):
        PygameAudio(effects=tmp_path, clock=clock, mixer=FakeMixer(clock), volume=1.5)
