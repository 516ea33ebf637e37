"""The one configuration file of the kiosk (TOML), validated with every problem listed.

Every setting has a default, so a desktop needs no file. Load with ``load_config(path)``; ``path=None`` reads
the default location (``config_path``) or gives the defaults. Bad values raise ``ConfigError`` listing each
problem with its key path and what was expected. The full reference with defaults is ``DEFAULT_TOML`` (also in docs/config.md).
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from companion.colours import COLOURS, hex_colour
from companion.kiosk.config_path import config_location
from companion.kiosk.errors import ConfigError
from companion.rules.codes import MAX_PLAYERS, name_problem
from companion.rules.deck import Deck, load_deck
from companion.rules.errors import DataFileError
from companion.rules.datafile import NotADataFile, read_data_text
from companion.rules.mascots import MASCOTS, Mascot
from companion.rules.track import Track, load_track
from hardware.pins import pin_problems

MAX_LEDS = 10000  # pixels on one strip (leds.count, leds-off --led-count)
MAX_SIDE = 7680  # pixels on a screen side, an 8K screen (display.width / height, screenshot --size)

DEFAULT_TOML = """\
hardware = "auto"          # auto | pi | mock  (env HOTSTREAK_HARDWARE overrides)
language = "en"            # en | nl | es: announcer voice and race call

[paths]
journal = ""               # SQLite journal; "" = $STATE_DIRECTORY or ~/.local/state/hotstreak/journal.db
track = ""                 # rule data files; "" = the packaged defaults
deck = ""
cache = ""                 # rendered voice cache; "" = ~/.cache/hotstreak

[scanner]
mode = "auto"              # auto | serial | hid  (auto: the serial port if it exists, else a keyboard scanner)
port = "/dev/hotstreak-scanner"   # serial (CDC) mode: the udev symlink (systemd/99-hotstreak-scanner.rules)
baud = 9600
hid_device = ""            # hid mode: the scanner's event device; "" = /dev/input/hotstreak-scanner, else found
layout = "us"              # hid mode: the keyboard layout the scanner types in: us | de | fr
repeat_window = 0.8        # seconds: the same code again within this is one scan
max_length = 64            # longer lines are garbage

[buttons]
undo = 17                  # BCM GPIO numbers, buttons to ground (internal pull-up)
go = 27
debounce = 0.05            # seconds

[leds]
count = 112                # pixels on the whole strip
pixels_per_space = 2
order = "GRB"              # GRB (WS2812B) or RGB
brightness = 0.35          # 0..1 cap on every pixel (power and eyes)
supply_amps = 4.0          # the strip's 5 V supply: the service mode's LED test compares the current with it
pin = 10                   # GPIO10 = SPI MOSI (no root needed)
dma = 10
backend = "auto"           # auto | ws281x | spi  (spi = spidev, for the Pi 5)
# one strip segment per lane: `first` is the lowest pixel index of the lane; direction 1 when space 1 is at
# that end, -1 when the strip runs the other way (a strip folded back along the next lane); an optional
# `per_space` overrides pixels_per_space for that lane. The service mode's LED calibration writes these.
lanes = [
  { first = 0, direction = 1 },
  { first = 28, direction = -1 },
  { first = 56, direction = 1 },
  { first = 84, direction = -1 },
]

[colours]                  # lane colours per mascot, "#rrggbb" (defaults: companion/colours.py)
""" + "".join(f'{m.value} = "{hex_colour(COLOURS[m.value])}"\n' for m in MASCOTS) + """
[display]
fullscreen = true          # on a desktop (mock hardware) the screen is always a window
width = 0                  # 0 = the display's own resolution
height = 0

[audio]
voice = true               # speak the race call (espeak-ng)
effects = true

[game]
variant = "standard"       # standard | open: the variant of a new game when no HS-STANDARD/HS-OPEN is scanned
                           # (9+ players always play open)

