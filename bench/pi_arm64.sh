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
#   bench/pi_arm64.sh --self-test           no root, no emulation: the boot-file round trip and its check
#
# Cached between runs (outside the repo, in CACHE, default /var/tmp/hotstreak-arm64): the debootstrapped base
# root (base/, rebuilt when the recipe below changes: its hash is in the stamp), the apt archives and pip's
# download cache (pygame-ce is still built from source every run: install.sh asks pip for --no-binary).
# Each run installs into a fresh copy of the base (root/), and every run ends (trap) with install.sh
# --uninstall and a check that the boot files are back as they were (with --keep: in a throwaway copy, so the
# kept root stays installed). Every step stops at its first failing command. Needs root, apt and the network
# to the Debian mirror and PyPI.
set -euo pipefail

CACHE=${HOTSTREAK_ARM64_CACHE:-/var/tmp/hotstreak-arm64}
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly SRC_DIR
FRESH=0
KEEP=0
REUSE=0
SELF_TEST=0
INSTALL_STARTED=0
TESTS="tests/rules/test_rules_race.py tests/rules/test_game.py tests/lights/test_lanemap.py tests/hardware/test_hw_leds.py tests/tools/test_doctor.py tests/tools/test_doctor_scanner.py tests/hardware/test_hw_buttons.py"
readonly SUITE=bookworm
# No kernel here: bench/pi_boot.sh adds one (its initramfs takes half an hour under qemu-user with MODULES=most).
readonly BASE_PACKAGES=python3,python3-venv,ca-certificates,systemd,systemd-sysv,udev,dbus,sudo,apt-utils
readonly OWNER=pi

die() { printf 'pi_arm64.sh: %s\n' "$*" >&2; exit 2; }

