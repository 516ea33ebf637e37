"""hotstreak doctor's scanner check against fake system trees: the scanner's link and serial port, a scanner in
keyboard (HID) mode found by its input name or its maker, the scanner mode the config asks for, and the makers
the install script knows."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.tools import doctor
from companion.tools.doctor import run_checks
from conftest import ROOT
from doctorkit import checks, make_pi, which_all, write


@pytest.fixture
def pi(tmp_path) -> Path:
    return make_pi(tmp_path / "pi")


def test_no_scanner_at_all(pi):
    (pi / "dev/hotstreak-scanner").unlink()
    (pi / "dev/ttyACM0").unlink()
    [problem] = run_checks(pi, which=which_all).problems
    assert problem.check == "scanner" and "no scanner found" in problem.message
    assert "plug the scanner in" in problem.fix


def test_scanner_in_keyboard_mode_by_input_name(pi):
    (pi / "dev/hotstreak-scanner").unlink()
    (pi / "dev/ttyACM0").unlink()
    write(pi / "dev/input/by-id/usb-Netum_Barcode_Scanner-event-kbd")
    [problem] = run_checks(pi, which=which_all, has_module=lambda name: False).problems
    assert "keyboard (HID) mode" in problem.message and "python-evdev" in problem.message
    assert "usb-Netum_Barcode_Scanner-event-kbd" in problem.message
    assert "pip install evdev" in problem.fix and "USB serial mode" in problem.fix


def test_scanner_in_keyboard_mode_by_vendor_id(pi):
    (pi / "dev/hotstreak-scanner").unlink()
    (pi / "dev/ttyACM0").unlink()
    write(pi / "sys/class/input/input5/name", "Symbol Bar Code Scanner\n")
    write(pi / "sys/class/input/input5/id/vendor", "05e0\n")
    write(pi / "sys/class/input/input6/name", "HID 046d:c52b Keyboard\n")   # an ordinary keyboard
    write(pi / "sys/class/input/input6/id/vendor", "046d\n")
    [problem] = run_checks(pi, which=which_all, has_module=lambda name: False).problems
    assert "keyboard (HID) mode" in problem.message and "Zebra/Symbol" in problem.message
    assert "046d" not in problem.message


def keyboard_scanner_only(pi: Path) -> Path:
    (pi / "dev/hotstreak-scanner").unlink()
    (pi / "dev/ttyACM0").unlink()
    return write(pi / "dev/input/by-id/usb-Netum_Barcode_Scanner-event-kbd")


def test_keyboard_scanner_works_in_auto_and_hid_mode_with_evdev(pi):
    path = keyboard_scanner_only(pi)
    for mode in ("auto", "hid"):
        notes: list[str] = []
        assert doctor.check_scanner(pi, mode=mode, has_module=lambda name: True, notes=notes) == []
        assert "read in HID mode, grabbed" in notes[0] and path.name in notes[0]


def test_an_installed_service_without_the_hid_drop_in_cannot_read_a_keyboard_scanner(pi):
    keyboard_scanner_only(pi)
    write(pi / "etc/systemd/system/hotstreak.service")
    [problem] = doctor.check_scanner(pi, mode="hid", has_module=lambda name: True)
    assert "does not join group input" in problem.message and "--scanner-mode hid" in problem.fix
    write(pi / doctor.HID_DROPIN.lstrip("/"), "[Service]\nSupplementaryGroups=input\n")
    assert doctor.check_scanner(pi, mode="hid", has_module=lambda name: True) == []


def test_keyboard_scanner_in_serial_mode_names_both_ways_out(pi):
    keyboard_scanner_only(pi)
    [problem] = doctor.check_scanner(pi, mode="serial", has_module=lambda name: True)
    assert "keyboard (HID) mode" in problem.message
    assert "USB serial mode" in problem.fix and 'mode = "hid"' in problem.fix


def test_hid_mode_without_a_keyboard_scanner_or_with_a_wrong_device(pi):
    [problem] = doctor.check_scanner(pi, mode="hid", has_module=lambda name: True)  # only a serial one here
    assert "no keyboard-mode scanner found" in problem.message and "hid_device" in problem.fix
    [problem] = doctor.check_scanner(pi, mode="hid", hid_device="/dev/input/by-id/usb-Gone-event-kbd")
    assert problem.message.startswith("the keyboard scanner /dev/input/by-id/usb-Gone-event-kbd")


def test_scanner_mode_comes_from_the_config(pi, tmp_path):
    keyboard_scanner_only(pi)
    config = write(tmp_path / "hotstreak.toml", '[scanner]\nmode = "serial"\n')
    report = run_checks(pi, which=which_all, config_path=str(config), has_module=lambda name: True)
    assert [p.check for p in report.problems] == ["scanner"] and 'mode = "hid"' in report.problems[0].fix
    config.write_text('[scanner]\nmode = "hid"\n')
    report = run_checks(pi, which=which_all, config_path=str(config), has_module=lambda name: True)
    assert report.ok and "HID mode" in report.notes[0]


def test_ordinary_keyboard_is_not_a_scanner(pi):
    write(pi / "dev/input/by-id/usb-Logitech_USB_Keyboard-event-kbd")
    write(pi / "sys/class/input/input6/name", "Logitech USB Keyboard\n")
    write(pi / "sys/class/input/input6/id/vendor", "046d\n")
    assert doctor.keyboard_mode_scanners(pi) == []
    assert checks(pi) == []


def test_serial_port_without_symlink_names_its_usb_ids(pi):
    (pi / "dev/hotstreak-scanner").unlink()
    usb = pi / "sys/devices/platform/usb1/1-1"
    write(usb / "idVendor", "abcd\n")
    write(usb / "idProduct", "1234\n")
    (usb / "1-1:1.0").mkdir()
    (pi / "sys/class/tty/ttyACM0").mkdir(parents=True)
    (pi / "sys/class/tty/ttyACM0/device").symlink_to("../../../devices/platform/usb1/1-1/1-1:1.0")
    [problem] = run_checks(pi, which=which_all).problems
    assert "/dev/ttyACM0 (USB abcd:1234)" in problem.message
    assert "--scanner-id VVVV:PPPP" in problem.fix


def test_dangling_scanner_link(pi):
    (pi / "dev/ttyACM0").unlink()
    [problem] = run_checks(pi, which=which_all).problems
    assert "gone" in problem.message


def test_configured_scanner_port(pi):
    (pi / "dev/hotstreak-scanner").unlink()
    assert checks(pi, scanner_port="/dev/ttyACM0") == []
    assert checks(pi, scanner_port="/dev/ttyUSB3") == ["scanner"]


# --- install.sh and doctor agree on scanner makers ---

def test_scanner_vendors_match_the_install_script():
    script = (ROOT / "systemd/install.sh").read_text()
    line = next(l for l in script.splitlines() if l.startswith("readonly SCANNER_VENDORS=("))
    assert set(line.split("(")[1].rstrip(")").split()) == set(doctor.SCANNER_VENDORS)
