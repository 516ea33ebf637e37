"""Time to draw one frame of each sample screen per size class, with the measuring hook off and on (SDL dummy
driver, off-screen surface), and the number of text boxes the hook records.

    python bench/screen_frame.py [--frames 30] [--lang en]

The hook (``Painter.boxes``) is off by default; on, it appends one small record per text box drawn. Figures
depend on the machine and on what else runs on it, so this prints them (median ms per frame) instead of
asserting anything.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from companion.screen.draw import Painter  # noqa: E402
from companion.screen.model import SCREENS  # noqa: E402
from companion.screen.samples import sample_model  # noqa: E402

SIZES = ((800, 480), (1280, 720), (1920, 1080))


def frame_ms(painter: Painter, model: object, frames: int) -> float:
    """The median time in milliseconds to draw ``model`` with ``painter``, over ``frames`` frames."""
    times = []
    for _ in range(frames):
        start = time.perf_counter()
        painter.draw(model, now=1.0)  # type: ignore[arg-type]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    print(f"{'screen':<10} {'size':>9} {'off ms':>7} {'hook ms':>8} {'boxes':>6}")
    for screen in SCREENS:
        model = sample_model(screen, language=args.lang)
        for size in SIZES:
            painter = Painter(pygame.Surface(size))
            painter.draw(model, now=1.0)   # warm the font and text caches
            off = frame_ms(painter, model, args.frames)
            painter.boxes = []
            on = frame_ms(painter, model, args.frames)
            print(f"{screen:<10} {size[0]:>4}x{size[1]:<4} {off:7.2f} {on:8.2f} {len(painter.boxes):6d}")


if __name__ == "__main__":
    main()
