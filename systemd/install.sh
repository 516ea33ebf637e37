#!/usr/bin/env bash
# Install Hot Streak Companion as a kiosk service on Raspberry Pi OS (Bookworm or newer, Lite is enough).
#
#   sudo systemd/install.sh                      install or update (safe to run again)
#   sudo systemd/install.sh --scanner-id 1eab:8306   the scanner's USB vendor:product (else: the plugged-in one)
#   sudo systemd/install.sh --scanner-mode hid   a USB keyboard (HID) scanner: the service joins group input
#   systemd/install.sh --dry-run                 print what would be done, change nothing (no root needed)
#   sudo systemd/install.sh --uninstall          remove the service, rule, venv and boot settings we added
#   sudo systemd/install.sh --uninstall --purge  ... and the journal, caches, config and the user
#
# What it does: apt packages, the system user `hotstreak` and its groups, a venv in /opt/hotstreak/venv with
# this checkout installed (pip install '.[pi]', pygame-ce built against the system SDL2 for KMSDRM), the
# unit /etc/systemd/system/hotstreak.service, the udev rule /etc/udev/rules.d/99-hotstreak-scanner.rules,
# SPI on and console blanking off in the boot config, then enables and (re)starts the service.
# See README.md, "Raspberry Pi kiosk".
set -euo pipefail

readonly APP=hotstreak
SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly SRC_DIR
PREFIX=/opt/hotstreak
ROOT=""            # --root DIR: a fake filesystem tree for --dry-run tests; "" is the real system
DRY_RUN=0
UNINSTALL=0
PURGE=0
START=1
SKIP_APT=0
BOOT_ONLY=0
SCANNER_IDS=()
SCANNER_MODE=""     # --scanner-mode; "" = [scanner] mode of /etc/hotstreak/config.toml, else auto
BOOT_CHANGED=0

# `input` is not here: it lets a process read every keyboard, so the service joins it (in a drop-in) only when
# the scanner is a keyboard (HID) one.
readonly GROUPS_NEEDED=(dialout gpio spi video render audio)
# USB vendor ids of scanner makers, to recognise a plugged-in scanner: Zebra/Symbol, Honeywell/Metrologic,
# Hand Held Products, Datalogic (PSC), Datalogic, Newland.
readonly SCANNER_VENDORS=(05e0 0c2e 0536 05f9 080c 1eab)
readonly HID_DROPIN_NAME=hid-scanner.conf
readonly APT_PACKAGES=(
    python3-venv python3-dev python3-pip build-essential pkg-config
    espeak-ng alsa-utils usbutils
    libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libsdl2-ttf-2.0-0
    libsdl2-dev libsdl2-image-dev libsdl2-mixer-dev libsdl2-ttf-dev
    libfreetype-dev libportmidi-dev libjpeg-dev libpng-dev
    fonts-dejavu-core
)
# Raspberry Pi OS only (archive.raspberrypi.com): lgpio is the GPIO backend gpiozero uses on a Pi 5.
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
  --prefix DIR         install directory (default $PREFIX)
  --no-start           enable the service but do not (re)start it now
  --skip-apt           do not install apt packages
  --boot-only          only the boot settings (config.txt, cmdline.txt); with --uninstall, only remove them
  --root DIR           act on a filesystem tree under DIR (tests); only with --dry-run or --boot-only
  -h, --help           this help
EOF
}

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 2; }

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
    remove_config_block "$config"
    if [[ -s "$config" && -n "$(tail -c1 "$config")" ]]; then printf '\n' >>"$config"; fi
    printf '%s\n' "$wanted" >>"$config"
    say "+ wrote the hotstreak block (dtparam=spi=on) to $config"
}

remove_config_block() {
    local config="$1"
    [[ -e "$config" ]] || return 0
    grep -qxF "$BLOCK_BEGIN" "$config" || return 0
    if ((DRY_RUN)); then
        say "would remove the hotstreak block from $config"
        return
    fi
    sed -i "/^${BLOCK_BEGIN//\//\\/}\$/,/^${BLOCK_END//\//\\/}\$/d" "$config"
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
    printf '%s\n' "$line" >"$cmdline"
    mkdir -p "$(dirname "$state")"
    printf '%s\n' "${added[@]}" >>"$state"
    say "+ added to $cmdline: ${added[*]}"
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
    printf '%s\n' "$line" >"$cmdline"
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
        install -d -m 0755 "$ROOT/etc/$APP"
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
        if [[ -z "$ROOT" ]] && id -nG "$APP" 2>/dev/null | tr ' ' '\n' | grep -qx input; then
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
        if ! getent group "$group" >/dev/null; then
            run groupadd --system "$group"
        fi
    done
    if id -u "$APP" >/dev/null 2>&1; then
        say "ok: user $APP exists"
    else
        run useradd --system --user-group --home-dir "/var/lib/$APP" --no-create-home \
            --shell /usr/sbin/nologin --comment "Hot Streak Companion" "$APP"
    fi
    run usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$APP"
}

