"""The install script's boot config edits (``install.sh --boot-only`` on a fake boot folder): config.txt and
cmdline.txt changed once and restored by the uninstall, core_freq only on a Pi 3 or 4, a user's consoleblank
kept, each file replaced atomically with a backup."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from installkit import INSTALL, run_install


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
    assert "sed -i" not in script  # every boot file edit goes through the rename
    assert re.search(r'mv -f "\$tmp" "\$file"', script)
