"""A display's own thread: every SDL call of a screen that is not a desktop window (opening it, each flip, each read
of its events, closing it) runs on one thread made for it.

SDL's KMSDRM driver (a Pi without a desktop) shows frames through EGL, and an EGL context is current on the thread
that made it: a screen opened on one thread and flipped from another fails every frame with ``EGL_BAD_ACCESS``
(seen under systemd in qemu, ``docs/pi-arm64.md``). A mode set may also hang, so the kiosk must not open the screen
on its main thread and wait there: this thread opens it, the caller waits at most ``timeout`` s, and after that every
call waits at most ``call_timeout`` s; a display that did not answer in time is given up (each later call raises at
once, nothing more is queued on it), and the race goes on without the screen.

>>> worker = DisplayThread()
>>> worker.start(lambda: "a display", timeout=5, late="too slow")
'a display'
>>> worker.run(lambda: 6 * 7)
42
>>> worker.stop()
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable

CALL_TIMEOUT = 10.0  # s one flip or read of events may take before the display is given up


class DisplayThread:
    """One daemon thread (``display``) that runs the calls given to :meth:`run`, one at a time, in order."""

    def __init__(self, call_timeout: float = CALL_TIMEOUT):
        self.call_timeout = call_timeout
        self.gone: str | None = None  # why the display was given up (a call over its time), else None
        self._calls: queue.Queue[tuple[Callable[[], Any], list[Any], threading.Event] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._serve, name="display", daemon=True)
        self._thread.start()

    def start(self, make: Callable[[], Any], timeout: float, late: str) -> Any:
        """``make()`` on the thread (it opens the display); its result. Raises what ``make`` raised, or
        RuntimeError(``late``) after ``timeout`` s: the thread is then left to finish alone, and what ``make``
        returns late is closed there."""
        box: list[Any] = []
        done = threading.Event()
        abandoned = threading.Event()

        def opening() -> Any:
            made = make()
            if abandoned.is_set() and hasattr(made, "close"):
                made.close()
            return made
        self._calls.put((opening, box, done))
        if not done.wait(timeout):
            abandoned.set()
            self.gone = late
            self._calls.put(None)
            raise RuntimeError(late)
        return self._result(box)

    def run(self, call: Callable[[], Any]) -> Any:
        """``call()`` on the thread, waited for: its result, or what it raised. Raises RuntimeError when the
        display was given up or this call takes over ``call_timeout`` s (then it is given up)."""
        if self.gone is not None:
            raise RuntimeError(f"the screen was given up ({self.gone})")
        if threading.current_thread() is self._thread:
            return call()  # a call made by a call (a key handler): already on the thread
        box: list[Any] = []
        done = threading.Event()
        self._calls.put((call, box, done))
        if not done.wait(self.call_timeout):
            self.gone = f"a frame took over {self.call_timeout:g} s"
            self._calls.put(None)
            raise RuntimeError(f"the screen did not answer within {self.call_timeout:g} s; the race goes on without it")
        return self._result(box)

    def stop(self) -> None:
        """Let the thread end once the calls before this one have run."""
        self._calls.put(None)

    def _serve(self) -> None:
        while True:
            item = self._calls.get()
            if item is None:
                return
            call, box, done = item
            try:
                box.append((True, call()))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                box.append((False, exc))
            done.set()

    @staticmethod
    def _result(box: list[Any]) -> Any:
        ok, value = box[0]
        if not ok:
            raise value
        return value
