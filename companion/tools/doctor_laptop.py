"""``hotstreak doctor`` off a Raspberry Pi: what a laptop (or desktop) table needs instead of the Pi's checks.

A laptop table has no SPI LED strip, GPIO buttons, service user or KMS console, so those checks are skipped
(one note says so). It needs: a desktop display for the table's window; for a USB-serial scanner, the user in
group ``dialout`` (the port's group); for a keyboard (HID) scanner read through evdev, the user in group
``input`` (the window itself also reads a keyboard scanner's keys while it has the focus). Each check is a
pure function of a filesystem ``root`` and the environment, as in :mod:`companion.tools.doctor`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

from companion.tools.doctor import Problem, _inside, _read, keyboard_mode_scanners, serial_ports
from hardware.board import MODEL_PATH, detect_board

__all__ = ["AUDIO_FIX", "PI_ONLY_NOTE", "check_laptop", "is_a_pi", "user_groups"]

AUDIO_FIX = "plug in speakers or a USB sound card, or pick a sound output in the desktop's sound settings"

PI_ONLY_NOTE = ("not a Raspberry Pi ({why}): the Pi-only checks (SPI, GPIO, the service user and its groups, the "
                "console display driver, console blanking) are skipped")


def is_a_pi(root: Path) -> bool:
    """True when ``root``'s /proc/device-tree/model names a Raspberry Pi."""
    return detect_board(_inside(root, MODEL_PATH)).is_pi


def user_groups(root: Path, user: str) -> set[str] | None:
    """The groups ``user`` belongs to in ``root``'s /etc/group and /etc/passwd (its primary group included);
    None when those files cannot be read or the user is not in /etc/passwd."""
    passwd, group = _read(_inside(root, "/etc/passwd")), _read(_inside(root, "/etc/group"))
    if passwd is None or group is None:
        return None
    primary = next((f[3] for f in (line.split(":") for line in passwd.splitlines())
                    if len(f) >= 4 and f[0] == user), None)
    if primary is None:
        return None
    found = set()
    for line in group.splitlines():
        f = line.split(":")
        if len(f) >= 4 and (user in f[3].split(",") or f[2] == primary):
            found.add(f[0])
    return found


def _joins(group: str, user: str) -> str:
    return f"sudo usermod -aG {group} {user}, then log out and in again"


def check_laptop(root: Path, user: str, *, env: Mapping[str, str] | None = None, mode: str = "auto",
                 port: str | None = None, notes: list[str] | None = None) -> list[Problem]:
    """A laptop table's needs, for ``user`` (who runs it) with ``[scanner] mode`` ``mode`` and the scanner
    ``port`` (``--scanner``) if any. Problems: no display (no ``$DISPLAY`` or ``$WAYLAND_DISPLAY`` in ``env``,
    default ``os.environ``); a serial scanner port present (or mode serial) and ``user`` not in dialout; a
    keyboard scanner in mode hid and ``user`` not in input (in mode auto, a note). Root needs no group."""
    env = os.environ if env is None else env
    problems: list[Problem] = []
    if not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        problems.append(Problem("display", "no desktop display ($DISPLAY and $WAYLAND_DISPLAY are unset), so the "
                                "table's window cannot open",
                                "run it from a terminal in the desktop session, or with --display none (the race "
                                "call on the console); hotstreak demo --headless needs no screen"))
    groups = user_groups(root, user) if user != "root" else None
    if user == "root" or groups is None:
        if user != "root" and notes is not None:
            notes.append(f"group checks skipped: no user {user!r} in /etc/passwd, or /etc/group cannot be read")
        return problems
    ports = [port] if port else [f"/dev/{name}" for name in serial_ports(root)]
    if mode != "hid" and (ports or mode == "serial") and "dialout" not in groups:
        where = ", ".join(ports) if ports else "a USB serial scanner's port"
        problems.append(Problem("scanner", f"user {user} is not in group dialout, so the scanner's serial port "
                                f"({where}) cannot be opened", _joins("dialout", user)))
    keyboards = keyboard_mode_scanners(root) if mode != "serial" else []
    if keyboards and "input" not in groups:
        text = (f"user {user} is not in group input, so the keyboard scanner ({keyboards[0]}) cannot be read "
                "through /dev/input (evdev)")
        if mode == "hid":
            problems.append(Problem("scanner", text, _joins("input", user)))
        elif notes is not None:
            notes.append(f"{text}; the table's window still reads its keys while it has the focus "
                         f"(for evdev: {_joins('input', user)})")
    return problems
