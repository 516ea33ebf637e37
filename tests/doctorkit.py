"""Fake system trees for the tests of ``hotstreak doctor`` (companion/tools/doctor.py): a Raspberry Pi where every
check passes (``make_pi``), to break one thing at a time, and the names of the checks that fail (``checks``)."""

from __future__ import annotations

from pathlib import Path

from companion.tools.doctor import run_checks

GROUP_NAMES = ["dialout", "gpio", "spi", "video", "render", "input", "audio"]


def write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def make_pi(root: Path) -> Path:
    """A fake Raspberry Pi tree where every check passes."""
    write(root / "proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.4\0")
    write(root / "dev/ttyACM0")
    (root / "dev/hotstreak-scanner").symlink_to("ttyACM0")
    write(root / "dev/spidev0.0")
    write(root / "dev/dri/card0")
    write(root / "dev/dri/card1")
    write(root / "sys/class/drm/card1-HDMI-A-1/status", "connected\n")
    write(root / "sys/class/drm/card1-HDMI-A-2/status", "disconnected\n")
    write(root / "boot/firmware/config.txt", "[all]\ndtparam=audio=on\ndtparam=spi=on\n")
    write(root / "proc/asound/cards", " 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n                      vc4-hdmi-0\n")
    write(root / "sys/module/kernel/parameters/consoleblank", "0\n")
    write(root / "etc/passwd", "root:x:0:0:root:/root:/bin/bash\n"
                               "hotstreak:x:998:998:Hot Streak:/var/lib/hotstreak:/usr/sbin/nologin\n")
    write(root / "etc/group", "root:x:0:\nhotstreak:x:998:\n"
          + "".join(f"{g}:x:{20 + i}:pi,hotstreak\n" for i, g in enumerate(GROUP_NAMES)))
    return root


def which_all(name: str) -> str:
    return f"/usr/bin/{name}"


def checks(root: Path, **kwargs) -> list[str]:
    """The names of the failing checks."""
    kwargs.setdefault("which", which_all)
    return [p.check for p in run_checks(root, **kwargs).problems]
