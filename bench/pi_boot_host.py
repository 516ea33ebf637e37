"""The host's side of bench/pi_boot.sh: the race's codes, the same race replayed on x86, the qemu session
(scanner socket, monitor screendumps, the phone page through the forwarded port) and the comparisons.

    python3 bench/pi_boot_host.py codes                      the race's codes, one a line
    python3 bench/pi_boot_host.py x86 OUT                    replay them on x86: OUT/x86-journal.json, x86-status.json
    python3 bench/pi_boot_host.py drive OUT W H ...          the qemu session (called by pi_boot.sh)
    python3 bench/pi_boot_host.py check OUT W H              every assertion on a finished session
    python3 bench/pi_boot_host.py self-test OUT              the comparisons fed good and broken input

Every wait is bounded; every check prints one line `ok: ...` or `FAIL: ...`; the exit status is 1 when any
check failed. Standard library only (it runs with the host's python3).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "companion/tools/data/demo-game.txt"
# What the guest must report as passed (BOOTCHECK PASS <name>); a missing one fails the run.
GUEST_CHECKS = ("ready", "scanner-link", "scanner-connected", "screen", "sound", "odds", "race", "watchdog",
                "status-json", "restart", "nrestarts", "service-log", "uninstall")
# status --json fields that differ by design between the table and the x86 replay: the phone page's join URL
# and each seat's consent code (the guest serves the phone page, the replay does not; the codes are random), and
# the sinks' errors (the devices' health, not the game: asserted empty on their own).
VOLATILE = ("join_url", "sink_errors")
VOLATILE_SEAT = ("code",)


def race_codes(script: Path = DEMO) -> list[str]:
    """The demo game's codes from the start to the end of race 1 (the line '# payouts'): new game, players,
    setup, side bet, tickets, GO and every card until the race ends. Raises ValueError when none is found."""
    codes: list[str] = []
    for line in script.read_text(encoding="utf-8").splitlines():
        if line.startswith("# payouts"):
            if not codes:
                break
            return codes
        text = line.split("#", 1)[0].strip()
        if text and not text.startswith("wait"):
            codes.append(text)
    raise ValueError(f"{script}: no '# payouts' line after the first race's codes (expected the demo game)")


def journal_inputs(db: Path) -> list[list[str]]:
    """Every input of a journal in order, as [source, text]."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [[str(s), str(t)] for s, t in con.execute("SELECT source, text FROM inputs ORDER BY id")]
    finally:
        con.close()


def status_object(text: str, where: str) -> dict[str, Any]:
    """`hotstreak status --json` output as an object with a "phase"; raises ValueError otherwise (so two
    identical error messages never count as the same game)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not JSON ({exc}): {text[:120]!r}") from None
    if not isinstance(value, dict) or "phase" not in value:
        raise ValueError(f"{where}: not a status object with a phase: {text[:120]!r}")
    return value


def same_game(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The top-level status fields that differ (VOLATILE and seats' VOLATILE_SEAT fields left out); [] when the
    games are the same."""
    a, b = _steady(a), _steady(b)
    keys = sorted((set(a) | set(b)) - set(VOLATILE))
    return [f"{k}: {json.dumps(a.get(k))[:200]} != {json.dumps(b.get(k))[:200]}" for k in keys if a.get(k) != b.get(k)]


def _steady(game: dict[str, Any]) -> dict[str, Any]:
    """The game without each seat's VOLATILE_SEAT fields."""
    seats = game.get("seats")
    if not isinstance(seats, list):
        return game
    return dict(game, seats=[{k: v for k, v in seat.items() if k not in VOLATILE_SEAT} if isinstance(seat, dict)
                             else seat for seat in seats])


