"""Checks of the machine the kiosk runs on, each one a pure function of a filesystem root.

Every check takes ``root`` (a :class:`pathlib.Path`, ``/`` on the real machine, a fake tree in tests) and
returns a list of :class:`Problem` values, each naming what is wrong and the fix; an empty list means the
check passed. :func:`run_checks` runs them all and returns a :class:`Report`. Nothing here changes the
machine. The command is ``hotstreak doctor`` (companion/commands/doctor.py).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypedDict

from companion.rules.errors import HotStreakError

SERVICE_USER = "hotstreak"
SCANNER_LINK = "/dev/hotstreak-scanner"
# The drop-in install.sh writes in HID mode: the one place the service joins group input.
HID_DROPIN = "/etc/systemd/system/hotstreak.service.d/hid-scanner.conf"
# The groups the service needs (systemd/hotstreak.service SupplementaryGroups=), with what each one is for.
GROUPS: dict[str, str] = {
    "dialout": "the scanner's serial port",
    "gpio": "the buttons",
    "spi": "the LED strip",
    "video": "the screen (KMS/DRM)",
    "render": "the screen (KMS/DRM render node)",
    "audio": "sound",
}
# USB vendor ids of scanner makers (the same list as SCANNER_VENDORS in systemd/install.sh).
SCANNER_VENDORS: dict[str, str] = {
    "05e0": "Zebra/Symbol",
    "0c2e": "Honeywell",
    "0536": "Hand Held Products",
    "05f9": "Datalogic",
    "080c": "Datalogic",
    "1eab": "Newland",
}
SCANNER_WORDS = ("barcode", "bar code", "scanner", "scan")
SERIAL_MODE_FIX = ("switch the scanner to USB serial mode: scan the 'USB COM' / 'USB CDC' / 'virtual COM port' "
                   "setup code from its manual, then unplug and replug it")
HID_MODE_FIX = ('or read it as a keyboard: set [scanner] mode = "hid" (or "auto") and layout to the keyboard '
                "layout it types in")


def _has_module(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


@dataclass(frozen=True)
class Problem:
    """One thing wrong: ``check`` (short name), ``message`` (what is wrong) and ``fix`` (what to do)."""

    check: str
    message: str
    fix: str

    def line(self) -> str:
        """The one-line form: ``check: message -> fix``."""
        return f"{self.check}: {self.message} -> {self.fix}"


class ProblemDict(TypedDict):
    """JSON form of a :class:`Problem`."""

    check: str
    message: str
    fix: str


class ReportDict(TypedDict):
    """JSON form of a :class:`Report` (``hotstreak doctor --json``)."""

    ok: bool
    problems: list[ProblemDict]
    notes: list[str]


@dataclass
class Report:
    """The result of :func:`run_checks`: problems found and notes (checks skipped, with why)."""

    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> ReportDict:
        """``{"ok": bool, "problems": [{"check", "message", "fix"}], "notes": [str]}``."""
        return {"ok": self.ok,
                "problems": [{"check": p.check, "message": p.message, "fix": p.fix} for p in self.problems],
                "notes": list(self.notes)}


def _inside(root: Path, path: str | os.PathLike[str]) -> Path:
    """``path`` (absolute, as on the machine) under ``root``."""
    return root / os.fspath(path).lstrip("/")


def _read(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace").strip()
    except OSError:
        return None


# --- scanner -----------------------------------------------------------------------------------------------

def _usb_ids_of_tty(root: Path, name: str) -> str | None:
    """``vvvv:pppp`` of the USB device behind ``/sys/class/tty/NAME``, or None."""
    device = _inside(root, f"/sys/class/tty/{name}/device")
    try:
        usb_device = device.resolve().parent
    except OSError:
        return None
    vendor, product = _read(usb_device / "idVendor"), _read(usb_device / "idProduct")
    if vendor and product:
        return f"{vendor.lower()}:{product.lower()}"
    return None


def serial_ports(root: Path) -> list[str]:
    """USB serial ports present (``ttyACM*``, ``ttyUSB*`` in /dev), sorted names."""
    dev = _inside(root, "/dev")
    try:
        return sorted(p.name for p in dev.iterdir() if p.name.startswith(("ttyACM", "ttyUSB")))
    except OSError:
        return []


def keyboard_mode_scanners(root: Path) -> list[str]:
    """Input devices that look like a barcode scanner typing as a keyboard (HID mode); descriptions.

    Found by name (``barcode``/``scanner`` in /dev/input/by-id or /sys/class/input/*/name) or by the USB
    vendor id of a known scanner maker (/sys/class/input/*/id/vendor).
    """
    found: list[str] = []
    if _inside(root, "/dev/input/hotstreak-scanner").exists():  # named by the udev rule
        found.append("/dev/input/hotstreak-scanner")
    by_id = _inside(root, "/dev/input/by-id")
    if by_id.is_dir():
        for entry in sorted(by_id.iterdir()):
            lowered = entry.name.lower()
            if "kbd" in lowered and any(word in lowered for word in SCANNER_WORDS):
                found.append(f"/dev/input/by-id/{entry.name}")
    classes = _inside(root, "/sys/class/input")
    if classes.is_dir():
        for entry in sorted(classes.iterdir()):
            if not entry.name.startswith("input"):
                continue
            name = _read(entry / "name") or ""
            vendor = (_read(entry / "id" / "vendor") or "").lower()
            if vendor in SCANNER_VENDORS or any(word in name.lower() for word in SCANNER_WORDS):
                label = f"{name or entry.name} ({SCANNER_VENDORS.get(vendor, 'vendor ' + (vendor or '?'))})"
                if label not in found:
                    found.append(label)
    return found


def check_scanner(root: Path, port: str | None = None, mode: str = "auto", hid_device: str = "",
                  has_module: Callable[[str], bool] = _has_module, notes: list[str] | None = None) -> list[Problem]:
    """The scanner is plugged in and readable in the configured ``mode`` (``[scanner] mode``).

    serial: the USB serial (CDC) port ``port`` (default /dev/hotstreak-scanner) exists. hid: a keyboard-mode
    scanner (``hid_device`` or one found by name or maker) and python-evdev to read it. auto: either, the
    serial port first. A keyboard scanner that will be read is named in ``notes``.
    """
    port = port or SCANNER_LINK
    if mode != "hid" and os.path.lexists(_inside(root, port)):
        if not _inside(root, port).exists():
            return [Problem("scanner", f"{port} points to a device that is gone",
                            "unplug and replug the scanner, or check `journalctl -k` for USB errors")]
        return []
    if hid_device and mode != "serial":
        if not _inside(root, hid_device).exists():
            return [Problem("scanner", f"the keyboard scanner {hid_device} ([scanner] hid_device) is not there",
                            "plug it in, or fix hid_device (ls /dev/input/by-id shows the names)")]
        keyboards = [hid_device]
    else:
        keyboards = keyboard_mode_scanners(root)
    if keyboards and mode == "serial":
        return [Problem("scanner", f"the scanner is in keyboard (HID) mode: {'; '.join(keyboards)}",
                        f"{SERIAL_MODE_FIX}; {HID_MODE_FIX}")]
    if keyboards:
        if not has_module("evdev"):
            return [Problem("scanner", f"the scanner is in keyboard (HID) mode ({'; '.join(keyboards)}) and "
                            "python-evdev, which reads it, is not installed",
                            "pip install evdev (the `pi` extra; sudo systemd/install.sh does it), or "
                            + SERIAL_MODE_FIX)]
        unit = _inside(root, "/etc/systemd/system/hotstreak.service")
        if unit.exists() and not _inside(root, HID_DROPIN).exists():
            return [Problem("scanner", f"the scanner is in keyboard (HID) mode ({'; '.join(keyboards)}) but the "
                            "service does not join group input, so it cannot read it",
                            "sudo systemd/install.sh --scanner-mode hid (it adds the drop-in " + HID_DROPIN + ")")]
        if notes is not None:
            notes.append(f"keyboard-mode scanner {keyboards[0]}: read in HID mode, grabbed so its keys reach no "
                         "console; [scanner] layout must match the layout it types in")
        return []
    if mode == "hid":
        return [Problem("scanner", "no keyboard-mode scanner found (nothing named like a scanner in "
                        "/dev/input/by-id, no known scanner maker)",
                        "plug it in; if it is there under another name, set [scanner] hid_device to its "
                        "/dev/input/by-id/...-event-kbd path")]
    ports = serial_ports(root)
    if ports:
        described = ", ".join(f"/dev/{p}" + (f" (USB {ids})" if (ids := _usb_ids_of_tty(root, p)) else "")
                              for p in ports)
        if port == SCANNER_LINK:
            fix = ("if that is the scanner, add its USB ids (lsusb shows them): sudo systemd/install.sh "
                   "--scanner-id VVVV:PPPP, or pass --scanner /dev/ttyACM0 via HOTSTREAK_ARGS in /etc/default/hotstreak")
        else:
            fix = "set the scanner port to one of these (--scanner PORT)"
        return [Problem("scanner", f"no {port}, but serial ports are present: {described}", fix)]
    return [Problem("scanner", f"no scanner found ({port} is missing, no USB serial port, no keyboard-mode scanner)",
                    "plug the scanner in; if it still does not show, " + SERIAL_MODE_FIX)]


# --- SPI, groups, audio, display, voice, console ----------------------------------------------------------

def boot_config_paths(root: Path) -> list[Path]:
    """config.txt candidates, Bookworm's /boot/firmware first."""
    return [_inside(root, "/boot/firmware/config.txt"), _inside(root, "/boot/config.txt")]


