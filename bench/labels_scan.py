"""Scan check of every label layout and symbology, by hand: prints figures, asserts nothing.

For each layout x symbology: render time, page count, and how many stickers decode to exactly their own code
when each sticker's area is cut from the page rasterised by pdftoppm at 300 dpi (the print resolution the
barcodes are sized for) and at lower resolutions (a margin figure: a worse print or a blurrier camera).

    PYTHONPATH=. python bench/labels_scan.py [--dpi 300,200,150]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

from PIL import Image
from pyzbar.pyzbar import ZBarSymbol, decode

from companion.tools.labels import LAYOUTS, MM, SYMBOLOGIES, build_labels, render_pdf


def scan(layout_name: str, symbology: str, dpis: list[int]) -> None:
    layout = LAYOUTS[layout_name]
    labels = build_labels()
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "labels.pdf"
        t0 = time.perf_counter()
        placed = render_pdf(labels, pdf, layout, symbology=symbology)
        render_s = time.perf_counter() - t0
        figures = []
        for dpi in dpis:
            t0 = time.perf_counter()
            prefix = Path(tmp) / f"p{dpi}"
            subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", str(pdf), str(prefix)], check=True)
            images = [Image.open(p) for p in sorted(Path(tmp).glob(f"p{dpi}-*.pgm"))]
            px = dpi / 72
            good = 0
            for p in placed:
                x, y, w, h = p.cell
                box = (round(x * px), round((layout.page_h * MM - y - h) * px), round((x + w) * px),
                       round((layout.page_h * MM - y) * px))
                found = [s.data.decode() for s in decode(images[p.page].crop(box),
                                                         symbols=[ZBarSymbol.CODE128, ZBarSymbol.QRCODE])]
                good += found == [p.label.code]
            whole = sum(len(decode(im, symbols=[ZBarSymbol.CODE128, ZBarSymbol.QRCODE])) for im in images)
            for im in images:
                im.close()
            figures.append(f"{dpi} dpi: {good}/{len(placed)} stickers, whole pages {whole} symbols "
                           f"({time.perf_counter() - t0:.1f} s)")
        print(f"{layout_name:12} {symbology:8} {placed[-1].page + 1} pages, render {render_s:.2f} s; " + "; ".join(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dpi", default="300,200,150", help="comma-separated raster resolutions")
    args = parser.parse_args()
    dpis = [int(d) for d in args.dpi.split(",")]
    for name in LAYOUTS:
        for symbology in SYMBOLOGIES:
            scan(name, symbology, dpis)


if __name__ == "__main__":
    main()
