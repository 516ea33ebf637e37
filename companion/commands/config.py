"""Print the effective configuration as TOML, defaults included.

The file given with --config, else the one at the default location (docs/config.md, "Where the config file
lives") is read and validated as `hotstreak run` does, the track and deck files it names included
($HOTSTREAK_HARDWARE overrides its hardware, as for run); every setting it leaves out shows its default. Paths
are shown resolved; `[colours]` holds the mascot colours as "#rrggbb". The first line, a TOML comment, says
which file was read and why. The output is itself a valid config file.
"""

from __future__ import annotations

import argparse
import dataclasses
import os

from companion.kiosk.config import config_toml, load_config, rule_data
from companion.kiosk.config_path import HELP, config_location


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help=HELP)


def run(args: argparse.Namespace) -> int:
    where = config_location(args.config).said()  # before reading: `hotstreak config > FILE` makes FILE empty first
    cfg = load_config(args.config)
    env = os.environ.get("HOTSTREAK_HARDWARE", "").strip().lower()
    if env:  # as `hotstreak run` reads it: the environment overrides the file's hardware
        if env not in ("auto", "pi", "mock"):
            raise ValueError(f"HOTSTREAK_HARDWARE={env!r} is not valid (expected auto, pi or mock)")
        cfg = dataclasses.replace(cfg, hardware=env)
    rule_data(cfg)  # a track or deck file that `run` would refuse is refused here too
    print(f"# read from {where}")
    print(config_toml(cfg), end="")
    return 0
