"""Screen and voice timings: a voice line from request to playing (cached and uncached), race-screen frame time.

Run: ``PYTHONPATH=. python bench/av_bench.py`` (sets SDL's dummy video and audio drivers unless already set).
Goals on a desktop: cached voice under 50 ms, a 1080p race frame under 16 ms.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.call.announcer import Announcer  # noqa: E402
from companion.screen.draw import Screen  # noqa: E402
from companion.screen.model import replace, sample_model  # noqa: E402
from companion.voice.speech import Voice, VoiceCache  # noqa: E402
from hardware.audio import open_audio  # noqa: E402


def ms(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return f"median {statistics.median(values) * 1000:6.1f} ms   p95 {p95 * 1000:6.1f} ms   (n={len(values)})"


def voice_latency(voice: Voice, text: str, card: int, timeout: float = 10.0) -> float:
    """Seconds from say() to the line starting on the voice channel, polling update() like a 1 ms frame loop."""
    voice.audio.stop_voice()
    start = time.perf_counter()
    voice.say(text, card)
    while time.perf_counter() - start < timeout:
        line = voice.update()
        if line is not None and line.text == text:
            return time.perf_counter() - start
        time.sleep(0.001)
    raise TimeoutError(f"the voice never started {text!r}")


def bench_voice(lang: str = "nl", runs: int = 12) -> None:
    audio = open_audio("pygame")
    print(f"audio backend: {audio.name} (SDL_AUDIODRIVER={os.environ.get('SDL_AUDIODRIVER')})")
    with tempfile.TemporaryDirectory() as cache_dir:
        announcer = Announcer(lang, random.Random(1))
        voice = Voice(audio, announcer.voice, time.monotonic, VoiceCache(cache_dir), max_age=None)
        if not voice.enabled:
            print("espeak-ng not found: no voice figures")
            return
        lines = [announcer.line_for("moved", mascot="Hurley", steps=k % 3 + 1, space=k + 1, start=k, lane=2)
                 + f" ({k})" for k in range(runs)]
        uncached = [voice_latency(voice, text, k + 1) for k, text in enumerate(lines)]
        cached = [voice_latency(voice, text, runs + k + 1) for k, text in enumerate(lines)]
        print(f"voice {lang}, uncached (espeak-ng renders, then plays): {ms(uncached)}")
        print(f"voice {lang}, cached   (file in the WAV cache, plays):  {ms(cached)}   goal < 50 ms")
        t0 = time.perf_counter()
        fixed = announcer.fixed_lines()[:40]
        VoiceCache(cache_dir).prerender(fixed, announcer.voice)
        per = (time.perf_counter() - t0) / len(fixed)
        print(f"pre-render of fixed lines: {per * 1000:.0f} ms per line; "
              f"all {len(announcer.fixed_lines())} {lang} fixed lines ~ {per * len(announcer.fixed_lines()):.0f} s "
              "(once; the cache persists)")
        voice.close()
    audio.close()


def bench_frames(size=(1920, 1080), frames: int = 120) -> None:
    from hardware.display import PygameDisplay
    display = PygameDisplay("window" if os.environ["SDL_VIDEODRIVER"] not in ("dummy", "kmsdrm")
                            else os.environ["SDL_VIDEODRIVER"], size)
    screen = Screen(display.surface, display=display)
    model = sample_model("race")
    times = []
    for i in range(frames):
        m = replace(model, log=model.log + (f"  frame {i}",))  # a new log line every frame: worst case for text
        t0 = time.perf_counter()
        screen.draw(m, i / 60)
        screen.present()
        times.append(time.perf_counter() - t0)
    print(f"race screen {size[0]}x{size[1]} draw+present: {ms(times[5:])}   goal < 16 ms")
    screen.close()


if __name__ == "__main__":
    bench_frames((1920, 1080))
    bench_frames((1280, 720))
    bench_voice("nl")
    bench_voice("en")
