#!/usr/bin/env bash
# shellcheck disable=SC2317  # the steps are functions called through step()
# Boot the arm64 root that bench/pi_arm64.sh --keep installed, in qemu-system-aarch64 (machine virt,
# cortex-a72, no KVM), with the installer's own settings, changing only what qemu lacks: mock LEDs and
# buttons (no GPIO or SPI), the screen on qemu's virtio GPU through KMSDRM (given 300 s to start: an emulated
# CPU compiles mesa's shaders slowly), the sound to an emulated USB sound card (Debian's arm64 kernel has no
# snd-dummy; snd-usb-audio is a Pi's usual sound card), the phone page on 0.0.0.0:8080 forwarded to the host (mock hardware turns it off by default).
# The odds process, the voice and the screen run under the hardened unit. A whole race is scanned through a
# virtual USB scanner (QEMU's usb-serial, an FTDI 0403:6001 the udev rule links to /dev/hotstreak-scanner);
# the host takes the screen's first frame and the one after the race (qemu monitor `screendump`), fetches the
# phone page, and compares the journal and `status --json` with the same codes replayed on x86. A oneshot
# unit in the guest checks the service (READY, the screen, sound and odds processes, the watchdog, a restart
# that loses nothing, NRestarts=0), then runs install.sh --uninstall and checks the boot files (its EXIT trap:
# every run), and prints BOOTCHECK lines on the serial console.
#
#   sudo bench/pi_arm64.sh --keep && sudo bench/pi_boot.sh
#   sudo bench/pi_boot.sh --sizes 800x480        one screen size (default: 800x480 and 1920x1080, a boot each)
#   sudo bench/pi_boot.sh --out DIR               console logs, frames and JSON (default CACHE/boot-out)
#   bench/pi_boot.sh --self-test                  no root, no qemu: the x86 replay and the comparisons
#
# What only a real Pi shows: docs/pi.md "What only a real Pi can show".
set -euo pipefail

CACHE=${HOTSTREAK_ARM64_CACHE:-/var/tmp/hotstreak-arm64}
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly SRC_DIR
SIZES="800x480 1920x1080"
OUT=""
SELF_TEST=0
BOOT_TIMEOUT=${HOTSTREAK_BOOT_TIMEOUT:-1800}
WEB_PORT=${HOTSTREAK_BOOT_WEB_PORT:-18080}
HANDSHAKE_PORT=${HOTSTREAK_BOOT_HANDSHAKE_PORT:-18099}
HOST_PY=(python3 "$SRC_DIR/bench/pi_boot_host.py")

die() { printf 'pi_boot.sh: %s\n' "$*" >&2; exit 2; }

