"""The ``hotstreak`` command line (contracts in DESIGN.md "Command line").

Each subcommand lives in its own module under ``companion.commands`` and registers itself in COMMANDS.
Exit status: 0 success, 2 bad input (a one-line message on stderr), 1 anything else.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from companion.rules.errors import HotStreakError

# subcommand name -> module in companion.commands with ``add_arguments(parser)`` and ``run(args) -> int``
COMMANDS: dict[str, str] = {
    "simulate": "simulate",
    "odds": "odds",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hotstreak", description="Hot Streak Companion: the race caller.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(f"companion.commands.{module_name}")
        p = sub.add_parser(name, help=module.__doc__.strip().splitlines()[0] if module.__doc__ else None,
                           description=module.__doc__)
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args._module.run(args) or 0)
    except (HotStreakError, ValueError) as exc:
        print(f"hotstreak {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
