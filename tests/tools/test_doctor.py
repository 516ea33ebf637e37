"""hotstreak doctor: each check but the scanner's (test_doctor_scanner.py) against fake system trees (one problem
at a time), and the all-good case."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from companion.tools import doctor
from companion.tools.doctor import run_checks
from conftest import ROOT, hotstreak
from doctorkit import checks, make_pi, which_all, write


@pytest.fixture
def pi(tmp_path) -> Path:
    return make_pi(tmp_path / "pi")


def test_all_good(pi):
    report = run_checks(pi, which=which_all)
    assert report.ok and report.problems == [] and report.notes == []


# --- SPI ---

def test_spi_off(pi):
    (pi / "dev/spidev0.0").unlink()
    write(pi / "boot/firmware/config.txt", "[all]\n#dtparam=spi=on\ndtparam=audio=on\n")
    [problem] = run_checks(pi, which=which_all).problems
    assert problem.check == "spi" and "SPI is off" in problem.message
    assert "install.sh --boot-only" in problem.fix


def test_spi_configured_but_not_rebooted(pi):
    (pi / "dev/spidev0.0").unlink()
    [problem] = run_checks(pi, which=which_all).problems
    assert problem.check == "spi" and "reboot" in problem.fix


@pytest.mark.parametrize("text, expected", [
    ("dtparam=spi=on\n", True),
    ("dtparam=i2c_arm=on,spi=on\n", True),
    ("# dtparam=spi=on\n", False),
    ("dtparam=spi=off\n", False),
    ("dtoverlay=spi0-1cs\n", False),
])
def test_spi_in_boot_config(tmp_path, text, expected):
    write(tmp_path / "boot/config.txt", text)
    assert doctor.spi_in_boot_config(tmp_path) is expected


def test_spi_in_boot_config_without_file(tmp_path):
    assert doctor.spi_in_boot_config(tmp_path) is None


# --- groups ---

def test_gpio_without_a_pin_library_names_lgpio_and_its_fix(pi):
    write(pi / "dev/gpiochip0")
    [problem] = run_checks(pi, which=which_all, has_module=lambda name: name == "gpiozero").problems
    assert problem.check == "gpio" and "no GPIO pin library" in problem.message
    assert "the buttons do nothing" in problem.message
    assert "apt install python3-lgpio" in problem.fix and "pip install lgpio" in problem.fix


@pytest.mark.parametrize("backend", ["lgpio", "RPi", "pigpio"])
def test_gpio_with_any_pin_library_is_fine(pi, backend):
    write(pi / "dev/gpiochip4")
    assert checks(pi, has_module=lambda name: name in ("gpiozero", backend)) == []


def test_gpio_without_gpiozero(pi):
    write(pi / "dev/gpiochip0")
    [problem] = run_checks(pi, which=which_all, has_module=lambda name: name == "lgpio").problems
    assert problem.check == "gpio" and "gpiozero is not installed" in problem.message


def test_gpio_not_checked_without_a_gpio_chip(pi):
    assert checks(pi, has_module=lambda name: False) == []


@pytest.mark.slow  # a real process: 0.4-0.6 s here, more when the machine is busy
def test_command_names_the_missing_gpio_backend(pi, tmp_path):
    write(pi / "dev/gpiochip0")
    blocker = write(tmp_path / "block/sitecustomize.py",
                    "import sys\nfor m in ('lgpio', 'RPi', 'pigpio'):\n    sys.modules[m] = None\n")
    env = dict(os.environ, PYTHONPATH=f"{blocker.parent}{os.pathsep}{ROOT}")
    result = subprocess.run([sys.executable, "-m", "companion", "doctor", "--root", str(pi)], capture_output=True,
                            text=True, env=env, timeout=60, cwd=ROOT)
    gpio = [line for line in result.stdout.splitlines() if line.startswith("gpio: ")]
    assert result.returncode == 1 and len(gpio) == 1
    assert "no GPIO pin library" in gpio[0] and "python3-lgpio" in gpio[0]


def test_user_missing(pi):
    write(pi / "etc/passwd", "root:x:0:0:root:/root:/bin/bash\n")
    [problem] = run_checks(pi, which=which_all).problems
    assert problem.check == "groups" and "no user 'hotstreak'" in problem.message


def test_user_not_in_some_groups(pi):
    text = (pi / "etc/group").read_text()
    text = text.replace("spi:x:22:pi,hotstreak", "spi:x:22:pi").replace("gpio:x:21:pi,hotstreak", "gpio:x:21:")
    write(pi / "etc/group", text)
    [problem] = run_checks(pi, which=which_all).problems
    assert "gpio, spi" in problem.message and "LED strip" in problem.message
    assert problem.fix == "sudo usermod -aG gpio,spi hotstreak"


def test_group_missing_on_the_system(pi):
    text = "".join(line + "\n" for line in (pi / "etc/group").read_text().splitlines()
                   if not line.startswith("render:"))
    write(pi / "etc/group", text)
    [problem] = run_checks(pi, which=which_all).problems
    assert "groups missing on this system: render" in problem.message


def test_other_user(pi):
    assert checks(pi, user="pi") == ["groups"]          # pi is in the groups but has no passwd line here
    write(pi / "etc/passwd", (pi / "etc/passwd").read_text() + "pi:x:1000:1000::/home/pi:/bin/bash\n")
    assert checks(pi, user="pi") == []


# --- audio, display, voice, console ---

@pytest.mark.parametrize("cards", ["--- no soundcards ---\n", ""])
def test_no_sound_card(pi, cards):
    write(pi / "proc/asound/cards", cards)
    assert checks(pi) == ["audio"]


def test_no_asound_at_all(pi):
    (pi / "proc/asound/cards").unlink()
    assert checks(pi) == ["audio"]


def test_no_display_driver(pi):
    shutil.rmtree(pi / "dev/dri")
    [problem] = run_checks(pi, which=which_all).problems
    assert problem.check == "display" and "vc4-kms-v3d" in problem.fix


def test_no_screen_connected(pi):
    write(pi / "sys/class/drm/card1-HDMI-A-1/status", "disconnected\n")
    [problem] = run_checks(pi, which=which_all).problems
    assert problem.check == "display" and "no screen connected" in problem.message


def test_no_espeak(pi):
    assert checks(pi, which=lambda name: None) == ["voice"]


def test_console_blanking_on(pi):
    write(pi / "sys/module/kernel/parameters/consoleblank", "600\n")
    [problem] = run_checks(pi, which=which_all).problems
    assert problem.check == "console" and "600 s" in problem.message and "consoleblank=0" in problem.fix


def test_everything_wrong_gives_one_line_per_problem(tmp_path):
    empty = write(tmp_path / "empty/proc/device-tree/model", "Raspberry Pi 5 Model B Rev 1.0\0").parents[2]
    assert checks(empty, which=lambda name: None) == ["scanner", "spi", "groups", "audio", "display", "voice"]


# --- a laptop table ---

def make_laptop(root: Path, groups: str = "ann") -> Path:
    """A fake laptop tree: no device-tree model, a USB serial scanner, sound, the user ann in dialout."""
    write(root / "dev/ttyACM0")
    write(root / "proc/asound/cards", " 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n")
    write(root / "etc/passwd", "root:x:0:0:root:/root:/bin/bash\nann:x:1000:1000:Ann:/home/ann:/bin/bash\n")
    write(root / "etc/group", f"root:x:0:\nann:x:1000:\ndialout:x:20:{groups}\ninput:x:105:\n")
    return root


def laptop_report(root: Path, **kwargs):
    kwargs.setdefault("which", which_all)
    kwargs.setdefault("user", "ann")
    os_env = {"DISPLAY": ":0", "WAYLAND_DISPLAY": ""} | kwargs.pop("env", {})
    from unittest import mock
    with mock.patch.dict(os.environ, os_env):
        return run_checks(root, **kwargs)


def test_a_laptop_skips_the_pi_checks_in_one_note_and_is_all_good(tmp_path):
    report = laptop_report(make_laptop(tmp_path / "laptop"))
    assert report.ok, report.problems
    assert report.notes == ["not a Raspberry Pi (no Raspberry Pi in /proc/device-tree/model): the Pi-only checks "
                            "(SPI, GPIO, the service user and its groups, the console display driver, console "
                            "blanking) are skipped"]


def test_hardware_mock_on_a_pi_skips_the_pi_checks_too(pi):
    (pi / "dev/spidev0.0").unlink()                     # would be a Pi problem
    report = run_checks(pi, which=which_all, user="pi", on_pi=False)
    assert "spi" not in [p.check for p in report.problems]
    assert report.notes[0].startswith("not a Raspberry Pi (hardware mock)")


def test_a_laptop_user_outside_dialout_is_told_to_join_it(tmp_path):
    [problem] = laptop_report(make_laptop(tmp_path / "laptop", groups="")).problems
    assert problem.line() == ("scanner: user ann is not in group dialout, so the scanner's serial port (/dev/ttyACM0) "
                              "cannot be opened -> sudo usermod -aG dialout ann, then log out and in again")


def test_a_laptop_without_a_display_says_so(tmp_path):
    with_env = {"DISPLAY": "", "WAYLAND_DISPLAY": ""}
    [problem] = laptop_report(make_laptop(tmp_path / "laptop"), env=with_env).problems
    assert problem.check == "display" and "$DISPLAY and $WAYLAND_DISPLAY are unset" in problem.message
    assert laptop_report(make_laptop(tmp_path / "wl"), env={"DISPLAY": "", "WAYLAND_DISPLAY": "wayland-0"}).ok


def test_a_keyboard_scanner_needs_group_input_for_evdev(tmp_path):
    root = make_laptop(tmp_path / "laptop")
    (root / "dev/ttyACM0").unlink()
    write(root / "sys/class/input/input7/name", "Honeywell Barcode Scanner\n")
    auto = laptop_report(root)
    assert auto.ok and "not in group input" in auto.notes[-1] and "has the focus" in auto.notes[-1]
    [problem] = laptop_report(root, config_path=str(write(tmp_path / "c.toml", '[scanner]\nmode = "hid"\n'))).problems
    assert problem.check == "scanner" and "sudo usermod -aG input ann" in problem.fix
    write(root / "etc/group", "root:x:0:\nann:x:1000:\ndialout:x:20:ann\ninput:x:105:ann\n")
    assert laptop_report(root).notes[1:] == []


@pytest.mark.slow
def test_command_on_a_laptop_checks_the_user_running_it(tmp_path):
    root = make_laptop(tmp_path / "laptop", groups="")
    result = hotstreak("doctor", "--root", str(root), "--user", "ann", env={"DISPLAY": ":0"})
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert lines[0].startswith("scanner: user ann is not in group dialout")
    assert lines[1].startswith("note: not a Raspberry Pi") and "SPI" in lines[1]
    assert not any(line.startswith(("spi:", "groups:", "console:")) for line in lines)


# --- config ---

def test_config_missing_file(pi, tmp_path):
    [problem] = run_checks(pi, which=which_all, config_path=str(tmp_path / "nope.toml")).problems
    assert problem.check == "config" and "does not exist" in problem.message


def test_config_checked_with_companion_config(pi, tmp_path, monkeypatch):
    fake = types.ModuleType("companion.kiosk.config")

    def load_config(path):
        if "bad" in str(path):
            raise ValueError("leds.per_space: 0 is not a positive integer")
        return {}

    fake.load_config = load_config
    monkeypatch.setitem(sys.modules, "companion.kiosk.config", fake)
    good = write(tmp_path / "good.toml")
    bad = write(tmp_path / "bad.toml")
    assert checks(pi, config_path=str(good)) == []
    [problem] = run_checks(pi, which=which_all, config_path=str(bad)).problems
    assert "leds.per_space: 0 is not a positive integer" in problem.message


def test_config_skipped_with_a_note_without_companion_config(pi, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "companion.kiosk.config", None)   # makes the import fail
    report = run_checks(pi, which=which_all, config_path=str(write(tmp_path / "c.toml")))
    assert report.ok and report.notes == ["config check skipped: this version has no companion.kiosk.config"]


# --- the command ---

@pytest.mark.slow
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed on this machine")
def test_command_all_good(pi):
    result = hotstreak("doctor", "--root", str(pi))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "all good\n"


@pytest.mark.slow
def test_command_prints_one_line_per_problem_and_exits_1(pi):
    (pi / "dev/spidev0.0").unlink()
    write(pi / "sys/module/kernel/parameters/consoleblank", "300\n")
    result = hotstreak("doctor", "--root", str(pi))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert [line.split(":", 1)[0] for line in lines if not line.startswith("voice")] == ["spi", "console"]
    assert all(" -> " in line for line in lines)


@pytest.mark.slow
def test_command_json(pi):
    (pi / "dev/spidev0.0").unlink()
    result = hotstreak("doctor", "--root", str(pi), "--json")
    data = json.loads(result.stdout)
    assert result.returncode == 1 and data["ok"] is False
    assert "spi" in [p["check"] for p in data["problems"]]
    assert set(data["problems"][0]) == {"check", "message", "fix"}


@pytest.mark.slow
def test_command_bad_root(tmp_path):
    result = hotstreak("doctor", "--root", str(tmp_path / "missing"))
    assert result.returncode == 2 and "is not a directory" in result.stderr


@pytest.mark.slow
def test_command_checks_a_real_config_file(pi, tmp_path):
    bad = write(tmp_path / "bad.toml", "this is = not [ toml\n")
    result = hotstreak("doctor", "--root", str(pi), "--config", str(bad))
    assert result.returncode == 1
    assert any(line.startswith("config: ") and "not valid" in line for line in result.stdout.splitlines())
    result = hotstreak("doctor", "--root", str(pi), env={"HOTSTREAK_CONFIG": str(bad)})
    assert any(line.startswith("config: ") for line in result.stdout.splitlines())