while (($#)); do
    case "$1" in
        --fresh) FRESH=1 ;;
        --keep) KEEP=1 ;;
        --reuse) REUSE=1; KEEP=1 ;;
        --cache) (($# >= 2)) || die "--cache needs a directory"; CACHE="$2"; shift ;;
        --tests) (($# >= 2)) || die "--tests needs test paths"; TESTS="$2"; shift ;;
        --self-test) SELF_TEST=1 ;;
        -h|--help) sed -n '3,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (try --help)" ;;
    esac
    shift
done
BASE="$CACHE/base"
ROOT="$CACHE/root"
UNDO="$CACHE/uninstall-check"   # with --keep: the copy of the installed root the uninstall runs in

# shellcheck source=SCRIPTDIR/steps.sh
source "$SRC_DIR/bench/steps.sh"

# Everything mounted under a directory, deepest first (the steps run in subshells: the mounts are read back
# from /proc/mounts, not remembered).
unmount_under() {
    local dir="$1" mounts=()
    mapfile -t mounts < <(awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r)
    if ((${#mounts[@]})); then umount -l "${mounts[@]}"; fi
}

# Never delete through a mount left by a run that was stopped early (/dev, /sys of this machine).
remove_root() {
    if grep -q " $ROOT/" /proc/mounts; then
        echo "not removing $ROOT: something is still mounted under it (umount -R $ROOT first)" >&2
        return 1
    fi
    rm -rf --one-file-system "$ROOT"
}

# At the end of every run, however it ended: install.sh --uninstall (in a copy with --keep), the boot files
# checked against the originals, then the mounts undone and the root removed (unless kept).
cleanup() {
    local rc=$? target="$ROOT"
    trap - EXIT
    set +e
    if ((INSTALL_STARTED)); then
        if ((KEEP)); then
            unmount_under "$ROOT"
            rm -rf --one-file-system "$UNDO"
            cp -a --reflink=auto "$ROOT" "$UNDO"
            target="$UNDO"
        fi
        _run_step "install.sh --uninstall (manifest), boot files restored ($target)" uninstall_in "$target"
        if ((STEP_RC != 0)); then FAILED_CHECKS+=("uninstall"); rc=1; fi
        unmount_under "$target"
        if ((KEEP)); then rm -rf --one-file-system "$UNDO"; fi
    fi
    unmount_under "$ROOT"
    if ((!KEEP)) && [[ -d "$ROOT" ]]; then remove_root; fi
    if ((SUMMARY_AT_EXIT)); then
        summary
        if ((${#FAILED_CHECKS[@]})); then printf 'FAILED checks: %s\n' "${FAILED_CHECKS[@]}" >&2; rc=1; fi
        if ((rc == 0)); then echo "all steps passed"; fi
        if ((KEEP && rc == 0)); then echo "kept: $ROOT (installed)"; fi
    fi
    exit "$rc"
}

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

# The base root's recipe: this function and what it reads. Its hash is in the stamp, so a cached base made by
# another version of the recipe is built again.
base_recipe_hash() {
    { declare -f build_base; printf '%s\n' "$SUITE" "$BASE_PACKAGES"; } | sha256sum | cut -c1-16
}

build_base() {
    local mirror recipe stamp="$BASE/.hotstreak-base-ok"
    recipe="$(base_recipe_hash)"
    if ((!FRESH)) && [[ -e "$stamp" ]]; then
        if grep -qx "recipe $recipe" "$stamp"; then
            echo "cached: $BASE ($(head -n1 "$stamp"), recipe $recipe)"
            return
        fi
        echo "the cached base was made by another recipe ($(grep '^recipe ' "$stamp" || echo 'no recipe hash'));" \
            "this script's is $recipe: building it again"
    fi
    mirror="$(debian_mirror)"
    rm -rf --one-file-system "$BASE" "$BASE.tmp"
    mkdir -p "$CACHE"
    debootstrap --arch=arm64 --variant=minbase --include="$BASE_PACKAGES" "$SUITE" "$BASE.tmp" "$mirror"
    in_dir_root "$BASE.tmp" python3 --version
    printf 'arm64 %s from %s, %s\nrecipe %s\n' "$SUITE" "$mirror" "$(date -u +%F)" "$recipe" >"$BASE.tmp/.hotstreak-base-ok"
    mv "$BASE.tmp" "$BASE"
}

bind() {
    mkdir -p "$2"
    mount --bind "$1" "$2"
}

# The boot files of Raspberry Pi OS (their first lines), so that the install edits them as on a Pi. DIR/boot/
# firmware gets them, and DIR/var/lib/hotstreak-bench/boot-original a copy to compare with after the uninstall.
pi_boot_files() {
    local dir="$1"
    mkdir -p "$dir/boot/firmware" "$dir/var/lib/hotstreak-bench/boot-original"
    printf '%s\n' "# For more options and information see http://rptl.io/configtxt" "dtparam=audio=on" \
        "camera_auto_detect=1" "display_auto_detect=1" "dtoverlay=vc4-kms-v3d" "max_framebuffers=2" "[all]" \
        >"$dir/boot/firmware/config.txt"
    printf '%s\n' "console=serial0,115200 console=tty1 root=PARTUUID=12345678-02 rootfstype=ext4 fsck.repair=yes rootwait" \
        >"$dir/boot/firmware/cmdline.txt"
    cp -p "$dir/boot/firmware/config.txt" "$dir/boot/firmware/cmdline.txt" "$dir/var/lib/hotstreak-bench/boot-original/"
}

# The boot files under DIR are byte for byte the ones pi_boot_files wrote (fails naming the first that is not).
boot_files_restored() {
    local dir="$1" name
    for name in config.txt cmdline.txt; do
        if ! cmp -s "$dir/var/lib/hotstreak-bench/boot-original/$name" "$dir/boot/firmware/$name"; then
            echo "not restored: /boot/firmware/$name differs from the original:"
            diff "$dir/var/lib/hotstreak-bench/boot-original/$name" "$dir/boot/firmware/$name" || true
            return 1
        fi
    done
    echo "ok: /boot/firmware/config.txt and cmdline.txt are the originals again"
}

prepare_root() {
    if ((REUSE)) && [[ -e "$ROOT/home/$OWNER" ]]; then
        echo "reusing $ROOT (installed before)"
    else
        if [[ -d "$ROOT" ]]; then remove_root; fi
        cp -a "$BASE" "$ROOT"
    fi
    mount -t proc proc "$ROOT/proc"
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
    if [[ ! -e "$ROOT/var/lib/hotstreak-bench/boot-original/config.txt" ]]; then pi_boot_files "$ROOT"; fi
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
in_dir_root() { local dir="$1"; shift; chroot "$dir" "${ROOT_ENV[@]}" "$@"; }
in_root() { in_dir_root "$ROOT" "$@"; }
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
    in_root /opt/hotstreak/venv/bin/python -m pip install -q --target /opt/bench-pytest pytest pytest-xdist hypothesis
    read -r -a args <<<"$TESTS"
    # -n 0: one process (pyproject's addopts ask xdist for four, each collecting every test under emulation)
    as_owner bash -c 'set -o pipefail; cd ~/hotstreak && PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=/opt/bench-pytest \
        /opt/hotstreak/venv/bin/python -m pytest -q -n 0 -p no:cacheprovider "$@" 2>&1 | tail -n 5' _ "${args[@]}"
}

# install.sh --uninstall in the root DIR (offline: a chroot), then what it must have undone, checked.
uninstall_in() {
    local dir="$1" path
    grep -q " $dir/proc " /proc/mounts || mount -t proc proc "$dir/proc"
    grep -q " $dir/dev " /proc/mounts || mount --bind /dev "$dir/dev"
    in_dir_root "$dir" /home/"$OWNER"/hotstreak/systemd/install.sh --uninstall
    for path in /opt/hotstreak /etc/systemd/system/hotstreak.service /etc/udev/rules.d/99-hotstreak-scanner.rules \
        /etc/systemd/system/multi-user.target.wants/hotstreak.service; do
        if [[ -e "$dir$path" || -L "$dir$path" ]]; then echo "left after the uninstall: $path"; return 1; fi
    done
    echo "ok: /opt/hotstreak, the unit, its enable link and the udev rule are gone"
    boot_files_restored "$dir"
}

# No root, no emulation: the Pi OS boot files in a temporary tree, install.sh --boot-only and its uninstall,
# then the restore check, which must pass; then a changed byte, which the check must catch.
self_test() {
    local tree
    tree="$(mktemp -d)"
    # shellcheck disable=SC2064  # the path is fixed now
    trap "rm -rf '$tree'" RETURN
    pi_boot_files "$tree"
    "$SRC_DIR/systemd/install.sh" --boot-only --root "$tree" >/dev/null
    if boot_files_restored "$tree" >/dev/null; then echo "the install changed no boot file"; return 1; fi
    "$SRC_DIR/systemd/install.sh" --boot-only --uninstall --root "$tree" >/dev/null
    boot_files_restored "$tree"
    printf 'dtparam=spi=on\n' >>"$tree/boot/firmware/config.txt"
    if boot_files_restored "$tree"; then echo "the check missed a changed config.txt"; return 1; fi
    echo "ok: the check catches a boot file left changed"
    echo "base recipe: $(base_recipe_hash)"
}

if ((SELF_TEST)); then
    step "self-test: boot files round trip and the restore check" self_test
    finish   # exits
    exit 1
fi
# Tests run --self-test with this set: anything else stops here, before a package or a root is touched.
[[ -z "${HOTSTREAK_BENCH_SELF_TEST_ONLY:-}" ]] || die "HOTSTREAK_BENCH_SELF_TEST_ONLY is set: only --self-test runs"
((EUID == 0)) || die "run as root (debootstrap, chroot and mounts need it)"
trap cleanup EXIT
trap 'exit 130' INT TERM
SUMMARY_AT_EXIT=1

step "host tools (debootstrap, qemu-user-static, binfmt_misc)" host_tools
step "base root: debootstrap arm64 $SUITE (cached in $BASE)" build_base
step "fresh root from the base, owner $OWNER, checkout copied in" prepare_root
INSTALL_STARTED=1
step "systemd/install.sh in the chroot, from the owner's checkout" install_as_owner
check "the owner's checkout has no root-owned files" checkout_untouched
check "boot files, manifest, service enabled" boot_files
check "hotstreak doctor (arm64)" doctor
check "hotstreak leds-off --hardware pi (real rpi_ws281x, no device)" leds_off_pi
check "hotstreak demo --headless (arm64)" demo_headless
check "tests under emulation: $TESTS" tests_under_emulation
# The end (uninstall, its check, the summary and the exit status) is cleanup, the EXIT trap.
