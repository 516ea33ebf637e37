"""Print the effective configuration as TOML, defaults included.

The file given with --config (or $HOTSTREAK_CONFIG) is read and validated like `hotstreak run` does; every
setting it leaves out shows its default. Paths are shown resolved; `[colours]` holds the mascot colours as
"#rrggbb". The output is itself a valid config file.
"""

from __future__ import annotations

import argparse

from companion.kiosk.config import config_toml, load_config


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help="config file (TOML; default: $HOTSTREAK_CONFIG, else the defaults)")


def run(args: argparse.Namespace) -> int:
    print(config_toml(load_config(args.config)), end="")
    return 0
