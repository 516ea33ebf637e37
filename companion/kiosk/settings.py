"""Every setting of the config file, declared once: ``SETTINGS``, one ``Setting`` a key.

A setting's line gives its key path, type, default (as written in the file), check and what the error says was
expected, the ``Config`` attribute it fills, how ``hotstreak config`` prints it back and its doc line. From this
one table come ``DEFAULT_TOML`` (the commented reference), the unknown-key check and the reading of
``parse_config`` (``companion.kiosk.config``), ``config_toml``'s dump and the reference in docs/config.md.
A complex setting (``[leds] lanes``, ``[players] names``) has a small reader of its own, named on its line.

Regenerate the reference in docs/config.md after a change here (a test fails while it is stale)::

    python -m companion.kiosk.config_reference docs/config.md

>>> by_path()["leds.brightness"].default
0.35
>>> by_path()["leds.count"].attribute
'led_count'
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.catalogue import LANGUAGES
from companion.colours import COLOURS, hex_colour
from companion.rules.codes import MAX_PLAYERS, name_problem
from companion.rules.mascots import MASCOTS

MAX_LEDS = 10000  # pixels on one strip (leds.count, leds-off --led-count)
MAX_SIDE = 7680  # pixels on a screen side, an 8K screen (display.width / height, screenshot --size)
COLUMN = 27  # where a doc comment starts in DEFAULT_TOML

Kind = type | tuple[type, ...]


def state_dir() -> Path:
    """The kiosk's state folder: ``$STATE_DIRECTORY`` (systemd), else ``$XDG_STATE_HOME/hotstreak``."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "hotstreak"


