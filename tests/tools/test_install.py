"""The install script, systemd/install.sh: its syntax and shellcheck (with the bench's shell scripts), the steps
of a dry run (with and without a running systemd), the uninstall by its manifest, the users and groups of the
root it installs into, the scanner it finds, and the arguments it refuses."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT
from installkit import INSTALL, rule_lines, run_install


def test_install_script_syntax():
    result = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "set -euo pipefail" in INSTALL.read_text()


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (apt install shellcheck)")
@pytest.mark.parametrize("script", [*(pytest.param(f, marks=pytest.mark.slow)  # shellcheck runs 0.5-1.6 s on these
                                      for f in ("systemd/install.sh", "bench/pi_arm64.sh", "bench/pi_boot.sh")),
                                    "bench/steps.sh", "bench/run_all.sh"])
def test_shell_scripts_pass_shellcheck(script):
    # -x: follow the sourced bench/steps.sh
    result = subprocess.run(["shellcheck", "-x", str(ROOT / script)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("script", ["bench/pi_arm64.sh", "bench/pi_boot.sh"])
def test_bench_scripts_need_root_and_say_so(script):
    if subprocess.run(["id", "-u"], capture_output=True, text=True).stdout.strip() == "0":
        result = subprocess.run(["bash", str(ROOT / script), "--bogus"], capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and "unknown option '--bogus'" in result.stderr
    else:
        result = subprocess.run(["bash", str(ROOT / script)], capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and "run as root" in result.stderr
    assert subprocess.run(["bash", "-n", str(ROOT / script)]).returncode == 0


@pytest.mark.slow
def test_dry_run_install_lists_every_step(tmp_path):
    result = run_install("--dry-run", "--root", str(tmp_path))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("dry run: nothing is changed")
    for step in ("apt-get install", "espeak-ng", "python3-venv", "python3-evdev python3-spidev", "useradd --system",
                 "usermod --append --groups dialout,gpio,spi,video,render,audio hotstreak",
                 "-m venv --system-site-packages",
                 f"install --require-hashes --no-binary pygame-ce -r {ROOT}/systemd/requirements-pi.txt",
                 f"would copy {ROOT} (without .git, .venv, build/, *.egg-info)", "wheel --no-deps --wheel-dir",
                 "install --no-deps --force-reinstall", "/etc/systemd/system/hotstreak.service",
                 "/etc/udev/rules.d/99-hotstreak-scanner.rules", "/etc/default/hotstreak",
                 "/etc/hotstreak (root:hotstreak, 0775)", "/etc/hotstreak/config.toml (owned by hotstreak",
                 "/opt/hotstreak/install-manifest.txt"):
        assert step in out, step
    assert f"install '{ROOT}[pi]'" not in out and f"install {ROOT}" not in out   # never built in the checkout
    assert not (tmp_path / "opt").exists() and not (tmp_path / "etc").exists()   # nothing written


def systemd_running(root: Path) -> Path:
    (root / "run/systemd/system").mkdir(parents=True)
    return root


@pytest.mark.slow  # runs the real install script / label maker: up to 1.1 s with the cores busy
def test_dry_run_with_a_running_systemd_reloads_enables_and_starts(tmp_path):
    out = run_install("--dry-run", "--skip-apt", "--root", str(systemd_running(tmp_path))).stdout
    assert "would run: systemctl daemon-reload" in out
    assert "would run: systemctl enable hotstreak.service" in out
    assert "would run: systemctl restart hotstreak.service" in out
    assert "would run: udevadm control --reload" in out
    assert "apt-get" not in out and "offline" not in out


@pytest.mark.slow  # runs the real install script / label maker: up to 1.1 s with the cores busy
def test_without_a_running_systemd_the_install_is_offline_and_ends_well(tmp_path):
    result = run_install("--dry-run", "--skip-apt", "--root", str(tmp_path))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"offline: systemd is not running here ({tmp_path}/run/systemd/system is missing" in out
    assert f"would run: systemctl --root={tmp_path} enable hotstreak.service" in out
    assert "udevadm" not in out and "daemon-reload" not in out and "restart" not in out
    assert "Done (offline). Left for the first boot: udev loads" in out
    assert "systemd starts hotstreak.service (enabled)" in out


def test_offline_option_even_with_systemd_running(tmp_path):
    out = run_install("--dry-run", "--skip-apt", "--offline", "--root", str(systemd_running(tmp_path))).stdout
    assert "offline: --offline" in out and "udevadm" not in out and "daemon-reload" not in out


def test_dry_run_uninstall_of_an_install_removes_what_its_manifest_lists(tmp_path):
    prefix = tmp_path / "opt/hotstreak"
    (prefix / "venv/bin").mkdir(parents=True)
    for name in ("README.md", "cmdline-added"):
        (prefix / name).write_text("x\n")
    (prefix / "install-manifest.txt").write_text("/opt/hotstreak\n/opt/hotstreak/venv\n/opt/hotstreak/README.md\n"
                                                 "/opt/hotstreak/install-manifest.txt\n/etc/passwd\n")
    result = run_install("--dry-run", "--uninstall", "--purge", "--root", str(tmp_path))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"rm -f {tmp_path}/etc/systemd/system/hotstreak.service {tmp_path}/etc/udev/rules.d/99-hotstreak" in out
    assert f"would run: rm -rf {tmp_path}/opt/hotstreak/venv\n" in out
    assert f"would run: rm -f {tmp_path}/opt/hotstreak/README.md\n" in out
    assert f"rm -rf {tmp_path}/opt/hotstreak\n" not in out
    assert "lists /etc/passwd, which is not inside /opt/hotstreak; not removed" in out
    assert f"would remove /opt/hotstreak if it is empty then" in out
    assert "/var/lib/hotstreak" in out


@pytest.mark.slow  # runs the real install script / label maker: up to 1.1 s with the cores busy
def test_uninstall_leaves_a_prefix_it_did_not_create(tmp_path):
    data = tmp_path / "srv/data"
    data.mkdir(parents=True)
    (data / "important.db").write_text("keep me")
    result = run_install("--dry-run", "--uninstall", "--prefix", "/srv/data", "--root", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "kept: /srv/data (no install-manifest.txt, and it holds important.db" in result.stdout
    assert "rm -rf" not in result.stdout
    result = run_install("--dry-run", "--uninstall", "--prefix", "/srv/empty-or-absent", "--root", str(tmp_path))
    assert "ok: nothing installed in /srv/empty-or-absent" in result.stdout and "rm -rf" not in result.stdout


def test_install_refuses_a_prefix_holding_other_files(tmp_path):
    data = tmp_path / "srv/data"
    data.mkdir(parents=True)
    (data / "important.db").write_text("keep me")
    result = run_install("--dry-run", "--skip-apt", "--prefix", "/srv/data", "--root", str(tmp_path))
    assert result.returncode == 2
    assert ("--prefix '/srv/data' already holds other files (important.db) and no install-manifest.txt"
            in result.stderr)


def test_custom_prefix_goes_into_the_unit(tmp_path):
    out = run_install("--dry-run", "--skip-apt", "--prefix", "/opt/hs-2.1", "--root", str(tmp_path)).stdout
    assert "with /opt/hotstreak replaced by /opt/hs-2.1" in out
    assert f"-m venv --system-site-packages {tmp_path}/opt/hs-2.1/venv" in out


@pytest.mark.slow
def test_dry_run_with_root_reads_only_the_roots_users_and_groups(tmp_path):
    # this machine has groups audio, video, dialout; an empty root has none, and no user hotstreak
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/passwd").write_text("root:x:0:0::/root:/bin/sh\n")
    (tmp_path / "etc/group").write_text("root:x:0:\n")
    out = run_install("--dry-run", "--skip-apt", "--root", str(tmp_path)).stdout
    for group in ("dialout", "gpio", "spi", "video", "render", "audio"):
        assert f"would run: groupadd --system {group}\n" in out, group
    assert "would run: useradd --system" in out
    # a root that has them: nothing to add, whatever this machine has
    (tmp_path / "etc/passwd").write_text("hotstreak:x:998:998::/var/lib/hotstreak:/usr/sbin/nologin\n")
    (tmp_path / "etc/group").write_text("".join(f"{g}:x:{20 + i}:hotstreak\n" for i, g in enumerate(
        ("dialout", "gpio", "spi", "video", "render", "audio", "input"))))
    (tmp_path / "etc/hotstreak").mkdir()
    (tmp_path / "etc/hotstreak/config.toml").write_text('[scanner]\nmode = "serial"\n')
    out = run_install("--dry-run", "--skip-apt", "--root", str(tmp_path)).stdout
    assert "groupadd" not in out and "useradd" not in out
    assert "ok: user hotstreak exists" in out
    assert "would run: gpasswd --delete hotstreak input" in out     # the root's input membership, not this machine's


def test_scanner_id_lines_are_valid_rule_lines():
    result = run_install("--dry-run", "--skip-apt", "--scanner-id", "1EAB:8306")
    added = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("ATTRS{idVendor}")]
    assert added == ['ATTRS{idVendor}=="1eab", ATTRS{idProduct}=="8306", GOTO="hotstreak_scanner"']
    rule_lines(added[0])


def fake_usb(root: Path, port: str, vendor: str, product: str, device: str, name: str = "") -> None:
    """A sysfs tree with one USB device whose interface carries a tty (``ttyACM0``) or an input (``event3``)."""
    usb = root / "sys/devices/usb1" / port
    usb.mkdir(parents=True)
    (usb / "idVendor").write_text(vendor + "\n")
    (usb / "idProduct").write_text(product + "\n")
    interface = usb / f"{port}:1.0" / ("input/input5" if device.startswith("event") else "tty")
    interface.mkdir(parents=True)
    if name:
        (interface / "name").write_text(name + "\n")
    link = root / "sys/class" / ("input" if device.startswith("event") else "tty") / device
    link.mkdir(parents=True)
    (link / "device").symlink_to(interface)


def test_install_finds_the_plugged_in_serial_scanner(tmp_path):
    fake_usb(tmp_path, "1-1", "1eab", "8306", "ttyACM0")
    out = run_install("--dry-run", "--skip-apt", "--root", str(tmp_path)).stdout
    assert "found scanner(s): serial 1eab:8306 ttyACM0" in out
    assert 'ATTRS{idVendor}=="1eab", ATTRS{idProduct}=="8306", GOTO="hotstreak_scanner"' in out
    assert "scanner mode: serial" in out and "SupplementaryGroups=input" not in out


def test_a_keyboard_scanner_gets_the_input_group_in_a_drop_in(tmp_path):
    fake_usb(tmp_path, "1-2", "0c2e", "0b61", "event3", name="Honeywell Imaging HID Keyboard")
    fake_usb(tmp_path, "1-3", "046d", "c31c", "event4", name="Logitech USB Keyboard")   # a keyboard: not a scanner
    out = run_install("--dry-run", "--skip-apt", "--root", str(tmp_path)).stdout
    assert "found scanner(s): hid 0c2e:0b61 event3" in out and "046d" not in out
    assert "scanner mode: hid" in out
    assert "hotstreak.service.d/hid-scanner.conf (SupplementaryGroups=input" in out


@pytest.mark.slow
def test_scanner_mode_from_the_config_file(tmp_path):
    (tmp_path / "etc/hotstreak").mkdir(parents=True)
    (tmp_path / "etc/hotstreak/config.toml").write_text('[scanner]\nmode = "hid"\n')
    out = run_install("--dry-run", "--skip-apt", "--root", str(tmp_path), "--scanner-id", "1eab:8306").stdout
    assert "scanner mode: hid (ids: 1eab:8306)" in out


@pytest.mark.parametrize("args, message", [
    (["--scanner-id", "12:34"], "is not VVVV:PPPP"),
    (["--bogus"], "unknown option '--bogus'"),
    (["--scanner-mode", "usb"], "is not auto, serial or hid"),
    (["--purge", "--dry-run"], "--purge only goes with --uninstall"),
    (["--root", "/tmp"], "--root only goes with --dry-run or --boot-only"),
    (["--dry-run", "--prefix", "/opt/hot streak"], "must be an absolute path of letters, digits and ._+-/"),
    (["--dry-run", "--prefix", "/opt/a&b"], "(no spaces, &, #, quotes)"),
    (["--dry-run", "--prefix", "/opt/a#b"], "--prefix '/opt/a#b' must be an absolute path"),
    (["--dry-run", "--prefix", "opt/hotstreak"], "must be an absolute path"),
    (["--dry-run", "--prefix", "/opt/../usr"], "must not contain . or .. parts"),
    (["--dry-run", "--uninstall", "--prefix", "/usr"], "--prefix '/usr' is a system directory"),
    (["--dry-run", "--uninstall", "--prefix", "/"], "must be an absolute path"),
])
def test_bad_arguments(args, message):
    result = run_install(*args)
    assert result.returncode == 2 and message in result.stderr
