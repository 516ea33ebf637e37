"""Draw the table's wiring diagram from its config: an SVG with the builder's own pins and lanes.

`--out F.svg` writes the picture: the Raspberry Pi's header pins in use (the LED data pin and the buttons of
`[buttons]`), the 74AHCT125 level shifter, the 5 V supply sized for the strip at the brightness cap with its
fuse and capacitor, where the 5 V goes in, and each lane's piece of strip with its pixel range from the
`[leds]` lane map. The same facts are printed as lines. Open the SVG in a web browser or print it. How to
build from it: docs/build.md. Without --config it reads the table's config file where every command finds it
(docs/config.md), or the defaults when there is none.
"""

from __future__ import annotations

import argparse

from companion.commands.outpath import output_file
from companion.kiosk.config import load_config, rule_data
from companion.kiosk.config_path import HELP, config_location
from companion.tools.wiring_plan import describe, plan
from companion.tools.wiring_svg import render


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help=HELP)
    p.add_argument("--out", metavar="F.svg", help="write the wiring diagram to this SVG file")


def run(args: argparse.Namespace) -> int:
    if args.out is None:
        raise ValueError("nothing to do: give --out F.svg to write the wiring diagram")
    out = output_file(args.out, ".svg", "--out")
    cfg = load_config(args.config)
    track, _deck = rule_data(cfg)
    wiring = plan(cfg, track)
    read = config_location(args.config).to_read()
    source = str(read) if read is not None else "the default settings"
    out.write_text(render(wiring, source), encoding="utf-8")
    for line in describe(wiring):
        print(line)
    print(f"wrote {out}: open it in a web browser or print it")
    return 0
