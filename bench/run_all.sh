#!/usr/bin/env bash
# Re-run every figure of docs/bench.md's "Every figure" table that needs no window, no root and no Pi: each
# command is printed, then what it prints. Run from anywhere; it works at the top of the checkout with the
# venv's python (PYTHON=... to use another). Some commands run for minutes (the odds spread, the soak, the
# attack); --only WORD runs just the commands containing WORD (e.g. --only engine).
#
#   bench/run_all.sh [--only WORD]
#
# Left out: the demo at table pace (a window, 4 minutes), the full-disk part of bench/fault_soak.py and the
# 1 GiB cgroup of bench/attack.py (root), and everything measured on a Pi.
set -u
cd "$(dirname "$0")/.." || exit 1
PYTHON=${PYTHON:-.venv/bin/python}
export PYTHONPATH=.
only=""
if [ "${1:-}" = "--only" ]; then
    only=${2:?--only needs a word}
fi

COMMANDS=(
    "$PYTHON -m pytest --collect-only -q -p no:cacheprovider | tail -1"
    "PYTHON=$PYTHON bench/quick_loop.sh"
    "time $PYTHON -m companion demo --headless > /dev/null"
    "$PYTHON bench/engine_bench.py"
    "$PYTHON bench/odds_bench.py"
    "$PYTHON bench/odds_spread.py"
    "$PYTHON bench/scan_bench.py --matrix"
    "$PYTHON bench/scan_bench.py --scans 100 --interval 0.5 --screen --odds --busy 2"
    "$PYTHON bench/av_bench.py"
    "$PYTHON bench/screen_idle.py"
    "$PYTHON bench/odds_latency.py"
    "$PYTHON bench/odds_latency.py --skip-cpu"
    "$PYTHON bench/odds_latency.py --skip-cpu --busy 2"
    "$PYTHON bench/voice_pace.py"
    "$PYTHON bench/labels_scan.py"
    "$PYTHON bench/journal_bench.py"
    "$PYTHON bench/fault_soak.py"
    "$PYTHON bench/web_bench.py"
    "$PYTHON bench/attack.py --seats"
    "$PYTHON bench/reader_bench.py"
    "$PYTHON -m pytest -q -s -p no:cacheprovider tests/voice/test_voice.py -k sigterm"
    "$PYTHON -m pytest -q -s -p no:cacheprovider tests/lights/test_colours.py -k closest"
    "systemd-analyze security --offline=true systemd/hotstreak.service | tail -1"
)

failed=()
for command in "${COMMANDS[@]}"; do
    case "$command" in *"$only"*) ;; *) continue ;; esac
    printf '\n$ %s\n' "$command"
    bash -c "$command" || failed+=("$command")
done
if [ "${#failed[@]}" -gt 0 ]; then
    printf '\nfailed:\n'
    printf '  %s\n' "${failed[@]}"
    exit 1
fi
