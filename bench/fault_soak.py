"""Fault soak of the real kiosk process (`hotstreak run`, mock hardware, no screen or sound): prints figures.

1. kill -9 at random moments over whole 3-race games with betting (the sample game, played N times in a
   row): after every kill the journal must hold exactly the inputs fed so far, in order, each once, and at
   the end `hotstreak history` must show every game with the right money.
2. A flood of 5,000 distinct garbage lines at once: how long the main loop goes without a watchdog ping
   (WatchdogSec 0.2 s here, so a ping is due every 0.1 s) and how long the flood takes to drain.
3. A disk-full round trip on a small tmpfs (needs root to mount; skipped otherwise): an input while the
   disk is full is refused and not stored, the kiosk stays up and pinging and says "not saving" in its
   STATUS line; once there is room it saves again within the retry interval and play goes on.

    python bench/fault_soak.py [--games 3] [--kills 8] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.kiosk.controller import replay, status_dict  # noqa: E402
from companion.kiosk.journal import Entry  # noqa: E402
from companion.rules.table import Table  # noqa: E402
from companion.tools.demo import parse_script, script_path  # noqa: E402

QUIET = '[audio]\nvoice = false\neffects = false\n'


class Listener:
    """A NOTIFY_SOCKET that records (monotonic time, line) of everything the kiosk tells systemd."""

    def __init__(self, folder: Path):
        self.path = str(folder / "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.settimeout(0.05)
        self.lines: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(65536).decode("utf-8", "replace")
            except (TimeoutError, socket.timeout, OSError):
                continue
            now = time.monotonic()
            self.lines.extend((now, line) for line in data.splitlines())

    def env(self, watchdog: float) -> dict[str, str]:
        return {"NOTIFY_SOCKET": self.path, "WATCHDOG_USEC": str(int(watchdog * 1e6))}

    def pings(self, since: float, until: float) -> list[float]:
        return [t for t, line in list(self.lines) if line == "WATCHDOG=1" and since <= t <= until]

    def last_status(self) -> str:
        return next((line for _, line in reversed(list(self.lines)) if line.startswith("STATUS=")), "")

    def wait_for(self, prefix: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(line.startswith(prefix) for _, line in list(self.lines)):
                return True
            time.sleep(0.02)
        return False

    def close(self) -> None:
        self._stop.set()
        self._thread.join(1)
        self.sock.close()


def start(folder: Path, db: Path, env: dict[str, str] | None = None, voice: bool = False) -> subprocess.Popen:
    config = folder / "config.toml"
    config.write_text("" if voice else QUIET)
    full = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    full.pop("HOTSTREAK_HARDWARE", None)
    with open(folder / "kiosk.log", "ab") as log:  # a file, not a pipe nobody reads (it would fill and block)
        return subprocess.Popen([sys.executable, "-m", "companion", "run", "--hardware", "mock", "--config",
                                 str(config), "--db", str(db), "--display", "none", "--audio", "mock" if voice else "none",
                                 "--quiet"],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=log, env=full, cwd=ROOT)


def texts(db: Path) -> list[str]:
    """The inputs that count, oldest first (what the table replays)."""
    if not db.exists():
        return []
    try:
        with sqlite3.connect(db, timeout=5) as con:
            cols = {r[1] for r in con.execute("PRAGMA table_info(inputs)")}
            where = " WHERE undone_by IS NULL AND kind IS NOT 'undo'" if "undone_by" in cols else ""
            return [r[0] for r in con.execute(f"SELECT text FROM inputs{where} ORDER BY id")]
    except sqlite3.OperationalError:
        return []


def wait(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def sample_game() -> list[str]:
    table, lines = Table(), []
    for text, _ in parse_script(script_path().read_text()):
        try:
            table.apply(text, {"side_bet_order": list(range(12))} if text.startswith("HS-PLAYERS") else {})
        except Exception:  # noqa: BLE001 - the sample's deliberate mistakes
            continue
        lines.append(text)
    return lines


def stop(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()


# ----- 1. kill -9 -------------------------------------------------------------------------------------
def kill_soak(folder: Path, games: int, kills_per_game: int, rng: random.Random) -> dict:
    game = sample_game()
    lines = game * games
    db = folder / "journal.db"
    kills = problems = 0
    started = time.monotonic()
    while True:
        done = len(texts(db))
        if texts(db) != lines[:done]:
            problems += 1
            break
        if done == len(lines):
            break
        proc = start(folder, db)
        assert proc.stdin is not None
        proc.stdin.write(("\n".join(lines[done:]) + "\n").encode())
        proc.stdin.flush()
        if kills < games * kills_per_game:
            target = done + rng.randint(1, max(1, (len(lines) - done) // max(1, games * kills_per_game - kills)))
            wait(lambda: len(texts(db)) >= target or proc.poll() is not None, 30)
            proc.kill()
            proc.wait(5)
            kills += 1
        else:
            wait(lambda: len(texts(db)) == len(lines) or proc.poll() is not None, 60)
            stop(proc)
    took = time.monotonic() - started
    history = json.loads(subprocess.run([sys.executable, "-m", "companion", "history", "--json", "--db", str(db),
                                         "--config", str(folder / "config.toml"), "--limit", str(games)],
                                        capture_output=True, text=True, cwd=ROOT,
                                        env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout or "{}")
    entries = [Entry(i, 0.0, "scan", t, {"side_bet_order": list(range(12))} if t.startswith("HS-PLAYERS") else {})
               for i, t in enumerate(game)]
    money = status_dict(replay(entries))["money"]
    right = [g for g in history.get("games", []) if [s["money"] for s in g["seats"]] == money]
    return {"games": games, "inputs": len(lines), "kills": kills, "journal_mismatches": problems,
            "stored": len(texts(db)), "history_games": history.get("count", 0), "history_right_money": len(right),
            "seconds": round(took, 1)}


# ----- 2. garbage flood ---------------------------------------------------------------------------------
def flood(folder: Path, lines: int, rng: random.Random, voice: bool = False) -> dict:
    db = folder / "journal.db"
    listener = Listener(folder)
    proc = start(folder, db, listener.env(watchdog=0.2), voice=voice)
    try:
        if not listener.wait_for("READY=1", 30):
            return {"error": "no READY"}
        time.sleep(0.5)
        garbage = [f"{rng.getrandbits(64):016x}-garbage-{i}" for i in range(lines)] + ["HS-NEW"]
        assert proc.stdin is not None
        t0 = time.monotonic()
        proc.stdin.write(("\n".join(garbage) + "\n").encode())
        proc.stdin.flush()
        wait(lambda: "HS-NEW" in texts(db), 120)
        t1 = time.monotonic()
        time.sleep(0.3)
        pings = [t0, *listener.pings(t0, t1 + 0.3)]
        gaps = [b - a for a, b in zip(pings, pings[1:])]
        return {"lines": lines, "voice": voice, "drained_s": round(t1 - t0, 2), "pings": len(pings) - 1,
                "longest_ping_gap_s": round(max(gaps, default=float("nan")), 3),
                "stored": len(texts(db)), "alive": proc.poll() is None}
    finally:
        stop(proc)
        listener.close()


# ----- 3. disk full ----------------------------------------------------------------------------------------
def disk_full(folder: Path) -> dict:
    mnt = folder / "sd"
    mnt.mkdir()
    if not shutil.which("mount") or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)],
                                                   capture_output=True).returncode:
        return {"skipped": "cannot mount a tmpfs (run as root)"}
    db = mnt / "journal.db"
    listener = Listener(folder)
    proc = start(folder, db, listener.env(watchdog=0.2))
    try:
        listener.wait_for("READY=1", 30)
        first = ["HS-NEW", "HS-PLAYERS-4", "HS-GO", "HS-GO", "HS-GO"]
        assert proc.stdin is not None
        proc.stdin.write(("\n".join(first) + "\n").encode())
        proc.stdin.flush()
        wait(lambda: texts(db) == first, 20)
        filler = mnt / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(fd, b"\0" * 65536)
        except OSError:
            pass
        os.close(fd)
        t0 = time.monotonic()
        proc.stdin.write(b"HS15\n")
        proc.stdin.flush()
        said = wait(lambda: "not saving" in listener.last_status(), 10)
        time.sleep(1.0)
        refused = "HS15" not in texts(db)
        status_full = listener.last_status()
        filler.unlink()
        t1 = time.monotonic()
        recovered = wait(lambda: "not saving" not in listener.last_status(), 15)
        t2 = time.monotonic()
        proc.stdin.write(b"HS15\n")  # the Dealer scans the card again
        proc.stdin.flush()
        stored = wait(lambda: texts(db)[-1:] == ["HS15"], 10)
        pings = [t0, *listener.pings(t0, time.monotonic())]
        gaps = [b - a for a, b in zip(pings, pings[1:])]
        return {"refused_while_full": refused, "status_said_not_saving": said, "status_line": repr(status_full[7:]),
                "alive": proc.poll() is None, "saving_again_after_room_s": round(t2 - t1, 2) if recovered else None,
                "rescan_stored": stored, "longest_ping_gap_s": round(max(gaps, default=float("nan")), 3)}
    finally:
        stop(proc)
        listener.close()
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--kills", type=int, default=8, help="kill -9 per game (default: %(default)s)")
    p.add_argument("--flood", type=int, default=5000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--voice", type=int, default=0, metavar="N",
                   help="also a flood of N lines with the voice on (mock audio, real espeak-ng renders)")
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    for name, run in (("kill -9", lambda d: kill_soak(d, args.games, args.kills, rng)),
                      ("garbage flood", lambda d: flood(d, args.flood, rng)),
                      ("disk full", disk_full),
                      *((("garbage flood, voice on", lambda d: flood(d, args.voice, rng, voice=True)),)
                        if args.voice else ())):
        with tempfile.TemporaryDirectory() as tmp:
            result = run(Path(tmp))
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in result.items()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
