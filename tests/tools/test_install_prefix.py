"""The install script refuses a --prefix the service user could write, which would let it change what a later
root run of the script executes: inside its folders, owned by it, under a folder one of its groups or everyone
can write (no sticky bit), or through a symlink."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from installkit import run_install


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
