#!/usr/bin/env bash
# Install Hot Streak Companion as a kiosk service on Raspberry Pi OS (Bookworm or newer, Lite is enough).
#
#   sudo systemd/install.sh                      install or update (safe to run again)
#   sudo systemd/install.sh --scanner-id 1eab:8306   the scanner's USB vendor:product (else: the plugged-in one)
#   sudo systemd/install.sh --scanner-mode hid   a USB keyboard (HID) scanner: the service joins group input
#   systemd/install.sh --dry-run                 print what would be done, change nothing (no root needed)
#   sudo systemd/install.sh --uninstall          remove the service, rule, venv and boot settings we added
#   sudo systemd/install.sh --uninstall --purge  ... and the journal, caches, config and the user
#   sudo systemd/install.sh --offline            in a chroot or an image build (no running systemd)
#
# What it does: apt packages (Debian's python3-evdev, python3-spidev, python3-lgpio where the sources have it),
# the system user `hotstreak` and its groups, a venv in /opt/hotstreak/venv that sees those system packages,
# the pinned dependencies of systemd/requirements-pi.txt checked by their hashes (pygame-ce built from source
# against the system SDL2 for KMSDRM), this checkout as a wheel built in a temporary copy (nothing is written
# into the checkout), the unit /etc/systemd/system/hotstreak.service, the udev rule
# /etc/udev/rules.d/99-hotstreak-scanner.rules, SPI on and console blanking off in the boot config (written
# atomically, the old file kept as *.hotstreak-backup), then enables and (re)starts the service. Everything it
# creates under the prefix is listed in PREFIX/install-manifest.txt; --uninstall removes only what that lists.
# See docs/pi.md.
set -euo pipefail

readonly APP=hotstreak
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly SRC_DIR
readonly DEFAULT_PREFIX=/opt/hotstreak
PREFIX=$DEFAULT_PREFIX
ROOT=""            # --root DIR: a fake filesystem tree for --dry-run tests; "" is the real system
OFFLINE=0          # 1: no running systemd (a chroot, an image build): enable the unit, start nothing
OFFLINE_WHY=
DRY_RUN=0
UNINSTALL=0
PURGE=0
START=1
SKIP_APT=0
BOOT_ONLY=0
SCANNER_IDS=()
SCANNER_MODE=""     # --scanner-mode; "" = [scanner] mode of /etc/hotstreak/config.toml, else auto
BOOT_CHANGED=0
STAGE=""            # a temporary directory for the wheel build (removed on exit)
MANIFEST_NAME=install-manifest.txt
LOCK_FILE=systemd/requirements-pi.txt

# `input` is not here: it lets a process read every keyboard, so the service joins it (in a drop-in) only when
# the scanner is a keyboard (HID) one.
readonly GROUPS_NEEDED=(dialout gpio spi video render audio)
# USB vendor ids of scanner makers, to recognise a plugged-in scanner: Zebra/Symbol, Honeywell/Metrologic,
# Hand Held Products, Datalogic (PSC), Datalogic, Newland.
readonly SCANNER_VENDORS=(05e0 0c2e 0536 05f9 080c 1eab)
readonly HID_DROPIN_NAME=hid-scanner.conf
readonly APT_PACKAGES=(
    python3-venv python3-dev python3-pip build-essential pkg-config
    python3-evdev python3-spidev
    espeak-ng alsa-utils usbutils
    libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0
    libsdl2-dev libsdl2-image-dev libsdl2-mixer-dev libsdl2-ttf-dev
    libfreetype-dev libportmidi-dev libjpeg-dev libpng-dev
    fonts-dejavu-core
)
# Raspberry Pi OS only (not in Debian's own archive): lgpio is the GPIO backend gpiozero uses on a Pi 5.
readonly APT_PACKAGES_PI=(python3-lgpio)
readonly CMDLINE_TOKENS=(consoleblank=0 spidev.bufsiz=65536)
readonly BLOCK_BEGIN="# >>> hotstreak (systemd/install.sh) >>>"
readonly BLOCK_END="# <<< hotstreak <<<"

usage() {
    sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    cat <<EOF

Options:
  --dry-run            print the steps, change nothing
  --uninstall          remove what install added (keeps the journal, user and apt packages)
  --purge              with --uninstall: also remove /var/lib/$APP, /var/cache/$APP, /etc/$APP, the user
  --scanner-id V:P     the scanner's USB vendor:product (4 hex digits each, as lsusb shows); repeatable.
                       Without it: the scanner plugged in now (or the ids saved by an earlier run)
  --scanner-mode M     auto, serial or hid (default: [scanner] mode in /etc/$APP/config.toml, else auto)
  --prefix DIR         install directory (default $PREFIX): an absolute path of letters, digits and ._+-/
                       that is new, empty, or an earlier install of this script, and that only root can
                       write (not the service user, its groups or everyone, nor any folder above it)
  --no-start           enable the service but do not (re)start it now
  --skip-apt           do not install apt packages
  --offline            no running systemd (a chroot or an image build; found by itself when
                       /run/systemd/system is missing): enable the service, leave udev and the start to the
                       first boot
  --boot-only          only the boot settings (config.txt, cmdline.txt); with --uninstall, only remove them
  --root DIR           act on a filesystem tree under DIR (tests); only with --dry-run or --boot-only
  -h, --help           this help
EOF
}

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 2; }

