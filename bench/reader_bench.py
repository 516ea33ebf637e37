"""Memory of the real kiosk (`hotstreak run`, mock hardware, keyboard on stdin) fed one 64 MB line: prints its
peak resident size (VmHWM) before and after the line, and whether the codes after it still came through.

Run: ``PYTHONPATH=. python bench/reader_bench.py [--mb 64]``. Goal: the peak grows by less than a few MB (the
keyboard reader holds at most hardware.lines.LINE_CAP + CHUNK bytes of a line).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def texts(db: Path) -> list[str]:
    if not db.exists():
        return []
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return [r[0] for r in con.execute("SELECT text FROM inputs ORDER BY id")]
    except sqlite3.OperationalError:
        return []


def wait_for(db: Path, want: list[str], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if texts(db) == want:
            return True
        time.sleep(0.05)
    return False


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=64, help="size of the line in MB (default: %(default)s)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db, config = Path(tmp) / "journal.db", Path(tmp) / "config.toml"
        config.write_text("[audio]\nvoice = false\neffects = false\n")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        env.pop("HOTSTREAK_HARDWARE", None)
        proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--hardware", "mock", "--config",
                                 str(config), "--db", str(db), "--display", "none", "--audio", "none", "--quiet"],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                                cwd=ROOT)
        try:
            proc.stdin.write(b"HS-NEW\n")
            proc.stdin.flush()
            if not wait_for(db, ["HS-NEW"], 60):
                print("the kiosk did not take HS-NEW", file=sys.stderr)
                return 1
            before = peak_kib(proc.pid)
            block = b"x" * (1 << 20)
            started = time.monotonic()
            for _ in range(args.mb):
                proc.stdin.write(block)
            proc.stdin.write(b"\nHS-PLAYERS-4\n")
            proc.stdin.flush()
            ok = wait_for(db, ["HS-NEW", "HS-PLAYERS-4"], 120)
            took = time.monotonic() - started
            after = peak_kib(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"peak RSS before the line: {before / 1024:.1f} MiB")
    print(f"peak RSS after a {args.mb} MB line: {after / 1024:.1f} MiB (+{(after - before) / 1024:.1f} MiB)")
    print(f"the next code came through: {'yes' if ok else 'NO'} ({took:.2f} s for the line and the code)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