def cache_dir() -> Path:
    """The kiosk's cache folder: ``$CACHE_DIRECTORY`` (systemd), else ``$XDG_CACHE_HOME/hotstreak``."""
    if os.environ.get("CACHE_DIRECTORY"):
        return Path(os.environ["CACHE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hotstreak"


@dataclass(frozen=True)
class LaneSegment:
    """One lane's piece of the LED strip: its lowest pixel index, direction (1 or -1), pixels a space."""

    first: int
    direction: int
    per_space: int | None = None  # None: [leds] pixels_per_space


class Reader:
    """The parsed TOML of a config file; ``get`` reads one key and collects each problem in ``problems``."""

    def __init__(self, data: dict[str, Any]):
        self.problems: list[str] = []
        self.data = data

    def get(self, path: str, kind: Kind, default: Any,
            check: Callable[[Any], bool] | None = None, expected: str = "") -> Any:
        """The value at ``path`` ("section.key"), or ``default`` when absent or bad (a bad one is a problem
        "path: value is not valid (expected ...)"; ``expected`` defaults to the kind's name)."""
        node: Any = self.data
        parts = path.split(".")
        for part in parts[:-1]:
            node = node.get(part, {}) if isinstance(node, dict) else {}
        if not isinstance(node, dict) or parts[-1] not in node:
            return default
        value = node[parts[-1]]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        ok = bool in kinds if isinstance(value, bool) else isinstance(value, kinds)
        if ok and check is not None and not check(value):
            ok = False
        if not ok:
            what = expected or " or ".join(k.__name__ for k in kinds)
            self.problems.append(f"{path}: {value!r} is not valid (expected {what})")
            return default
        return value


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Setting:
    """One key of the config file. ``default`` is the value as written in the file; ``convert`` makes the
    ``Config`` value of a file value, ``show`` the file value of a ``Config`` value (``hotstreak config``).
    ``item`` set: the attribute is a dict and the setting its entry ``item``. ``read`` replaces the plain
    reading for a complex setting: ``read(reader, setting, values)`` with the attributes read so far."""

    path: str
    kind: Kind
    default: Any
    doc: str = ""  # its comment in DEFAULT_TOML ("\n" continues it on the next line)
    check: Callable[[Any], bool] | None = None
    expected: str = ""
    attr: str = ""  # the Config attribute; "" = the key itself
    item: Any = None
    convert: Callable[[Any], Any] = _same
    show: Callable[[Any], Any] = _same
    read: Callable[[Reader, Setting, dict[str, Any]], Any] | None = None
    above: str = ""  # comment lines above the key in DEFAULT_TOML

    @property
    def section(self) -> str:
        """The table the key is in ("" for a top-level key)."""
        return self.path.rpartition(".")[0]

    @property
    def key(self) -> str:
        return self.path.rpartition(".")[2]

    @property
    def attribute(self) -> str:
        return self.attr or self.key

    def value(self, reader: Reader, values: dict[str, Any]) -> Any:
        """The Config value of this setting in the file ``reader`` reads (its default when absent or bad)."""
        if self.read is not None:
            return self.read(reader, self, values)
        return self.convert(reader.get(self.path, self.kind, self.default, self.check, self.expected))

    def dump(self, cfg: Any) -> Any:
        """The file value of this setting in ``cfg`` (a Config)."""
        value = getattr(cfg, self.attribute)
        return self.show(value[self.item] if self.item is not None else value)


class UndeclaredSetting(AttributeError):
    """A sink read a setting its registry line does not declare (a mistake in the code, never degraded)."""


class DeclaredSettings:
    """The config ``cfg`` as one sink sees it: only the attributes of the key paths ``reads``. Reading another
    raises UndeclaredSetting naming the sink and the setting (so the sink's line in ``SINKS`` says the truth
    about what it reads); a key path that is no setting raises ValueError naming it."""

    def __init__(self, cfg: Any, sink: str, reads: tuple[str, ...]):
        known = by_path()
        unknown = [path for path in reads if path not in known]
        if unknown:
            raise ValueError(f"sink {sink}: {', '.join(unknown)} is not a setting (expected keys of SETTINGS in "
                             "companion/kiosk/settings.py)")
        self._cfg, self._sink = cfg, sink
        self._allowed = {known[path].attribute: path for path in reads}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._allowed:
            raise UndeclaredSetting(f"sink {self._sink} reads the setting {name!r} but its line in SINKS "
                                    "(companion/kiosk/wiring.py) does not declare it")
        return getattr(self._cfg, name)


def colour_of(text: Any) -> tuple[int, int, int] | None:
    """``"#rrggbb"`` as (r, g, b) 0..255, or None when it is not such a colour."""
    if isinstance(text, str) and len(text) == 7 and text[0] == "#":
        try:
            return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)
        except ValueError:
            return None
    return None


def _lanes(r: Reader, s: Setting, values: dict[str, Any]) -> tuple[LaneSegment, ...]:
    """``[leds] lanes``: each segment checked against ``leds.count`` (read before it)."""
    count = values["led_count"]
    lanes: list[LaneSegment] = []
    for i, seg in enumerate(r.get(s.path, list, s.default)):
        key = f"{s.path}[{i}]"
        if not isinstance(seg, dict) or set(seg) - {"first", "direction", "per_space"}:
            r.problems.append(f"{key}: {seg!r} is not valid (expected {{ first = N, direction = 1 | -1 }})")
            continue
        per = seg.get("per_space")
        if per is not None and (isinstance(per, bool) or not isinstance(per, int) or not 1 <= per <= 50):
            r.problems.append(f"{key}.per_space: {per!r} is not valid (expected 1..50, or leave it out)")
        first = seg.get("first", 0)
        direction = seg.get("direction", 1)
        if not isinstance(first, int) or not 0 <= first < count:
            r.problems.append(f"{key}.first: {first!r} is not valid (expected 0..{count - 1})")
        if direction not in (1, -1):
            r.problems.append(f"{key}.direction: {direction!r} is not valid (expected 1 or -1)")
        lanes.append(LaneSegment(first if isinstance(first, int) else 0, direction if direction in (1, -1) else 1,
                                 per if isinstance(per, int) and not isinstance(per, bool) and per >= 1 else None))
    return tuple(lanes)


def _show_lanes(lanes: tuple[LaneSegment, ...]) -> list[dict[str, int]]:
    return [{"first": s.first, "direction": s.direction} | ({"per_space": s.per_space} if s.per_space else {})
            for s in lanes]


def _names(r: Reader, s: Setting, values: dict[str, Any]) -> tuple[str, ...]:
    """``[players] names``, spaces folded; each bad name is a problem naming its index, the name and the rule."""
    folded = []
    for i, name in enumerate(r.get(s.path, list, s.default, s.check, s.expected)):
        if not isinstance(name, str):
            r.problems.append(f"{s.path}[{i}]: {name!r} is not valid (expected a name in quotes)")
            continue
        name = " ".join(name.split())
        if problem := name_problem(name):
            r.problems.append(f"{s.path}[{i}]: {name!r} is not valid: {problem}")
            continue
        folded.append(name)
    return tuple(folded)


def _path(value: str) -> Path | None:
    return Path(value).expanduser() if value else None


def _shown_path(value: Path | None) -> str:
    return str(value) if value else ""


def _one_of(*choices: Any) -> Callable[[Any], bool]:
    return lambda v: v in choices


def _between(low: float, high: float) -> Callable[[Any], bool]:
    return lambda v: low <= v <= high


NUMBER = (int, float)
SECTION_DOCS = {
    "colours": 'lane colours per mascot, "#rrggbb" (defaults: companion/colours.py)',
    "web": "the table's phone page (hotstreak run --web [HOST:]PORT overrides)",
}
SETTINGS: tuple[Setting, ...] = (
    Setting("hardware", str, "auto", "auto | pi | mock  (env HOTSTREAK_HARDWARE overrides)",
            _one_of("auto", "pi", "mock"), "auto, pi or mock"),
    Setting("language", str, "en", f"{' | '.join(LANGUAGES)}: announcer voice and race call",
            _one_of(*LANGUAGES), f"{', '.join(LANGUAGES[:-1])} or {LANGUAGES[-1]}"),  # the catalogue's languages
    Setting("paths.journal", str, "",
            'SQLite journal; "" = $STATE_DIRECTORY or ~/.local/state/hotstreak/journal.db',
            convert=lambda v: _path(v) or state_dir() / "journal.db", show=str),
    Setting("paths.track", str, "", 'the track\'s file; "" = the packaged track', convert=_path, show=_shown_path),
    Setting("paths.deck", str, "", "the deck's file; \"\" = the packaged deck", convert=_path, show=_shown_path),
    Setting("paths.cache", str, "", 'rendered voice cache; "" = ~/.cache/hotstreak',
            convert=lambda v: _path(v) or cache_dir(), show=str),
    Setting("scanner.mode", str, "auto",
            "auto | serial | hid  (auto: the serial port if it exists, else a keyboard scanner)",
            _one_of("auto", "serial", "hid"), "auto, serial or hid", attr="scanner_mode"),
    Setting("scanner.port", str, "/dev/hotstreak-scanner",
            "serial (CDC) mode: the udev symlink (systemd/99-hotstreak-scanner.rules)", bool, "a device path",
            attr="scanner_port"),
    Setting("scanner.baud", int, 9600, "serial mode: bits a second, as set in the scanner",
            _one_of(1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200),
            "a standard baud rate such as 9600 or 115200"),
    Setting("scanner.hid_device", str, "",
            'hid mode: the scanner\'s event device; "" = /dev/input/hotstreak-scanner, else found',
            lambda v: v == "" or v.startswith("/dev/"), '"" or a device path under /dev/input'),
    Setting("scanner.layout", str, "us", "hid mode: the keyboard layout the scanner types in: us | de | fr",
            _one_of("us", "de", "fr"), "us, de or fr"),
    Setting("scanner.repeat_window", NUMBER, 0.8, "seconds: the same code again within this is one scan",
            _between(0, 10), "0..10 s", convert=float),
    Setting("scanner.max_length", int, 64, "longer lines are garbage", _between(8, 1024), "8..1024"),
    Setting("buttons.undo", int, 17, "BCM GPIO numbers, buttons to ground (internal pull-up)", _between(0, 27),
            "a BCM GPIO number 0..27", attr="buttons", item="undo"),
    Setting("buttons.go", int, 27, "the GO button; undo and go on two different pins", _between(0, 27),
            "a BCM GPIO number 0..27", attr="buttons", item="go"),
    Setting("buttons.debounce", NUMBER, 0.05, "seconds", _between(0, 1), "0..1 s", convert=float),
    Setting("leds.count", int, 112, "pixels on the whole strip", _between(1, MAX_LEDS), f"1..{MAX_LEDS}",
            attr="led_count"),
    Setting("leds.pixels_per_space", int, 2, "LEDs a track space has", _between(1, 50), "1..50"),
    Setting("leds.order", str, "GRB", "GRB (WS2812B) or RGB", _one_of("GRB", "RGB"), "GRB or RGB", attr="led_order"),
    Setting("leds.brightness", NUMBER, 0.35, "0..1 cap on every pixel (power and eyes)", _between(0, 1), "0..1",
            convert=float),
    Setting("leds.supply_amps", NUMBER, 4.0,
            "the strip's 5 V supply: the service mode's LED test compares the current with it",
            lambda v: 0 < v <= 1000, "amps, 0..1000", convert=float),
    Setting("leds.pin", int, 10, "GPIO10 = SPI MOSI (no root needed)", _one_of(10, 12, 18, 21),
            "10 (SPI), 12, 18 or 21", attr="led_pin"),
    Setting("leds.dma", int, 10, "ws281x backend: DMA channel (never 5)", _between(0, 14), "0..14", attr="led_dma"),
    Setting("leds.backend", str, "auto", "auto | ws281x | spi  (spi = spidev, for the Pi 5)",
            _one_of("auto", "ws281x", "spi"), "auto, ws281x or spi", attr="led_backend"),
    Setting("leds.lanes", list, [{"first": 28 * i, "direction": 1 - 2 * (i % 2)} for i in range(4)],
            expected="{ first = N, direction = 1 | -1 }, one per lane", read=_lanes, show=_show_lanes,
            above="one strip segment per lane: `first` is the lowest pixel index of the lane; direction 1 when "
                  "space 1 is at\nthat end, -1 when the strip runs the other way (a strip folded back along the "
                  "next lane); an optional\n`per_space` overrides pixels_per_space for that lane. The service "
                  "mode's LED calibration writes these."),
    *(Setting(f"colours.{m.value}", str, hex_colour(COLOURS[m.value]), "", lambda v: colour_of(v) is not None,
              'a colour like "#e8322a"', attr="colours", item=m, convert=colour_of, show=hex_colour)
      for m in MASCOTS),
    Setting("display.fullscreen", bool, True, "on a desktop (mock hardware) the screen is always a window"),
    Setting("display.width", int, 0, "0 = the display's own resolution", _between(0, MAX_SIDE),
            f"0 or a width in pixels up to {MAX_SIDE}"),
    Setting("display.height", int, 0, "0 = the display's own resolution", _between(0, MAX_SIDE),
            f"0 or a height in pixels up to {MAX_SIDE}"),
    Setting("display.start_timeout", NUMBER, 10, "seconds the Pi's screen (KMSDRM) may take to start; then the table "
            "goes on\nwithout it, told in the status (READY is never held for it)", _between(1, 600), "1..600 s",
            convert=float),
    Setting("audio.voice", bool, True, "speak the race call (espeak-ng)"),
    Setting("audio.effects", bool, True, "play the sound effects"),
    Setting("audio.volume", int, 100, "the voice's and effects' loudness, per cent of the sound card's full "
            "volume\n(0 = silent)", _between(0, 100), "a whole per cent 0..100"),
    Setting("game.variant", str, "standard",
            "standard | open: the variant of a new game when no HS-STANDARD/HS-OPEN is scanned\n"
            "(9+ players always play open)", _one_of("standard", "open"), "standard or open"),
    Setting("players.names", list, [],
            'default player names by seat, e.g. ["Ann", "Bram"]; names typed at the table win',
            lambda v: len(v) <= MAX_PLAYERS, f"a list of at most {MAX_PLAYERS} names, one a seat",
            read=_names, show=list),
    Setting("web.enabled", (bool, str), "auto", "auto (on with hardware pi, off on a desktop) | true | false",
            _one_of(True, False, "auto"), "auto, true or false", attr="web_enabled"),
    Setting("web.host", str, "", '"" = every interface (0.0.0.0) on the Pi, 127.0.0.1 on a desktop',
            lambda v: " " not in v, 'an address such as 0.0.0.0, or ""', attr="web_host"),
    Setting("web.port", int, 8080, "the phone page's TCP port", _between(1, 65535), "a port 1..65535", attr="web_port"),
    Setting("web.hosts", list, [], 'extra host names phones may use for the kiosk (e.g. "hotstreak.lan")',
            lambda v: all(isinstance(h, str) and h for h in v), "a list of host names", attr="web_hosts",
            convert=tuple, show=list),
)


def by_path() -> dict[str, Setting]:
    """``SETTINGS`` by key path ("leds.brightness")."""
    return {s.path: s for s in SETTINGS}


def sections() -> dict[str, set[str]]:
    """The keys of each table ("" = the top level: its keys and the table names), in file order."""
    out: dict[str, set[str]] = {"": set()}
    for s in SETTINGS:
        out[""].add(s.section or s.key)
        if s.section:
            out.setdefault(s.section, set()).add(s.key)
    return out


def toml_value(v: Any) -> str:
    """``v`` (bool, int, float, str, list, dict) as a TOML value; a list of tables one a line."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a TOML basic string: JSON escapes are valid TOML
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, (list, tuple)) and any(isinstance(x, dict) for x in v):  # tables: one a line
        return "[\n" + "".join(f"  {toml_value(x)},\n" for x in v) + "]"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as TOML")


def _commented(text: str, doc: str) -> list[str]:
    if not doc:
        return [text]
    first, *more = doc.split("\n")
    return [f"{text}{' ' * max(COLUMN - len(text), 3)}# {first}"] + [" " * COLUMN + f"# {m}" for m in more]


def default_toml() -> str:
    """Every setting at its default with its doc comment: the reference config file (``DEFAULT_TOML``)."""
    lines: list[str] = []
    done: set[str] = set()
    for s in SETTINGS:
        if s.section and s.section not in done:
            done.add(s.section)
            lines += [""] + _commented(f"[{s.section}]", SECTION_DOCS.get(s.section, ""))
        lines += [f"# {line}" for line in s.above.split("\n") if s.above]
        lines += _commented(f"{s.key} = {toml_value(s.default)}", s.doc)
    return "\n".join(lines) + "\n"