# The prefix goes into the unit file (paths in ExecStart=, ReadWritePaths=, ...) and into rm: only a plain
# absolute path, never a system directory.
check_prefix() {
    PREFIX="${PREFIX%/}"
    [[ "$PREFIX" =~ ^/[A-Za-z0-9._+/-]+$ ]] \
        || die "--prefix '$PREFIX' must be an absolute path of letters, digits and ._+-/ (no spaces, &, #, quotes)"
    [[ "/$PREFIX/" != *"/../"* && "/$PREFIX/" != *"/./"* && "$PREFIX" != *//* ]] \
        || die "--prefix '$PREFIX' must not contain . or .. parts or //"
    case "$PREFIX" in
        /bin|/boot|/boot/*|/dev|/dev/*|/etc|/home|/lib|/lib64|/media|/mnt|/opt|/proc|/proc/*|/root|/run|/run/*\
        |/sbin|/srv|/sys|/sys/*|/tmp|/usr|/usr/bin|/usr/lib|/usr/local|/usr/share|/var|/var/lib|/var/tmp)
            die "--prefix '$PREFIX' is a system directory; give a directory of its own, e.g. $DEFAULT_PREFIX" ;;
    esac
}

# Users and groups: from the --root tree's /etc/passwd and /etc/group when --root is given, else the system's.
has_group() {
    if [[ -n "$ROOT" ]]; then
        grep -q "^$1:" "$ROOT/etc/group" 2>/dev/null
    else
        getent group "$1" >/dev/null
    fi
}

has_user() {
    if [[ -n "$ROOT" ]]; then
        grep -q "^$1:" "$ROOT/etc/passwd" 2>/dev/null
    else
        id -u "$1" >/dev/null 2>&1
    fi
}

user_in_group() {
    local user="$1" group="$2" members
    if [[ -n "$ROOT" ]]; then
        members="$(grep "^$group:" "$ROOT/etc/group" 2>/dev/null | cut -d: -f4)"
        [[ ",$members," == *",$user,"* ]]
    else
        id -nG "$user" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"
    fi
}

# Write CONTENT to FILE atomically (a temporary file in the same directory, then rename), keeping the file's
# mode and the old content as FILE.hotstreak-backup.
write_atomic() {
    local file="$1" content="$2" tmp
    tmp="$(mktemp "$(dirname "$file")/.$(basename "$file").XXXXXX")"
    if [[ -e "$file" ]]; then
        cp -p "$file" "$file.hotstreak-backup"
        chmod --reference="$file" "$tmp" 2>/dev/null || true
    fi
    printf '%s' "$content" >"$tmp"
    sync "$tmp" 2>/dev/null || true
    mv -f "$tmp" "$file"
}

# A command line as one would type it: arguments with shell characters in single quotes.
quote_args() {
    local arg out=()
    for arg in "$@"; do
        if [[ "$arg" =~ ^[A-Za-z0-9_./:=,@+%-]+$ ]]; then
            out+=("$arg")
        else
            out+=("'${arg//\'/\'\\\'\'}'")
        fi
    done
    printf '%s ' "${out[@]}"
}

# Run a command, or only print it with --dry-run.
run() {
    local shown
    shown="$(quote_args "$@")"
    if ((DRY_RUN)); then
        say "would run: ${shown% }"
    else
        say "+ ${shown% }"
        "$@"
    fi
}

parse_args() {
    while (($#)); do
        case "$1" in
            --dry-run) DRY_RUN=1 ;;
            --uninstall) UNINSTALL=1 ;;
            --purge) PURGE=1 ;;
            --no-start) START=0 ;;
            --skip-apt) SKIP_APT=1 ;;
            --boot-only) BOOT_ONLY=1 ;;
            --offline) OFFLINE=1; OFFLINE_WHY="--offline" ;;
            --scanner-id)
                (($# >= 2)) || die "--scanner-id needs a value like 1eab:8306"
                [[ "$2" =~ ^[0-9a-fA-F]{4}:[0-9a-fA-F]{4}$ ]] \
                    || die "--scanner-id '$2' is not VVVV:PPPP (4 hex digits each, as lsusb shows)"
                SCANNER_IDS+=("${2,,}")
                shift ;;
            --scanner-mode)
                (($# >= 2)) || die "--scanner-mode needs auto, serial or hid"
                [[ "$2" =~ ^(auto|serial|hid)$ ]] || die "--scanner-mode '$2' is not auto, serial or hid"
                SCANNER_MODE="$2"
                shift ;;
            --prefix)
                (($# >= 2)) || die "--prefix needs a directory"
                PREFIX="$2"; shift ;;
            --root)
                (($# >= 2)) || die "--root needs a directory"
                ROOT="${2%/}"; shift ;;
            -h|--help) usage; exit 0 ;;
            *) die "unknown option '$1' (try --help)" ;;
        esac
        shift
    done
    if ((PURGE && !UNINSTALL)); then die "--purge only goes with --uninstall"; fi
    if [[ -n "$ROOT" ]] && ((!DRY_RUN && !BOOT_ONLY)); then
        die "--root only goes with --dry-run or --boot-only"
    fi
    if [[ -n "$ROOT" && ! -d "$ROOT" ]]; then die "--root '$ROOT' is not a directory"; fi
    check_prefix
    if ((!DRY_RUN)) && [[ -z "$ROOT" ]] && ((EUID != 0)); then
        die "run as root (sudo $0 ...), or with --dry-run to see the steps"
    fi
}

# The boot partition: /boot/firmware on Bookworm, /boot before it.
boot_dir() {
    if [[ -e "$ROOT/boot/firmware/config.txt" ]]; then
        say "$ROOT/boot/firmware"
    else
        say "$ROOT/boot"
    fi
}

board_model() {
    local model_file="$ROOT/proc/device-tree/model"
    if [[ -r "$model_file" ]]; then tr -d '\0' <"$model_file"; fi
}

# Lines for our block in config.txt. SPI for the LED strip; on a Pi 3/4 the SPI clock follows the core clock,
# so rpi_ws281x needs it fixed (Pi 3: 250 MHz; Pi 4: 500 MHz). A Pi 5 drives the strip through spidev and
# needs no core_freq.
config_block() {
    local model
    model="$(board_model)"
    say "[all]"
    say "dtparam=spi=on"
    case "$model" in
        *"Raspberry Pi 4"*|*"Compute Module 4"*)   # also the Pi 400
            say "# Pi 4: a fixed core clock keeps the SPI LED timing stable (rpi_ws281x)"
            say "core_freq=500"
            say "core_freq_min=500" ;;
        *"Raspberry Pi 3"*|*"Compute Module 3"*)
            say "# Pi 3: a fixed core clock keeps the SPI LED timing stable (rpi_ws281x)"
            say "core_freq=250" ;;
    esac
}

# Replace (or add) our marked block at the end of config.txt; a no-op when it is already the same.
ensure_config_block() {
    local config="$1" wanted current
    wanted="$(printf '%s\n' "$BLOCK_BEGIN"; config_block; printf '%s\n' "$BLOCK_END")"
    if [[ ! -e "$config" ]]; then
        say "warning: $config not found; enable SPI by hand (raspi-config, Interface Options, SPI)"
        return
    fi
    current="$(sed -n "/^${BLOCK_BEGIN//\//\\/}\$/,/^${BLOCK_END//\//\\/}\$/p" "$config")"
    if [[ "$current" == "$wanted" ]]; then
        say "ok: $config already has the hotstreak block (dtparam=spi=on)"
        return
    fi
    BOOT_CHANGED=1
    if ((DRY_RUN)); then
        say "would write to $config:"
        say "    ${wanted//$'\n'/$'\n'    }"
        return
    fi
    local kept
    kept="$(without_config_block "$config"; printf x)"
    kept="${kept%x}"
    if [[ -n "$kept" && "$kept" != *$'\n' ]]; then kept+=$'\n'; fi
    write_atomic "$config" "$kept$wanted"$'\n'
    say "+ wrote the hotstreak block (dtparam=spi=on) to $config (old file: $config.hotstreak-backup)"
}

# config.txt without our block, on stdout.
without_config_block() {
    sed "/^${BLOCK_BEGIN//\//\\/}\$/,/^${BLOCK_END//\//\\/}\$/d" "$1"
}

remove_config_block() {
    local config="$1" kept
    [[ -e "$config" ]] || return 0
    grep -qxF "$BLOCK_BEGIN" "$config" || return 0
    if ((DRY_RUN)); then
        say "would remove the hotstreak block from $config"
        return
    fi
    kept="$(without_config_block "$config"; printf x)"
    write_atomic "$config" "${kept%x}"
    say "+ removed the hotstreak block from $config"
}

# Add each token to the single line of cmdline.txt if missing; record the ones we added for uninstall.
ensure_cmdline_tokens() {
    local cmdline="$1" state="$2" token line added=()
    if [[ ! -e "$cmdline" ]]; then
        say "warning: $cmdline not found; add consoleblank=0 to the kernel command line by hand"
        return
    fi
    line="$(head -n1 "$cmdline")"
    for token in "${CMDLINE_TOKENS[@]}"; do
        if [[ " $line " == *" $token "* ]]; then
            say "ok: $cmdline already has $token"
        elif [[ " $line " == *" ${token%%=*}="* ]]; then
            say "warning: $cmdline sets ${token%%=*} to another value; kept (the kiosk wants $token)"
        else
            added+=("$token")
            line="$line $token"
        fi
    done
    ((${#added[@]})) || return 0
    BOOT_CHANGED=1
    if ((DRY_RUN)); then
        say "would add to $cmdline: ${added[*]}"
        return
    fi
    write_atomic "$cmdline" "$line"$'\n'
    mkdir -p "$(dirname "$state")"
    printf '%s\n' "${added[@]}" >>"$state"
    say "+ added to $cmdline: ${added[*]} (old file: $cmdline.hotstreak-backup)"
}

remove_cmdline_tokens() {
    local cmdline="$1" state="$2" token line
    [[ -e "$cmdline" && -e "$state" ]] || return 0
    line=" $(head -n1 "$cmdline") "
    while read -r token; do
        [[ -n "$token" ]] && line="${line// $token / }"
    done <"$state"
    line="${line# }"; line="${line% }"
    if ((DRY_RUN)); then
        say "would remove from $cmdline: $(tr '\n' ' ' <"$state")"
        return
    fi
    write_atomic "$cmdline" "$line"$'\n'
    say "+ removed from $cmdline: $(tr '\n' ' ' <"$state")"
    rm -f "$state"
}

# The USB vendor:product of a sysfs device: walk up from it to the USB device that holds idVendor/idProduct.
usb_id_of() {
    local dir
    dir="$(readlink -f "$1")" || return 1
    while [[ -n "$dir" && "$dir" != / && "$dir" != "$ROOT" ]]; do
        if [[ -r "$dir/idVendor" && -r "$dir/idProduct" ]]; then
            printf '%s:%s\n' "$(tr -d '[:space:]' <"$dir/idVendor")" "$(tr -d '[:space:]' <"$dir/idProduct")"
            return 0
        fi
        dir="${dir%/*}"
    done
    return 1
}

# Plugged-in scanners, one "MODE VVVV:PPPP DEVICE" line each: USB serial ports (ttyACM*, ttyUSB*), and key-event
# devices named like a scanner or made by a scanner maker.
find_scanners() {
    local dev id name vendor
    for dev in "$ROOT"/sys/class/tty/ttyACM* "$ROOT"/sys/class/tty/ttyUSB*; do
        [[ -e "$dev/device" ]] || continue
        id="$(usb_id_of "$dev/device")" || continue
        say "serial $id ${dev##*/}"
    done
    for dev in "$ROOT"/sys/class/input/event*; do
        [[ -e "$dev/device" ]] || continue
        id="$(usb_id_of "$dev/device")" || continue
        name="$(tr -d '\0' <"$dev/device/name" 2>/dev/null || true)"
        vendor="${id%%:*}"
        if [[ "${name,,}" == *scan* || "${name,,}" == *barcode* || " ${SCANNER_VENDORS[*]} " == *" $vendor "* ]]; then
            say "hid $id ${dev##*/}"
        fi
    done
}

# The scanner mode: --scanner-mode, else [scanner] mode of the installed config, else auto.
configured_scanner_mode() {
    local config="$ROOT/etc/$APP/config.toml" mode
    if [[ -n "$SCANNER_MODE" ]]; then say "$SCANNER_MODE"; return; fi
    if [[ -r "$config" ]] && mode="$(python3 - "$config" 2>/dev/null <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print(tomllib.load(f).get("scanner", {}).get("mode", "auto"))
PY
)" && [[ "$mode" =~ ^(auto|serial|hid)$ ]]; then
        say "$mode"
    else
        say auto
    fi
}

