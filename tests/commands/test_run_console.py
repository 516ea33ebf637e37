"""What `hotstreak run` says on a terminal: that it waits for codes, each refusal once, no ALSA noise; and
`run --track/--deck` overriding the config."""

from __future__ import annotations

import argparse
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.commands import run as run_cmd
from companion.kiosk.cnoise import quiet_c_stderr
from conftest import ROOT, hotstreak_in_process


def test_waiting_line_names_the_keyboard_or_the_scanner_port():
    assert "type one per line" in run_cmd.waiting_line("mock", None)
    assert "/dev/ttyACM0" in run_cmd.waiting_line("mock", "/dev/ttyACM0")
    assert "/dev/hotstreak-scanner" in run_cmd.waiting_line("pi", "/dev/hotstreak-scanner")


def test_quiet_c_stderr_drops_alsa_lines_and_keeps_the_rest_in_order(capfd):
    with quiet_c_stderr():
        os.write(2, b"ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n")
        os.write(2, b"WARNING hotstreak.audio: no audio\n")
        os.write(2, b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n")
        os.write(2, b"something else\n")
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "WARNING hotstreak.audio: no audio\nsomething else\nafter\n"


def test_run_track_and_deck_override_the_config(monkeypatch, tmp_path):
    seen = {}

    def fake_build(cfg, **kw):
        seen["cfg"] = cfg
        raise SystemExit(0)

    monkeypatch.setattr(run_cmd, "build", fake_build)
    monkeypatch.setattr(run_cmd, "rule_data", lambda cfg: None)  # the files named here need not exist
    (tmp_path / "c.toml").write_text('[paths]\ntrack = "/from/config.toml"\ndeck = "/from/config-deck.toml"\n')
    args = argparse.Namespace(config=str(tmp_path / "c.toml"), hardware="mock", scanner=None, db=":memory:",
                              display="none", audio="none", quiet=True, track="my-track.toml", deck=None)
    with pytest.raises(SystemExit):
        run_cmd.run(args)
    assert seen["cfg"].track == Path("my-track.toml")
    assert seen["cfg"].deck == Path("/from/config-deck.toml")  # not given: the config's stays


def test_run_with_a_missing_track_file_exits_2_naming_it(tmp_path):
    result = hotstreak_in_process("run", "--hardware", "mock", "--display", "none", "--audio", "none",
                                  "--db", str(tmp_path / "j.db"), "--track", str(tmp_path / "nope.toml"))
    assert result.returncode == 2
    assert "nope.toml" in result.stderr and result.stderr.count("\n") == 1


def _read_until(fd: int, wanted: str, deadline: float) -> str:
    seen = ""
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the terminal closed: the process ended
                break
            if not chunk:
                break
            seen += chunk.decode("utf-8", "replace")
    return seen


@pytest.mark.slow
def test_run_on_a_terminal_waits_for_codes_and_prints_a_refusal_once(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[audio]\nvoice = false\neffects = true\n")  # effects: the mixer is opened (ALSA probed)
    master, slave = os.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("HOTSTREAK_HARDWARE", None)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--hardware", "mock", "--config", str(config),
                             "--db", str(tmp_path / "journal.db"), "--display", "none", "--audio", "auto"],
                            stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, close_fds=True)
    os.close(slave)
    try:
        out = _read_until(master, "Waiting for codes", time.monotonic() + 30)
        os.write(master, b"HS-NEW\nBOGUS-CODE\nHS-PLAYERS-4\n")
        out += _read_until(master, "New game for 4 players", time.monotonic() + 30)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        finally:
            if proc.poll() is None:
                proc.kill()
        os.close(master)
    assert out.count("Waiting for codes: type one per line") == 1, out
    assert "New game for 4 players" in out, out
    # the refusal is printed once (the terminal also echoes the typed line once)
    assert out.count("Refused 'BOGUS-CODE'") == 1, out
    assert out.count("unknown code 'BOGUS-CODE'") == 1, out
    assert "ALSA lib" not in out, out
