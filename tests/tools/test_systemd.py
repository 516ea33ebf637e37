"""The kiosk files: systemd unit (keys, systemd-analyze verify), udev rule (syntax, keys), install.sh (bash -n,
shellcheck where installed, --dry-run output, boot config edits on a fake tree)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.tools import doctor
from conftest import ROOT

UNIT = ROOT / "systemd/hotstreak.service"
RULE = ROOT / "systemd/99-hotstreak-scanner.rules"
INSTALL = ROOT / "systemd/install.sh"


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """{section: {key: [values in order]}}; repeated keys (Environment=) keep every value."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"key outside a section: {line!r}"
        key, sep, value = line.partition("=")
        assert sep, f"not KEY=value: {line!r}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def unit() -> dict[str, dict[str, list[str]]]:
    return parse_unit(UNIT.read_text())


def one(unit, section: str, key: str) -> str:
    values = unit[section].get(key)
    assert values, f"[{section}] {key}= missing"
    return values[-1]


def seconds(value: str) -> float:
    """A systemd time span of plain seconds or with s/min suffix."""
    m = re.fullmatch(r"(\d+)\s*(s|sec|min)?", value)
    assert m, value
    return int(m.group(1)) * (60 if m.group(2) == "min" else 1)


# --- the unit ---

def test_notify_and_watchdog(unit):
    assert one(unit, "Service", "Type") == "notify"
    assert one(unit, "Service", "NotifyAccess") == "main"
    assert seconds(one(unit, "Service", "WatchdogSec")) >= 10


def test_restarts_for_ever_with_a_pause(unit):
    assert one(unit, "Service", "Restart") == "always"
    assert seconds(one(unit, "Service", "RestartSec")) >= 1      # a crash loop does not eat the CPU
    # no start limit: a crash loop never leaves the unit failed until someone runs `systemctl reset-failed`
    assert seconds(one(unit, "Unit", "StartLimitIntervalSec")) == 0
    assert "StartLimitBurst" not in unit["Unit"]
    # keys newer than Debian bookworm's systemd 252 would be ignored there with a warning
    assert not {"RestartSteps", "RestartMaxDelaySec"} & set(unit["Service"])


def megabytes(value: str) -> float:
    m = re.fullmatch(r"(\d+)([KMG])", value)
    assert m, value
    return int(m.group(1)) * {"K": 1 / 1024, "M": 1, "G": 1024}[m.group(2)]


def test_memory_and_tasks_are_capped_for_a_1_gb_pi(unit):
    high, peak = megabytes(one(unit, "Service", "MemoryHigh")), megabytes(one(unit, "Service", "MemoryMax"))
    assert 200 <= high < peak <= 640        # room over the kiosk's ~150 MB; most of a 1 GB Pi left to the rest
    assert 32 <= int(one(unit, "Service", "TasksMax")) <= 256   # ~11 threads and a few helper processes
    assert one(unit, "Service", "OOMPolicy") == "continue"


def test_runs_as_dedicated_non_root_user_with_device_groups(unit):
    user = one(unit, "Service", "User")
    assert user == doctor.SERVICE_USER and user not in ("root", "0")
    assert "DynamicUser" not in unit["Service"]
    groups = one(unit, "Service", "SupplementaryGroups").split()
    assert set(groups) == set(doctor.GROUPS)


def test_exec_lines(unit):
    start = one(unit, "Service", "ExecStart").split()
    assert start[0] == "/opt/hotstreak/venv/bin/hotstreak" and start[1] == "run"
    db = start[start.index("--db") + 1]
    state = one(unit, "Service", "StateDirectory")
    assert db.startswith(f"/var/lib/{state}/")
    stop = one(unit, "Service", "ExecStopPost")
    assert stop.lstrip("-").split() == ["/opt/hotstreak/venv/bin/hotstreak", "leds-off"]


def test_environment_and_directories(unit):
    env = unit["Service"]["Environment"]
    assert "PYTHONUNBUFFERED=1" in env
    assert one(unit, "Service", "StateDirectory") == "hotstreak"
    assert one(unit, "Service", "CacheDirectory") == "hotstreak"
    assert one(unit, "Service", "WorkingDirectory") == "/var/lib/hotstreak"