[players]
names = []                 # default player names by seat, e.g. ["Ann", "Bram"]; names typed at the table win

[web]                      # the table's phone page (hotstreak run --web [HOST:]PORT overrides)
enabled = "auto"           # auto (on with hardware pi, off on a desktop) | true | false
host = ""                  # "" = every interface (0.0.0.0) on the Pi, 127.0.0.1 on a desktop
port = 8080
hosts = []                 # extra host names phones may use for the kiosk (e.g. "hotstreak.lan")
"""


def _state_dir() -> Path:
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "hotstreak"


def _cache_dir() -> Path:
    if os.environ.get("CACHE_DIRECTORY"):
        return Path(os.environ["CACHE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hotstreak"


@dataclass(frozen=True)
class LaneSegment:
    first: int
    direction: int
    per_space: int | None = None  # None: [leds] pixels_per_space


@dataclass(frozen=True)
class Config:
    """The validated configuration. Paths are resolved; colours are (r, g, b) 0..255."""

    hardware: str = "auto"
    language: str = "en"
    journal: Path = field(default_factory=lambda: _state_dir() / "journal.db")
    track: Path | None = None
    deck: Path | None = None
    cache: Path = field(default_factory=_cache_dir)
    scanner_mode: str = "auto"
    scanner_port: str = "/dev/hotstreak-scanner"
    baud: int = 9600
    hid_device: str = ""
    layout: str = "us"
    repeat_window: float = 0.8
    max_length: int = 64
    buttons: dict[str, int] = field(default_factory=lambda: {"undo": 17, "go": 27})
    debounce: float = 0.05
    led_count: int = 112
    pixels_per_space: int = 2
    led_order: str = "GRB"
    brightness: float = 0.35
    supply_amps: float = 4.0
    led_pin: int = 10
    led_dma: int = 10
    led_backend: str = "auto"
    lanes: tuple[LaneSegment, ...] = ()
    colours: dict[Mascot, tuple[int, int, int]] = field(default_factory=dict)
    fullscreen: bool = True
    width: int = 0
    height: int = 0
    voice: bool = True
    effects: bool = True
    variant: str = "standard"
    names: tuple[str, ...] = ()
    web_enabled: str | bool = "auto"
    web_host: str = ""
    web_port: int = 8080
    web_hosts: tuple[str, ...] = ()
    source: Path | None = None  # the file read (load_config), None for the defaults; the calibration writes it

    def lane_map_dict(self, spaces: int = 14) -> dict[str, Any]:
        """The LED lane map in the form of ``companion.lights.lanemap.LaneMap.from_dict`` (one chain, one segment)."""
        return {"spaces": spaces, "segments": [0],
                "lane": {str(i + 1): {"segment": 0, "first": seg.first,
                                      "per_space": seg.per_space or self.pixels_per_space,
                                      "direction": seg.direction} for i, seg in enumerate(self.lanes)}}


class _Reader:
    def __init__(self, data: dict[str, Any], source: str):
        self.problems: list[str] = []
        self.source = source
        self.data = data

    def get(self, path: str, kind: type | tuple[type, ...], default: Any,
            check: Callable[[Any], bool] | None = None, expected: str = "") -> Any:
        node: Any = self.data
        parts = path.split(".")
        for part in parts[:-1]:
            node = node.get(part, {}) if isinstance(node, dict) else {}
        if not isinstance(node, dict) or parts[-1] not in node:
            return default
        value = node[parts[-1]]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            ok = False
        else:
            ok = isinstance(value, kinds)
        if ok and check is not None and not check(value):
            ok = False
        if not ok:
            what = expected or " or ".join(k.__name__ for k in kinds)
            self.problems.append(f"{path}: {value!r} is not valid (expected {what})")
            return default
        return value


_TOP = {"hardware", "language", "paths", "scanner", "buttons", "leds", "colours", "display", "audio", "game",
        "players", "web"}
_SECTIONS = {
    "paths": {"journal", "track", "deck", "cache"},
    "scanner": {"mode", "port", "baud", "hid_device", "layout", "repeat_window", "max_length"},
    "buttons": {"undo", "go", "debounce"},
    "leds": {"count", "pixels_per_space", "order", "brightness", "supply_amps", "pin", "dma", "backend", "lanes"},
    "colours": {m.value for m in MASCOTS},
    "display": {"fullscreen", "width", "height"},
    "audio": {"voice", "effects"},
    "game": {"variant"},
    "players": {"names"},
    "web": {"enabled", "host", "port", "hosts"},
}


def _colour(text: str) -> tuple[int, int, int] | None:
    if isinstance(text, str) and len(text) == 7 and text[0] == "#":
        try:
            return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)
        except ValueError:
            return None
    return None


def _names(r: _Reader) -> tuple[str, ...]:
    """``[players] names``, spaces folded; each bad name is a problem naming its index, the name and the rule."""
    names = r.get("players.names", list, [], lambda v: len(v) <= MAX_PLAYERS,
                  f"a list of at most {MAX_PLAYERS} names, one a seat")
    folded = []
    for i, name in enumerate(names):
        if not isinstance(name, str):
            r.problems.append(f"players.names[{i}]: {name!r} is not valid (expected a name in quotes)")
            continue
        name = " ".join(name.split())
        if problem := name_problem(name):
            r.problems.append(f"players.names[{i}]: {name!r} is not valid: {problem}")
            continue
        folded.append(name)
    return tuple(folded)


def parse_config(text: str, source: str = "config") -> Config:
    """Parse and validate config TOML text. Raises ConfigError listing every problem with its key path."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, [f"not valid TOML: {exc}"]) from None
    defaults = tomllib.loads(DEFAULT_TOML)
    r = _Reader(data, source)
    for key, value in data.items():
        if key not in _TOP:
            r.problems.append(f"{key}: unknown setting (expected one of: {', '.join(sorted(_TOP))})")
        elif key in _SECTIONS:
            if not isinstance(value, dict):
                r.problems.append(f"{key}: must be a table [{key}]")
                continue
            for sub in value:
                if sub not in _SECTIONS[key]:
                    r.problems.append(f"{key}.{sub}: unknown setting (expected one of: "
                                      f"{', '.join(sorted(_SECTIONS[key]))})")

    def path_or(value: str, default: Path | None) -> Path | None:
        return Path(value).expanduser() if value else default

    hardware = r.get("hardware", str, "auto", lambda v: v in ("auto", "pi", "mock"), "auto, pi or mock")
    language = r.get("language", str, "en", lambda v: v in ("en", "nl", "es"), "en, nl or es")
    pos = lambda v: v > 0  # noqa: E731
    count = r.get("leds.count", int, defaults["leds"]["count"], lambda v: 1 <= v <= MAX_LEDS, f"1..{MAX_LEDS}")
    pps = r.get("leds.pixels_per_space", int, defaults["leds"]["pixels_per_space"], lambda v: 1 <= v <= 50, "1..50")
    lane_list = r.get("leds.lanes", list, defaults["leds"]["lanes"])
    lanes: list[LaneSegment] = []
    for i, seg in enumerate(lane_list):
        key = f"leds.lanes[{i}]"
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
    colours: dict[Mascot, tuple[int, int, int]] = {}
    for m in MASCOTS:
        text_ = r.get(f"colours.{m.value}", str, defaults["colours"][m.value], lambda v: _colour(v) is not None,
                      "a colour like \"#e8322a\"")
        colour = _colour(text_)
        assert colour is not None  # a bad colour was replaced by the default, which is a colour
        colours[m] = colour
    cfg = Config(
        hardware=hardware,
        language=language,
        journal=path_or(r.get("paths.journal", str, ""), None) or _state_dir() / "journal.db",
        track=path_or(r.get("paths.track", str, ""), None),
        deck=path_or(r.get("paths.deck", str, ""), None),
        cache=path_or(r.get("paths.cache", str, ""), None) or _cache_dir(),
        scanner_mode=r.get("scanner.mode", str, "auto", lambda v: v in ("auto", "serial", "hid"), "auto, serial or hid"),
        scanner_port=r.get("scanner.port", str, defaults["scanner"]["port"], bool, "a device path"),
        hid_device=r.get("scanner.hid_device", str, "", lambda v: v == "" or v.startswith("/dev/"),
                         "\"\" or a device path under /dev/input"),
        layout=r.get("scanner.layout", str, "us", lambda v: v in ("us", "de", "fr"), "us, de or fr"),
        baud=r.get("scanner.baud", int, 9600, lambda v: v in (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200),
                   "a standard baud rate such as 9600 or 115200"),
        repeat_window=float(r.get("scanner.repeat_window", (int, float), 0.8, lambda v: 0 <= v <= 10, "0..10 s")),
        max_length=r.get("scanner.max_length", int, 64, lambda v: 8 <= v <= 1024, "8..1024"),
        buttons={name: r.get(f"buttons.{name}", int, defaults["buttons"][name], lambda v: 0 <= v <= 27,
                             "a BCM GPIO number 0..27") for name in ("undo", "go")},
        debounce=float(r.get("buttons.debounce", (int, float), 0.05, lambda v: 0 <= v <= 1, "0..1 s")),
        led_count=count,
        pixels_per_space=pps,
        led_order=r.get("leds.order", str, "GRB", lambda v: v in ("GRB", "RGB"), "GRB or RGB"),
        brightness=float(r.get("leds.brightness", (int, float), 0.35, lambda v: 0 <= v <= 1, "0..1")),
        supply_amps=float(r.get("leds.supply_amps", (int, float), 4.0, lambda v: 0 < v <= 1000, "amps, 0..1000")),
        led_pin=r.get("leds.pin", int, 10, lambda v: v in (10, 12, 18, 21), "10 (SPI), 12, 18 or 21"),
        led_dma=r.get("leds.dma", int, 10, lambda v: 0 <= v <= 14, "0..14"),
        led_backend=r.get("leds.backend", str, "auto", lambda v: v in ("auto", "ws281x", "spi"), "auto, ws281x or spi"),
        lanes=tuple(lanes),
        colours=colours,
        fullscreen=r.get("display.fullscreen", bool, True),
        width=r.get("display.width", int, 0, lambda v: 0 <= v <= MAX_SIDE, f"0 or a width in pixels up to {MAX_SIDE}"),
        height=r.get("display.height", int, 0, lambda v: 0 <= v <= MAX_SIDE,
                     f"0 or a height in pixels up to {MAX_SIDE}"),
        voice=r.get("audio.voice", bool, True),
        effects=r.get("audio.effects", bool, True),
        variant=r.get("game.variant", str, "standard", lambda v: v in ("standard", "open"), "standard or open"),
        names=_names(r),
        web_enabled=r.get("web.enabled", (bool, str), "auto", lambda v: v in (True, False, "auto"),
                          "auto, true or false"),
        web_host=r.get("web.host", str, "", lambda v: " " not in v, "an address such as 0.0.0.0, or \"\""),
        web_port=r.get("web.port", int, 8080, lambda v: 1 <= v <= 65535, "a port 1..65535"),
        web_hosts=tuple(r.get("web.hosts", list, [], lambda v: all(isinstance(h, str) and h for h in v),
                              "a list of host names")),
    )
    if cfg.buttons["undo"] == cfg.buttons["go"]:
        r.problems.append(f"buttons: undo and go are both on GPIO{cfg.buttons['go']} (expected two different pins)")
    r.problems += pin_problems(led_pin=cfg.led_pin, led_dma=cfg.led_dma, led_backend=cfg.led_backend,
                               buttons=cfg.buttons, audio=cfg.voice or cfg.effects)
    if len(cfg.lanes) != 4:
        r.problems.append(f"leds.lanes: {len(cfg.lanes)} segments (expected one per lane: 4)")
    del pos
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
    naming the file and each problem (a missing file included)."""
    return load_track(cfg.track), load_deck(cfg.deck)


# ----- the effective configuration as TOML (``hotstreak config``) ------------------------------------------
# One line per setting: its key path and how to read it from a Config. A new setting gets a line here (a test
# checks that every key of DEFAULT_TOML has one).
DUMP: list[tuple[str, Any]] = [
    ("hardware", lambda c: c.hardware),
    ("language", lambda c: c.language),
    ("paths.journal", lambda c: str(c.journal)),
    ("paths.track", lambda c: str(c.track) if c.track else ""),
    ("paths.deck", lambda c: str(c.deck) if c.deck else ""),
    ("paths.cache", lambda c: str(c.cache)),
    ("scanner.mode", lambda c: c.scanner_mode),
    ("scanner.port", lambda c: c.scanner_port),
    ("scanner.baud", lambda c: c.baud),
    ("scanner.repeat_window", lambda c: c.repeat_window),
    ("scanner.max_length", lambda c: c.max_length),
    ("scanner.hid_device", lambda c: c.hid_device),
    ("scanner.layout", lambda c: c.layout),
    ("buttons.undo", lambda c: c.buttons["undo"]),
    ("buttons.go", lambda c: c.buttons["go"]),
    ("buttons.debounce", lambda c: c.debounce),
    ("leds.count", lambda c: c.led_count),
    ("leds.pixels_per_space", lambda c: c.pixels_per_space),
    ("leds.order", lambda c: c.led_order),
    ("leds.brightness", lambda c: c.brightness),
    ("leds.supply_amps", lambda c: c.supply_amps),
    ("leds.pin", lambda c: c.led_pin),
    ("leds.dma", lambda c: c.led_dma),
    ("leds.backend", lambda c: c.led_backend),
    ("leds.lanes", lambda c: [{"first": s.first, "direction": s.direction}
                              | ({"per_space": s.per_space} if s.per_space else {}) for s in c.lanes]),
    *((f"colours.{m.value}", lambda c, m=m: hex_colour(c.colours[m])) for m in MASCOTS),
    ("display.fullscreen", lambda c: c.fullscreen),
    ("display.width", lambda c: c.width),
    ("display.height", lambda c: c.height),
    ("audio.voice", lambda c: c.voice),
    ("audio.effects", lambda c: c.effects),
    ("game.variant", lambda c: c.variant),
    ("players.names", lambda c: list(c.names)),
    ("web.enabled", lambda c: c.web_enabled),
    ("web.host", lambda c: c.web_host),
    ("web.port", lambda c: c.web_port),
    ("web.hosts", lambda c: list(c.web_hosts)),
]


def config_toml(cfg: Config) -> str:
    """The effective configuration ``cfg`` as TOML text, every setting of DUMP included (defaults too):
    top-level keys first, then one ``[section]`` per table in DUMP order. ``parse_config`` of the text gives
    ``cfg`` back."""
    import json

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)  # a TOML basic string: JSON escapes are valid TOML
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
        if isinstance(v, list) and any(isinstance(x, dict) for x in v):  # tables: one a line
            return "[\n" + "".join(f"  {value(x)},\n" for x in v) + "]"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        raise TypeError(f"cannot write {v!r} as TOML")

    top: list[str] = []
    sections: dict[str, list[str]] = {}
    for path, read in DUMP:
        section, _, key = path.rpartition(".")
        line = f"{key} = {value(read(cfg))}"
        (sections.setdefault(section, []) if section else top).append(line)
    parts = ["\n".join(top) + "\n"] + [f"[{name}]\n" + "\n".join(lines) + "\n" for name, lines in sections.items()]
    return "\n".join(parts)
