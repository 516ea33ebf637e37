"""The bench scripts' step wrapper (bench/steps.sh): a step stops at its first failing command and ends the
script naming the step; a check records its failure and the script ends non-zero; a wait that never sees its
condition times out with one line. Also: shellcheck and `bash -n` on every bench shell script."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

STEPS = ROOT / "bench/steps.sh"
SCRIPTS = sorted((ROOT / "bench").glob("*.sh"))

FUNCTIONS = """
good() { echo "good ran"; }
broken() { echo "before the failure"; false; echo "after the failure"; }
broken_pipe() { false | cat; echo "after the broken pipe"; }
never() { wait_until 1 "the guest to say ready" sleep 30; echo "after the wait"; }
soon() { wait_until 5 "a file" test -e "$0"; echo "the file is there"; }
"""


def run_bench(body: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run a small script that sources bench/steps.sh (as the bench scripts do, under set -euo pipefail)."""
    script = tmp_path / "bench-test.sh"
    script.write_text(f"set -euo pipefail\nWAIT_POLL=0.2\nsource {STEPS}\n{FUNCTIONS}\n{body}\n")
    return subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=60)


def test_a_failing_command_mid_step_stops_the_step_and_the_script(tmp_path: Path) -> None:
    done = run_bench('step "first" good\nstep "copy the root" broken\nstep "never reached" good\n'
                     'echo "script went on"', tmp_path)
    assert done.returncode == 1
    assert "before the failure" in done.stdout
    assert "after the failure" not in done.stdout  # the step's own later commands did not run
    assert "FAILED step: copy the root (exit 1)" in done.stderr
    assert "never reached" not in done.stdout and "script went on" not in done.stdout
    assert "good ran" in done.stdout  # the step before it ran


def test_a_failure_inside_a_pipeline_fails_the_step(tmp_path: Path) -> None:
    done = run_bench('step "pipe" broken_pipe', tmp_path)
    assert done.returncode == 1
    assert "after the broken pipe" not in done.stdout
    assert "FAILED step: pipe" in done.stderr


def test_a_failed_check_lets_the_others_run_and_fails_the_script(tmp_path: Path) -> None:
    done = run_bench('check "doctor" broken\ncheck "demo" good\nfinish', tmp_path)
    assert done.returncode == 1
    assert "after the failure" not in done.stdout
    assert "good ran" in done.stdout  # the next check still ran
    assert "FAILED checks: doctor" in done.stderr
    assert "all steps passed" not in done.stdout


def test_passing_steps_end_the_script_with_0(tmp_path: Path) -> None:
    done = run_bench('step "first" good\ncheck "second" good\nfinish', tmp_path)
    assert done.returncode == 0, done.stderr
    assert "all steps passed" in done.stdout
    assert "FAILED" not in done.stdout + done.stderr


@pytest.mark.slow  # the wait's own limit is 1 s
def test_a_wait_that_never_sees_its_condition_times_out(tmp_path: Path) -> None:
    done = run_bench('step "boot the guest" never', tmp_path)
    assert done.returncode == 1
    assert "timed out after 1 s waiting for the guest to say ready" in done.stdout
    assert "after the wait" not in done.stdout
    assert "FAILED step: boot the guest" in done.stderr


def test_a_wait_whose_condition_holds_goes_on(tmp_path: Path) -> None:
    done = run_bench('step "wait" soon\nfinish', tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the file is there" in done.stdout


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_bench_script_parses(script: Path) -> None:
    done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow  # shellcheck follows every sourced file: over 1 s
@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_bench_scripts_are_shellcheck_clean() -> None:
    done = subprocess.run(["shellcheck", "-x", *map(str, SCRIPTS)], capture_output=True, text=True, timeout=60,
                          cwd=ROOT)
    assert done.returncode == 0, done.stdout


def test_pi_arm64_self_test_checks_the_boot_files_both_ways() -> None:
    # HOTSTREAK_BENCH_SELF_TEST_ONLY: were --self-test ever to fall through, the script stops before apt or a root.
    env = dict(os.environ, HOTSTREAK_BENCH_SELF_TEST_ONLY="1")
    done = subprocess.run(["bash", str(ROOT / "bench/pi_arm64.sh"), "--self-test"], capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok: /boot/firmware/config.txt and cmdline.txt are the originals again" in done.stdout
    assert "not restored: /boot/firmware/config.txt differs" in done.stdout  # the changed byte, caught
    assert "ok: the check catches a boot file left changed" in done.stdout


def test_pi_arm64_refuses_a_real_run_under_the_self_test_guard() -> None:
    env = dict(os.environ, HOTSTREAK_BENCH_SELF_TEST_ONLY="1")
    done = subprocess.run(["bash", str(ROOT / "bench/pi_arm64.sh")], capture_output=True, text=True, timeout=60,
                          env=env)
    assert done.returncode == 2
    assert "only --self-test runs" in done.stderr and "==" not in done.stdout
