"""The ``hotstreak`` command line (``hotstreak COMMAND --help`` describes each command).

Each subcommand lives in its own module under ``companion.commands`` and registers itself in COMMANDS.
Exit status: 0 success, 2 bad input or a file that cannot be read or written (a one-line message on stderr),
1 anything else, 130 after Ctrl-C (at any moment, start-up included: ``companion.interrupt``).
"""

from __future__ import annotations

import os
import signal
import sys

from companion.interrupt import INTERRUPTED, guard_start, hold, interruptible  # small: nothing heavy unguarded

if os.path.basename(sys.argv[0]) == "hotstreak":  # the console script: guarded before the imports below
    guard_start()

import argparse  # noqa: E402
import functools  # noqa: E402
import importlib  # noqa: E402
from typing import NoReturn  # noqa: E402

# subcommand name -> module in companion.commands with ``add_arguments(parser)`` and ``run(args) -> int``
COMMANDS: dict[str, str] = {
    "simulate": "simulate",
    "status": "status",
    "run": "run",
    "demo": "demo",
    "leds-off": "leds_off",
    "settle": "settle",
    "labels": "labels",
    "doctor": "doctor",
    "screenshot": "screenshot",
    "odds": "odds",
    "history": "history",
    "config": "config",
    "wiring": "wiring",
}


@functools.cache  # read once a process: a command run in process again (the tests) does not search the metadata again
def installed_version() -> str:
    """The installed package's version (e.g. ``"0.1.0"``), from its metadata; ``"unknown"`` when not installed."""
    import importlib.metadata
    try:
        return importlib.metadata.version("hotstreak-companion")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


class Parser(argparse.ArgumentParser):
    """argparse with its errors in one line naming the option (``hotstreak odds: argument --players: invalid
    int value: 'x' (see hotstreak odds --help)``), exit status 2; the usage stays in ``--help``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``only`` a known command, just that one is imported (fast start-up)."""
    parser = Parser(prog="hotstreak", description="Hot Streak Companion: the race caller.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    names = [only] if only in COMMANDS else list(COMMANDS)
    for name in names:
        module = importlib.import_module(f"companion.commands.{COMMANDS[name]}")
        p = sub.add_parser(name, help=module.__doc__.strip().splitlines()[0] if module.__doc__ else None,
                           description=_plain(module.__doc__), formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(p)
        p.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns its exit status. From the first line on, Ctrl-C ends the program quietly with
    130. Called with ``argv`` (in-process use, tests), it puts the caller's SIGINT handler back at the end."""
    previous = guard_start()  # before any heavy import: Ctrl-C at start-up is a quiet 130, never a traceback
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    finally:
        if argv is not None and previous is not None:
            signal.signal(signal.SIGINT, previous)


def _main(argv: list[str]) -> int:
    from companion.rules.errors import HotStreakError

    hold("cli")
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    try:
        if not getattr(args._module, "HANDLES_INTERRUPT", False):  # the kiosk installs its own handler
            interruptible()
        code = int(args._module.run(args) or 0)
        sys.stdout.flush()  # a reader that went away shows here, not as a traceback at exit
        return code
    except BrokenPipeError:  # e.g. `hotstreak simulate ... | head`: the reader has all it wanted; exit quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (HotStreakError, ValueError) as exc:
        print(f"hotstreak {args.command}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file or device the user named: one line, never a traceback
        where = f": {exc.filename}" if exc.filename else ""
        print(f"hotstreak {args.command}: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return INTERRUPTED

if __name__ == "__main__":
    raise SystemExit(main())


def _plain(doc: str | None) -> str | None:
    """A command module's docstring as help text: ``code`` marks (reStructuredText) shown as plain `code`."""
    return doc.replace("``", "`") if doc else doc
