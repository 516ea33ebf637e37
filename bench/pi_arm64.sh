#!/usr/bin/env bash
# shellcheck disable=SC2317  # the steps are functions called through step()
# The Pi install on arm64, under emulation: an arm64 Debian bookworm root (debootstrap + qemu-user-static),
# this checkout copied in as a Pi owner's, systemd/install.sh run in it (chroot: no running systemd), then
# `hotstreak doctor`, `hotstreak leds-off --hardware pi`, `hotstreak demo --headless` and a quick subset of
# the tests, all as arm64 code. Prints each step's time.
#
#   sudo bench/pi_arm64.sh                  build (or reuse) the root, install, check
#   sudo bench/pi_arm64.sh --fresh          build the base root again (debootstrap)
#   sudo bench/pi_arm64.sh --keep           keep the installed root (ROOT below) for bench/pi_boot.sh
#   sudo bench/pi_arm64.sh --reuse          install again into the kept root (install.sh is safe to rerun)
#   sudo bench/pi_arm64.sh --tests "tests/rules/test_game.py"   another test subset
#
# Cached between runs (outside the repo, in CACHE, default /var/tmp/hotstreak-arm64): the debootstrapped base
# root (base/), the apt archives and the pip cache (so a second run does not download or rebuild pygame-ce).
# Each run installs into a fresh copy of the base (root/). Needs root, apt and the network to the Debian mirror
# and PyPI.
set -euo pipefail

CACHE=${HOTSTREAK_ARM64_CACHE:-/var/tmp/hotstreak-arm64}
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly SRC_DIR
FRESH=0
KEEP=0
REUSE=0
TESTS="tests/rules/test_rules_race.py tests/rules/test_game.py tests/lights/test_lanemap.py tests/hardware/test_hw_leds.py tests/tools/test_doctor.py tests/hardware/test_hw_buttons.py"
readonly SUITE=bookworm
# No kernel here: bench/pi_boot.sh adds one (its initramfs takes half an hour under qemu-user with MODULES=most).
readonly BASE_PACKAGES=python3,python3-venv,ca-certificates,systemd,systemd-sysv,udev,dbus,sudo,apt-utils
readonly OWNER=pi
MOUNTS=()

die() { printf 'pi_arm64.sh: %s\n' "$*" >&2; exit 2; }