while (($#)); do
    case "$1" in
        --sizes)
            if (($# < 2)) || [[ ! "$2" =~ ^[0-9]+x[0-9]+( [0-9]+x[0-9]+)*$ ]]; then
                die "--sizes needs screen sizes like '800x480 1920x1080'"
            fi
            SIZES="$2"; shift ;;
        --cache) (($# >= 2)) || die "--cache needs a directory"; CACHE="$2"; shift ;;
        --out) (($# >= 2)) || die "--out needs a directory"; OUT="$2"; shift ;;
        --self-test) SELF_TEST=1 ;;
        -h|--help) sed -n '3,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (try --help)" ;;
    esac
    shift
done
ROOT="$CACHE/root"
IMG="$CACHE/boot.img"
OUT="${OUT:-$CACHE/boot-out}"

# shellcheck source=SCRIPTDIR/steps.sh
source "$SRC_DIR/bench/steps.sh"

if ((SELF_TEST)); then
    self_test() {
        local dir
        dir="$(mktemp -d)"
        # shellcheck disable=SC2064  # the path is fixed now
        trap "rm -rf '$dir'" RETURN
        "${HOST_PY[@]}" self-test "$dir"
    }
    step "self-test: the race's codes, the x86 replay, the comparisons" self_test
    finish   # exits
    exit 1
fi
[[ -z "${HOTSTREAK_BENCH_SELF_TEST_ONLY:-}" ]] || die "HOTSTREAK_BENCH_SELF_TEST_ONLY is set: only --self-test runs"
((EUID == 0)) || die "run as root"
[[ -x "$ROOT/opt/hotstreak/venv/bin/hotstreak" ]] || die "no installed root at $ROOT: run bench/pi_arm64.sh --keep first"

cleanup() {
    local pid
    if [[ -s "$CACHE/qemu.pid" ]]; then
        pid="$(cat "$CACHE/qemu.pid")"
        if kill -0 "$pid" 2>/dev/null; then kill "$pid" || true; fi
        rm -f "$CACHE/qemu.pid"
    fi
    awk -v d="$ROOT/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r | xargs -r umount -l || true
    rm -f "$CACHE/scanner.sock" "$CACHE/monitor.sock"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tools() {
    local missing=()
    command -v qemu-system-aarch64 >/dev/null || missing+=(qemu-system-arm)
    command -v mkfs.ext4 >/dev/null || missing+=(e2fsprogs)
    command -v convert >/dev/null || missing+=(imagemagick)
    if ((${#missing[@]})); then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
    qemu-system-aarch64 --version | head -n1
}

# The settings install.sh wrote, with only what qemu lacks changed: HOTSTREAK_ARGS in /etc/default/hotstreak.
readonly QEMU_ARGS="--hardware mock --display kmsdrm --web 0.0.0.0:8080 --scanner /dev/hotstreak-scanner"

prepare_guest() {
    local defaults="$ROOT/etc/default/hotstreak"
    if ! grep -q '^# Extra arguments for .hotstreak run. in the kiosk service' "$defaults" || ! grep -q '^HOTSTREAK_ARGS=' "$defaults" \
        || grep -q '^HOTSTREAK_CONFIG=' "$defaults"; then
        echo "$defaults is not the one install.sh writes (an older bench changed it): run bench/pi_arm64.sh --keep again"
        return 1
    fi
    sed -i "s|^HOTSTREAK_ARGS=.*|HOTSTREAK_ARGS=$QEMU_ARGS|" "$defaults"
    echo "--- /etc/default/hotstreak (install.sh's, HOTSTREAK_ARGS set for qemu):"; cat "$defaults"
    # The installer's settings; the one change: the screen may take 300 s to start (mesa's llvmpipe compiles its
    # shaders on an emulated CPU). An earlier version of this bench switched the voice and effects off: gone.
    rm -f "$ROOT/etc/hotstreak/config.toml" "$ROOT"/var/lib/hotstreak/journal.db*
    mkdir -p "$ROOT/etc/hotstreak"
    printf '# bench/pi_boot.sh: an emulated CPU starts the screen slowly\n[display]\nstart_timeout = 300\n' \
        >"$ROOT/etc/hotstreak/config.toml"
    chroot "$ROOT" chown -R hotstreak:hotstreak /etc/hotstreak
    echo "--- /etc/hotstreak/config.toml:"; cat "$ROOT/etc/hotstreak/config.toml"
    printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$ROOT/etc/fstab"
    printf 'hotstreak-qemu\n' >"$ROOT/etc/hostname"
    mkdir -p "$ROOT/etc/modules-load.d" "$ROOT/etc/systemd/network"
    printf '%s\n' virtio_gpu >"$ROOT/etc/modules-load.d/hotstreak-qemu.conf"
    printf '[Match]\nName=en*\n[Network]\nDHCP=yes\n' >"$ROOT/etc/systemd/network/20-qemu.network"
    chroot "$ROOT" systemctl enable systemd-networkd.service 2>&1 | tail -n 1
    mkdir -p "$ROOT/var/lib/hotstreak-bench"
    "${HOST_PY[@]}" codes >"$ROOT/var/lib/hotstreak-bench/race-codes.txt"
    install -m 0755 "$SRC_DIR/bench/pi_bootcheck.sh" "$ROOT/usr/local/sbin/hotstreak-bootcheck"
    cat >"$ROOT/etc/systemd/system/hotstreak-bootcheck.service" <<'UNIT'
[Unit]
Description=bench/pi_boot.sh checks of hotstreak.service
After=hotstreak.service network-online.target
[Service]
Type=oneshot
ExecStart=/usr/local/sbin/hotstreak-bootcheck
TimeoutStartSec=infinity
StandardOutput=journal+console
[Install]
WantedBy=multi-user.target
UNIT
    chroot "$ROOT" systemctl enable hotstreak-bootcheck.service 2>&1 | tail -n 1
    chroot "$ROOT" passwd -d root >/dev/null
    echo "guest: $(wc -l <"$ROOT/var/lib/hotstreak-bench/race-codes.txt") race codes, bootcheck enabled"
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
        trap 'umount "$ROOT/proc"' EXIT   # this step's subshell
        DEBIAN_FRONTEND=noninteractive chroot "$ROOT" apt-get install -y -q --no-install-recommends \
            linux-image-arm64 initramfs-tools
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

# One boot at one screen size: qemu (bounded by timeout), the host's session, then every assertion.
boot_and_check() {
    local size="$1" width height out kernel initrd qemu_pid start rc=0
    width="${size%x*}" height="${size#*x}" out="$OUT/$size"
    kernel="$(find "$ROOT/boot" -name 'vmlinuz-*' | sort | tail -n1)"
    initrd="$(find "$ROOT/boot" -name 'initrd.img-*' | sort | tail -n1)"
    [[ -n "$kernel" && -n "$initrd" ]] || { echo "no kernel or initrd in $ROOT/boot"; return 1; }
    rm -rf "$out"; mkdir -p "$out"
    cp "$OUT/x86-journal.json" "$OUT/x86-status.json" "$out/"
    rm -f "$CACHE/scanner.sock" "$CACHE/monitor.sock" "$CACHE/qemu.pid"
    timeout --kill-after=30 "$BOOT_TIMEOUT" qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048 \
        -kernel "$kernel" -initrd "$initrd" -append "root=/dev/vda rw console=ttyAMA0 quiet" \
        -drive "file=$IMG,format=raw,if=virtio" -serial "file:$out/console.log" -display none \
        -device "virtio-gpu-pci,xres=$width,yres=$height" \
        -monitor "unix:$CACHE/monitor.sock,server=on,wait=off" -pidfile "$CACHE/qemu.pid" \
        -netdev "user,id=net0,hostfwd=tcp:127.0.0.1:$WEB_PORT-:8080,hostfwd=tcp:127.0.0.1:$HANDSHAKE_PORT-:8099" \
        -device virtio-net-pci,netdev=net0,romfile= \
        -chardev "socket,id=scan,path=$CACHE/scanner.sock,server=on,wait=off" -device qemu-xhci \
        -device usb-serial,chardev=scan -audiodev none,id=snd0 -device usb-audio,audiodev=snd0 -no-reboot &
    qemu_pid=$!
    start=$SECONDS
    wait_until 60 "qemu's scanner and monitor sockets" test -S "$CACHE/monitor.sock" -a -S "$CACHE/scanner.sock"
    timeout --kill-after=30 "$BOOT_TIMEOUT" "${HOST_PY[@]}" drive "$out" "$width" "$height" "$CACHE/scanner.sock" \
        "$CACHE/monitor.sock" "$HANDSHAKE_PORT" "$WEB_PORT" "$qemu_pid" "$BOOT_TIMEOUT" || rc=$?
    wait "$qemu_pid" || echo "qemu exit $? ($((SECONDS - start)) s after start; 124 = killed by the timeout)"
    echo "guest powered off $((SECONDS - start)) s after start"
    grep -a BOOTCHECK "$out/console.log" | grep -v '^BOOTCHECK json' | cut -c1-240 || true
    "${HOST_PY[@]}" check "$out" "$width" "$height"
    return "$rc"
}

x86_side() {
    mkdir -p "$OUT"
    "${HOST_PY[@]}" x86 "$OUT"
}

step "host tools (qemu-system-aarch64, mkfs.ext4, imagemagick)" tools
step "the same race on x86 (hotstreak run --hardware mock, codes on stdin)" x86_side
step "guest: install.sh's settings + what qemu lacks, the race codes, the bootcheck unit" prepare_guest
step "arm64 kernel and initramfs in the root" kernel
for size in $SIZES; do
    step "ext4 image of the root ($size)" make_image
    check "boot at $size: READY, screen, sound, odds, a race, phone page, watchdog, restart, uninstall" \
        boot_and_check "$size"
done
echo "output: $OUT"
finish
