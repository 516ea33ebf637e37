"""Keyboard (HID) scanners: key events decoded with the layout, grabbed, through the serial reader's framing,
repeat window, length cap and reconnect. Driven by fakes of the python-evdev API (no evdev needed); a real
virtual keyboard through /dev/uinput where the machine has one."""

from __future__ import annotations

import errno
import os
import time
from dataclasses import dataclass

import pytest

from companion.tools.demo import parse_script, script_path
from conftest import FakeClock
from hardware import NullScanner, make_scanner
from hardware.hid import (EV_KEY, KEY_ENTER, LAYOUTS, KeyDecoder, encode, either_port_factory, find_scanner,
                          hid_port_factory)
from hardware.scanner import ScanParser, SerialScanner

GAME = [code for code, _ in parse_script(script_path().read_text())]


@dataclass
class Ev:
    """What evdev.InputEvent offers: type, code, value."""

    type: int
    code: int
    value: int


class FakeInputDevice:
    """The part of evdev.InputDevice the backend uses: path, fd, grab/ungrab, read (a batch of events),
    close. ``batches`` are lists of events, or an exception to raise from ``read`` (an unplug)."""

    def __init__(self, path: str, batches: list, grab_error: Exception | None = None):
        self.path = path
        self.fd = -1
        self.batches = list(batches)
        self.grab_error = grab_error
        self.grabbed = self.closed = False

    def grab(self) -> None:
        if self.grab_error is not None:
            raise self.grab_error
        self.grabbed = True

    def ungrab(self) -> None:
        self.grabbed = False

    def read(self):
        item = self.batches.pop(0)
        if isinstance(item, Exception):
            raise item
        return iter(item)

    def close(self) -> None:
        self.closed = True


def ready(device: FakeInputDevice, timeout: float) -> bool:
    return bool(device.batches)


def key_batches(codes: list[str], layout: str, suffix: str = "\r", per_batch: int = 7) -> list[list[Ev]]:
    """The events a scanner sends for ``codes``, cut into read batches that split codes across reads."""
    events = [Ev(EV_KEY, c, v) for code in codes for c, v in encode(code, layout, suffix)]
    return [events[i:i + per_batch] for i in range(0, len(events), per_batch)]


def hid_scanner(devices: dict[str, list], layout: str, *, repeat_window: float = 0.0, max_length: int = 64,
                clock=None, sleeps: list | None = None):
    """A SerialScanner reading keyboard devices; ``devices`` maps a path to the devices opened in turn."""
    lines: list[str] = []
    opened: list[FakeInputDevice] = []

    def factory(path: str):
        item = devices[path].pop(0)
        if isinstance(item, Exception):
            raise item
        opened.append(item)
        return item

    clock = clock or FakeClock()
    parser = ScanParser(max_length=max_length, repeat_window=repeat_window, clock=clock)
    scanner = SerialScanner("keyboard scanner", 9600, lines.append, parser=parser, clock=clock,
                            sleep=(sleeps.append if sleeps is not None else (lambda s: None)),
                            serial_factory=hid_port_factory(next(iter(devices)), layout, device_factory=factory,
                                                            wait=ready))
    return scanner, lines, opened


def run(scanner: SerialScanner, steps: int) -> None:
    for _ in range(steps):
        scanner.step()


@pytest.mark.parametrize("layout", ["us", "de", "fr"])
@pytest.mark.parametrize("suffix", ["\r", "\t"])
def test_a_whole_game_decodes_in_each_layout(layout, suffix):
    path = "/dev/input/by-id/usb-Barcode_Scanner-event-kbd"
    batches = key_batches(GAME, layout, suffix)
    scanner, lines, opened = hid_scanner({path: [FakeInputDevice(path, batches)]}, layout)
    run(scanner, len(batches) + 1)
    assert lines == GAME
    assert len(GAME) > 100
    assert opened[0].grabbed                       # exclusive: keystrokes never reach a console
    assert scanner.status.startswith(f"scanner connected on {path} (keyboard scanner, grabbed, {layout} layout)")
    scanner.close()
    assert opened[0].closed and not opened[0].grabbed