# Decide the scanner ids and mode: ids from --scanner-id, else saved by an earlier run, else the plugged-in
# scanner; mode auto becomes hid only when the scanner found is a keyboard one. Sets SCANNER_IDS, SCANNER_MODE.
choose_scanner() {
    local ids_file="$ROOT/etc/$APP/scanner-ids" found=() line mode id
    mode="$(configured_scanner_mode)"
    mapfile -t found < <(find_scanners)
    if ((${#SCANNER_IDS[@]} == 0)) && [[ -e "$ids_file" ]]; then mapfile -t SCANNER_IDS <"$ids_file"; fi
    if ((${#SCANNER_IDS[@]} == 0)); then
        for line in "${found[@]}"; do
            read -r _ id _ <<<"$line"
            SCANNER_IDS+=("$id")
        done
        if ((${#found[@]})); then
            say "found scanner(s): ${found[*]}"
        else
            say "warning: no scanner found; plug it in and run this again, or give --scanner-id VVVV:PPPP (lsusb)"
        fi
    fi
    mapfile -t SCANNER_IDS < <(printf '%s\n' "${SCANNER_IDS[@]}" | tr 'A-F' 'a-f' \
        | grep -E '^[0-9a-f]{4}:[0-9a-f]{4}$' | sort -u || true)
    if [[ "$mode" == auto ]]; then
        mode=serial
        if ((${#found[@]})) && ! printf '%s\n' "${found[@]}" | grep -q '^serial '; then mode=hid; fi
    fi
    SCANNER_MODE="$mode"
    say "scanner mode: $SCANNER_MODE (ids: ${SCANNER_IDS[*]:-none})"
}

# Copy the udev rule with one line per scanner id after the LOCAL marker; remember the ids for later runs.
install_udev_rule() {
    local dest="$ROOT/etc/udev/rules.d/99-$APP-scanner.rules" ids_file="$ROOT/etc/$APP/scanner-ids"
    local id tmp
    tmp="$(mktemp)"
    while IFS= read -r line; do
        printf '%s\n' "$line"
        if [[ "$line" == "# LOCAL scanner ids"* ]]; then
            for id in "${SCANNER_IDS[@]}"; do
                printf 'ATTRS{idVendor}=="%s", ATTRS{idProduct}=="%s", GOTO="hotstreak_scanner"\n' \
                    "${id%%:*}" "${id##*:}"
            done
        fi
    done <"$SRC_DIR/systemd/99-$APP-scanner.rules" >"$tmp"
    if ((DRY_RUN)); then
        say "would install the udev rule $dest (scanner ids: ${SCANNER_IDS[*]:-none})"
        grep -A "${#SCANNER_IDS[@]}" '^# LOCAL scanner ids' "$tmp" | tail -n +2 | sed 's/^/    /' || true
        rm -f "$tmp"
        return
    fi
    install -D -m 0644 "$tmp" "$dest"
    rm -f "$tmp"
    if ((${#SCANNER_IDS[@]})); then
        [[ -d "$ROOT/etc/$APP" ]] || install -d -m 0755 "$ROOT/etc/$APP"  # install_config made it 0775
        printf '%s\n' "${SCANNER_IDS[@]}" >"$ids_file"
    fi
    say "+ installed $dest (scanner ids: ${SCANNER_IDS[*]:-none})"
}

# HID mode: a drop-in that adds the group input to the service; any other mode: no drop-in, and the user is
# taken out of input (earlier versions added it).
install_hid_dropin() {
    local dir="$ROOT/etc/systemd/system/$APP.service.d"
    if [[ "$SCANNER_MODE" == hid ]]; then
        if ((DRY_RUN)); then
            say "would write $dir/$HID_DROPIN_NAME (SupplementaryGroups=input: the HID scanner's key events)"
            return
        fi
        install -d -m 0755 "$dir"
        printf '%s\n' "# Written by systemd/install.sh: the scanner is a USB keyboard (HID) one." \
            "[Service]" "SupplementaryGroups=input" >"$dir/$HID_DROPIN_NAME"
        say "+ wrote $dir/$HID_DROPIN_NAME (the service joins group input for the HID scanner)"
    else
        if [[ -e "$dir/$HID_DROPIN_NAME" ]]; then run rm -f "$dir/$HID_DROPIN_NAME"; fi
        if user_in_group "$APP" input; then
            run gpasswd --delete "$APP" input
        fi
    fi
}

install_apt_packages() {
    if ((SKIP_APT)); then say "skip: apt packages (--skip-apt)"; return; fi
    run apt-get update
    local packages=("${APT_PACKAGES[@]}") package
    for package in "${APT_PACKAGES_PI[@]}"; do
        if apt-cache show "$package" >/dev/null 2>&1; then
            packages+=("$package")
        else
            say "note: $package is not in the apt sources (not Raspberry Pi OS?); skipped"
        fi
    done
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}"
}

ensure_user() {
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        if ! has_group "$group"; then
            run groupadd --system "$group"
        fi
    done
    if has_user "$APP"; then
        say "ok: user $APP exists"
    else
        run useradd --system --user-group --home-dir "/var/lib/$APP" --no-create-home \
            --shell /usr/sbin/nologin --comment "Hot Streak Companion" "$APP"
    fi
    run usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$APP"
}

# A user's or group's numeric id ("" when there is none): from the --root tree when --root is given.
user_id() {
    if [[ -n "$ROOT" ]]; then
        awk -F: -v name="$1" '$1 == name { print $3; exit }' "$ROOT/etc/passwd" 2>/dev/null || true
    else
        id -u "$1" 2>/dev/null || true
    fi
}

group_id() {
    if [[ -n "$ROOT" ]]; then
        awk -F: -v name="$1" '$1 == name { print $3; exit }' "$ROOT/etc/group" 2>/dev/null || true
    else
        getent group "$1" 2>/dev/null | cut -d: -f3 || true
    fi
}

# The prefix holds the venv that this script runs as root on its next run (python3, pip): the service user must
# not be able to change anything on the way to it. Refused: a prefix inside a folder systemd gives the service
# (/var/lib/hotstreak, /var/cache/hotstreak, ...), a symlink on the way, and the prefix or any folder above it
# that exists and is owned by the service user, writable by one of its groups, or writable by everyone without
# the sticky bit (as /tmp has).
check_prefix_owner() {
    local path="$PREFIX" uid owner group_owner perm mode group gid
    local -a groups=("$APP" "${GROUPS_NEEDED[@]}" input)
    case "$PREFIX/" in
        "/var/lib/$APP/"*|"/var/cache/$APP/"*|"/var/log/$APP/"*|"/etc/$APP/"*|"/home/$APP/"*)
            die "--prefix '$PREFIX' is inside a folder of the service user $APP, which could then change what a later root run of this script executes; give a directory only root can write, e.g. $DEFAULT_PREFIX" ;;
    esac
    uid="$(user_id "$APP")"
    while :; do
        if [[ -L "$ROOT$path" ]]; then
            die "--prefix '$PREFIX': $path is a symlink; give the real path of a directory only root can write"
        fi
        if [[ -e "$ROOT$path" ]]; then
            read -r owner group_owner perm < <(stat -c '%u %g %a' "$ROOT$path")
            mode=$((8#$perm))
            if [[ -n "$uid" && "$owner" == "$uid" ]]; then
                die "--prefix '$PREFIX': $path is owned by the service user $APP, which could then change what a later root run of this script executes; give a directory only root can write, e.g. $DEFAULT_PREFIX"
            fi
            if ((mode & 8#020)); then
                for group in "${groups[@]}"; do
                    gid="$(group_id "$group")"
                    if [[ -n "$gid" && "$gid" == "$group_owner" ]]; then
                        die "--prefix '$PREFIX': $path is writable by group $group of the service user $APP; give a directory only root can write, e.g. $DEFAULT_PREFIX"
                    fi
                done
            fi
            if ((mode & 8#002)) && ! ((mode & 8#1000)); then
                die "--prefix '$PREFIX': $path is writable by everyone (mode $perm, no sticky bit); give a directory only root can write, e.g. $DEFAULT_PREFIX"
            fi
        fi
        [[ "$path" != / ]] || break
        path="$(dirname "$path")"
    done
}

# What an earlier version of this script left in the prefix (it wrote no manifest).
readonly LEGACY_ENTRIES=(venv README.md cmdline-added)

# Install refuses a prefix that holds anything but an earlier install: uninstall must never remove what
# install did not create. Sets PREFIX_IS_NEW when the directory is not there yet.
PREFIX_IS_NEW=0
check_prefix_for_install() {
    local dir="$ROOT$PREFIX" entry
    if [[ ! -e "$dir" ]]; then PREFIX_IS_NEW=1; return; fi
    [[ -d "$dir" ]] || die "--prefix '$PREFIX' is a file, not a directory"
    [[ ! -e "$dir/$MANIFEST_NAME" ]] || return 0
    for entry in "$dir"/* "$dir"/.[!.]*; do
        [[ -e "$entry" || -L "$entry" ]] || continue
        if [[ " ${LEGACY_ENTRIES[*]} " != *" ${entry##*/} "* ]]; then
            die "--prefix '$PREFIX' already holds other files (${entry##*/}) and no $MANIFEST_NAME: give a new or empty directory"
        fi
    done
    [[ -n "$(ls -A "$dir")" ]] || PREFIX_IS_NEW=1
}

# The manifest: the paths (as on the machine) that install created under the prefix, one a line.
write_manifest() {
    local manifest="$ROOT$PREFIX/$MANIFEST_NAME" entries=() old=()
    if ((DRY_RUN)); then
        say "would list what was installed under $PREFIX in $PREFIX/$MANIFEST_NAME (uninstall removes only that)"
        return
    fi
    if [[ -e "$manifest" ]]; then mapfile -t old <"$manifest"; fi
    if ((PREFIX_IS_NEW)) || printf '%s\n' "${old[@]}" | grep -qxF "$PREFIX"; then entries+=("$PREFIX"); fi
    entries+=("$PREFIX/venv" "$PREFIX/README.md" "$PREFIX/$MANIFEST_NAME")
    if [[ -e "$ROOT$PREFIX/cmdline-added" ]]; then entries+=("$PREFIX/cmdline-added"); fi
    printf '%s\n' "${entries[@]}" >"$manifest"
    say "+ wrote $PREFIX/$MANIFEST_NAME (${#entries[@]} paths: what --uninstall removes)"
}

# A copy of the checkout (without .git, venvs and build output) in a temporary directory: the wheel is built
# there, so the install writes nothing into the owner's checkout.
stage_source() {
    if ((DRY_RUN)); then
        STAGE="\$TMPDIR/hotstreak-install.XXXXXX"
        say "would copy $SRC_DIR (without .git, .venv, build/, *.egg-info) to $STAGE/src"
        return
    fi
    STAGE="$(mktemp -d "${TMPDIR:-/tmp}/hotstreak-install.XXXXXX")"
    trap 'rm -rf "$STAGE"' EXIT
    mkdir "$STAGE/src"
    tar -C "$SRC_DIR" --exclude=.git --exclude=.venv --exclude=venv --exclude=build --exclude='*.egg-info' \
        --exclude=__pycache__ --exclude=.pytest_cache --exclude=.mypy_cache -cf - . | tar -C "$STAGE/src" -xf -
    say "+ copied $SRC_DIR to $STAGE/src (the wheel is built there)"
}

# The venv sees the system packages (Debian's python3-evdev and python3-spidev; python3-lgpio for gpiozero on
# Raspberry Pi OS). The dependencies are the pinned versions of the lock file, each checked against its hash;
# pygame-ce is built from its (hash-checked) source so that it links the system SDL2, which has the KMSDRM
# video driver the PyPI wheels lack. The project itself: a wheel built from a copy of the checkout.
install_venv() {
    local venv="$PREFIX/venv" pip wheel
    if [[ -x "$ROOT$venv/bin/python" ]]; then
        say "ok: venv $venv exists"
    else
        run python3 -m venv --system-site-packages "$ROOT$venv"
    fi
    pip="$ROOT$venv/bin/pip"
    [[ -r "$SRC_DIR/$LOCK_FILE" ]] || die "$SRC_DIR/$LOCK_FILE is missing (the pinned dependencies)"
    run "$pip" install --require-hashes --no-binary pygame-ce -r "$SRC_DIR/$LOCK_FILE"
    stage_source
    run "$pip" wheel --no-deps --wheel-dir "$STAGE/wheel" "$STAGE/src"
    if ((DRY_RUN)); then
        wheel="$STAGE/wheel/hotstreak_companion-*.whl"
    else
        wheel="$(find "$STAGE/wheel" -name 'hotstreak_companion-*.whl' | head -n1)"
        [[ -n "$wheel" ]] || die "pip built no wheel of $SRC_DIR"
    fi
    # The version does not change between commits of a checkout: reinstall the project itself every time.
    run "$pip" install --no-deps --force-reinstall "$wheel"
    check_venv_imports "$venv"
    run install -D -m 0644 "$SRC_DIR/README.md" "$ROOT$PREFIX/README.md"
}

# The device libraries come from Debian (apt) or the lock file: say which one is missing, not a traceback.
check_venv_imports() {
    local venv="$1" missing
    if ((DRY_RUN)); then
        say "would check that $venv imports evdev, spidev, rpi_ws281x, pygame, gpiozero and serial"
        return
    fi
    missing="$("$ROOT$venv/bin/python" -c '
import importlib.util
print(" ".join(m for m in ("evdev", "spidev", "rpi_ws281x", "pygame", "gpiozero", "serial")
               if importlib.util.find_spec(m) is None))')"
    [[ -z "$missing" ]] || die "the venv $venv cannot import: $missing (evdev and spidev come from apt: python3-evdev python3-spidev; run without --skip-apt)"
    say "ok: the venv imports evdev, spidev, rpi_ws281x, pygame, gpiozero and serial"
}

# The table's config file /etc/hotstreak/config.toml: the service reads it (ConfigurationDirectory= in the unit
# sets $CONFIGURATION_DIRECTORY) and the service mode's LED calibration writes it, with a backup and a
# temporary file beside it; so the folder is root:hotstreak 0775 and the file hotstreak's. An existing file is
# kept. A new one holds only comments (every setting at its default): `hotstreak config` prints them all.
install_config() {
    local dir="$ROOT/etc/$APP" config="$ROOT/etc/$APP/config.toml"
    if ((DRY_RUN)); then
        say "would make $dir (root:$APP, 0775) and $config (owned by $APP; kept when it exists)"
        return
    fi
    install -d -o root -g "$APP" -m 0775 "$dir"
    if [[ -e "$config" ]]; then
        chown "$APP:$APP" "$config"
        say "ok: $config exists (kept)"
        return
    fi
    cat >"$config" <<'CONFIG'
# Hot Streak Companion: the table's config (TOML). Every setting left out has its default; docs/config.md
# lists them, and `hotstreak config` prints the effective configuration. The kiosk service reads this file,
# and the service mode's LED calibration writes its [leds] lanes here (the old file kept as config.toml.bak).
CONFIG
    chown "$APP:$APP" "$config"
    chmod 0644 "$config"
    say "+ wrote $config (the defaults; owned by $APP)"
}

install_files() {
    local unit="$ROOT/etc/systemd/system/$APP.service" defaults="$ROOT/etc/default/$APP" text
    if [[ "$PREFIX" == "$DEFAULT_PREFIX" ]]; then
        run install -D -m 0644 "$SRC_DIR/systemd/$APP.service" "$unit"
    elif ((DRY_RUN)); then
        say "would install $unit with $DEFAULT_PREFIX replaced by $PREFIX"
    else
        text="$(<"$SRC_DIR/systemd/$APP.service")"
        install -d -m 0755 "$(dirname "$unit")"
        printf '%s\n' "${text//"$DEFAULT_PREFIX"/"$PREFIX"}" >"$unit"
        chmod 0644 "$unit"
        say "+ installed $unit (prefix $PREFIX)"
    fi
    install_config
    choose_scanner
    install_udev_rule
    install_hid_dropin
    if [[ -e "$defaults" ]]; then
        say "ok: $defaults exists (kept)"
    elif ((DRY_RUN)); then
        say "would write $defaults (extra arguments for hotstreak run)"
    else
        install -d -m 0755 "$(dirname "$defaults")"
        cat >"$defaults" <<'DEFAULTS'
# Extra arguments for `hotstreak run` in the kiosk service (read by hotstreak.service).
# Examples: --hardware pi   --scanner /dev/ttyACM0
HOTSTREAK_ARGS=
# The service reads /etc/hotstreak/config.toml (and its LED calibration writes it). To use another file,
# name it here: the service and its calibration then use that one (the service must be able to write it).
#HOTSTREAK_CONFIG=/etc/hotstreak/config.toml
DEFAULTS
        say "+ wrote $defaults"
    fi
}

configure_boot() {
    local boot
    boot="$(boot_dir)"
    ensure_config_block "$boot/config.txt"
    ensure_cmdline_tokens "$boot/cmdline.txt" "$ROOT$PREFIX/cmdline-added"
}

# No running systemd (a chroot, an image build, a container): --offline, or found by itself.
detect_offline() {
    ((OFFLINE)) && return 0
    if [[ ! -d "$ROOT/run/systemd/system" ]]; then
        OFFLINE=1
        OFFLINE_WHY="systemd is not running here ($ROOT/run/systemd/system is missing: a chroot or an image build?)"
    fi
}

reload_and_enable() {
    if ((OFFLINE)); then
        # systemctl --root works on the unit files alone: no running systemd needed.
        if ((DRY_RUN)) || command -v systemctl >/dev/null; then
            run systemctl --root="${ROOT:-/}" enable "$APP.service"
        else
            say "warning: no systemctl here: enable $APP.service on the first boot (systemctl enable --now $APP)"
        fi
        return
    fi
    run udevadm control --reload
    run udevadm trigger --subsystem-match=tty --subsystem-match=input --action=add
    run systemctl daemon-reload
    run systemctl enable "$APP.service"
    if ((START)); then run systemctl restart "$APP.service"; fi
}

do_install() {
    detect_offline
    say "Installing Hot Streak Companion from $SRC_DIR into $PREFIX${ROOT:+ (root $ROOT)}"
    if ((OFFLINE)); then say "offline: $OFFLINE_WHY; the service is enabled, not started"; fi
    check_prefix_owner
    check_prefix_for_install
    install_apt_packages
    ensure_user
    run install -d -m 0755 "$ROOT$PREFIX"
    install_venv
    install_files
    configure_boot
    write_manifest
    reload_and_enable
    if ((OFFLINE)); then
        say "Done (offline). Left for the first boot: udev loads $ROOT/etc/udev/rules.d/99-$APP-scanner.rules,"
        say "  systemd starts $APP.service (enabled), the boot settings take effect. Then check the machine with:"
        say "  sudo -u $APP $PREFIX/venv/bin/hotstreak doctor"
        return
    fi
    say "Done. Check the machine with: sudo -u $APP $PREFIX/venv/bin/hotstreak doctor"
    if ((BOOT_CHANGED)); then
        say "The boot configuration changed: reboot (sudo reboot) for SPI and console blanking to apply."
    fi
}

# Remove what the manifest lists under the prefix (the venv, files, then the prefix itself when install made
# it and it is empty). No manifest: an earlier version's install is recognised by its known entries alone;
# anything else is left alone.
remove_prefix() {
    local dir="$ROOT$PREFIX" manifest="$ROOT$PREFIX/$MANIFEST_NAME" entries=() entry own_dir=0 name
    if [[ -e "$manifest" ]]; then
        mapfile -t entries <"$manifest"
    elif [[ -d "$dir" ]]; then
        for entry in "$dir"/* "$dir"/.[!.]*; do
            [[ -e "$entry" || -L "$entry" ]] || continue
            name="${entry##*/}"
            if [[ " ${LEGACY_ENTRIES[*]} " != *" $name "* ]]; then
                say "kept: $PREFIX (no $MANIFEST_NAME, and it holds $name: not installed by this script)"
                return
            fi
            entries+=("$PREFIX/$name")
        done
    else
        say "ok: nothing installed in $PREFIX"
        return
    fi
    for entry in "${entries[@]}"; do
        [[ -n "$entry" ]] || continue
        if [[ "$entry" == "$PREFIX" ]]; then
            own_dir=1
        elif [[ "$entry" == "$PREFIX/venv" ]]; then
            run rm -rf "$ROOT$entry"
        elif [[ "$entry" == "$PREFIX"/* && "/$entry/" != *"/../"* && "$entry" != "$PREFIX/$MANIFEST_NAME" ]]; then
            if [[ -e "$ROOT$entry" || -L "$ROOT$entry" ]]; then run rm -f "$ROOT$entry"; fi
        elif [[ "$entry" != "$PREFIX/$MANIFEST_NAME" ]]; then
            say "warning: $MANIFEST_NAME lists $entry, which is not inside $PREFIX; not removed"
        fi
    done
    if [[ -e "$manifest" ]]; then run rm -f "$manifest"; fi
    if ((own_dir)) || [[ "$PREFIX" == "$DEFAULT_PREFIX" && ! -e "$manifest" && ${#entries[@]} -gt 0 ]]; then
        if ((DRY_RUN)); then
            say "would remove $PREFIX if it is empty then"
        elif [[ -d "$dir" ]] && [[ -z "$(ls -A "$dir")" ]]; then
            run rmdir "$dir"
        fi
    fi
}

do_uninstall() {
    local boot
    detect_offline
    say "Uninstalling Hot Streak Companion${ROOT:+ (root $ROOT)}"
    if [[ -e "$ROOT/etc/systemd/system/$APP.service" ]]; then
        if ((OFFLINE)); then
            run systemctl --root="${ROOT:-/}" disable "$APP.service"
        else
            run systemctl disable --now "$APP.service"
        fi
    fi
    run rm -f "$ROOT/etc/systemd/system/$APP.service" "$ROOT/etc/udev/rules.d/99-$APP-scanner.rules" \
        "$ROOT/etc/systemd/system/$APP.service.d/$HID_DROPIN_NAME"
    boot="$(boot_dir)"
    remove_config_block "$boot/config.txt"
    remove_cmdline_tokens "$boot/cmdline.txt" "$ROOT$PREFIX/cmdline-added"
    remove_prefix
    if ((!OFFLINE)); then
        run systemctl daemon-reload
        run udevadm control --reload
    fi
    if ((PURGE)); then
        run rm -rf "$ROOT/var/lib/$APP" "$ROOT/var/cache/$APP" "$ROOT/var/log/$APP" "$ROOT/etc/$APP" \
            "$ROOT/etc/default/$APP"
        if has_user "$APP"; then run userdel "$APP"; fi
    else
        say "kept: the journal /var/lib/$APP, /etc/$APP, /etc/default/$APP and the user $APP (--purge removes them)"
    fi
    say "kept: the apt packages (other programs may use them)"
    say "Done. Reboot to drop the boot settings."
}

main() {
    parse_args "$@"
    if ((DRY_RUN)); then say "dry run: nothing is changed"; fi
    if ((BOOT_ONLY && UNINSTALL)); then
        remove_config_block "$(boot_dir)/config.txt"
        remove_cmdline_tokens "$(boot_dir)/cmdline.txt" "$ROOT$PREFIX/cmdline-added"
    elif ((BOOT_ONLY)); then
        configure_boot
        if ((BOOT_CHANGED)); then say "The boot configuration changed: reboot for it to apply."; fi
    elif ((UNINSTALL)); then
        do_uninstall
    else
        do_install
    fi
}

main "$@"
