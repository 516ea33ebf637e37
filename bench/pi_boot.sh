#!/usr/bin/env bash
# shellcheck disable=SC2317  # the steps are functions called through step()
# Boot the arm64 root that bench/pi_arm64.sh --keep installed, in qemu-system-aarch64 (machine virt,
# cortex-a72, no KVM), and check the hardened hotstreak.service under systemd on mock hardware: READY and
# STATUS (systemctl show), watchdog pings, scans fed through a virtual USB serial port (QEMU's usb-serial, an
# FTDI 0403:6001 that the udev rule links to /dev/hotstreak-scanner), then a restart with the game unchanged.
# A oneshot unit in the guest runs the checks and prints BOOTCHECK lines on the serial console.
#
#   sudo bench/pi_arm64.sh --keep && sudo bench/pi_boot.sh
#   sudo bench/pi_boot.sh --scans 20      how many codes of the demo game to scan (default 12)
#
# What only a real Pi shows: GPIO buttons, the SPI LED strip, the KMS/DRM screen, sound, a real scanner.
set -euo pipefail

CACHE=${HOTSTREAK_ARM64_CACHE:-/var/tmp/hotstreak-arm64}
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly SRC_DIR
SCANS=12
BOOT_TIMEOUT=${HOTSTREAK_BOOT_TIMEOUT:-1500}
QEMU_PID=""

die() { printf 'pi_boot.sh: %s\n' "$*" >&2; exit 2; }

