"""Keeping C libraries' own chatter off the console.

libasound writes lines such as ``ALSA lib confmisc.c:855:(parse_card) cannot find card '0'`` straight to file
descriptor 2 while pygame's mixer probes for a sound card; on a desktop or a Pi without one the terminal (and
the systemd journal) fills with them, although the program already says in one line that it runs without
sound. :func:`quiet_c_stderr` catches what is written to descriptor 2 inside its block, drops the lines that
start with a known noise prefix (logged at DEBUG level) and passes every other line on, in order.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
from typing import Iterator

log = logging.getLogger(__name__)

NOISE_PREFIXES: tuple[str, ...] = ("ALSA lib ",)
"""Line starts of C-library output that says nothing the program's own log line does not."""


@contextlib.contextmanager
def quiet_c_stderr(prefixes: tuple[str, ...] = NOISE_PREFIXES) -> Iterator[None]:
    """Within the block, drop stderr lines starting with one of ``prefixes``; keep the rest.

    Works on file descriptor 2, where C code writes, so it catches C libraries too (and Python's own
    ``sys.stderr`` when that is descriptor 2). Without an open descriptor 2 the block runs unchanged.
    """
    fd = 2
    try:
        os.fstat(fd)
    except OSError:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(fd)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), fd)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, fd)
            os.close(saved)
            tmp.seek(0)
            kept: list[str] = []
            dropped = 0
            for line in tmp.read().decode("utf-8", "replace").splitlines(keepends=True):
                if line.startswith(prefixes):
                    dropped += 1
                else:
                    kept.append(line)
            if kept:
                os.write(fd, "".join(kept).encode("utf-8", "replace"))
            if dropped:
                log.debug("dropped %d line(s) of C library noise from stderr", dropped)