def test_the_layout_matters_a_german_scanner_read_as_us_gives_other_text():
    events = encode("HS-NAME-2:Yuzu", "de")
    german, us = KeyDecoder("de"), KeyDecoder("us")
    assert "".join(german.feed(EV_KEY, c, v) for c, v in events) == "HS-NAME-2:Yuzu\r"
    assert "".join(us.feed(EV_KEY, c, v) for c, v in events) == "HS/NAME/2>Zuyu\r"


def test_shift_altgr_repeat_ctrl_and_other_event_types():
    d = KeyDecoder("de")
    assert d.feed(EV_KEY, 42, 1) == "" and d.feed(EV_KEY, 27, 1) == "*"   # shift + '+' key
    assert d.feed(EV_KEY, 27, 2) == ""                                  # auto-repeat types nothing
    assert d.feed(EV_KEY, 42, 0) == "" and d.feed(EV_KEY, 27, 1) == "+"
    assert d.feed(EV_KEY, 100, 1) == "" and d.feed(EV_KEY, 16, 1) == "@"  # AltGr+Q on QWERTZ
    d.feed(EV_KEY, 100, 0)
    assert d.feed(EV_KEY, 29, 1) == "" and d.feed(EV_KEY, 30, 1) == ""  # Ctrl+A types nothing
    d.feed(EV_KEY, 29, 0)
    assert d.feed(4, 4, 458792) == ""                                    # EV_MSC scan code: ignored
    assert d.feed(EV_KEY, KEY_ENTER, 1) == "\r" and d.feed(EV_KEY, 96, 1) == "\r" and d.feed(EV_KEY, 15, 1) == "\n"
    assert d.feed(EV_KEY, 79, 1) == "1"                                  # keypad digits in any layout
    with pytest.raises(ValueError, match="keyboard layout 'xx' is not known"):
        KeyDecoder("xx")
    with pytest.raises(ValueError, match="cannot be typed in the us layout"):
        encode("ß", "us")


def test_every_layout_types_every_character_of_the_codes_and_back():
    text = "HS-T-DANGLE-2-R HS-S01 HS-PLAYERS-12 HS-NAME-3:Ann_Lee abcxyz0123456789"
    for layout in LAYOUTS:
        d = KeyDecoder(layout)
        assert "".join(d.feed(EV_KEY, c, v) for c, v in encode(text, layout)) == text + "\r"


def test_repeat_window_and_length_cap_apply_to_keyboard_scanners_too():
    path = "/dev/input/event7"
    clock = FakeClock()
    batches = key_batches(["HS15", "HS15", "HS-" + "X" * 70, "HS16"], "us", per_batch=1000)
    scanner, lines, _ = hid_scanner({path: [FakeInputDevice(path, batches)]}, "us", repeat_window=0.8,
                                    max_length=32, clock=clock)
    run(scanner, 2)
    assert lines == ["HS15", "HS16"]                   # the repeat within 0.8 s and the 73-character line dropped
    assert scanner.parser.stats.repeats == 1 and scanner.parser.stats.too_long == 1


def test_unplug_busy_grab_and_replug_reconnect_with_backoff():
    path = "/dev/input/by-id/usb-Scanner-event-kbd"
    first = FakeInputDevice(path, key_batches(["HS15"], "us") + [OSError(errno.ENODEV, "No such device")])
    busy = FakeInputDevice(path, [], grab_error=OSError(errno.EBUSY, "Device or resource busy"))
    second = FakeInputDevice(path, key_batches(["HS16"], "us"))
    sleeps: list[float] = []
    scanner, lines, opened = hid_scanner({path: [first, busy, second]}, "us", sleeps=sleeps)
    run(scanner, 1 + len(first.batches))              # open, read HS15, then the unplug
    assert lines == ["HS15"] and first.closed and not scanner.connected
    assert "No such device" in scanner.status
    scanner.step()                                    # another program holds it: closed again, retry later
    assert busy.closed and not scanner.connected
    run(scanner, 1 + len(second.batches))
    assert lines == ["HS15", "HS16"] and second.grabbed
    assert sleeps == [0.5, 1]


