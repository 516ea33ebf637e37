"""Print barcode sticker sheets for race cards, betting tickets, side bet cards and the controls.

`--out F.pdf` writes the sheets (print at actual size, no scaling); `--codes` lists every code and what it
means, one per line. Labels come from the deck data and the code definitions, never from a fixed list.
"""

from __future__ import annotations

import argparse

from companion.tools.labels import (DEFAULT_LAYOUT, GROUPS, LAYOUTS, PAPERS, SYMBOLOGIES, build_labels, codes_listing,
                              render_pdf)
from companion.commands.outpath import output_file
from companion.rules import load_deck


def add_arguments(p: argparse.ArgumentParser) -> None:
    # values are checked in run(), so a bad one gives the usual one-line message and exit status 2
    p.add_argument("--out", metavar="F.pdf", help="write the label sheets to this PDF file")
    p.add_argument("--codes", action="store_true", help="list every code and what it means instead")
    p.add_argument("--paper", metavar="|".join(PAPERS), help="paper size (default: a4, or the layout's)")
    p.add_argument("--layout", metavar="NAME", help="sticker sheet layout, overrides the paper's default: "
                   + "; ".join(f"{name}: {lay.description}" for name, lay in LAYOUTS.items()))
    p.add_argument("--symbology", default="code128", metavar="|".join(SYMBOLOGIES),
                   help="barcode kind (default: code128)")
    p.add_argument("--only", action="append", metavar="|".join(GROUPS),
                   help="only these labels; repeat or separate with commas (default: all)")
    p.add_argument("--skip", default="0", metavar="N",
                   help="leave the first N stickers of the first sheet empty (a partly used sheet)")
    p.add_argument("--outline", action="store_true", help="draw sticker outlines (test print on plain paper)")
    p.add_argument("--deck", help="deck data file (TOML); default: the packaged deck")


def _choice(value: str, allowed: tuple[str, ...] | list[str], what: str, option: str) -> str:
    v = value.strip().lower()
    if v not in allowed:
        raise ValueError(f"{option}: unknown {what} {value!r} (expected one of: {', '.join(allowed)})")
    return v


def run(args: argparse.Namespace) -> int:
    if args.codes and args.out is not None:
        raise ValueError(f"--codes lists the codes and writes no sheets; --out {args.out!r} would be ignored "
                         "(expected one of them: --out F.pdf to write the sheets, or --codes to list the codes)")
    # every value is checked before anything is read or written, whatever else is missing
    groups = [_choice(g, GROUPS, "label group", "--only") for item in (args.only or []) for g in item.split(",")
              if g.strip()]
    paper = _choice(args.paper, PAPERS, "paper", "--paper") if args.paper else None
    if args.layout:
        layout = LAYOUTS[_choice(args.layout, list(LAYOUTS), "layout", "--layout")]
        if paper and layout.paper != paper:
            raise ValueError(f"--layout {layout.name!r} is for {layout.paper} paper, not --paper {paper}")
    else:
        layout = LAYOUTS[DEFAULT_LAYOUT[paper or "a4"]]
    symbology = _choice(args.symbology, SYMBOLOGIES, "symbology", "--symbology")
    try:
        skip = int(args.skip)
    except ValueError:
        skip = -1
    if not 0 <= skip < layout.per_page:
        raise ValueError(f"--skip {args.skip} is not a sticker of the {layout.name} sheet "
                         f"(expected a whole number 0..{layout.per_page - 1})")
    labels = build_labels(load_deck(args.deck), groups or GROUPS)
    if args.codes:
        for line in codes_listing(labels):
            print(line)
        return 0
    if args.out is None:
        raise ValueError("nothing to do: give --out F.pdf to write the label sheets, or --codes to list the codes")
    out = output_file(args.out, ".pdf", "--out")
    placements = render_pdf(labels, out, layout, symbology=symbology, skip=skip, outline=args.outline)
    pages = placements[-1].page + 1 if placements else 0
    print(f"wrote {out}: {len(placements)} labels on {pages} pages, layout {layout.name} ({layout.description}), "
          f"{symbology}; print at actual size, no scaling")
    return 0
