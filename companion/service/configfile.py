"""Writing the LED calibration into the config file: atomically, with a backup that can be put back.

Only the ``[leds]`` table's ``pixels_per_space`` and ``lanes`` change; every other line (comments included) is
kept as it was. The new text is checked before it is written: read back with ``tomllib`` it must give the
calibrated lanes, and ``check(text)`` (the kiosk's full config validation) must accept it. An old file is
copied to ``<name>.bak`` first (no old file: no backup, and UNDO removes the new file again); both files are
written as a temporary file in the same folder, flushed to disk and moved into place with ``os.replace``, so a
power cut leaves the old file or the new one, never half of one.

>>> from companion.service.calibrate import Lane
>>> print(leds_lines({1: Lane(0, 1, 2), 2: Lane(28, -1, 2)}))
pixels_per_space = 2
lanes = [
  { first = 0, direction = 1 },
  { first = 28, direction = -1 },
]
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Callable, Mapping

from companion.service.calibrate import Lane

__all__ = ["SaveError", "backup_of", "leds_lines", "remove_new", "restore", "with_lanes", "write_calibration"]

_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\"-]+)\s*\]\s*(#.*)?$")


class SaveError(Exception):
    """The calibration could not be saved or put back; the message names the file and why."""


def backup_of(path: Path) -> Path:
    """Where the file before the last calibration is kept: ``config.toml`` -> ``config.toml.bak``."""
    return path.with_name(path.name + ".bak")


def leds_lines(lanes: Mapping[int, Lane]) -> str:
    """The ``[leds]`` lines for ``lanes`` (lane number -> Lane): one ``pixels_per_space`` when every lane has
    the same, else a ``per_space`` in each lane's entry."""
    sizes = {lane.per_space for lane in lanes.values()}
    same = len(sizes) == 1
    rows = []
    for _, lane in sorted(lanes.items()):
        extra = "" if same else f", per_space = {lane.per_space}"
        rows.append(f"  {{ first = {lane.first}, direction = {lane.direction}{extra} }},")
    head = f"pixels_per_space = {sizes.pop()}\n" if same else ""
    return head + "lanes = [\n" + "\n".join(rows) + "\n]"


def _depth(line: str) -> int:
    code = line.split("#", 1)[0]
    return code.count("[") - code.count("]")


def _section_end(lines: list[str], start: int) -> int:
    return next((i for i in range(start + 1, len(lines)) if _HEADER.match(lines[i])), len(lines))


def with_lanes(text: str, lanes: Mapping[int, Lane]) -> str:
    """``text`` (a config file's TOML, maybe empty) with its ``[leds]`` ``pixels_per_space`` and ``lanes``
    replaced by ``lanes`` (a ``[leds]`` table is added when there is none). Raises SaveError when the result
    does not read back as those lanes."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if (m := _HEADER.match(line)) and m.group(1) == "leds"), None)
    if start is None:
        kept = lines + ([""] if lines and lines[-1].strip() else []) + ["[leds]"]
        end = len(kept)
    else:
        stop = _section_end(lines, start)
        body: list[str] = []
        i = start + 1
        while i < stop:
            line = lines[i]
            key = line.split("=", 1)[0].strip() if "=" in line else ""
            if key == "pixels_per_space":
                i += 1
                continue
            if key == "lanes":
                depth = _depth(line.split("=", 1)[1])
                i += 1
                while depth > 0 and i < stop:
                    depth += _depth(lines[i])
                    i += 1
                continue
            body.append(line)
            i += 1
        while body and not body[-1].strip():
            body.pop()
        kept = lines[:start + 1] + body
        end = len(kept)
        kept += [""] + lines[stop:] if stop < len(lines) else []
    new = "\n".join(kept[:end] + leds_lines(lanes).split("\n") + kept[end:]) + "\n"
    _verify(new, lanes)
    return new


def _verify(text: str, lanes: Mapping[int, Lane]) -> None:
    try:
        leds = tomllib.loads(text).get("leds", {})
    except tomllib.TOMLDecodeError as exc:
        raise SaveError(f"the calibrated config would not be valid TOML ({exc})") from None
    pps = leds.get("pixels_per_space", 2)
    got = [Lane(e.get("first", 0), e.get("direction", 1), e.get("per_space", pps)) for e in leds.get("lanes", [])]
    if got != [lane for _, lane in sorted(lanes.items())]:
        raise SaveError(f"the calibrated config reads back as {got}, not the calibrated lanes")


def _write(path: Path, data: bytes, mode: int | None) -> None:
    """``data`` to ``path`` through a temporary file in its folder, fsync, ``os.replace``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_calibration(path: Path, lanes: Mapping[int, Lane],
                      check: Callable[[str], object] | None = None) -> Path | None:
    """Write ``lanes`` into the config file at ``path`` (made, with its folder, when missing), keeping the old
    file as :func:`backup_of`. Returns the backup's path, or None when there was no old file (then no backup is
    written, and a stale one from an earlier file is removed so it cannot be put back by mistake). Raises
    SaveError naming the file and the reason; the config file is then unchanged."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        old = path.read_bytes() if existed else b""
        mode = path.stat().st_mode & 0o777 if existed else None
        new = with_lanes(old.decode("utf-8"), lanes)
        if check is not None:
            try:
                check(new)
            except Exception as exc:  # noqa: BLE001 - the kiosk's check: a ConfigError naming each problem
                raise SaveError(f"the calibrated config is refused: {exc}") from None
        if existed:
            _write(backup_of(path), old, mode)
        else:
            backup_of(path).unlink(missing_ok=True)
        _write(path, new.encode("utf-8"), mode)
    except SaveError as exc:
        raise SaveError(f"{path}: {exc}") from None
    except UnicodeDecodeError:
        raise SaveError(f"{path}: not UTF-8 text (expected a TOML file)") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot write ({exc.strerror or exc})") from None
    return backup_of(path) if existed else None


def remove_new(path: Path) -> None:
    """Undo a calibration that made the config file at ``path`` (there was none before): remove it, so the
    table reads the defaults again. Raises SaveError when it cannot be removed."""
    try:
        Path(path).unlink(missing_ok=True)
    except OSError as exc:
        raise SaveError(f"{path}: cannot remove ({exc.strerror or exc})") from None


def restore(path: Path) -> None:
    """Put the backup of the last calibration back in place of the config file at ``path`` (atomically; the
    backup stays). Raises SaveError when there is no backup or it cannot be written."""
    path = Path(path)
    backup = backup_of(path)
    try:
        old = backup.read_bytes()
        _write(path, old, backup.stat().st_mode & 0o777)
    except FileNotFoundError:
        raise SaveError(f"{backup}: no backup to restore (expected one written by the calibration)") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot restore ({exc.strerror or exc})") from None
