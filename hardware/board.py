"""What we run on, and the one place the hardware mode (``pi`` or ``mock``) is decided.

>>> resolve_mode("mock", env={})
'mock'
>>> resolve_mode(None, config="mock", env={"HOTSTREAK_HARDWARE": "auto"})
'mock'
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

ENV_VAR = "HOTSTREAK_HARDWARE"
MODES = ("auto", "pi", "mock")
MODEL_PATH = Path("/proc/device-tree/model")


@dataclass(frozen=True)
class Board:
    """What we run on: ``model`` as the device tree names it ('' on a desktop)."""

    model: str

    @property
    def is_pi(self) -> bool:
        return self.model.startswith("Raspberry Pi")

    @property
    def is_pi5(self) -> bool:
        """Pi 5 family (Pi 5, Pi 500, Compute Module 5): the LEDs need the spidev backend."""
        return self.model.startswith(("Raspberry Pi 5", "Raspberry Pi 500", "Raspberry Pi Compute Module 5"))


def detect_board(model_path: str | Path = MODEL_PATH) -> Board:
    """Read the device-tree model file (NUL-terminated text); an empty model when it is missing."""
    try:
        text = Path(model_path).read_bytes().split(b"\0", 1)[0].decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return Board(text)


def resolve_mode(mode: str | None = "auto", *, config: str | None = None, env: Mapping[str, str] | None = None,
                 model_path: str | Path = MODEL_PATH) -> str:
    """``"pi"`` or ``"mock"``, decided here and nowhere else.

    The first of these that names ``pi`` or ``mock`` wins: ``mode`` (the ``--hardware`` option or a
    caller's choice), then ``$HOTSTREAK_HARDWARE`` (from ``env``, default ``os.environ``), then ``config``
    (the config file's ``hardware``); when all say ``auto`` (or are unset), ``pi`` if the device-tree model
    names a Raspberry Pi, else ``mock``. Raises ValueError naming a bad value and where it came from.
    """
    env = os.environ if env is None else env
    for value, source in ((mode, "hardware mode"), (env.get(ENV_VAR), ENV_VAR), (config, "config hardware")):
        chosen = (value or "auto").strip().lower()
        if chosen not in MODES:
            raise ValueError(f"{source} {value!r} is not one of auto, pi, mock")
        if chosen != "auto":
            return chosen
    return "pi" if detect_board(model_path).is_pi else "mock"
