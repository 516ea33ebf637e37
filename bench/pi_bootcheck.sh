#!/bin/bash
# The guest's side of bench/pi_boot.sh, installed in the booted root as /usr/local/sbin/hotstreak-bootcheck and
# run once at boot by a oneshot unit (after hotstreak.service). Each check prints `BOOTCHECK PASS <name> ...`
# or `BOOTCHECK FAIL <name> ...` on the serial console; the host requires every PASS (bench/pi_boot_host.py
# GUEST_CHECKS) and the last line `BOOTCHECK end`. Whatever happens, the EXIT trap runs install.sh
# --uninstall under this real systemd, checks the boot files are the originals again, says "end" and powers
# off. Every wait is bounded.
set -uo pipefail

readonly UNIT=hotstreak.service
readonly DB=/var/lib/hotstreak/journal.db
readonly VENV=/opt/hotstreak/venv
readonly BENCH=/var/lib/hotstreak-bench
readonly CGROUP=/sys/fs/cgroup/system.slice/hotstreak.service/cgroup.procs
EXPECTED=$(grep -c . "$BENCH/race-codes.txt")
readonly EXPECTED

say() { printf 'BOOTCHECK %s\n' "$*" >/dev/console; }
pass() { say "PASS $*"; }
fail() { say "FAIL $*"; }
show() { systemctl show "$UNIT" -p "$1" --value; }
wait_for() {  # seconds, then a command that must succeed
    local until=$((SECONDS + $1)); shift
    until "$@"; do ((SECONDS < until)) || return 1; sleep 2; done
}
service_log() { journalctl -u "$UNIT" -o cat --no-pager; }
dump_log() { service_log | tail -n 40 | sed 's/^/BOOTCHECK journal: /' >/dev/console; }
stop_here() { fail "$@"; dump_log; exit 1; }

