"""The one configuration file of the kiosk (TOML), validated with every problem listed.

Every setting has a default, so a desktop needs no file. Load with ``load_config(path)``; ``path=None`` reads
the default location (``config_path``) or gives the defaults. Bad values raise ``ConfigError`` listing each
problem with its key path and what was expected. Each setting is declared once, in
``companion.kiosk.settings.SETTINGS``: its default, type, check, doc and dump line; ``DEFAULT_TOML`` (the
reference in docs/config.md) is made from it.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.kiosk.config_path import config_location
from companion.kiosk.errors import ConfigError
from companion.kiosk.settings import (MAX_LEDS, MAX_SIDE, SETTINGS, LaneSegment, Reader, default_toml, sections,
                                      toml_value)
from companion.rules.deck import Deck, load_deck
from companion.rules.errors import DataFileError
from companion.rules.datafile import NotADataFile, read_data_text
from companion.rules.mascots import Mascot

__all__ = ["DEFAULT_TOML", "DUMP", "MAX_LEDS", "MAX_SIDE", "Config", "ConfigError", "LaneSegment", "config_toml",
           "load_config", "parse_config", "rule_data"]
from companion.rules.track import Track, load_track
from hardware.pins import pin_problems

DEFAULT_TOML = default_toml()  # every setting at its default, with its doc comment (docs/config.md shows it)


@dataclass(frozen=True)
class Config:
    """The validated configuration. Paths are resolved; colours are (r, g, b) 0..255. Each attribute is filled
    by its line in ``companion.kiosk.settings.SETTINGS`` (default, check, doc); only ``source`` is not a setting."""

    hardware: str
    language: str
    journal: Path
    track: Path | None
    deck: Path | None
    cache: Path
    scanner_mode: str
    scanner_port: str
    baud: int
    hid_device: str
    layout: str
    repeat_window: float
    max_length: int
    buttons: dict[str, int]
    debounce: float
    led_count: int
    pixels_per_space: int
    led_order: str
    brightness: float
    supply_amps: float
    led_pin: int
    led_dma: int
    led_backend: str
    lanes: tuple[LaneSegment, ...]
    colours: dict[Mascot, tuple[int, int, int]]
    fullscreen: bool
    width: int
    height: int
    start_timeout: float
    voice: bool
    effects: bool
    volume: int
    variant: str
    names: tuple[str, ...]
    web_enabled: str | bool
    web_host: str
    web_port: int
    web_hosts: tuple[str, ...]
    source: Path | None = None  # the file read (load_config), None for the defaults; the calibration writes it

    def lane_map_dict(self, spaces: int = 14) -> dict[str, Any]:
        """The LED lane map in the form of ``companion.lights.lanemap.LaneMap.from_dict`` (one chain, one segment)."""
        return {"spaces": spaces, "segments": [0],
                "lane": {str(i + 1): {"segment": 0, "first": seg.first,
                                      "per_space": seg.per_space or self.pixels_per_space,
                                      "direction": seg.direction} for i, seg in enumerate(self.lanes)}}


def _unknown_keys(data: dict[str, Any]) -> list[str]:
    """A problem for each key or table of ``data`` that no setting declares, and for a table that is a value."""
    known = sections()
    problems = []
    for key, value in data.items():
        if key not in known[""]:
            problems.append(f"{key}: unknown setting (expected one of: {', '.join(sorted(known['']))})")
        elif key in known:
            if not isinstance(value, dict):
                problems.append(f"{key}: must be a table [{key}]")
                continue
            problems += [f"{key}.{sub}: unknown setting (expected one of: {', '.join(sorted(known[key]))})"
                         for sub in value if sub not in known[key]]
    return problems


def parse_config(text: str, source: str = "config") -> Config:
    """Parse and validate config TOML text: every setting of ``SETTINGS`` read and checked, then the checks
    across settings (two buttons on one pin, the Pi's pin rules, one LED segment a lane). Raises ConfigError
    listing every problem with its key path."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, [f"not valid TOML: {exc}"]) from None
    r = Reader(data)
    r.problems += _unknown_keys(data)
    values: dict[str, Any] = {}
    for setting in SETTINGS:
        value = setting.value(r, values)
        if setting.item is None:
            values[setting.attribute] = value
        else:
            values.setdefault(setting.attribute, {})[setting.item] = value
    cfg = Config(**values)
    if cfg.buttons["undo"] == cfg.buttons["go"]:
        r.problems.append(f"buttons: undo and go are both on GPIO{cfg.buttons['go']} (expected two different pins)")
    r.problems += pin_problems(led_pin=cfg.led_pin, led_dma=cfg.led_dma, led_backend=cfg.led_backend,
                               buttons=cfg.buttons, audio=cfg.voice or cfg.effects)
    if len(cfg.lanes) != 4:
        r.problems.append(f"leds.lanes: {len(cfg.lanes)} segments (expected one per lane: 4)")
    if r.problems:
        raise ConfigError(source, r.problems)
    return cfg


def load_config(path: str | Path | None = None) -> Config:
    """Load the config file at ``path``, else at the default location (``config_path``; none there: the defaults).
    Raises ConfigError (one line per problem) for an unreadable or invalid file."""
    path = config_location(path).to_read()
    if path is None:
        return parse_config(DEFAULT_TOML, "defaults")
    try:
        text = read_data_text(path)  # a regular file under 1 MB: never a FIFO, a device or a folder
    except NotADataFile as exc:
        raise ConfigError(str(path), [str(exc)]) from None
    except OSError as exc:
        raise ConfigError(str(path), [f"cannot read file: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), [f"not UTF-8 text: byte {exc.object[exc.start]:#04x} at offset {exc.start} "
                                      "(expected a TOML file saved as UTF-8)"]) from None
    return dataclasses.replace(parse_config(text, str(path)), source=Path(path))


def rule_data(cfg: Config) -> tuple[Track, Deck]:
    """The track and deck the config names (``paths.track``, ``paths.deck``; the packaged ones when empty),
    loaded and validated: the one check ``hotstreak config`` and ``hotstreak run`` share. Raises DataFileError
    naming the file and each problem (a missing file included). The packaged ones are read once a process (they
    are frozen values, and a kiosk and its tests ask for them again and again)."""
    from companion.rules.race import default_deck, default_track
    return (load_track(cfg.track) if cfg.track else default_track(),
            load_deck(cfg.deck) if cfg.deck else default_deck())


# ----- the effective configuration as TOML (``hotstreak config``) ------------------------------------------
# One line per setting, made from SETTINGS: its key path and how to read it from a Config.
DUMP: list[tuple[str, Callable[[Config], Any]]] = [(s.path, s.dump) for s in SETTINGS]


def config_toml(cfg: Config) -> str:
    """The effective configuration ``cfg`` as TOML text, every setting of DUMP included (defaults too):
    top-level keys first, then one ``[section]`` per table in DUMP order. ``parse_config`` of the text gives
    ``cfg`` back."""
    top: list[str] = []
    tables: dict[str, list[str]] = {}
    for path, read in DUMP:
        section, _, key = path.rpartition(".")
        line = f"{key} = {toml_value(read(cfg))}"
        (tables.setdefault(section, []) if section else top).append(line)
    parts = ["\n".join(top) + "\n"] + [f"[{name}]\n" + "\n".join(lines) + "\n" for name, lines in tables.items()]
    return "\n".join(parts)
