"""bench/pi_boot_host.py, the boot test's assertions, fed a made-up finished session (no qemu): a session where
every check passed passes; a missing guest check, a missing final line, a blank or wrong-sized frame, two
identical errors from `status` and a journal unlike the x86 replay each fail it. The race's codes end race 1."""

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
    # An empty cache: were --self-test ever to fall through to a real boot, it stops at "no installed root".
    env = dict(os.environ, HOTSTREAK_ARM64_CACHE=str(tmp_path / "no-cache"))
    done = subprocess.run(["bash", str(ROOT / "bench/pi_boot.sh"), "--self-test"], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "55 codes replayed, phase payouts" in done.stdout