while (($#)); do
    case "$1" in
        --scans)
            if (($# < 2)) || [[ ! "$2" =~ ^[0-9]+$ ]]; then die "--scans needs a number"; fi
            SCANS="$2"; shift ;;
        --cache) (($# >= 2)) || die "--cache needs a directory"; CACHE="$2"; shift ;;
        -h|--help) sed -n '3,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (try --help)" ;;
    esac
    shift
done
((EUID == 0)) || die "run as root"
ROOT="$CACHE/root"
IMG="$CACHE/boot.img"
LOG="$CACHE/console.log"
SOCK="$CACHE/scanner.sock"
[[ -x "$ROOT/opt/hotstreak/venv/bin/hotstreak" ]] || die "no installed root at $ROOT: run bench/pi_arm64.sh --keep first"

# shellcheck source=SCRIPTDIR/steps.sh
source "$SRC_DIR/bench/steps.sh"

cleanup() {
    if [[ -n "$QEMU_PID" ]] && kill -0 "$QEMU_PID" 2>/dev/null; then kill "$QEMU_PID"; fi
    rm -f "$SOCK"
}
trap cleanup EXIT

tools() {
    local missing=()
    command -v qemu-system-aarch64 >/dev/null || missing+=(qemu-system-arm)
    command -v mkfs.ext4 >/dev/null || missing+=(e2fsprogs)
    command -v bc >/dev/null || missing+=(bc)
    if ((${#missing[@]})); then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
    qemu-system-aarch64 --version | head -n1
}

# The guest's side: mock hardware reading the USB serial scanner, and the oneshot check.
prepare_guest() {
    printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$ROOT/etc/fstab"
    printf 'hotstreak-qemu\n' >"$ROOT/etc/hostname"
    mkdir -p "$ROOT/etc/hotstreak"
    printf '[audio]\nvoice = false\neffects = false\n' >"$ROOT/etc/hotstreak/config.toml"
    printf '%s\n' "HOTSTREAK_ARGS=--hardware mock --display none --audio none --web off --scanner /dev/hotstreak-scanner" \
        "HOTSTREAK_CONFIG=/etc/hotstreak/config.toml" >"$ROOT/etc/default/hotstreak"
    install -m 0755 /dev/stdin "$ROOT/usr/local/sbin/hotstreak-bootcheck" <<'CHECK'
#!/bin/bash
# Runs once at boot: reports hotstreak.service on the console, then powers off.
say() { printf 'BOOTCHECK %s\n' "$*" >/dev/console; }
show() { systemctl show hotstreak.service -p "$1" --value; }
status() { /opt/hotstreak/venv/bin/hotstreak status --db /var/lib/hotstreak/journal.db 2>&1 | tr '\n' '|'; }
wait_for() {  # seconds, then a command that must succeed
    local until=$((SECONDS + $1)); shift
    until "$@"; do ((SECONDS < until)) || return 1; sleep 2; done
}
active() { [[ "$(show ActiveState)" == active && -n "$(show StatusText)" ]]; }
say "boot done in ${SECONDS}s after the check started; kernel $(uname -r) $(uname -m)"
if wait_for 600 active; then
    say "ready: ActiveState=$(show ActiveState) SubState=$(show SubState) Type=$(show Type)"
    say "status: $(show StatusText)"
else
    say "FAIL: not active: $(show ActiveState)/$(show SubState) result=$(show Result)"
    journalctl -u hotstreak.service --no-pager -n 40 | sed 's/^/BOOTCHECK journal: /' >/dev/console
fi
say "scanner link: $(readlink -f /dev/hotstreak-scanner 2>&1)"
say "watchdog: WatchdogUSec=$(show WatchdogUSec)"
first=$(show WatchdogTimestampMonotonic)
# The kiosk retries a missing port with a backoff: scans sent before it holds the port are lost on the wire,
# as with a real scanner unplugged. Wait until it says it holds the port.
connected() { journalctl -u hotstreak.service -o cat --no-pager | grep -q "scanner connected"; }
if wait_for 600 connected; then say "scanner: $(journalctl -u hotstreak.service -o cat --no-pager | grep 'scanner connected' | tail -n 1)"
else say "FAIL: the kiosk never opened the scanner port"; fi
say "waiting for scans"
inputs() {
    /opt/hotstreak/venv/bin/python -c 'import sqlite3; print(sqlite3.connect("file:/var/lib/hotstreak/journal.db?mode=ro", uri=True).execute("select count(*) from inputs").fetchone()[0])' 2>/dev/null || echo 0
}
some_input() { (($(inputs) > 0)); }
wait_for 900 some_input || say "FAIL: no scan reached the journal"
last=-1
until [[ "$(inputs)" == "$last" ]]; do last="$(inputs)"; sleep 15; done   # the scans have stopped coming
say "scans in the journal: $last"
second=$(show WatchdogTimestampMonotonic)
say "watchdog pings: last ping at ${first} us, then ${second} us (monotonic)"
before="$(status)"
say "game before restart: $before"
systemctl restart hotstreak.service
wait_for 600 active || say "FAIL: not active after the restart"
after="$(status)"
say "game after restart:  $after"
if [[ "$before" == "$after" ]]; then say "restart: nothing lost"; else say "FAIL: the game changed over the restart"; fi
say "NRestarts=$(show NRestarts) (the watchdog or a crash would restart it)"
journalctl -u hotstreak.service --no-pager -o cat | grep -E 'READY|scann|refus|HS' | tail -n 8 \
    | sed 's/^/BOOTCHECK journal: /' >/dev/console
say "end"
systemctl poweroff
CHECK
    cat >"$ROOT/etc/systemd/system/hotstreak-bootcheck.service" <<'UNIT'
[Unit]
Description=bench/pi_boot.sh checks of hotstreak.service
After=hotstreak.service
[Service]
Type=oneshot
ExecStart=/usr/local/sbin/hotstreak-bootcheck
[Install]
WantedBy=multi-user.target
UNIT
    chroot "$ROOT" systemctl enable hotstreak-bootcheck.service 2>&1 | tail -n 1
    chroot "$ROOT" passwd -d root >/dev/null
    echo "guest: mock hardware, scanner /dev/hotstreak-scanner, bootcheck enabled"
}

# Debian's arm64 kernel, with a small initramfs (MODULES=list: virtio disk and ext4), made under qemu-user.
kernel() {
    local version
    mkdir -p "$ROOT/etc/initramfs-tools/conf.d"
    printf 'MODULES=list\n' >"$ROOT/etc/initramfs-tools/conf.d/hotstreak-qemu"
    grep -qx virtio_blk "$ROOT/etc/initramfs-tools/modules" 2>/dev/null \
        || printf '%s\n' virtio_blk virtio_pci virtio_mmio ext4 >>"$ROOT/etc/initramfs-tools/modules"
    if ! compgen -G "$ROOT/boot/vmlinuz-*" >/dev/null; then
        mount -t proc proc "$ROOT/proc"
        DEBIAN_FRONTEND=noninteractive chroot "$ROOT" apt-get install -y -q --no-install-recommends \
            linux-image-arm64 initramfs-tools || { umount "$ROOT/proc"; return 1; }
        umount "$ROOT/proc"
    fi
    version="$(find "$ROOT/boot" -name 'vmlinuz-*' | sort | tail -n1)"
    version="${version##*/vmlinuz-}"
    if [[ ! -s "$ROOT/boot/initrd.img-$version" ]]; then
        chroot "$ROOT" update-initramfs -c -k "$version"
    fi
    ls -l "$ROOT/boot"
}

make_image() {
    rm -f "$IMG"
    mkfs.ext4 -q -F -L hotstreak -d "$ROOT" "$IMG" 6G
    ls -l "$IMG"
}

# Scan codes: the first SCANS codes of the demo game, one a line, as a scanner sends them.
scan_codes() {
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$SRC_DIR/companion/tools/data/demo-game.txt" \
        | grep -v -e '^$' -e '^wait' | head -n "$SCANS"
}

boot_and_check() {
    local kernel initrd start
    kernel="$(find "$ROOT/boot" -name 'vmlinuz-*' | sort | tail -n1)"
    initrd="$(find "$ROOT/boot" -name 'initrd.img-*' | sort | tail -n1)"
    [[ -n "$kernel" && -n "$initrd" ]] || die "no kernel or initrd in $ROOT/boot"
    rm -f "$LOG" "$SOCK"
    qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048 -display none -monitor none \
        -kernel "$kernel" -initrd "$initrd" -append "root=/dev/vda rw console=ttyAMA0 quiet" \
        -drive "file=$IMG,format=raw,if=virtio" -serial "file:$LOG" \
        -chardev "socket,id=scan,path=$SOCK,server=on,wait=off" -device qemu-xhci -device usb-serial,chardev=scan \
        -no-reboot &
    QEMU_PID=$!
    start=$SECONDS
    # QEMU's usb-serial is plugged into the guest only while a client holds its socket (and unplugged when the
    # client leaves), like a scanner on a cable: so the host plugs it in once the service runs, keeps it
    # plugged through the checks and the restart, and scans once the guest says the kiosk holds the port.
    until grep -aq "BOOTCHECK watchdog" "$LOG" 2>/dev/null; do
        if ! kill -0 "$QEMU_PID" 2>/dev/null; then echo "qemu ended early"; grep -a BOOTCHECK "$LOG" || true; return 1; fi
        if ((SECONDS - start > BOOT_TIMEOUT)); then echo "no BOOTCHECK after ${BOOT_TIMEOUT}s"; tail -n 30 "$LOG"; return 1; fi
        sleep 5
    done
    echo "booted, the service running, $((SECONDS - start)) s after start: plugging the scanner in"
    scan_codes | python3 -c '
import socket, sys, time
sock, log, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
def said(text):
    with open(log, "rb") as f:
        return text.encode() in f.read()
s = socket.socket(socket.AF_UNIX)
s.connect(sock)            # the scanner is plugged in
start = time.monotonic()
while not said("BOOTCHECK waiting for scans"):
    if time.monotonic() - start > limit:
        sys.exit("the guest never said it was waiting for scans")
    time.sleep(2)
print(f"the kiosk holds the port after {time.monotonic() - start:.0f} s: scanning", flush=True)
for line in sys.stdin:
    s.sendall(line.strip().encode() + b"\r\n")
    time.sleep(1.5)        # past the scanner repeat window, at a table pace
while not said("BOOTCHECK end") and time.monotonic() - start < limit:
    time.sleep(2)          # plugged in until the checks (and the restart) are done
s.close()' "$SOCK" "$LOG" "$BOOT_TIMEOUT" || echo "the scanner side ended early"
    echo "sent $SCANS scans"
    wait "$QEMU_PID" || true
    QEMU_PID=""
    echo "guest powered off $((SECONDS - start)) s after start"
    grep -a BOOTCHECK "$LOG"
    ! grep -aq "BOOTCHECK FAIL" "$LOG"
}

failed=0
step "host tools (qemu-system-aarch64, mkfs.ext4)" tools
step "guest config (mock hardware, USB serial scanner, bootcheck unit)" prepare_guest
step "arm64 kernel and initramfs in the root" kernel
step "ext4 image of the root" make_image
step "boot, READY, watchdog, scans, restart (TCG, no KVM)" boot_and_check || failed=1
summary
exit "$failed"