def test_find_scanner_by_the_udev_link_then_by_id(tmp_path):
    link = tmp_path / "hotstreak-scanner"
    link.touch()
    assert find_scanner(str(tmp_path / "by-id"), str(link)) == str(link)
    with pytest.raises(LookupError, match="no keyboard device"):
        find_scanner(str(tmp_path), "")
    (tmp_path / "usb-Logitech_USB_Keyboard-event-kbd").touch()
    assert find_scanner(str(tmp_path), "").endswith("usb-Logitech_USB_Keyboard-event-kbd")  # the only keyboard
    (tmp_path / "usb-NETUM_Barcode_Scanner_HID-event-kbd").touch()
    (tmp_path / "usb-NETUM_Barcode_Scanner_HID-if01-event-mouse").touch()
    assert find_scanner(str(tmp_path), "").endswith("usb-NETUM_Barcode_Scanner_HID-event-kbd")
    (tmp_path / "usb-Other_Barcode_Reader-event-kbd").touch()
    with pytest.raises(LookupError, match=r"3 keyboards .* set \[scanner\] hid_device"):
        find_scanner(str(tmp_path), "")


def test_auto_mode_takes_the_serial_port_when_it_exists_else_the_keyboard_scanner(tmp_path):
    serial_opened: list[str] = []
    keyboard = FakeInputDevice("/dev/input/event3", [])
    present = {"/dev/hotstreak-scanner": False}
    factory = either_port_factory("/dev/hotstreak-scanner", "/dev/input/event3", "us",
                                  lambda path, baud: serial_opened.append(path) or "serial port",
                                  exists=lambda p: present[p], device_factory=lambda p: keyboard, wait=ready)
    port = factory("x", 9600)
    assert port.device is keyboard and keyboard.grabbed
    present["/dev/hotstreak-scanner"] = True
    assert factory("x", 9600) == "serial port" and serial_opened == ["/dev/hotstreak-scanner"]
    none = either_port_factory("/dev/none", None, "us", lambda p, b: None, exists=lambda p: False,
                               by_id=str(tmp_path), udev_link="")
    with pytest.raises(FileNotFoundError, match="no serial scanner at /dev/none and no keyboard device"):
        none("x", 9600)


def test_hid_mode_without_python_evdev_says_what_is_missing(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "evdev", None)
    scanner = make_scanner("pi", print, scanner_mode="hid")
    assert isinstance(scanner, NullScanner)
    assert scanner.status == ("scanner off: evdev not installed (pip install evdev) "
                              "(needed for a keyboard-mode scanner)")
    with pytest.raises(ValueError, match="scanner mode 'usb'"):
        make_scanner("pi", print, scanner_mode="usb")


def test_a_real_virtual_keyboard_through_uinput():
    if not os.path.exists("/dev/uinput") or not os.access("/dev/uinput", os.W_OK):
        pytest.skip("no writable /dev/uinput on this machine")
    evdev = pytest.importorskip("evdev")
    codes = ["HS-NEW", "HS-PLAYERS-4", "HS15", "HS-GO"]
    keys = sorted({c for code in codes for c, _ in encode(code, "de")} | {42, 100, KEY_ENTER})
    with evdev.UInput({evdev.ecodes.EV_KEY: keys}, name="Hot Streak test Barcode Scanner") as ui:
        time.sleep(0.3)  # udev creates the node
        lines: list[str] = []
        scanner = SerialScanner("uinput", 9600, lines.append, parser=ScanParser(repeat_window=0.0),
                                serial_factory=hid_port_factory(ui.device.path, "de"))
        scanner.step()
        assert scanner.connected
        for code in codes:
            for c, v in encode(code, "de"):
                ui.write(evdev.ecodes.EV_KEY, c, v)
                ui.syn()
        deadline = time.monotonic() + 3
        while len(lines) < len(codes) and time.monotonic() < deadline:
            scanner.step()
        scanner.close()
        assert lines == codes
