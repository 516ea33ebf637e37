"""bench/pi_boot_host.py, the boot test's assertions, fed a made-up finished session (no qemu): a session where
every check passed passes; a missing guest check, a missing final line, a blank or wrong-sized frame, two
identical errors from `status` and a journal unlike the x86 replay each fail it. The race's codes end race 1.
The host's session against a fake guest (sockets, monitor, phone page): every code arrives, in order."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import ROOT

HOST = ROOT / "bench/pi_boot_host.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pi_boot_host", HOST)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


host = load()
GAME = {"phase": "payouts", "race": 1, "placings": {"mum": 1, "gobbler": 2, "hurley": 3, "dangle": 4},
        "money": [20, 12, 17, 32]}
JOURNAL = [["scan", "HS-NEW"], ["scan", "HS-PLAYERS-4"]]


def ppm(path: Path, width: int, height: int, colours: int) -> None:
    pixels = bytearray()
    for i in range(width * height):
        c = (i // 7) % colours
        pixels += bytes((c * 13 % 256, c * 31 % 256, c * 71 % 256))
    path.write_bytes(f"P6\n{width} {height}\n255\n".encode() + bytes(pixels))


def session(out: Path, *, drop: str = "", status_after: str | None = None, last: str = "end",
            frame: tuple[int, int, int] = (80, 48, 16), journal: list[list[str]] | None = None) -> Path:
    """A finished session's files as pi_boot.sh leaves them (sizes scaled down: 80x48)."""
    out.mkdir(parents=True, exist_ok=True)
    lines = ["boot done"]
    lines += [f"PASS {name}: fine" for name in host.GUEST_CHECKS if name != drop]
    before = json.dumps(dict(GAME, join_url="http://10.0.2.15:8080/?join=abc"))
    lines += [f"json status-before {before}", f"json status-after {status_after or before}",
              f"json journal {json.dumps(journal if journal is not None else JOURNAL)}", last]
    (out / "console.log").write_text("".join(f"BOOTCHECK {line}\r\n" for line in lines))
    for name in ("frame-first.ppm", "frame-race.ppm"):
        ppm(out / name, *frame)
    (out / "view.json").write_text(json.dumps({"odds": {}, "odds_card": 0}))
    (out / "x86-status.json").write_text(json.dumps(dict(GAME, join_url=None)))
    (out / "x86-journal.json").write_text(json.dumps(JOURNAL))
    return out


def test_a_session_where_everything_passed_passes(tmp_path: Path) -> None:
    assert host.check(session(tmp_path), 80, 48) == []


@pytest.mark.parametrize("broken, expected", [
    (dict(drop="odds"), "guest check odds"),
    (dict(drop="uninstall"), "guest check uninstall"),
    (dict(last="journal: something"), "last line is 'end'"),
    (dict(frame=(80, 48, 1)), "1 colours"),
    (dict(frame=(64, 48, 16)), "64x48 (expected 80x48)"),
    (dict(status_after="cannot open the journal"), "not JSON"),
    (dict(status_after=json.dumps(dict(GAME, money=[0, 0, 0, 0]))), "money"),
    (dict(journal=JOURNAL[:1]), "journal's inputs on arm64 == x86"),
])
def test_each_broken_part_fails_the_session(tmp_path: Path, broken: dict[str, object], expected: str) -> None:
    failures = host.check(session(tmp_path, **broken), 80, 48)  # type: ignore[arg-type]
    assert any(expected in failure for failure in failures), failures


def test_two_identical_errors_from_status_are_not_the_same_game() -> None:
    with pytest.raises(ValueError, match="not JSON"):
        host.status_object("error: no journal", "status")
    with pytest.raises(ValueError, match="phase"):
        host.status_object('{"error": "no journal"}', "status")


def test_the_race_codes_run_from_a_new_game_to_the_end_of_race_1() -> None:
    codes = host.race_codes()
    assert codes[:2] == ["HS-NEW", "HS-PLAYERS-4"]
    assert "HS-T-MUM-1-S" in codes and codes.count("HS-GO") == 3  # setup done, betting done, race start
    assert not any(c.startswith("wait") or "#" in c for c in codes)


