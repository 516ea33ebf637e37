#!/usr/bin/env bash
# Remake the screen pictures in docs/ (1920x1080, SDL's dummy video driver: no display needed).
# Run from the top of the checkout with the venv active: bash docs/screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
shot() { hotstreak screenshot --size 1920x1080 "$@"; }
race=(HS15 HS04 HS36 HS24 HS45 HS19 HS39 HS10)   # the last one: Gobbler's G+2>
shot --screen race --cards "${race[@]}" --out docs/screen-race.png
shot --screen race --cards HS51 HS27 HS24 HS25 HS38 HS01 HS29 HS03 HS12 HS40 HS13 HS08 HS16 HS30 HS23 \
    --out docs/screen-fold.png
shot --screen race --cards "${race[@]}" --now 1 \
    --message "Already scanned." \
    --out docs/screen-refusal.png
shot --screen moment-knockout --out docs/screen-moment-knockout.png
shot --screen race-end --out docs/screen-race-end.png
for screen in attract setup betting payouts game-over; do
    shot --screen "$screen" --out "docs/screen-$screen.png"
done
# Every big moment (and the race end) at 1080p and on the 7-inch panel (800x480): docs/moments/
mkdir -p docs/moments
for moment in moment-fall moment-knockout moment-out moment-finish moment-side-bet moment-winner race-end; do
    shot --screen "$moment" --out "docs/moments/$moment-1080p.png"
    hotstreak screenshot --size 800x480 --screen "$moment" --out "docs/moments/$moment-800x480.png"
done
for screen in race betting payouts game-over; do
    hotstreak screenshot --size 800x480 --screen "$screen" --out "docs/screen-$screen-800x480.png"
done
# The service mode's screens (docs/service.md): docs/service/
python -m companion.service.samples docs/service
