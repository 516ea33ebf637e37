"""Render one screen of a sample state to a PNG file (SDL dummy video driver, no display needed).

NAME is one of attract, setup, betting, race, payouts, game-over; or a big moment of the race screen:
moment-fall, moment-knockout, moment-out, moment-finish, moment-side-bet, moment-winner, and race-end (the race
screen after the card that ends the race, before the payouts; ``--now`` steps through its moments); or
betting-open (the open variant's bets, twelve seats). With
``--cards`` (race screen only) the race is the one after those cards from the start: notation (``G+2>``) or
label codes (``HS10``). ``--now S`` shows the last card's move as it looks S seconds after the card (sliding
along its path early, at rest once it has played); without it, at rest. Example:
``hotstreak screenshot --screen race --size 1920x1080 --cards H+3 HS04 HS10 --now 0.3 --out race.png``.
"""

from __future__ import annotations

import argparse
import math
import os
import re

from companion.commands.outpath import output_file
from companion.kiosk.config import MAX_SIDE
from companion.screen.model import SCREENS
from companion.screen.moments import MOMENT_SCREENS
from companion.screen.samples import SAMPLE_SCREENS


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> ``(1920, 1080)``; raises ValueError naming the bad text."""
    match = re.fullmatch(r"\s*(\d{3,5})\s*[xX]\s*(\d{3,5})\s*", text)
    if (not match or not 800 <= int(match.group(1)) <= MAX_SIDE or not 480 <= int(match.group(2)) <= MAX_SIDE):
        raise ValueError(f"--size {text!r} is not a screen size (expected WIDTHxHEIGHT from 800x480, the "
                         f"smallest screen the layout is made for, to "
                         f"{MAX_SIDE}x{MAX_SIDE}, e.g. 1920x1080)")
    return int(match.group(1)), int(match.group(2))


def parse_now(text: str) -> float:
    """``--now``: a finite number of seconds from 0 to 3600; raises ValueError naming ``--now``, the text and
    what is expected (the command prints it as one line)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 3600.0:   # also false for nan
        raise ValueError(f"--now {text!r} is not a time (expected seconds from 0 to 3600 after the last card, "
                         f"e.g. 0.3)")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--screen", required=True, choices=SCREENS + MOMENT_SCREENS + SAMPLE_SCREENS,
                   help="which screen (or big moment of the race screen) to render")
    p.add_argument("--out", required=True, help="PNG file to write")
    p.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT in pixels (default 1280x720)")
    p.add_argument("--cards", nargs="+", metavar="CARD",
                   help="the race after these cards from the start (notation like G+2> or codes like HS10)")
    p.add_argument("--now", metavar="S",
                   help="clock time of the picture in seconds after the last card, 0 to 3600: the last card's "
                        "move in motion early, at rest once it has played (default: at rest, time 0)")
    p.add_argument("--message", help="a refusal message to show on top (as the kiosk shows one)")
    p.add_argument("--lang", default="en", choices=["en", "nl", "es"], help="the screen's words (default en)")


def run(args: argparse.Namespace) -> int:
    size = parse_size(args.size)
    now = 0.0 if args.now is None else parse_now(args.now)
    out = output_file(args.out, ".png", "--out")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from companion.screen.model import replace
    from companion.screen.samples import sample_model
    if args.cards and args.screen != "race":
        raise ValueError(f"--cards sets the race on the race screen (expected --screen race, got {args.screen})")
    try:
        model = sample_model(args.screen, tuple(args.cards) if args.cards else None, args.lang)
    except ValueError as exc:
        raise ValueError(f"--cards: {exc}") from None
    if args.now is not None and model.screen == "race":   # the last card at time 0: its move as at --now
        model = replace(model, move_at=0.0)
    if args.message:
        model = replace(model, message=args.message, message_at=now)
    from companion.screen.draw import Screen
    screen = Screen.offscreen(size)
    try:
        screen.draw(model, now)
        try:
            screen.save(str(out))
        except (OSError, RuntimeError) as exc:   # pygame.error (a RuntimeError): a path the checks missed
            raise ValueError(f"--out {args.out!r}: cannot write the PNG there ({exc})") from None
    finally:
        screen.close()
    print(f"wrote {args.out} ({args.screen}, {size[0]}x{size[1]})")
    return 0