def spi_in_boot_config(root: Path) -> bool | None:
    """True/False: whether config.txt turns SPI on (``dtparam=spi=on``); None when there is no config.txt."""
    for path in boot_config_paths(root):
        text = _read(path)
        if text is None:
            continue
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip().replace(" ", "")
            if line.startswith("dtparam=") and "spi=on" in line[len("dtparam="):].split(","):
                return True
        return False
    return None


def check_spi(root: Path) -> list[Problem]:
    """SPI is on for the LED strip: /dev/spidev0.0 exists (needs ``dtparam=spi=on`` and a reboot)."""
    if _inside(root, "/dev/spidev0.0").exists():
        return []
    configured = spi_in_boot_config(root)
    if configured:
        return [Problem("spi", "/dev/spidev0.0 is missing although config.txt has dtparam=spi=on",
                        "reboot (sudo reboot) so the setting takes effect")]
    return [Problem("spi", "SPI is off (/dev/spidev0.0 missing), the LED strip cannot be driven",
                    "sudo systemd/install.sh --boot-only (or raspi-config > Interface Options > SPI), then reboot")]


# gpiozero's pin libraries, in the order it tries them: (module, package to install).
GPIO_BACKENDS: tuple[tuple[str, str], ...] = (("lgpio", "python3-lgpio"), ("RPi", "python3-rpi.gpio"),
                                              ("pigpio", "python3-pigpio"))
