"""Keyboard (USB HID) barcode scanners through python-evdev: find, grab, decode key events to text.

Many low-cost scanners only "type" what they read, as a USB keyboard. The kiosk reads such a scanner's
``/dev/input/event*`` device directly and grabs it (``EVIOCGRAB``), so its keystrokes never reach a console
or another program. Key events are turned into characters with the keyboard layout the scanner is set to
(:data:`LAYOUTS`: ``us``, ``de`` QWERTZ, ``fr`` AZERTY; shift and AltGr), Enter ends a code and so does Tab
(scanners set to a Tab suffix). The text then goes through the serial reader's own pipeline
(:class:`hardware.scanner.SerialScanner` with :func:`hid_port_factory`): same framing, length cap, repeat
window and reconnect with backoff.

>>> decoder = KeyDecoder("de")
>>> "".join(decoder.feed(EV_KEY, code, value) for code, value in encode("HS-GO", "de"))
'HS-GO\\r'

python-evdev is imported lazily, only when a real device is opened; everything else here is plain Python,
so the tests drive it with fakes of the evdev API.
"""

from __future__ import annotations

import glob
import os
import re
import select
from typing import Any, Callable, Iterable, Sequence

EV_KEY = 1
"""The evdev event type of key events (``evdev.ecodes.EV_KEY``)."""

# Linux input event codes (include/uapi/linux/input-event-codes.h; a stable kernel ABI).
KEY_TAB, KEY_ENTER, KEY_KPENTER, KEY_SPACE = 15, 28, 96, 57
SHIFTS = {42, 54}           # KEY_LEFTSHIFT, KEY_RIGHTSHIFT
ALTGR = 100                 # KEY_RIGHTALT
CONTROLS = {29, 97, 56}     # KEY_LEFTCTRL, KEY_RIGHTCTRL, KEY_LEFTALT: a key with these held types nothing
_ROW_CODES = {
    "number": [41, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],      # GRAVE, 1..0, MINUS, EQUAL
    "top": [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 43],  # Q..P, LEFTBRACE, RIGHTBRACE, BACKSLASH
    "home": [30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40],         # A..L, SEMICOLON, APOSTROPHE
    "bottom": [86, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53],        # 102ND, Z..M, COMMA, DOT, SLASH
}
# Keypad keys type the same in every layout (NumLock on, as scanners send them).
_KEYPAD = {71: "7", 72: "8", 73: "9", 74: "-", 75: "4", 76: "5", 77: "6", 78: "+", 79: "1", 80: "2", 81: "3",
           82: "0", 83: ".", 98: "/", 55: "*"}


def _layout(rows: dict[str, list[str]]) -> dict[int, tuple[str, str, str]]:
    """Key code -> (plain, shifted, AltGr) from rows of space-separated keys, each written as the characters
    it types: ``"q"`` (a letter: shift gives the capital), ``"1!"``, ``"7/{"``."""
    out: dict[int, tuple[str, str, str]] = {}
    for row, keys in rows.items():
        for code, key in zip(_ROW_CODES[row], keys):
            if len(key) == 1 and key.isalpha():
                key = key + key.upper()
            chars = list(key) + ["", ""]
            out[code] = (chars[0], chars[1], chars[2])
    out[KEY_SPACE] = (" ", " ", "")
    return out


LAYOUTS: dict[str, dict[int, tuple[str, str, str]]] = {
    "us": _layout({
        "number": "`~ 1! 2@ 3# 4$ 5% 6^ 7& 8* 9( 0) -_ =+".split(),
        "top": "q w e r t y u i o p [{ ]} \\|".split(),
        "home": "a s d f g h j k l ;: '\"".split(),
        "bottom": "\\| z x c v b n m ,< .> /?".split(),
    }),
    "de": _layout({
        "number": "^° 1! 2\"² 3§³ 4$ 5% 6& 7/{ 8([ 9)] 0=} ß?\\ ´`".split(),
        "top": ["qQ@", "w", "eE€", "r", "t", "z", "u", "i", "o", "p", "üÜ", "+*~", "#'"],
        "home": "a s d f g h j k l öÖ äÄ".split(),
        "bottom": ["<>|", "y", "x", "c", "v", "b", "n", "mMµ", ",;", ".:", "-_"],
    }),
    "fr": _layout({
        "number": ["²", "&1", "é2~", "\"3#", "'4{", "(5[", "-6|", "è7`", "_8\\", "ç9^", "à0@", ")°]", "=+}"],
        "top": ["a", "z", "eE€", "r", "t", "y", "u", "i", "o", "p", "^¨", "$£¤", "*µ"],
        "home": ["q", "s", "d", "f", "g", "h", "j", "k", "l", "m", "ù%"],
        "bottom": ["<>", "w", "x", "c", "v", "b", "n", ",?", ";.", ":/", "!§"],
    }),
}
"""The keyboard layouts a scanner may type in: ``us`` (most scanners' default), ``de``, ``fr``."""


