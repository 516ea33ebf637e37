#!/usr/bin/env bash
# The quick loop's time, as its goal reads it: `pytest -m "not slow"` with two busy loops beside it (each a
# shell spinning on a core, started here and stopped by PID however this script ends), then once more quiet.
# Prints the wall time, the CPU time of pytest and its workers, and pytest's own last line for each run, and
# before each run the host's speed: the CPU seconds of a fixed Python loop (3 million steps; 0.25-0.51 s here, as
# the shared host's speed drifts, and the quick loop's time drifts with it).
#
#   bench/quick_loop.sh [--busy N] [--runs K] [--cold]
#     N busy loops (default 2), K runs of each kind (default 1); --cold: each busy run starts as on a fresh clone,
#     with the checkout's compiled files (__pycache__) and Hypothesis's cache (.hypothesis) removed first
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-.venv/bin/python}
BUSY=2
RUNS=1
COLD=0
while (($#)); do
    case "$1" in
        --busy) BUSY=${2:?--busy needs a number}; shift ;;
        --runs) RUNS=${2:?--runs needs a number}; shift ;;
        --cold) COLD=1; shift; continue ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "quick_loop.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
    shift
done

LOOPS=()
stop_loops() {
    if ((${#LOOPS[@]})); then kill "${LOOPS[@]}" 2>/dev/null || true; wait "${LOOPS[@]}" 2>/dev/null || true; fi
    LOOPS=()
}

CPU_FILE=$(mktemp)
OUT_FILE=$(mktemp)
trap 'stop_loops; rm -f "$CPU_FILE" "$OUT_FILE"' EXIT

host_speed() {  # the CPU seconds of a fixed loop, alone on a core: how quick the host is just now
    "$PYTHON" -c 'import time
t = time.process_time()
s = 0
for i in range(3_000_000):
    s += i * i % 7
print(f"{time.process_time() - t:.2f}")'
}

one_run() {  # label host-speed
    local last start end
    start=$EPOCHREALTIME
    /usr/bin/env time -o "$CPU_FILE" -f 'CPU %U s user + %S s sys' "$PYTHON" -m pytest -m 'not slow' -q \
        -p no:cacheprovider >"$OUT_FILE" 2>&1 || true  # a failed run is reported, not fatal
    end=$EPOCHREALTIME
    last=$(tail -n 1 "$OUT_FILE")
    awk -v l="$1" -v s="$start" -v e="$end" -v c="$(cat "$CPU_FILE")" -v o="$last" -v h="$2" \
        'BEGIN { printf "%-22s %5.1f s wall (host loop %s s), %s: %s\n", l, e - s, h, c, o }'
    grep -E '^(FAILED|ERROR) ' "$OUT_FILE" | sed 's/^/    /' || true  # which tests, when some failed
}

"$PYTHON" -m pytest --collect-only -q -p no:cacheprovider >/dev/null  # warm: compiled modules kept
for ((run = 1; run <= RUNS; run++)); do
    if ((COLD)); then
        find companion hardware tests bench -name __pycache__ -type d -prune -exec rm -rf {} +
        rm -rf .hypothesis
    fi
    speed=$(host_speed)  # measured before the busy loops start
    for ((i = 0; i < BUSY; i++)); do
        bash -c 'while :; do :; done' &
        LOOPS+=("$!")
    done
    one_run "$BUSY busy loops (run $run)$( ((COLD)) && echo ', cold')" "$speed"
    stop_loops
    one_run "quiet (run $run)" "$(host_speed)"
done
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