active() { [[ "$(show ActiveState)" == active && -n "$(show StatusText)" ]]; }
procs() { cat "$CGROUP" 2>/dev/null; }
# Some process of the service has a file matching the pattern open.
has_open() {
    local pid
    for pid in $(procs); do
        if find "/proc/$pid/fd" -maxdepth 1 -lname "$1" 2>/dev/null | grep -q .; then return 0; fi
    done
    return 1
}
odds_child() {
    local pid main
    main="$(show MainPID)"
    for pid in $(procs); do
        [[ "$pid" != "$main" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q spawn_main && return 0
    done
    return 1
}
inputs() {
    timeout 30 "$VENV/bin/python" -c 'import sqlite3, sys; print(sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True).execute("select count(*) from inputs").fetchone()[0])' "$DB" 2>/dev/null || echo 0
}
all_inputs() { [[ "$(inputs)" == "$EXPECTED" ]]; }
status_json() { timeout 60 "$VENV/bin/hotstreak" status --json --db "$DB" 2>&1 | tr -d '\n'; }
# The game of a status --json (its sinks' errors left out: the devices' health, checked on the host).
game_of() { python3 -c 'import json, sys; v = json.loads(sys.argv[1]); v.pop("sink_errors", None); print(json.dumps(v, sort_keys=True))' "$1" 2>/dev/null; }
is_status() { python3 -c 'import json, sys; v = json.loads(sys.argv[1]); sys.exit(0 if isinstance(v, dict) and "phase" in v else 1)' "$1" 2>/dev/null; }
connected() { service_log | grep -q "scanner connected"; }

# The end of every run: the uninstall under this systemd, the boot files checked, then "end" and power off.
finish() {
    local name ok=1 path
    trap - EXIT
    if timeout 300 /home/pi/hotstreak/systemd/install.sh --uninstall >/tmp/uninstall.log 2>&1; then
        for path in /opt/hotstreak /etc/systemd/system/hotstreak.service /etc/udev/rules.d/99-hotstreak-scanner.rules; do
            if [[ -e "$path" ]]; then ok=0; fail "uninstall left $path"; fi
        done
        for name in config.txt cmdline.txt; do
            if ! cmp -s "$BENCH/boot-original/$name" "/boot/firmware/$name"; then
                ok=0; fail "uninstall: /boot/firmware/$name is not the original again"
            fi
        done
        if ((ok)); then pass "uninstall: install.sh --uninstall under systemd; boot files are the originals again"; fi
    else
        fail "uninstall: install.sh --uninstall failed: $(tail -n 3 /tmp/uninstall.log | tr '\n' '|')"
    fi
    say "end"
    systemctl poweroff
}
trap finish EXIT

say "boot done; kernel $(uname -r) $(uname -m); $EXPECTED race codes to come"
wait_for 600 active || stop_here "ready: not active: $(show ActiveState)/$(show SubState) result=$(show Result)"
pass "ready: ActiveState=$(show ActiveState) Type=$(show Type) STATUS: $(show StatusText)"
first=$(show WatchdogTimestampMonotonic)

# The host plugs the scanner in once it reads "PASS ready".
wait_for 300 connected || stop_here "scanner-connected: the kiosk never opened /dev/hotstreak-scanner"
pass "scanner-connected: $(service_log | grep 'scanner connected' | tail -n 1)"
link="$(readlink -f /dev/hotstreak-scanner 2>&1)"
if [[ "$link" == /dev/ttyUSB* ]]; then pass "scanner-link: /dev/hotstreak-scanner -> $link"
else fail "scanner-link: /dev/hotstreak-scanner resolves to '$link' (expected /dev/ttyUSB*)"; fi

if wait_for 330 has_open '/dev/dri/card*' &&  # the screen's start_timeout is 300 s under qemu
    [[ "$(show StatusText)" != *"not working"* ]]; then
    pass "screen: the kiosk holds /dev/dri/card* (KMSDRM); STATUS: $(show StatusText)"
else
    fail "screen: no process of the service holds /dev/dri/card*; STATUS: $(show StatusText); /dev/dri: $(find /dev/dri -mindepth 1 -printf '%f ' 2>&1)"
    service_log | grep -iE 'display|kmsdrm|sdl|screen' | tail -n 5 | sed 's/^/BOOTCHECK screen log: /' >/dev/console
fi

say "waiting for scans"
wait_for 900 all_inputs || stop_here "race: $(inputs) of $EXPECTED scans in the journal"
# The handshake listener is up before the host is told: it fetches the phone page, then connects to it.
timeout 600 python3 -c 'import socket; s = socket.create_server(("0.0.0.0", 8099)); c, _ = s.accept(); c.recv(16)' &
listener=$!
sleep 1
pass "race: $EXPECTED scans in the journal, STATUS: $(show StatusText)"

cards="$(cat /proc/asound/cards 2>/dev/null || echo 'no /proc/asound')"
if grep -q USB-Audio <<<"$cards" && wait_for 120 has_open '/dev/snd/pcm*p'; then
    pass "sound: the kiosk holds a playback device of the USB sound card ($(grep -m1 USB-Audio <<<"$cards"))"
else
    fail "sound: no process of the service holds /dev/snd/pcm*p; cards: $(tr '\n' ' ' <<<"$cards")"
    service_log | grep -iE 'audio|sound|mixer|voice' | tail -n 5 | sed 's/^/BOOTCHECK sound log: /' >/dev/console
fi
if wait_for 120 odds_child; then pass "odds: the odds process runs in the service ($(procs | wc -l) processes)"
else fail "odds: no odds process in the service (processes: $(procs | tr '\n' ' '))"; fi

wait "$listener" || fail "the host never fetched the phone page (no handshake within 600 s)"
second=$(show WatchdogTimestampMonotonic)
if [[ "$first" =~ ^[0-9]+$ && "$second" =~ ^[0-9]+$ ]] && ((second > first)); then
    pass "watchdog: WatchdogUSec=$(show WatchdogUSec), last ping moved from $first to $second us"
else
    fail "watchdog: the last ping did not move ('$first' then '$second'; WatchdogUSec=$(show WatchdogUSec))"
fi

before="$(status_json)"
say "json status-before $before"
if is_status "$before"; then pass "status-json: status --json gives a game with a phase"
else fail "status-json: status --json gave no game: ${before:0:200}"; fi
timeout 120 systemctl restart "$UNIT" || fail "restart: systemctl restart failed or took over 120 s"
wait_for 600 active || stop_here "restart: not active after the restart"
after="$(status_json)"
say "json status-after $after"
if is_status "$after" && [[ "$(game_of "$before")" == "$(game_of "$after")" ]]; then
    pass "restart: status --json's game is the same after it"
else fail "restart: the game changed over the restart (or no game)"; fi
restarts="$(show NRestarts)"
if [[ "$restarts" == 0 ]]; then pass "nrestarts: NRestarts=0 (no watchdog or crash restart)"
else fail "nrestarts: NRestarts=$restarts"; fi
say "json journal $("$VENV/bin/python" -c 'import json, sqlite3, sys; print(json.dumps([list(r) for r in sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True).execute("select source, text from inputs order by id")]))' "$DB")"

refused="$(service_log | grep -E 'Permission denied|Operation not permitted|not working|Traceback' | head -n 5)"
if [[ -z "$refused" ]]; then pass "service-log: no EPERM, traceback or part not working in the service's log"
else fail "service-log: $(printf '%s' "$refused" | tr '\n' '|')"; fi
service_log | grep -E 'READY|scann|screen|audio|odds|web|phone' | tail -n 12 | sed 's/^/BOOTCHECK journal: /' >/dev/console