GPIO_FIX = ("sudo apt install python3-lgpio (Raspberry Pi OS; on plain Debian: "
            "sudo /opt/hotstreak/venv/bin/pip install lgpio), then restart the service")


def check_gpio(root: Path, has_module: Callable[[str], bool] = _has_module) -> list[Problem]:
    """The buttons' GPIO works: where the root has a GPIO chip (/dev/gpiochip*), gpiozero and one of its pin
    libraries (:data:`GPIO_BACKENDS`, lgpio first: the only one on a Pi 5) can be imported. Without a pin
    library gpiozero starts no button and the buttons do nothing. No GPIO chip: nothing to check."""
    dev = _inside(root, "/dev")
    try:
        chips = sorted(p.name for p in dev.iterdir() if p.name.startswith("gpiochip"))
    except OSError:
        chips = []
    if not chips:
        return []
    if not has_module("gpiozero"):
        return [Problem("gpio", "gpiozero is not installed (the buttons do nothing)",
                        "sudo /opt/hotstreak/venv/bin/pip install gpiozero, or sudo systemd/install.sh")]
    if any(has_module(module) for module, _ in GPIO_BACKENDS):
        return []
    names = ", ".join(module if module != "RPi" else "RPi.GPIO" for module, _ in GPIO_BACKENDS)
    return [Problem("gpio", f"gpiozero has no GPIO pin library ({names} all missing): the buttons do nothing",
                    GPIO_FIX)]