def x86_replay(out: Path, codes: list[str], timeout: float = 120.0) -> None:
    """The same codes through `hotstreak run --hardware mock` on this machine (stdin as the scanner); writes
    out/x86-journal.json and out/x86-status.json. Raises RuntimeError when the journal does not get every code."""
    exe = os.environ.get("HOTSTREAK_X86") or str(ROOT / ".venv/bin/hotstreak")
    if not Path(exe).exists():
        exe = shutil.which("hotstreak") or exe
    db = out / "x86-journal.db"
    for old in out.glob("x86-journal.db*"):
        old.unlink()
    proc = subprocess.Popen([exe, "run", "--hardware", "mock", "--display", "none", "--audio", "none", "--web",
                             "off", "--quiet", "--db", str(db)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    assert proc.stdin is not None
    proc.stdin.write("".join(c + "\n" for c in codes).encode())
    proc.stdin.close()
    deadline = time.monotonic() + timeout
    count = 0
    try:
        while time.monotonic() < deadline:
            if db.exists():
                try:
                    count = len(journal_inputs(db))
                except sqlite3.Error:
                    count = 0
                if count == len(codes):
                    break
            if proc.poll() is not None:
                raise RuntimeError(f"the x86 kiosk ended early (exit {proc.returncode})")
            time.sleep(0.2)
        else:
            raise RuntimeError(f"the x86 journal holds {count} of {len(codes)} codes after {timeout:.0f} s")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    status = subprocess.run([exe, "status", "--json", "--db", str(db)], capture_output=True, text=True, timeout=60)
    game = status_object(status.stdout, "x86 status --json")
    (out / "x86-journal.json").write_text(json.dumps(journal_inputs(db)) + "\n")
    (out / "x86-status.json").write_text(json.dumps(game, sort_keys=True) + "\n")
    print(f"x86: {len(codes)} codes replayed, phase {game['phase']}, placings {game.get('placings')}")


def guest_lines(console: Path) -> list[str]:
    """The BOOTCHECK lines of a console log, without the prefix."""
    text = console.read_bytes().decode("utf-8", "replace") if console.exists() else ""
    return [line.split("BOOTCHECK ", 1)[1].rstrip("\r") for line in text.splitlines() if "BOOTCHECK " in line]


def said(console: Path, start: str) -> bool:
    return any(line.startswith(start) for line in guest_lines(console))


def wait_said(console: Path, start: str, deadline: float, qemu_pid: int) -> None:
    while not said(console, start):
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for the guest to say {start!r}")
        if start != "end" and said(console, "end"):
            raise RuntimeError(f"the guest ended its checks before saying {start!r}: see the console log")
        try:
            os.kill(qemu_pid, 0)
        except ProcessLookupError:
            raise RuntimeError(f"qemu ended before the guest said {start!r}") from None
        time.sleep(0.5)


def monitor(sock: Path, command: str) -> str:
    """One command to qemu's human monitor (a unix socket); returns what it answered."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(30)
        s.connect(str(sock))
        s.recv(4096)  # the banner and prompt
        s.sendall(command.encode() + b"\n")
        time.sleep(0.5)
        return s.recv(65536).decode("utf-8", "replace")


def screendump(sock: Path, ppm: Path, timeout: float = 60) -> None:
    if ppm.exists():
        ppm.unlink()
    monitor(sock, f"screendump {ppm}")
    deadline = time.monotonic() + timeout
    while not (ppm.exists() and ppm.stat().st_size > 0):
        if time.monotonic() > deadline:
            raise TimeoutError(f"qemu wrote no screendump to {ppm}")
        time.sleep(0.5)
    time.sleep(0.5)  # written in one go by qemu; let it finish


def drive(out: Path, width: int, height: int, scanner: Path, monitor_sock: Path, handshake_port: int, web_port: int,
          qemu_pid: int, limit: float, pace: float = 1.5) -> None:
    """The session with a booted guest: plug the scanner in, take the first frame (once the guest has checked the
    screen), scan the race, fetch the
    phone page from the host, take the frame after the race, tell the guest to go on. Raises on any failure."""
    console = out / "console.log"
    deadline = time.monotonic() + limit
    codes = race_codes()
    wait_said(console, "PASS ready", deadline, qemu_pid)
    scan = socket.socket(socket.AF_UNIX)
    scan.connect(str(scanner))  # QEMU's usb-serial is plugged into the guest while a client holds the socket
    print("the service is READY: scanner plugged in", flush=True)
    wait_said(console, "waiting for scans", deadline, qemu_pid)  # after the guest's screen check
    screendump(monitor_sock, out / "frame-first.ppm")
    print(f"first frame at {width}x{height}", flush=True)
    for code in codes:
        scan.sendall(code.encode() + b"\r\n")
        time.sleep(pace)  # past the scanner's repeat window (1.5 s), at a table pace
    print(f"sent {len(codes)} scans", flush=True)
    wait_said(console, "PASS race", deadline, qemu_pid)
    url = f"http://127.0.0.1:{web_port}/api/view"
    with urllib.request.urlopen(url, timeout=30) as answer:
        body = answer.read()
    (out / "view.json").write_bytes(body)
    print(f"phone page: {url} answered {len(body)} bytes", flush=True)
    screendump(monitor_sock, out / "frame-race.ppm")
    with socket.create_connection(("127.0.0.1", handshake_port), timeout=30) as go:
        go.sendall(b"go\n")  # the guest goes on to the restart
    wait_said(console, "end", deadline, qemu_pid)
    scan.close()


def ppm_size_and_colours(ppm: Path) -> tuple[int, int, int]:
    """(width, height, distinct colours) of a binary PPM (P6, maxval 255) as qemu's screendump writes it."""
    data = ppm.read_bytes()
    fields: list[bytes] = []
    pos = 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6":
        raise ValueError(f"{ppm}: not a binary PPM")
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + width * height * 3]
    colours = {pixels[i:i + 3] for i in range(0, len(pixels), 3 * 7)}  # every 7th pixel is plenty
    return width, height, len(colours)


def check(out: Path, width: int, height: int) -> list[str]:
    """Every assertion on a finished session's files; returns the failures (each also printed)."""
    failures: list[str] = []

    def verdict(ok: bool, text: str) -> None:
        print(f"{'ok' if ok else 'FAIL'}: {text}")
        if not ok:
            failures.append(text)

    lines = guest_lines(out / "console.log")
    passed = {line.split()[1].rstrip(":") for line in lines if line.startswith("PASS ") and len(line.split()) > 1}
    for name in GUEST_CHECKS:
        verdict(name in passed, f"guest check {name}")
    for line in lines:
        if line.startswith("FAIL"):
            verdict(False, f"guest: {line}")
    verdict(bool(lines) and lines[-1] == "end", "the guest's last line is 'end'")
    for frame in ("frame-first.ppm", "frame-race.ppm"):
        ppm = out / frame
        if not ppm.exists():
            verdict(False, f"{frame}: no screendump")
            continue
        w, h, colours = ppm_size_and_colours(ppm)
        verdict((w, h) == (width, height), f"{frame}: {w}x{h} (expected {width}x{height})")
        verdict(colours >= 8, f"{frame}: {colours} colours (a drawn screen, not a blank console)")
        if shutil.which("convert"):
            subprocess.run(["convert", str(ppm), str(ppm.with_suffix(".png"))], check=False, timeout=60)
    try:
        view = json.loads((out / "view.json").read_bytes())
        verdict(isinstance(view, dict) and "odds" in view and "odds_card" in view,
                "the phone page's /api/view (from the host) carries odds and odds_card")
    except (OSError, json.JSONDecodeError) as exc:
        verdict(False, f"the phone page's /api/view: {exc}")
    payload = {line.split()[1]: line.split(None, 2)[2] for line in lines
               if line.startswith("json ") and len(line.split(None, 2)) == 3}
    try:
        before = status_object(payload.get("status-before", ""), "guest status before the restart")
        after = status_object(payload.get("status-after", ""), "guest status after the restart")
        differ = same_game(before, after)
        verdict(not differ, "the restart lost nothing (status --json before == after)" + "; ".join(differ))
        for when, game in (("before", before), ("after", after)):
            errors = game.get("sink_errors")
            verdict(not errors, f"no sink failed {when} the restart (status --json sink_errors: "
                                f"{json.dumps(errors)[:300]})")
        x86 = status_object((out / "x86-status.json").read_text(), "x86 status")
        differ = same_game(after, x86)
        verdict(not differ, f"status --json on arm64 == x86 (phase {after['phase']})" + "; ".join(differ))
    except (ValueError, OSError) as exc:
        verdict(False, str(exc))
    try:
        journal = json.loads(payload.get("journal", "null"))
        x86_journal = json.loads((out / "x86-journal.json").read_text())
        verdict(journal == x86_journal and bool(journal),
                f"the journal's inputs on arm64 == x86 ({len(journal or [])} and {len(x86_journal)})")
    except (ValueError, OSError) as exc:
        verdict(False, f"the journals: {exc}")
    return failures


def self_test(out: Path) -> int:
    """The comparisons fed good and broken input (no qemu): each must tell them apart."""
    bad = 0

    def expect(ok: bool, text: str) -> None:
        nonlocal bad
        print(f"{'ok' if ok else 'FAIL'}: {text}")
        bad += not ok
    codes = race_codes()
    expect(codes[0] == "HS-NEW" and len(codes) > 40, f"the race: {len(codes)} codes from {codes[0]}")
    error = "cannot open /var/lib/hotstreak/journal.db: no such file"
    try:
        status_object(error, "status")
        expect(False, "an error from status is refused")
    except ValueError:
        expect(True, "two identical errors from status are not a game (refused as not JSON)")
    x86_replay(out, codes)
    game = status_object((out / "x86-status.json").read_text(), "x86")
    expect(game["phase"] == "payouts" and bool(game.get("placings")), f"the race ends in payouts: {game.get('placings')}")
    expect(same_game(game, dict(game, join_url="http://x/?join=1")) == [], "the join URL is left out")
    expect(same_game(game, dict(game, money=[0])) != [], "a changed field is caught")
    seats = [dict(seat, code="K7") for seat in game["seats"]]
    expect(same_game(game, dict(game, seats=seats)) == [], "the seats' consent codes are left out")
    seats[0]["money"] = -1
    expect(same_game(game, dict(game, seats=seats)) != [], "a seat's money changed is caught")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    what, args = argv[0], argv[1:]
    try:
        if what == "codes":
            print("\n".join(race_codes()))
        elif what == "x86":
            x86_replay(Path(args[0]), race_codes())
        elif what == "drive":
            out, w, h, scanner, mon, hs, web, pid, limit = args
            drive(Path(out), int(w), int(h), Path(scanner), Path(mon), int(hs), int(web), int(pid), float(limit))
        elif what == "check":
            return 1 if check(Path(args[0]), int(args[1]), int(args[2])) else 0
        elif what == "self-test":
            return self_test(Path(args[0]))
        else:
            print(f"pi_boot_host.py: unknown command {what!r} (expected codes, x86, drive, check or self-test)",
                  file=sys.stderr)
            return 2
    except (OSError, ValueError, RuntimeError, TimeoutError) as exc:
        print(f"FAIL: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
