# shellcheck shell=bash
# Timed steps for the bench shell scripts (bench/pi_arm64.sh, bench/pi_boot.sh): sourced, not run.
#
#   step "what it does" some_function args...   runs it, indents its output, records and prints its time
#   summary                                      prints every step's time in a table

STEP_NAMES=()
STEP_TIMES=()

# Run a named step, timing it; its output is indented. It runs in this shell (not a pipeline's subshell),
# so a step may set variables, e.g. the mounts to undo.
step() {
    local name="$1" start end rc=0
    shift
    printf '\n== %s\n' "$name"
    start=$(date +%s.%N)
    "$@" > >(sed 's/^/   /') 2>&1 || rc=$?
    wait "$!" 2>/dev/null || true
    end=$(date +%s.%N)
    STEP_NAMES+=("$name")
    STEP_TIMES+=("$(printf '%.1f' "$(echo "$end - $start" | bc)")")
    printf '   -> %s s, exit %s\n' "${STEP_TIMES[-1]}" "$rc"
    return "$rc"
}

summary() {
    local i
    printf '\n%-58s %10s\n' "step" "seconds"
    for i in "${!STEP_NAMES[@]}"; do
        printf '%-58s %10s\n' "${STEP_NAMES[$i]}" "${STEP_TIMES[$i]}"
    done
}