def read_group_file(root: Path) -> dict[str, set[str]] | None:
    """/etc/group as {group: members}; None when it cannot be read."""
    text = _read(_inside(root, "/etc/group"))
    if text is None:
        return None
    groups: dict[str, set[str]] = {}
    for line in text.splitlines():
        parts = line.split(":")
        if len(parts) >= 4:
            groups[parts[0]] = {m for m in parts[3].split(",") if m}
    return groups


def user_exists(root: Path, user: str) -> bool | None:
    text = _read(_inside(root, "/etc/passwd"))
    if text is None:
        return None
    return any(line.split(":", 1)[0] == user for line in text.splitlines())


def check_groups(root: Path, user: str = SERVICE_USER) -> list[Problem]:
    """The service user exists and belongs to every group in :data:`GROUPS` (which must exist)."""
    exists = user_exists(root, user)
    groups = read_group_file(root)
    if exists is None or groups is None:
        return [Problem("groups", "cannot read /etc/passwd or /etc/group", "run doctor on the Pi itself")]
    if not exists:
        return [Problem("groups", f"there is no user {user!r} for the service",
                        "sudo systemd/install.sh (it creates the user and its groups)")]
    problems = []
    absent = [g for g in GROUPS if g not in groups]
    if absent:
        problems.append(Problem("groups", f"groups missing on this system: {', '.join(absent)} "
                                "(the service will not start without them)",
                                "sudo groupadd --system <group> for each, or sudo systemd/install.sh"))
    missing = [g for g in GROUPS if g in groups and user not in groups[g]]
    if missing:
        needs = "; ".join(f"{g} for {GROUPS[g]}" for g in missing)
        problems.append(Problem("groups", f"user {user} is not in group(s) {', '.join(missing)} ({needs})",
                                f"sudo usermod -aG {','.join(missing)} {user}"))
    return problems


def check_audio(root: Path) -> list[Problem]:
    """At least one ALSA sound card is listed in /proc/asound/cards."""
    text = _read(_inside(root, "/proc/asound/cards"))
    if text is None or not text or "no soundcards" in text:
        return [Problem("audio", "no sound card (/proc/asound/cards lists none)",
                        "connect a screen with speakers over HDMI, or a USB sound card / speaker; "
                        "check dtparam=audio=on in config.txt")]
    return []


def check_display(root: Path) -> list[Problem]:
    """A KMS/DRM display driver is loaded (/dev/dri/card*) and, where the kernel says, a screen is connected."""
    dri = _inside(root, "/dev/dri")
    cards = sorted(dri.glob("card*")) if dri.is_dir() else []
    if not cards:
        return [Problem("display", "no display driver (/dev/dri/card* missing)",
                        "enable KMS: dtoverlay=vc4-kms-v3d in config.txt (the Raspberry Pi OS default), reboot")]
    drm = _inside(root, "/sys/class/drm")
    statuses = [(_read(p / "status"), p.name) for p in sorted(drm.glob("card*-*"))] if drm.is_dir() else []
    statuses = [(s, name) for s, name in statuses if s is not None]
    if statuses and not any(s == "connected" for s, _ in statuses):
        return [Problem("display", "no screen connected (" + ", ".join(n for _, n in statuses) + ")",
                        "plug a screen into HDMI 0 (the port next to the power input) before booting")]
    return []


def check_espeak(which: Callable[[str], str | None] = shutil.which) -> list[Problem]:
    """espeak-ng (the announcer voice) is on PATH."""
    if which("espeak-ng"):
        return []
    return [Problem("voice", "espeak-ng is not installed (no announcer voice)", "sudo apt install espeak-ng")]


