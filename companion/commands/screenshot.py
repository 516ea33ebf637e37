"""Render one screen of a sample state to a PNG file (SDL dummy video driver, no display needed).

NAME is one of attract, setup, betting, race, payouts, game-over. Example:
``hotstreak screenshot --screen race --out race.png --size 1920x1080``.
"""

from __future__ import annotations

import argparse
import os
import re

from companion.commands.outpath import output_file
from companion.screen.model import SCREENS


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> ``(1920, 1080)``; raises ValueError naming the bad text."""
    match = re.fullmatch(r"\s*(\d{3,5})\s*[xX]\s*(\d{3,5})\s*", text)
    if not match:
        raise ValueError(f"--size {text!r} is not a size (expected WIDTHxHEIGHT, at least 320x240, e.g. 1920x1080)")
    return int(match.group(1)), int(match.group(2))


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--screen", required=True, choices=SCREENS, help="which screen to render")
    p.add_argument("--out", required=True, help="PNG file to write")
    p.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT in pixels (default 1280x720)")
    p.add_argument("--now", type=float, default=0.0, help="clock time of the picture in seconds (default 0)")


def run(args: argparse.Namespace) -> int:
    size = parse_size(args.size)
    out = output_file(args.out, ".png", "--out")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from companion.screen.draw import Screen
    from companion.screen.model import sample_model
    model = sample_model(args.screen)
    screen = Screen.offscreen(size)
    try:
        screen.draw(model, args.now)
        screen.save(str(out))
    finally:
        screen.close()
    print(f"wrote {args.out} ({args.screen}, {size[0]}x{size[1]})")
    return 0