def test_hardening_without_breaking_devices(unit):
    assert one(unit, "Service", "ProtectSystem") == "strict"
    assert one(unit, "Service", "ProtectHome") == "true"
    assert one(unit, "Service", "PrivateTmp") == "true"
    assert one(unit, "Service", "NoNewPrivileges") == "true"
    assert one(unit, "Service", "CapabilityBoundingSet") == ""          # no capability at all
    assert unit["Service"]["SystemCallFilter"][0] == "@system-service"
    assert set(one(unit, "Service", "RestrictAddressFamilies").split()) == {"AF_UNIX", "AF_NETLINK", "AF_INET",
                                                                             "AF_INET6"}
    for key in ("ProtectKernelTunables", "ProtectKernelModules", "ProtectKernelLogs", "ProtectControlGroups"):
        assert one(unit, "Service", key) == "true", key
    assert one(unit, "Service", "ProtectProc") == "invisible"
    # ProtectClock= implies DeviceAllow=char-rtc r, an allow-list that shuts out other devices (systemd#18142);
    # ProcSubset=pid hides /proc/cpuinfo, where gpiozero reads the board revision
    for breaks_devices in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "PrivateUsers", "ProtectClock",
                           "ProcSubset", "PrivateNetwork"):
        assert breaks_devices not in unit["Service"], breaks_devices
    # everything the service writes is writable under ProtectSystem=strict
    writable = one(unit, "Service", "ReadWritePaths").split()
    assert {"/var/lib/hotstreak", "/var/cache/hotstreak"} <= set(writable)


def test_the_service_reads_and_may_write_the_config_the_calibration_writes(unit):
    # systemd sets $CONFIGURATION_DIRECTORY=/etc/hotstreak from ConfigurationDirectory=, the default location
    # every command reads (companion/kiosk/config_path.py); ProtectSystem=strict leaves it read-only unless
    # listed, and the calibration writes the file, its backup and a temporary file in that folder.
    from companion.kiosk.config_path import config_location
    folder = "/etc/" + one(unit, "Service", "ConfigurationDirectory")
    where = config_location(None, {"CONFIGURATION_DIRECTORY": folder})
    assert str(where.path) == "/etc/hotstreak/config.toml"
    assert folder in one(unit, "Service", "ReadWritePaths").split()
    assert one(unit, "Service", "ConfigurationDirectoryMode") == "0775"   # group hotstreak may write (install.sh)
    start = one(unit, "Service", "ExecStart")
    assert "--config" not in start and "HOTSTREAK_CONFIG" not in " ".join(unit["Service"].get("Environment", []))


def test_install_makes_the_config_folder_the_service_can_write():
    text = INSTALL.read_text()
    body = text[text.index("install_config() {"):]
    body = body[:body.index("\n}\n")]
    assert 'install -d -o root -g "$APP" -m 0775 "$dir"' in body
    assert body.count('chown "$APP:$APP" "$config"') == 2       # a new file and a kept one both the service's
    assert "install_config\n    choose_scanner" in text           # before the udev rule writes scanner-ids there


def test_no_input_group_by_default(unit):
    assert "input" not in one(unit, "Service", "SupplementaryGroups").split()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_security_exposure_is_3_or_better():
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", str(UNIT)], capture_output=True,
                            text=True, timeout=60)
    output = result.stdout + result.stderr
    m = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", output)
    if m is None:
        pytest.skip(f"systemd-analyze security cannot rate units offline here: {output.strip()[:200]}")
    assert float(m.group(1)) <= 3.0, output


def test_enabled_at_boot(unit):
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verify(tmp_path):
    # The venv binary does not exist on this machine: verify a copy that runs an existing binary instead.
    true = shutil.which("true")
    copy = tmp_path / "hotstreak.service"
    copy.write_text(UNIT.read_text().replace("/opt/hotstreak/venv/bin/hotstreak", true))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    output = result.stdout + result.stderr
    if result.returncode != 0 and ("Failed to connect" in output or "System has not been booted" in output):
        pytest.skip(f"systemd-analyze cannot run here: {output.strip()}")
    assert result.returncode == 0, output
    assert "Unknown key" not in output and "Unknown section" not in output, output


# --- the udev rule ---

