# shellcheck shell=bash
# Timed steps for the bench shell scripts (bench/pi_arm64.sh, bench/pi_boot.sh): sourced, not run.
#
#   step "what it does" some_function args...    runs it; on failure prints the step's name and ends the script
#   check "what it checks" some_function args...  runs it; on failure records it and goes on (a later `finish`
#                                                 exits 1 naming every failed check)
#   wait_until SECONDS "what" command args...     polls the command every WAIT_POLL s (default 2) until it
#                                                 succeeds; after SECONDS it says what it waited for and fails
#   finish                                        prints every step's time and the failed checks; ends the
#                                                 script: exit 1 when a check failed, else exit 0
#
# Each step runs in a subshell with `set -euo pipefail`: it stops at its first failing command, whatever its
# last command does. Bash ignores `set -e` inside anything run from an `if`, `while`, `&&` or `||` context,
# even a subshell that sets it again, so step and check are never called that way (`step ... || x` would turn
# every check inside the step off): they are plain commands and handle the result themselves. A step runs in
# a subshell, so it cannot set the script's variables; what must outlive it goes in files.

STEP_NAMES=()
STEP_TIMES=()
STEP_RESULTS=()
FAILED_CHECKS=()
STEP_RC=0
SUMMARY_AT_EXIT=${SUMMARY_AT_EXIT:-0}   # 1: the script's EXIT trap prints the summary (a failed step does not)
WAIT_POLL=${WAIT_POLL:-2}

_now_us() { printf '%s\n' "${EPOCHREALTIME/./}"; }

# Run "$@" in a subshell with errexit on, output indented; prints and records its time and sets STEP_RC to its
# exit status (it returns 0: a caller testing its result with || would switch errexit off inside it).
_run_step() {
    local name="$1" start rc errexit=0
    shift
    printf '\n== %s\n' "$name"
    start=$(_now_us)
    if [[ $- == *e* ]]; then errexit=1; fi
    set +e
    (
        set -euo pipefail
        "$@"
    ) 2>&1 | sed -u 's/^/   /'
    rc=${PIPESTATUS[0]}
    if ((errexit)); then set -e; fi
    STEP_NAMES+=("$name")
    STEP_TIMES+=("$(( ($(_now_us) - start) / 100000 ))")
    STEP_TIMES[-1]="$((STEP_TIMES[-1] / 10)).$((STEP_TIMES[-1] % 10))"
    STEP_RESULTS+=("$rc")
    STEP_RC=$rc
    printf '   -> %s s, exit %s\n' "${STEP_TIMES[-1]}" "$rc"
}

step() {
    _run_step "$@"
    if ((STEP_RC != 0)); then
        if ((!SUMMARY_AT_EXIT)); then summary; fi
        printf 'FAILED step: %s (exit %s); stopping here\n' "$1" "$STEP_RC" >&2
        exit 1
    fi
}

check() {
    _run_step "$@"
    if ((STEP_RC != 0)); then
        printf '   FAILED check: %s (exit %s)\n' "$1" "$STEP_RC"
        FAILED_CHECKS+=("$1")
    fi
}

# wait_until SECONDS "what it waits for" command args...: 0 once the command succeeds, 1 after SECONDS with
# one line naming what never happened (the command is tried at least once). The command itself is bounded by what is left (timeout), so a hung
# command cannot outlast the wait; it must be a program, not a shell function (use `bash -c` for those).
wait_until() {
    local limit="$1" what="$2" left deadline
    shift 2
    deadline=$(($(_now_us) + limit * 1000000))
    while :; do
        left=$(((deadline - $(_now_us) + 999999) / 1000000))
        if ((left < 1)); then left=1; fi
        if timeout --kill-after=5 "$left" "$@"; then return 0; fi
        if (($(_now_us) >= deadline)); then
            printf 'timed out after %s s waiting for %s\n' "$limit" "$what" >&2
            return 1
        fi
        sleep "$WAIT_POLL"
    done
}

summary() {
    local i
    printf '\n%-64s %10s %5s\n' "step" "seconds" "exit"
    for i in "${!STEP_NAMES[@]}"; do
        printf '%-64s %10s %5s\n' "${STEP_NAMES[$i]}" "${STEP_TIMES[$i]}" "${STEP_RESULTS[$i]}"
    done
}

finish() {
    summary
    if ((${#FAILED_CHECKS[@]})); then
        printf 'FAILED checks: %s\n' "${FAILED_CHECKS[@]}" >&2
        exit 1
    fi
    echo "all steps passed"
    exit 0
}