def check_layout(layout: str) -> dict[int, tuple[str, str, str]]:
    """The key table of ``layout``; raises ValueError naming it and the known layouts."""
    table = LAYOUTS.get(layout.lower()) if isinstance(layout, str) else None
    if table is None:
        raise ValueError(f"keyboard layout {layout!r} is not known (expected one of {', '.join(LAYOUTS)})")
    return table


class KeyDecoder:
    """Key events -> text for one ``layout``. ``feed(type, code, value)`` returns the characters typed by
    that event ("" for most): a key down (value 1) types with the shift/AltGr state of the moment; auto-repeat
    (value 2) and key ups type nothing; Enter gives ``"\\r"``, Tab ``"\\n"`` (both end a code); a key with
    Ctrl or Alt held, or with no character in the layout, types nothing. Raises ValueError for an unknown
    layout."""

    def __init__(self, layout: str = "us"):
        self.layout = layout.lower()
        self._table = check_layout(layout)
        self._held: set[int] = set()

    def feed(self, type_: int, code: int, value: int) -> str:
        if type_ != EV_KEY:
            return ""
        if code in SHIFTS or code == ALTGR or code in CONTROLS:
            if value:
                self._held.add(code)
            else:
                self._held.discard(code)
            return ""
        if value != 1:
            return ""
        if code in (KEY_ENTER, KEY_KPENTER):
            return "\r"
        if code == KEY_TAB:
            return "\n"
        if self._held & CONTROLS:
            return ""
        if code in _KEYPAD:
            return _KEYPAD[code]
        chars = self._table.get(code)
        if chars is None:
            return ""
        if ALTGR in self._held:
            return chars[2]
        return chars[1] if self._held & SHIFTS else chars[0]

    def reset(self) -> None:
        """Forget held modifiers (after a reconnect)."""
        self._held.clear()


def encode(text: str, layout: str = "us", suffix: str = "\r") -> list[tuple[int, int]]:
    """The ``(code, value)`` key events a scanner in ``layout`` sends to type ``text`` and then ``suffix``
    (``"\\r"`` Enter, ``"\\t"`` Tab or ``""``). For tests and virtual devices. Raises ValueError for a
    character the layout cannot type."""
    table = check_layout(layout)
    where: dict[str, tuple[int, int]] = {}
    for code, chars in sorted(table.items()):
        for level, ch in enumerate(chars):
            if ch and ch not in where:
                where[ch] = (code, level)
    events: list[tuple[int, int]] = []
    for ch in text:
        if ch not in where:
            raise ValueError(f"{ch!r} cannot be typed in the {layout} layout")
        code, level = where[ch]
        modifier = {0: None, 1: 42, 2: ALTGR}[level]
        if modifier is not None:
            events.append((modifier, 1))
        events += [(code, 1), (code, 0)]
        if modifier is not None:
            events.append((modifier, 0))
    ends = {"\r": KEY_ENTER, "\t": KEY_TAB, "": None}
    if suffix not in ends:
        raise ValueError(f"suffix {suffix!r} is not Enter, Tab or nothing")
    end = ends[suffix]
    if end is not None:
        events += [(end, 1), (end, 0)]
    return events


# ----- finding the scanner ----------------------------------------------------------------------------------
BY_ID = "/dev/input/by-id"
UDEV_LINK = "/dev/input/hotstreak-scanner"
"""The name systemd/99-hotstreak-scanner.rules gives a keyboard scanner's event device."""
SCANNER_WORDS = re.compile(r"barcode|scanner|scan|honeywell|zebra|symbol|datalogic|netum|eyoyo|tera|inateck|"
                           r"newland|opticon|metrologic|hand_?held|posiflex", re.I)


def keyboards(by_id: str = BY_ID) -> list[str]:
    """The keyboard event devices in ``by_id`` (``/dev/input/by-id/*-event-kbd``), sorted."""
    return sorted(glob.glob(os.path.join(glob.escape(by_id), "*-event-kbd")))