while (($#)); do
    case "$1" in
        --fresh) FRESH=1 ;;
        --keep) KEEP=1 ;;
        --reuse) REUSE=1; KEEP=1 ;;
        --cache) (($# >= 2)) || die "--cache needs a directory"; CACHE="$2"; shift ;;
        --tests) (($# >= 2)) || die "--tests needs test paths"; TESTS="$2"; shift ;;
        -h|--help) sed -n '3,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (try --help)" ;;
    esac
    shift
done
((EUID == 0)) || die "run as root (debootstrap, chroot and mounts need it)"
BASE="$CACHE/base"
ROOT="$CACHE/root"

# shellcheck source=SCRIPTDIR/steps.sh
source "$SRC_DIR/bench/steps.sh"

unmount_all() {
    local i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount -l "${MOUNTS[$i]}" 2>/dev/null || true
    done
    MOUNTS=()
}

# Never delete through a mount left by a run that was stopped early (/dev, /sys of this machine).
remove_root() {
    if grep -q " $ROOT/" /proc/mounts; then
        echo "not removing $ROOT: something is still mounted under it (umount -R $ROOT first)" >&2
        return 1
    fi
    rm -rf --one-file-system "$ROOT"
}

cleanup() {
    unmount_all
    if ((!KEEP)) && [[ -d "$ROOT" ]]; then remove_root; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The Debian mirror apt uses on this machine (deb822 URIs: or a one-line deb entry), else deb.debian.org.
debian_mirror() {
    local uri
    uri="$(grep -hsE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
        /etc/apt/sources.list.d/*.list 2>/dev/null | grep -oE 'https?://[^ ]*/debian/?( |$)' | head -n1 | tr -d ' ')"
    printf '%s\n' "${uri:-http://deb.debian.org/debian}"
}

host_tools() {
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    [[ -e /usr/bin/qemu-aarch64-static ]] || missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    command -v bc >/dev/null || missing+=(bc)
    if ((${#missing[@]})); then
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
    fi
    if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    update-binfmts --enable qemu-aarch64 2>/dev/null || true
    [[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]] || die "qemu-aarch64 is not registered with binfmt_misc"
    echo "qemu: $(/usr/bin/qemu-aarch64-static --version | head -n1)"
}

build_base() {
    local mirror
    if ((!FRESH)) && [[ -e "$BASE/.hotstreak-base-ok" ]]; then
        echo "cached: $BASE ($(cat "$BASE/.hotstreak-base-ok"))"
        return
    fi
    mirror="$(debian_mirror)"
    rm -rf "$BASE" "$BASE.tmp"
    mkdir -p "$CACHE"
    debootstrap --arch=arm64 --variant=minbase --include="$BASE_PACKAGES" "$SUITE" "$BASE.tmp" "$mirror"
    printf 'arm64 %s from %s, %s\n' "$SUITE" "$mirror" "$(date -u +%F)" >"$BASE.tmp/.hotstreak-base-ok"
    mv "$BASE.tmp" "$BASE"
}

bind() {
    mkdir -p "$2"
    mount --bind "$1" "$2"
    MOUNTS+=("$2")
}

prepare_root() {
    if ((REUSE)) && [[ -e "$ROOT/home/$OWNER" ]]; then
        echo "reusing $ROOT (installed before)"
    else
        if [[ -d "$ROOT" ]]; then remove_root; fi
        cp -a "$BASE" "$ROOT"
    fi
    mount -t proc proc "$ROOT/proc"; MOUNTS+=("$ROOT/proc")
    bind /sys "$ROOT/sys"
    bind /dev "$ROOT/dev"
    bind /dev/pts "$ROOT/dev/pts"
    mkdir -p "$CACHE/apt-archives/partial" "$CACHE/pip-cache"
    bind "$CACHE/apt-archives" "$ROOT/var/cache/apt/archives"
    bind "$CACHE/pip-cache" "$ROOT/root/.cache/pip"
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
    # pip in the root trusts what this machine trusts (its CA bundle may hold a local proxy's CA).
    cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/hotstreak-bench-ca.crt"
    printf '[global]\ncert = /etc/hotstreak-bench-ca.crt\n' >"$ROOT/etc/pip.conf"
    printf '%s\n' 'Defaults env_keep += "PIP_CERT"' "$OWNER ALL=(ALL) NOPASSWD: ALL" >"$ROOT/etc/sudoers.d/$OWNER"
    chmod 0440 "$ROOT/etc/sudoers.d/$OWNER"
    chroot "$ROOT" id -u "$OWNER" >/dev/null 2>&1 || chroot "$ROOT" useradd --create-home --shell /bin/bash "$OWNER"
    # The boot files of Raspberry Pi OS (their first lines), so that the install edits them as on a Pi.
    mkdir -p "$ROOT/boot/firmware"
    printf '%s\n' "# For more options and information see http://rptl.io/configtxt" "dtparam=audio=on" \
        "camera_auto_detect=1" "display_auto_detect=1" "dtoverlay=vc4-kms-v3d" "max_framebuffers=2" "[all]" \
        >"$ROOT/boot/firmware/config.txt"
    printf '%s\n' "console=serial0,115200 console=tty1 root=PARTUUID=12345678-02 rootfstype=ext4 fsck.repair=yes rootwait" \
        >"$ROOT/boot/firmware/cmdline.txt"
    # The owner's checkout: what git tracks plus the working files, without venvs and caches.
    rm -rf "$ROOT/home/$OWNER/hotstreak"
    mkdir -p "$ROOT/home/$OWNER/hotstreak"
    tar -C "$SRC_DIR" --exclude=.git --exclude=.venv --exclude=build --exclude='*.egg-info' \
        --exclude=__pycache__ --exclude=.pytest_cache --exclude=.mypy_cache -cf - . \
        | tar -C "$ROOT/home/$OWNER/hotstreak" -xf -
    chroot "$ROOT" chown -R "$OWNER:$OWNER" "/home/$OWNER/hotstreak"
    echo "root: $ROOT ($(chroot "$ROOT" uname -m), $(chroot "$ROOT" python3 --version))"
}

# A clean environment in the root: nothing of this machine's (its PIP_* variables name files not in the root).
readonly ROOT_ENV=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8)
in_root() { chroot "$ROOT" "${ROOT_ENV[@]}" "$@"; }
as_owner() { chroot "$ROOT" "${ROOT_ENV[@]}" runuser -u "$OWNER" -- env HOME="/home/$OWNER" "$@"; }

install_as_owner() {
    # 1eab:8306: a Newland scanner; 0403:6001: the FTDI serial port QEMU emulates (bench/pi_boot.sh scans there)
    # As root from the owner's checkout, as `sudo` would (SUDO_USER set): sudo itself cannot gain root under
    # qemu-user without binfmt_misc's C flag.
    in_root env SUDO_USER="$OWNER" bash -c \
        "cd /home/$OWNER/hotstreak && systemd/install.sh --scanner-id 1eab:8306 --scanner-id 0403:6001"
}

checkout_untouched() {
    local left
    left="$(in_root find "/home/$OWNER/hotstreak" ! -user "$OWNER" -printf '%p\n' | head -n 20)"
    if [[ -n "$left" ]]; then
        echo "files in the owner's checkout not owned by $OWNER:"
        echo "$left"
        return 1
    fi
    echo "ok: every file in /home/$OWNER/hotstreak is still owned by $OWNER (no build/ or *.egg-info left)"
}

boot_files() {
    ls -l "$ROOT/boot/firmware"
    echo "--- config.txt:"; cat "$ROOT/boot/firmware/config.txt"
    echo "--- cmdline.txt:"; cat "$ROOT/boot/firmware/cmdline.txt"
    echo "--- /opt/hotstreak/install-manifest.txt:"; cat "$ROOT/opt/hotstreak/install-manifest.txt"
    echo "--- enabled: $(chroot "$ROOT" systemctl is-enabled hotstreak.service 2>&1)"
}

doctor() {
    local rc=0
    in_root runuser -u hotstreak -- /opt/hotstreak/venv/bin/hotstreak doctor || rc=$?
    echo "(exit $rc: problems are expected in an emulated root without a Pi's devices)"
    ((rc <= 1))
}

leds_off_pi() {
    local rc=0
    in_root runuser -u hotstreak -- /opt/hotstreak/venv/bin/hotstreak leds-off --hardware pi --led-backend ws281x \
        || rc=$?
    echo "(exit $rc; 1 = the strip could not start, said in one line; 139 would be a crash)"
    ((rc == 1))
}

demo_headless() {
    in_root runuser -u hotstreak -- env HOME=/tmp /opt/hotstreak/venv/bin/hotstreak demo --headless \
        | tail -n 12
}

tests_under_emulation() {
    local args
    in_root /opt/hotstreak/venv/bin/python -m pip install -q --target /opt/bench-pytest pytest hypothesis
    read -r -a args <<<"$TESTS"
    as_owner bash -c 'set -o pipefail; cd ~/hotstreak && PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=/opt/bench-pytest \
        /opt/hotstreak/venv/bin/python -m pytest -q -p no:cacheprovider "$@" 2>&1 | tail -n 5' _ "${args[@]}"
}

uninstall_and_reinstall() {
    in_root /home/"$OWNER"/hotstreak/systemd/install.sh --uninstall
    test ! -e "$ROOT/opt/hotstreak" && echo "ok: /opt/hotstreak removed (only what the manifest listed)"
}

failed=0
step "host tools (debootstrap, qemu-user-static, binfmt_misc)" host_tools
step "base root: debootstrap arm64 $SUITE (cached in $BASE)" build_base
step "fresh root from the base, owner $OWNER, checkout copied in" prepare_root
step "systemd/install.sh in the chroot, from the owner's checkout" install_as_owner || { summary; exit 1; }
step "the owner's checkout has no root-owned files" checkout_untouched || failed=1
step "boot files, manifest, service enabled" boot_files || failed=1
step "hotstreak doctor (arm64)" doctor || failed=1
step "hotstreak leds-off --hardware pi (real rpi_ws281x, no device)" leds_off_pi || failed=1
step "hotstreak demo --headless (arm64)" demo_headless || failed=1
step "tests under emulation: $TESTS" tests_under_emulation || failed=1
if ((!KEEP)); then step "install.sh --uninstall (manifest)" uninstall_and_reinstall || failed=1; fi
summary
if ((KEEP)); then echo "kept: $ROOT (installed)"; fi
exit "$failed"