# The venv sees the system packages (python3-lgpio for gpiozero on a Pi 5); pygame-ce is built from source
# so that it links the system SDL2, which has the KMSDRM video driver the PyPI wheels lack.
install_venv() {
    local venv="$PREFIX/venv"
    if [[ -x "$ROOT$venv/bin/python" ]]; then
        say "ok: venv $venv exists"
    else
        run python3 -m venv --system-site-packages "$ROOT$venv"
    fi
    run "$ROOT$venv/bin/pip" install --upgrade pip
    run "$ROOT$venv/bin/pip" install --no-binary pygame-ce "pygame-ce>=2.4"
    run "$ROOT$venv/bin/pip" install "${SRC_DIR}[pi]"
    # The version does not change between commits of a checkout: reinstall the project itself every time.
    run "$ROOT$venv/bin/pip" install --no-deps --force-reinstall "$SRC_DIR"
    run install -D -m 0644 "$SRC_DIR/README.md" "$ROOT$PREFIX/README.md"
}

install_files() {
    local unit="$ROOT/etc/systemd/system/$APP.service" defaults="$ROOT/etc/default/$APP"
    if [[ "$PREFIX" == /opt/hotstreak ]]; then
        run install -D -m 0644 "$SRC_DIR/systemd/$APP.service" "$unit"
    elif ((DRY_RUN)); then
        say "would install $unit with /opt/hotstreak replaced by $PREFIX"
    else
        sed "s#/opt/hotstreak#$PREFIX#g" "$SRC_DIR/systemd/$APP.service" >"$unit"
        chmod 0644 "$unit"
        say "+ installed $unit (prefix $PREFIX)"
    fi
    choose_scanner
    install_udev_rule
    install_hid_dropin
    if [[ -e "$defaults" ]]; then
        say "ok: $defaults exists (kept)"
    elif ((DRY_RUN)); then
        say "would write $defaults (extra arguments for hotstreak run)"
    else
        cat >"$defaults" <<'EOF'
# Extra arguments for `hotstreak run` in the kiosk service (read by hotstreak.service).
# Examples: --config /etc/hotstreak/config.toml   --hardware pi   --scanner /dev/ttyACM0
HOTSTREAK_ARGS=
# Or name the config file here (hotstreak run and hotstreak doctor both read it):
#HOTSTREAK_CONFIG=/etc/hotstreak/config.toml
EOF
        say "+ wrote $defaults"
    fi
}

configure_boot() {
    local boot
    boot="$(boot_dir)"
    ensure_config_block "$boot/config.txt"
    ensure_cmdline_tokens "$boot/cmdline.txt" "$ROOT$PREFIX/cmdline-added"
}

reload_and_enable() {
    [[ -z "$ROOT" ]] || { say "skip: systemctl and udevadm (--root)"; return; }
    run udevadm control --reload
    run udevadm trigger --subsystem-match=tty --subsystem-match=input --action=add
    run systemctl daemon-reload
    run systemctl enable "$APP.service"
    if ((START)); then run systemctl restart "$APP.service"; fi
}

do_install() {
    say "Installing Hot Streak Companion from $SRC_DIR into $PREFIX${ROOT:+ (root $ROOT)}"
    install_apt_packages
    ensure_user
    run install -d -m 0755 "$ROOT$PREFIX"
    install_venv
    install_files
    configure_boot
    reload_and_enable
    say "Done. Check the machine with: sudo -u $APP $PREFIX/venv/bin/hotstreak doctor"
    if ((BOOT_CHANGED)); then
        say "The boot configuration changed: reboot (sudo reboot) for SPI and console blanking to apply."
    fi
}

do_uninstall() {
    local boot
    say "Uninstalling Hot Streak Companion${ROOT:+ (root $ROOT)}"
    if [[ -z "$ROOT" ]]; then
        if [[ -e "/etc/systemd/system/$APP.service" ]]; then
            run systemctl disable --now "$APP.service"
        fi
    fi
    run rm -f "$ROOT/etc/systemd/system/$APP.service" "$ROOT/etc/udev/rules.d/99-$APP-scanner.rules" \
        "$ROOT/etc/systemd/system/$APP.service.d/$HID_DROPIN_NAME"
    boot="$(boot_dir)"
    remove_config_block "$boot/config.txt"
    remove_cmdline_tokens "$boot/cmdline.txt" "$ROOT$PREFIX/cmdline-added"
    run rm -rf "$ROOT$PREFIX"
    if [[ -z "$ROOT" ]]; then
        run systemctl daemon-reload
        run udevadm control --reload
    fi
    if ((PURGE)); then
        run rm -rf "$ROOT/var/lib/$APP" "$ROOT/var/cache/$APP" "$ROOT/var/log/$APP" "$ROOT/etc/$APP" \
            "$ROOT/etc/default/$APP"
        if id -u "$APP" >/dev/null 2>&1; then run userdel "$APP"; fi
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