def check_console_blank(root: Path) -> list[Problem]:
    """The console never blanks: /sys/module/kernel/parameters/consoleblank is 0 (no file: nothing to do)."""
    value = _read(_inside(root, "/sys/module/kernel/parameters/consoleblank"))
    if value is None or value == "0":
        return []
    return [Problem("console", f"the screen blanks after {value} s idle (consoleblank={value})",
                    "add consoleblank=0 to cmdline.txt (sudo systemd/install.sh --boot-only), then reboot")]


def check_config(path: str | None, notes: list[str]) -> list[Problem]:
    """The config file at ``path`` loads; skipped (a note) without a path or without companion.kiosk.config."""
    if not path:
        return []
    if not Path(path).exists():
        return [Problem("config", f"config file {path} does not exist", "create it or drop --config")]
    try:
        module = importlib.import_module("companion.kiosk.config")
    except ImportError:
        notes.append("config check skipped: this version has no companion.kiosk.config")
        return []
    loader = next((getattr(module, n) for n in ("load_config", "load") if callable(getattr(module, n, None))),
                  None)
    if loader is None:
        notes.append("config check skipped: companion.kiosk.config has no load_config(path)")
        return []
    try:
        loader(path)
    except (HotStreakError, ValueError, OSError) as exc:
        return [Problem("config", f"{path} is not valid: {exc}", "fix the file (the message names the key)")]
    return []


def check_journal(path: str | os.PathLike[str] | None) -> list[Problem]:
    """The kiosk's journal (companion.kiosk.recovery.check): damaged, newer, not writable, disk full, locked."""
    if not path:
        return []
    from companion.kiosk.recovery import check
    return [Problem("journal", problem, fix) for problem, fix in check(os.fspath(path))]


def _scanner_settings(config_path: str | None) -> tuple[str | None, str, str]:
    """(port, mode, hid_device) from the config file's [scanner] section; defaults when it cannot load."""
    if config_path:
        try:
            from companion.kiosk.config import load_config
            cfg = load_config(config_path)
            return cfg.scanner_port, cfg.scanner_mode, cfg.hid_device
        except (ImportError, HotStreakError, ValueError, OSError, AttributeError):
            pass  # check_config reports a bad file
    return None, "auto", ""


def run_checks(root: Path = Path("/"), *, user: str = SERVICE_USER, scanner_port: str | None = None,
               config_path: str | None = None, which: Callable[[str], str | None] = shutil.which,
               has_module: Callable[[str], bool] = _has_module,
               journal_path: str | os.PathLike[str] | None = None, on_pi: bool | None = None) -> Report:
    """Run every check against ``root``; a :class:`Report` with the problems in a fixed order. The scanner
    check reads ``[scanner] mode``, ``port`` and ``hid_device`` from the config file when one is given;
    ``journal_path`` adds the journal check. Off a Raspberry Pi (``on_pi`` False, or None and ``root``'s
    device-tree model names none) the Pi-only checks are skipped with a note and ``user`` is checked for what
    a laptop table needs instead (companion.tools.doctor_laptop)."""
    from companion.tools import doctor_laptop as laptop
    report = Report()
    port, mode, hid_device = _scanner_settings(config_path)
    pi = on_pi if on_pi is not None else laptop.is_a_pi(root)
    if pi:
        report.problems += check_scanner(root, scanner_port or port, mode, hid_device, has_module, report.notes)
        report.problems += check_spi(root)
        report.problems += check_gpio(root, has_module)
        report.problems += check_groups(root, user)
        report.problems += check_audio(root)
        report.problems += check_display(root)
    else:
        why = "hardware mock" if on_pi is False else "no Raspberry Pi in /proc/device-tree/model"
        report.notes.append(laptop.PI_ONLY_NOTE.format(why=why))
        if scanner_port:  # without --scanner a laptop table reads codes typed or scanned into its window
            report.problems += check_scanner(root, scanner_port, mode, hid_device, has_module, report.notes)
        report.problems += laptop.check_laptop(root, user, mode=mode, port=scanner_port, notes=report.notes)
        report.problems += [replace(p, fix=laptop.AUDIO_FIX) for p in check_audio(root)]
    report.problems += check_espeak(which)
    if pi:
        report.problems += check_console_blank(root)
    report.problems += check_config(config_path, report.notes)
    report.problems += check_journal(journal_path)
    return report