def test_the_cli_says_a_bad_command_in_one_line() -> None:
    done = subprocess.run([sys.executable, str(HOST), "frobnicate"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "'frobnicate'" in done.stderr


@pytest.mark.slow
def test_self_test_replays_the_race_on_x86(tmp_path: Path) -> None:
    # Were --self-test ever to fall through to a real boot, the guard (and the empty cache) stop it at once.
    env = dict(os.environ, HOTSTREAK_ARM64_CACHE=str(tmp_path / "no-cache"), HOTSTREAK_BENCH_SELF_TEST_ONLY="1")
    done = subprocess.run(["bash", str(ROOT / "bench/pi_boot.sh"), "--self-test"], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "55 codes replayed, phase payouts" in done.stdout


class FakeGuest:
    """What qemu and the guest look like to the host's session: a console log, the scanner's and the monitor's
    unix sockets, the forwarded phone page and the handshake port. It counts the scans that arrive."""

    def __init__(self, out: Path, codes: int):
        import http.server
        import socket
        import threading
        self.out, self.codes, self.scans = out, codes, b""
        self.scanner = socket.socket(socket.AF_UNIX)
        self.scanner.bind(str(out / "scanner.sock"))
        self.scanner.listen(1)
        self.monitor = socket.socket(socket.AF_UNIX)
        self.monitor.bind(str(out / "monitor.sock"))
        self.monitor.listen(4)
        self.handshake = socket.create_server(("127.0.0.1", 0))

        class View(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = json.dumps({"odds": {}, "odds_card": 12}).encode()
                self.send_response(200 if self.path == "/api/view" else 404)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass
        self.web = http.server.HTTPServer(("127.0.0.1", 0), View)
        threading.Thread(target=self.web.serve_forever, daemon=True).start()
        threading.Thread(target=self.serve_monitor, daemon=True).start()
        self.guest = threading.Thread(target=self.run, daemon=True)
        self.guest.start()

    def say(self, line: str) -> None:
        with open(self.out / "console.log", "a") as f:
            f.write(f"BOOTCHECK {line}\r\n")

    def serve_monitor(self) -> None:
        while True:
            conn, _ = self.monitor.accept()
            with conn:
                conn.sendall(b"QEMU 7.2 monitor - type 'help' for more information\r\n(qemu) ")
                command = conn.recv(4096).decode().split()
                if command[:1] == ["screendump"]:
                    ppm(Path(command[1]), 80, 48, 16)
                conn.sendall(b"(qemu) ")

    def run(self) -> None:
        self.say("PASS ready: active")
        conn, _ = self.scanner.accept()  # plugged in
        self.say("waiting for scans")
        while self.scans.count(b"\r\n") < self.codes:
            data = conn.recv(4096)
            if not data:
                return
            self.scans += data
        self.say("PASS race: all scans")  # the handshake port listens already, as in the guest
        go, _ = self.handshake.accept()
        with go:
            go.recv(16)
        self.say("end")

    def ports(self) -> tuple[int, int]:
        return self.handshake.getsockname()[1], self.web.server_address[1]


@pytest.mark.slow
def test_the_host_session_scans_the_race_fetches_the_page_and_takes_both_frames(tmp_path: Path) -> None:
    guest = FakeGuest(tmp_path, len(host.race_codes()))
    handshake, web = guest.ports()
    host.drive(tmp_path, 80, 48, tmp_path / "scanner.sock", tmp_path / "monitor.sock", handshake, web,
               os.getpid(), limit=20, pace=0)
    assert guest.scans.decode().split("\r\n")[:-1] == host.race_codes()  # every code, in order, CR LF each
    assert json.loads((tmp_path / "view.json").read_text())["odds_card"] == 12
    assert host.ppm_size_and_colours(tmp_path / "frame-first.ppm")[:2] == (80, 48)
    assert (tmp_path / "frame-race.ppm").exists()


def test_the_host_session_gives_up_when_the_guest_ends_early(tmp_path: Path) -> None:
    (tmp_path / "console.log").write_text("BOOTCHECK FAIL ready: not active\r\nBOOTCHECK end\r\n")
    with pytest.raises(RuntimeError, match="ended its checks before saying 'PASS ready'"):
        host.drive(tmp_path, 80, 48, tmp_path / "scanner.sock", tmp_path / "monitor.sock", 1, 1, os.getpid(),
                   limit=60, pace=0)
