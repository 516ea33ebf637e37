"""CPU of an idle screen: the kiosk's loop with the race screen mid-race (SDL dummy driver, 1920x1080) and no
input, as a share of one core.

    python bench/screen_idle.py [--seconds 20] [--size 1920x1080] [--every-frame] [--move]

The controller steps as the kiosk does (``step(timeout=1/30)``) with the screen's sink and nothing else; the
race has 6 cards revealed. ``--every-frame`` marks every frame as changed (what the screen did before it
learnt to skip unchanged frames), for comparison. ``--move`` then scans one more card and measures the frames
and the CPU while its move plays (``companion.screen.motion``: the screen draws every frame until it has played,
then stops). Goal: at most 3% of one core at 1080p. Figures depend on
the machine and on what else runs on it, so this prints them instead of asserting anything.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from companion.kiosk.controller import Controller  # noqa: E402
from companion.kiosk.journal import Journal  # noqa: E402
from companion.screen.draw import Screen  # noqa: E402
from companion.screen.sink import ScreenSink  # noqa: E402
from hardware.display import open_display  # noqa: E402

CARDS = ("HS15", "HS03", "HS22", "HS09", "HS31", "HS26")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--every-frame", action="store_true", help="draw every frame (the old screen)")
    parser.add_argument("--move", action="store_true", help="then measure one card's move in motion")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.lower().split("x"))
    device = open_display("dummy", (width, height))
    sink = ScreenSink(Screen(device.surface, display=device), status=lambda: ("scanner: ok", "leds: ok"))
    controller = Controller(Journal(":memory:"), sinks=[sink])
    for text in ("HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO", *CARDS):
        result = controller.handle(text)
        if not result.accepted:
            raise SystemExit(f"bench script input {text!r} was refused: {result.message}")
    for _ in range(30):  # settle: the first frames, fonts, the track's cached picture
        controller.step(timeout=1 / 30)
    frames_before = sink.frames
    cpu, wall = time.process_time(), time.monotonic()
    end = wall + args.seconds
    while time.monotonic() < end:
        if args.every_frame:
            sink._dirty = True
        controller.step(timeout=1 / 30)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    frames = sink.frames - frames_before
    what = "every frame drawn" if args.every_frame else "unchanged frames skipped"
    print(f"cpus: {os.cpu_count()}, load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"idle mid-race screen {width}x{height}, {what}: {100 * cpu / wall:.1f}% of one core over {wall:.1f} s, "
          f"{frames} frames drawn ({frames / wall:.1f}/s) (goal: <= 3%)")
    if args.move:
        move(controller, sink, width, height)
    sink.close()
    controller.close()
    return 0


def move(controller: Controller, sink: ScreenSink, width: int, height: int) -> None:
    """Scan one card (Gobbler +2, then a swerve) and measure the frames and CPU until the screen is still."""
    from companion.motion import SLIDE_SECONDS, TIP_SECONDS
    frames_before = sink.frames
    cpu, wall = time.process_time(), time.monotonic()
    result = controller.handle("HS10")
    if not result.accepted:
        raise SystemExit(f"bench card HS10 was refused: {result.message}")
    while time.monotonic() < wall + SLIDE_SECONDS + TIP_SECONDS + 1.0:
        controller.step(timeout=1 / 30)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    frames = sink.frames - frames_before
    print(f"one card's move {width}x{height}: {frames} frames drawn in {wall:.1f} s "
          f"({1000 * cpu / max(1, frames):.0f} ms of CPU a frame, {100 * cpu / wall:.1f}% of one core over the "
          f"{wall:.1f} s; the move plays in {SLIDE_SECONDS} s)")


if __name__ == "__main__":
    sys.exit(main())