RULE_ITEM = re.compile(r'^(?P<key>[A-Z_]+)(\{(?P<attr>[^}]+)\})?(?P<op>==|!=|\+=|-=|:=|=)"(?P<value>[^"]*)"$')


def rule_lines(text: str) -> list[list[re.Match]]:
    """Each rule line parsed into its items; fails on a line udev would not accept (e.g. a trailing comment)."""
    parsed = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        items = []
        for item in re.split(r',\s*', line):
            m = RULE_ITEM.match(item)
            assert m, f"not a udev KEY op \"value\" item: {item!r} in {line!r}"
            items.append(m)
        parsed.append(items)
    return parsed


def test_rule_syntax_and_labels():
    parsed = rule_lines(RULE.read_text())
    labels = {m["value"] for items in parsed for m in items if m["key"] == "LABEL"}
    gotos = {m["value"] for items in parsed for m in items if m["key"] == "GOTO"}
    assert gotos <= labels


def test_rule_creates_symlinks_with_group_access_and_ignored_by_modemmanager():
    parsed = rule_lines(RULE.read_text())
    actions = {(m["key"], m["attr"], m["op"], m["value"]) for items in parsed for m in items}
    assert ("SYMLINK", None, "+=", "hotstreak-scanner") in actions
    assert ("SYMLINK", None, "+=", "input/hotstreak-scanner") in actions
    assert ("ENV", "ID_MM_DEVICE_IGNORE", "=", "1") in actions
    assert ("GROUP", None, "=", "dialout") in actions
    assert ("MODE", None, "=", "0660") in actions
    assert ("SUBSYSTEM", None, "!=", "tty|input") in actions


def test_rule_names_no_device_until_install_adds_the_scanners_ids():
    text = RULE.read_text()
    assert "ATTRS{idVendor}" not in text        # no maker-wide or chip-wide match: only the installed scanner
    assert "# LOCAL scanner ids" in text
    kernel = re.search(r'SUBSYSTEM=="tty", KERNEL=="([^"]+)"', text).group(1)
    assert kernel == "ttyACM[0-9]*|ttyUSB[0-9]*"


# --- install.sh ---

def run_install(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60)


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


def fake_boot(tmp_path: Path, model: str | None, *, firmware: bool = True) -> tuple[Path, Path, Path]:
    root = tmp_path / "root"
    boot = root / ("boot/firmware" if firmware else "boot")
    boot.mkdir(parents=True)
    config = boot / "config.txt"
    cmdline = boot / "cmdline.txt"
    config.write_text("[pi4]\narm_boost=1\n\n[all]\ndtparam=audio=on")       # no final newline, a [pi4] filter
    cmdline.write_text("console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 rootwait\n")
    if model:
        (root / "proc/device-tree").mkdir(parents=True)
        (root / "proc/device-tree/model").write_bytes(model.encode() + b"\0")
    return root, config, cmdline


@pytest.mark.slow  # runs the real install script / label maker: up to 1.1 s with the cores busy
def test_boot_config_install_is_idempotent_and_uninstall_restores(tmp_path):
    root, config, cmdline = fake_boot(tmp_path, "Raspberry Pi 4 Model B Rev 1.4")
    original_cmdline = cmdline.read_text()
    first = run_install("--boot-only", "--root", str(root))
    assert first.returncode == 0, first.stderr
    after_first = (config.read_text(), cmdline.read_text())
    second = run_install("--boot-only", "--root", str(root))
    assert (config.read_text(), cmdline.read_text()) == after_first
    assert "already" in second.stdout and "reboot" not in second.stdout
    text = config.read_text()
    assert text.count("dtparam=spi=on") == 1
    block = text[text.index("# >>> hotstreak"):]
    assert block.splitlines()[1] == "[all]"            # not under the [pi4] filter
    assert "core_freq=500" in block and "core_freq_min=500" in block
    assert cmdline.read_text().split()[-2:] == ["consoleblank=0", "spidev.bufsiz=65536"]
    assert len(cmdline.read_text().splitlines()) == 1
    removed = run_install("--boot-only", "--uninstall", "--root", str(root))
    assert removed.returncode == 0, removed.stderr
    assert "hotstreak" not in config.read_text() and "dtparam=spi=on" not in config.read_text()
    assert cmdline.read_text() == original_cmdline