def find_scanner(by_id: str = BY_ID, udev_link: str = UDEV_LINK) -> str:
    """The path of the keyboard scanner: ``udev_link`` when the udev rule made it, else the one keyboard in
    ``by_id`` whose name looks like a scanner (barcode, scanner, a scanner maker), else the only keyboard
    there is. Raises LookupError saying what was found and which config key to set when there is none or it
    is ambiguous."""
    if udev_link and os.path.exists(udev_link):
        return udev_link
    found = keyboards(by_id)
    if not found:
        raise LookupError(f"no keyboard device in {by_id} (is a keyboard-mode scanner plugged in?)")
    named = [p for p in found if SCANNER_WORDS.search(os.path.basename(p))]
    if len(named) == 1:
        return named[0]
    if len(found) == 1:
        return found[0]
    raise LookupError(f"{len(found)} keyboards and no single scanner among them ({', '.join(map(os.path.basename, found))}); "
                      "set [scanner] hid_device to the scanner's path in /dev/input/by-id")


# ----- the port -------------------------------------------------------------------------------------------
def _open_evdev(path: str) -> Any:
    import evdev  # lazy: python-evdev (the `pi` extra) only where a keyboard scanner is used
    return evdev.InputDevice(path)


def _wait_readable(device: Any, timeout: float) -> bool:
    ready, _, _ = select.select([device.fd], [], [], timeout)
    return bool(ready)


class HidPort:
    """A grabbed keyboard scanner as a port for :class:`hardware.scanner.SerialScanner`: ``read(n)`` waits
    up to ``timeout`` seconds for key events and returns the text they typed as ASCII-or-UTF-8 bytes (the
    parser drops a line with non-ASCII characters: a layout mismatch); ``close()`` lets go of the grab.
    Raises OSError from ``read`` when the device is unplugged."""

    def __init__(self, device: Any, layout: str, *, timeout: float = 0.1,
                 wait: Callable[[Any, float], bool] = _wait_readable):
        self.device = device
        self.decoder = KeyDecoder(layout)
        self.timeout = timeout
        self._wait = wait
        self.name = f"{getattr(device, 'path', '?')} (keyboard scanner, grabbed, {self.decoder.layout} layout)"

    def read(self, size: int = 1) -> bytes:
        if not self._wait(self.device, self.timeout):
            return b""
        try:
            events: Iterable[Any] = self.device.read()
            text = "".join(self.decoder.feed(e.type, e.code, e.value) for e in events)
        except BlockingIOError:  # woken with nothing to read
            return b""
        return text.encode("utf-8")

    def close(self) -> None:
        try:
            self.device.ungrab()
        except OSError:
            pass  # already gone (unplugged)
        finally:
            self.device.close()


def open_hid(path: str | None, layout: str = "us", *, device_factory: Callable[[str], Any] = _open_evdev,
             by_id: str = BY_ID, udev_link: str = UDEV_LINK,
             wait: Callable[[Any, float], bool] = _wait_readable) -> HidPort:
    """Open and grab the keyboard scanner at ``path`` (None or "": :func:`find_scanner`).

    Raises LookupError when no scanner is found, OSError when the device cannot be opened (missing,
    permission: the service needs group ``input``) or is grabbed by another program (EBUSY), ImportError
    without python-evdev, ValueError for an unknown layout."""
    check_layout(layout)
    target = path or find_scanner(by_id, udev_link)
    device = device_factory(target)
    try:
        device.grab()
    except Exception:
        device.close()
        raise
    return HidPort(device, layout, wait=wait)


def hid_port_factory(path: str | None, layout: str = "us", **options: Any) -> Callable[[str, int], HidPort]:
    """A ``serial_factory`` for :class:`hardware.scanner.SerialScanner` that opens the keyboard scanner at
    ``path`` (or finds it) on every (re)connect; ``options`` go to :func:`open_hid`."""
    check_layout(layout)

    def factory(_port: str, _baud: int) -> HidPort:
        return open_hid(path, layout, **options)
    return factory


def either_port_factory(serial_path: str, hid_path: str | None, layout: str,
                        open_serial: Callable[[str, int], Any], exists: Callable[[str], bool] = os.path.exists,
                        **options: Any) -> Callable[[str, int], Any]:
    """``scanner.mode = "auto"``: on every (re)connect, the serial port if ``serial_path`` exists, else a
    keyboard scanner (``hid_path`` or found); the error names both when neither is there."""
    check_layout(layout)

    def factory(port: str, baud: int) -> Any:
        if exists(serial_path):
            return open_serial(serial_path, baud)
        try:
            return open_hid(hid_path, layout, **options)
        except LookupError as exc:
            raise FileNotFoundError(f"no serial scanner at {serial_path} and {exc}") from None
    return factory


__all__: Sequence[str] = ["EV_KEY", "HidPort", "KeyDecoder", "LAYOUTS", "encode", "either_port_factory",
                          "find_scanner", "hid_port_factory", "keyboards", "open_hid"]
