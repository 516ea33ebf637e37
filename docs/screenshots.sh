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
for screen in attract setup betting payouts game-over betting-open; do
    shot --screen "$screen" --out "docs/screen-$screen.png"
done
# Every big moment (and the race end) at 1080p and on the 7-inch panel (800x480): docs/moments/
mkdir -p docs/moments
for moment in moment-fall moment-knockout moment-out moment-finish moment-side-bet moment-winner race-end; do
    shot --screen "$moment" --out "docs/moments/$moment-1080p.png"
    hotstreak screenshot --size 800x480 --screen "$moment" --out "docs/moments/$moment-800x480.png"
done
for screen in race betting payouts game-over betting-open; do
    hotstreak screenshot --size 800x480 --screen "$screen" --out "docs/screen-$screen-800x480.png"
done
# The 7-inch panel's own screens (docs/screen.md: layout per screen size), and the last-card panel at 720p
panel() { hotstreak screenshot --size 800x480 "$@"; }
panel --screen race --lang es --cards "${race[@]}" --out docs/screen-race-800x480-es.png
panel --screen race --cards "${race[@]}" --now 1 --message "Already scanned." --out docs/screen-refusal-800x480.png
panel --screen race --cards HS51 HS27 HS24 HS25 HS38 HS01 HS29 HS03 HS12 HS40 HS13 HS08 HS16 HS30 HS23 \
    --out docs/screen-fold-800x480.png
panel --screen payouts --lang nl --out docs/screen-payouts-800x480-nl.png
panel --screen attract --out docs/screen-attract-800x480.png
panel --screen setup --out docs/screen-setup-800x480.png
panel --screen game-over --now 7 --out docs/screen-game-over-800x480-page2.png
hotstreak screenshot --size 1280x720 --screen race --cards HS32 HS51 HS02 HS24 HS21 HS35 HS53 HS10 HS05 HS12 HS49 \
    HS18 HS13 --out docs/screen-turned-720p.png
hotstreak screenshot --size 1280x720 --screen race --cards H+2 G+1 A+1 --out docs/screen-all-720p.png
# A move in motion (docs/motion/): Gobbler's G+3> (HS11) runs 6 -> 9 in lane 2, knocks Hurley down on 7, swerves
# into lane 3; frames 0.1, 0.25, 0.4 and 0.55 s after the card, then at rest; and the podium rising at the race's end
mkdir -p docs/motion
move=(HS15 HS10 HS30 HS36 HS45 HS11)
for t in 0.1 0.25 0.4 0.55; do
    shot --screen race --cards "${move[@]}" --now "$t" --out "docs/motion/move-$t-1080p.png"
    hotstreak screenshot --size 800x480 --screen race --cards "${move[@]}" --now "$t" --out "docs/motion/move-$t-800x480.png"
done
shot --screen race --cards "${move[@]}" --out docs/motion/move-rest-1080p.png
hotstreak screenshot --size 800x480 --screen race --cards "${move[@]}" --out docs/motion/move-rest-800x480.png
for t in 2.8 3.3; do
    shot --screen race-end --now "$t" --out "docs/motion/podium-$t-1080p.png"
done
# The service mode's screens (docs/service.md): docs/service/
python -m companion.service.samples docs/service
