"""Ctrl-C while a ``hotstreak`` command starts: a quiet end with exit status 130, never a traceback.

Imports only the standard library and nothing heavy, so ``companion.cli`` and ``companion.__main__`` can guard
the start-up before the command's own imports (numpy, pygame-ce, the web server) take their 0.3-2 s. While
guarded, SIGINT ends the process at once, as a kill would (nothing has been written yet; the kiosk's journal is
made to survive a kill at any moment). A command that is under way gets the usual KeyboardInterrupt instead
(``companion.cli`` turns it into 130), and the kiosk's main loop its own handler
(``companion.kiosk.wiring.install_signal_handlers``).

``HOTSTREAK_HOLD_AT=POINT`` (tests only) holds the program at a named point of its start-up: it prints
``hotstreak: held at POINT`` on stderr and waits up to 60 s, so a test can send SIGINT exactly there. Points:
``cli`` (before the command's module is imported), ``run`` (``hotstreak run``, after the journal and devices
are made, before the main loop's handlers take over).
"""

from __future__ import annotations

import os
import signal
import sys
import time

TYPE_CHECKING = False  # not typing's (an import of 3-10 ms): this module is imported before the guard is in
if TYPE_CHECKING:
    from types import FrameType
    from typing import Any

INTERRUPTED = 130  # the shell's status for a program ended by SIGINT (128 + 2)
HOLD_ENV = "HOTSTREAK_HOLD_AT"
HOLD_SECONDS = 60.0


def quiet_exit(signum: int, frame: FrameType | None) -> None:
    """The start-up's SIGINT handler: end the process now with status 130, printing nothing."""
    os._exit(INTERRUPTED)


def guard_start() -> Any:
    """From now on, SIGINT ends the process quietly with 130 (:func:`quiet_exit`). Returns the handler it
    replaced (for :func:`signal.signal`), or None where it changed nothing: off the main thread (signals
    cannot be handled there) or when SIGINT is ignored (a background job of a script, ``nohup``), which stays."""
    return _set(quiet_exit)


def interruptible() -> None:
    """A command is under way: SIGINT raises KeyboardInterrupt again (its ``finally`` blocks run); an ignored
    SIGINT stays ignored."""
    _set(signal.default_int_handler)


def _set(handler: Any) -> Any:
    """Install ``handler`` for SIGINT unless SIGINT is ignored; the handler replaced, or None (also off the main
    thread, where :func:`signal.signal` refuses)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return None
    try:
        return signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread
        return None


def hold(point: str) -> None:
    """Tests only: when ``$HOTSTREAK_HOLD_AT`` is ``point``, say so on stderr and wait (see the module)."""
    if os.environ.get(HOLD_ENV) != point:
        return
    print(f"hotstreak: held at {point}", file=sys.stderr, flush=True)
    time.sleep(HOLD_SECONDS)
