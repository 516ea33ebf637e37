"""Files that are not files, and an installer prefix the service user could write: each attack against the real
commands, printed as refused or not with its figures (exit status, seconds to the refusal, the child's peak
memory, what was left behind, the one line it printed).

Paths given to ``hotstreak run`` (mock hardware, no screen, no sound, no phone page) as ``--config``,
``--track``, ``--deck`` and ``--db``: a symlink to /dev/zero, a FIFO nobody writes to, a folder, a 48 MB
file (sparse); and a journal folder this user cannot write (as root: the child runs as nobody). Then
``systemd/install.sh --dry-run --root TREE --prefix P`` with P inside the service user's state folder, owned by
it, under a folder a service group can write, under a world-writable folder without the sticky bit, and
through a symlink. A refusal must come in one line, with exit status 2, within ``--timeout`` seconds
(default 20: a FIFO that hangs shows as "HUNG"), leaving no journal or lock behind.

    python bench/attack_files.py [--timeout 20]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = [sys.executable, "-m", "companion", "run", "--hardware", "mock", "--display", "none", "--audio", "none",
       "--web", "off", "--quiet"]
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def make(folder: Path, kind: str) -> Path:
    path = folder / f"{kind}.toml"
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "48mb":
        with open(path, "wb") as f:
            f.truncate(48_000_000)
    return path


def attempt(argv: list[str], timeout: float, cwd: Path) -> tuple[str, float, float, str]:
    """(exit status or HUNG, seconds, the child's peak RSS in MB from /proc, its last stderr line)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("HOTSTREAK_HARDWARE", None)
    start = time.monotonic()
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, text=True,
                                env=env, cwd=cwd)
        peak = 0
        while proc.poll() is None and time.monotonic() - start < timeout:
            peak = max(peak, vm_hwm_kb(proc.pid))
            time.sleep(0.02)
        status = str(proc.poll()) if proc.poll() is not None else "HUNG"
        if status == "HUNG":
            proc.kill()
        proc.wait()
        seconds = time.monotonic() - start
        err.seek(0)
        lines = [line for line in err.read().splitlines() if line.strip()]
    return status, seconds, peak / 1024, (lines[-1] if lines else "")


def vm_hwm_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            return next((int(line.split()[1]) for line in f if line.startswith("VmHWM:")), 0)
    except OSError:
        return 0


def report(what: str, status: str, seconds: float, rss: float, left: list[str], line: str) -> bool:
    refused = status == "2" and not left
    print(f"{'refused' if refused else 'NOT REFUSED':12} {what:34} exit {status:4} {seconds:5.2f} s "
          f"peak {rss:5.0f} MB  left: {', '.join(left) or 'nothing'}")
    print(f"{'':12} {line[:160]}")
    return refused


def files(timeout: float) -> int:
    failures = 0
    for option in ("--config", "--track", "--deck", "--db"):
        for kind in ("dev-zero", "fifo", "folder", "48mb"):
            if option == "--db" and kind in ("folder", "48mb"):
                continue  # a folder as journal has its own test; a big journal is a real journal's size
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp)
                path = make(folder, kind)
                db = path if option == "--db" else folder / "journal.db"
                args = [*RUN, "--db", str(db)] + ([] if option == "--db" else [option, str(path)])
                status, seconds, rss, line = attempt(args, timeout, folder)
                left = sorted(p.name for p in folder.iterdir() if p != path)
                failures += not report(f"run {option} {kind}", status, seconds, rss, left, line)
    top = Path(tempfile.mkdtemp(prefix="hotstreak-ro-"))
    try:
        os.chmod(top, 0o755)
        folder = top / "read-only"
        folder.mkdir()
        os.chmod(folder, 0o555)
        as_user = NOBODY if os.geteuid() == 0 else []
        status, seconds, rss, line = attempt([*as_user, *RUN, "--db", str(folder / "journal.db")], timeout, ROOT)
        failures += not report("run --db in a read-only folder", status, seconds, rss,
                               sorted(p.name for p in folder.iterdir()), line)
    finally:
        os.chmod(top / "read-only", 0o755)
        shutil.rmtree(top)
    return failures


def installer(timeout: float) -> int:
    failures = 0
    cases = [("/var/lib/hotstreak", None), ("/srv/owned", "owned"), ("/srv/group/hs", "group"),
             ("/srv/open/hs", "open"), ("/srv/link/hs", "link")]
    for prefix, how in cases:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "etc").mkdir()
            uid = os.getuid() if how == "owned" else 998
            gid = os.getgid() if how == "group" else 29
            (root / "etc/passwd").write_text(f"hotstreak:x:{uid}:998::/var/lib/hotstreak:/usr/sbin/nologin\n")
            (root / "etc/group").write_text(f"hotstreak:x:998:\naudio:x:{gid}:hotstreak\n")
            (root / "srv").mkdir()
            os.chmod(root / "srv", 0o755)
            if how == "owned":
                (root / "srv/owned").mkdir()
            elif how == "group":
                (root / "srv/group").mkdir()
                os.chmod(root / "srv/group", 0o775)
            elif how == "open":
                (root / "srv/open").mkdir()
                os.chmod(root / "srv/open", 0o777)
            elif how == "link":
                (root / "srv/real").mkdir()
                (root / "srv/link").symlink_to(root / "srv/real")
            argv = ["bash", str(ROOT / "systemd/install.sh"), "--dry-run", "--skip-apt", "--root", str(root),
                    "--prefix", prefix]
            status, seconds, rss, line = attempt(argv, timeout, ROOT)
            failures += not report(f"install.sh --prefix {prefix} ({how or 'state folder'})", status, seconds,
                                   rss, [], line)
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds before an attempt counts as hung")
    args = parser.parse_args()
    failures = files(args.timeout) + installer(args.timeout)
    print(f"{failures} attack(s) not refused")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