@pytest.mark.parametrize("model, expected, absent", [
    ("Raspberry Pi 5 Model B Rev 1.0", [], ["core_freq"]),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", ["core_freq=250"], ["core_freq=500"]),
    (None, [], ["core_freq"]),
])
def test_core_freq_only_for_pi_3_and_4(tmp_path, model, expected, absent):
    root, config, _ = fake_boot(tmp_path, model, firmware=False)
    assert run_install("--boot-only", "--root", str(root)).returncode == 0
    text = config.read_text()
    assert "dtparam=spi=on" in text
    assert all(e in text for e in expected) and not any(a in text for a in absent)


def test_cmdline_keeps_a_user_consoleblank_value_and_warns(tmp_path):
    root, _, cmdline = fake_boot(tmp_path, None)
    cmdline.write_text("console=tty1 root=x consoleblank=60\n")
    result = run_install("--boot-only", "--root", str(root))
    assert "consoleblank to another value" in result.stdout
    assert cmdline.read_text() == "console=tty1 root=x consoleblank=60 spidev.bufsiz=65536\n"


def test_boot_files_are_replaced_atomically_with_a_backup(tmp_path):
    root, config, cmdline = fake_boot(tmp_path, "Raspberry Pi 4 Model B Rev 1.4")
    original_config, original_cmdline = config.read_text(), cmdline.read_text()
    config.chmod(0o600)
    result = run_install("--boot-only", "--root", str(root))
    assert result.returncode == 0, result.stderr
    assert (config.parent / "config.txt.hotstreak-backup").read_text() == original_config
    assert (cmdline.parent / "cmdline.txt.hotstreak-backup").read_text() == original_cmdline
    assert config.stat().st_mode & 0o777 == 0o600                         # the file's mode is kept
    assert sorted(p.name for p in config.parent.iterdir()) == [           # no temporary file left behind
        "cmdline.txt", "cmdline.txt.hotstreak-backup", "config.txt", "config.txt.hotstreak-backup"]
    assert "old file: " in result.stdout
    script = INSTALL.read_text()
    assert "sed -i" not in script                                          # every boot file edit goes through the rename
    assert re.search(r'mv -f "\$tmp" "\$file"', script)


# --- the pinned Pi dependencies ---

LOCK = ROOT / "systemd/requirements-pi.txt"


def locked() -> dict[str, tuple[str, list[str]]]:
    """{name: (version, [hashes])} from the lock file."""
    pins: dict[str, tuple[str, list[str]]] = {}
    name = None
    for line in LOCK.read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.-]+)==([^ \\]+)", line)
        if m:
            name = m.group(1).lower().replace("_", "-")
            pins[name] = (m.group(2), [])
        elif name and line.strip().startswith("--hash=sha256:"):
            pins[name][1].append(line.strip().split(":", 1)[1].rstrip(" \\"))
    return pins


def project_requirements() -> list[str]:
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["dependencies"] + project["optional-dependencies"]["pi"]


def test_every_pi_dependency_has_an_upper_bound():
    from packaging.requirements import Requirement
    for text in project_requirements():
        req = Requirement(text)
        assert any(spec.operator in ("<", "<=", "~=", "==") for spec in req.specifier), text


def test_lock_pins_every_dependency_with_hashes_within_the_bounds():
    from packaging.requirements import Requirement
    pins = locked()
    assert pins, "no pinned requirement in systemd/requirements-pi.txt"
    for name, (version, hashes) in pins.items():
        assert hashes and all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), name
    for text in project_requirements():
        req = Requirement(text)
        name = req.name.lower().replace("_", "-")
        if name in ("evdev", "spidev"):          # Debian's python3-evdev / python3-spidev (apt, system site)
            assert name not in pins
            continue
        assert name in pins, f"{name} is not in the lock file"
        assert req.specifier.contains(pins[name][0], prereleases=True), (name, pins[name][0], str(req.specifier))
    assert "pip-compile" in LOCK.read_text()     # the header says the command that makes it


