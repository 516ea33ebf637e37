"""Where the table's config file lives when no ``--config`` is given: one place every command reads and the
service mode's LED calibration writes (docs/config.md, "Where the config file lives").

In order: ``$HOTSTREAK_CONFIG`` (the file must exist); else the service's config folder
(``$CONFIGURATION_DIRECTORY``, which systemd sets from the unit's ``ConfigurationDirectory=hotstreak``:
``/etc/hotstreak/config.toml``); else the user's ``$XDG_CONFIG_HOME/hotstreak/config.toml`` (by default
``~/.config/hotstreak/config.toml``) when it exists; else the Pi's table config ``/etc/hotstreak/config.toml``
when it exists (so ``hotstreak config``, ``wiring`` and ``doctor`` on the Pi read what the service reads);
else the built-in defaults, and the user's file is where the calibration will create it.

>>> env = {"CONFIGURATION_DIRECTORY": "/etc/hotstreak", "HOME": "/home/x"}
>>> where = config_location(None, env)
>>> str(where.path), where.why
('/etc/hotstreak/config.toml', '$CONFIGURATION_DIRECTORY')
>>> str(config_location(None, {"XDG_CONFIG_HOME": "/c"}).path)
'/c/hotstreak/config.toml'
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

__all__ = ["HELP", "ConfigLocation", "config_location"]

NAME = "config.toml"
SYSTEM = Path("/etc/hotstreak") / NAME  # the file systemd/install.sh makes for the service
HELP = ("config file (TOML); default: $HOTSTREAK_CONFIG, else $CONFIGURATION_DIRECTORY/config.toml (the service's"
        " /etc/hotstreak), else the first that exists of ~/.config/hotstreak/config.toml and "
        "/etc/hotstreak/config.toml, else the defaults")


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; a folder this user may not look into holds none (a default location is
    searched, never demanded)."""
    try:
        return path.is_file()
    except OSError:
        return False


@dataclass(frozen=True)
class ConfigLocation:
    """The config file for a command: ``path`` (read it when ``required`` or when it exists; the calibration
    writes it) and ``why`` that one (``--config``, ``$HOTSTREAK_CONFIG``, ``$CONFIGURATION_DIRECTORY`` or
    ``the user's config``)."""

    path: Path
    why: str
    required: bool

    def to_read(self) -> Path | None:
        """The file to read, or None for the built-in defaults (a default location with no file yet)."""
        return self.path if self.required or _is_file(self.path) else None

    def said(self) -> str:
        """One line saying which file was read and why, e.g. ``/etc/hotstreak/config.toml
        ($CONFIGURATION_DIRECTORY)``, or ``the defaults (no file at ~/.config/hotstreak/config.toml, the user's
        config)``."""
        if self.to_read() is not None:
            return f"{self.path} ({self.why})"
        return f"the defaults (no file at {self.path}, {self.why})"


def config_location(given: str | Path | None = None, environ: Mapping[str, str] | None = None) -> ConfigLocation:
    """The config file for ``given`` (a ``--config`` value, or None for the default location, as the module
    says) in ``environ`` (default ``os.environ``). A file given by ``--config`` or ``$HOTSTREAK_CONFIG`` is
    required: a missing one is an error when read, never a silent fall back to the defaults."""
    env = os.environ if environ is None else environ
    if given:
        return ConfigLocation(Path(given), "--config", True)
    if env.get("HOTSTREAK_CONFIG"):
        return ConfigLocation(Path(env["HOTSTREAK_CONFIG"]), "$HOTSTREAK_CONFIG", True)
    if env.get("CONFIGURATION_DIRECTORY"):
        folder = Path(env["CONFIGURATION_DIRECTORY"].split(":")[0])
        return ConfigLocation(folder / NAME, "$CONFIGURATION_DIRECTORY", False)
    home = env.get("HOME") or str(Path.home())
    user = Path(env.get("XDG_CONFIG_HOME") or Path(home) / ".config") / "hotstreak" / NAME
    if not _is_file(user) and _is_file(SYSTEM):
        return ConfigLocation(SYSTEM, "the table's config", False)
    return ConfigLocation(user, "the user's config", False)
