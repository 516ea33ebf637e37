"""The kiosk's systemd files: the unit (keys, hardening, systemd-analyze verify and security), the udev rule
(syntax, keys), and the pinned Pi dependencies (systemd/requirements-pi.txt) the install script installs."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from companion.tools import doctor
from conftest import ROOT
from installkit import INSTALL, rule_lines

UNIT = ROOT / "systemd/hotstreak.service"
RULE = ROOT / "systemd/99-hotstreak-scanner.rules"


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