def test_install_installs_the_lock_with_hashes_and_debian_device_libraries():
    script = INSTALL.read_text()
    assert 'install --require-hashes --no-binary pygame-ce -r "$SRC_DIR/$LOCK_FILE"' in script
    assert "LOCK_FILE=systemd/requirements-pi.txt" in script
    packages = script[script.index("readonly APT_PACKAGES=("):script.index(")", script.index("readonly APT_PACKAGES=("))]
    assert "python3-evdev" in packages and "python3-spidev" in packages
    assert "--system-site-packages" in script


# ----- a prefix the service user could write ------------------------------------------------------------------
def service_root(tmp_path: Path, *, uid: int = 998, audio_gid: int = 29) -> Path:
    """A fake root whose user hotstreak has ``uid`` and whose group audio (one of the service's) has ``audio_gid``."""
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/passwd").write_text(f"hotstreak:x:{uid}:998::/var/lib/hotstreak:/usr/sbin/nologin\n")
    (tmp_path / "etc/group").write_text(f"hotstreak:x:998:\naudio:x:{audio_gid}:hotstreak\n")
    (tmp_path / "srv").mkdir(mode=0o755)
    os.chmod(tmp_path / "srv", 0o755)
    return tmp_path


@pytest.mark.parametrize("prefix", ["/var/lib/hotstreak", "/var/lib/hotstreak/app", "/var/cache/hotstreak"])
def test_install_refuses_a_prefix_inside_the_service_users_folders(tmp_path, prefix):
    result = run_install("--dry-run", "--skip-apt", "--prefix", prefix, "--root", str(service_root(tmp_path)))
    assert result.returncode == 2 and result.stdout.count("would run") == 0
    assert result.stderr.startswith(f"install.sh: --prefix '{prefix}' is inside a folder of the service user "
                                    "hotstreak, which could then change what a later root run of this script "
                                    "executes")


def test_install_refuses_a_prefix_the_service_user_owns(tmp_path):
    root = service_root(tmp_path, uid=os.getuid())  # what this test makes is owned by "hotstreak"
    (root / "srv/hs").mkdir(mode=0o755)
    result = run_install("--dry-run", "--skip-apt", "--prefix", "/srv/hs", "--root", str(root))
    assert result.returncode == 2 and "would run" not in result.stdout
    assert "install.sh: --prefix '/srv/hs': /srv/hs is owned by the service user hotstreak" in result.stderr


def test_install_refuses_a_prefix_under_a_folder_a_service_group_can_write(tmp_path):
    root = service_root(tmp_path, audio_gid=os.getgid())  # what this test makes has the group "audio"
    (root / "srv/shared").mkdir()
    os.chmod(root / "srv/shared", 0o775)
    result = run_install("--dry-run", "--skip-apt", "--prefix", "/srv/shared/hs", "--root", str(root))
    assert result.returncode == 2
    assert ("install.sh: --prefix '/srv/shared/hs': /srv/shared is writable by group audio of the service user "
            "hotstreak") in result.stderr


@pytest.mark.parametrize("mode, refused", [(0o777, True),  # a whole dry run of the script when it is let through:
                                           pytest.param(0o1777, False, marks=pytest.mark.slow),  # 0.1-0.4 s quiet,
                                           pytest.param(0o755, False, marks=pytest.mark.slow)])  # 1.2 s when busy
def test_install_refuses_a_world_writable_folder_on_the_way_unless_sticky(tmp_path, mode, refused):
    root = service_root(tmp_path)
    (root / "srv/open").mkdir()
    os.chmod(root / "srv/open", mode)
    result = run_install("--dry-run", "--skip-apt", "--prefix", "/srv/open/hs", "--root", str(root))
    if refused:
        assert result.returncode == 2 and ("install.sh: --prefix '/srv/open/hs': /srv/open is writable by everyone "
                                           "(mode 777, no sticky bit)") in result.stderr
    else:
        assert result.returncode == 0, result.stderr
        assert f"-m venv --system-site-packages {root}/srv/open/hs/venv" in result.stdout


def test_install_refuses_a_prefix_through_a_symlink(tmp_path):
    root = service_root(tmp_path)
    (root / "srv/real").mkdir()
    (root / "srv/link").symlink_to(root / "srv/real")
    result = run_install("--dry-run", "--skip-apt", "--prefix", "/srv/link/hs", "--root", str(root))
    assert result.returncode == 2 and "/srv/link is a symlink" in result.stderr
