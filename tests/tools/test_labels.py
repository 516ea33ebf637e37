"""Label sheets: the label list comes from the data, the PDF scans back, and the command's contract.

The scan test renders the PDF, rasterises it at 300 dpi with pdftoppm and decodes it with zbar (pyzbar), an
independent decoder: every code must decode exactly once, inside the sticker it was placed on.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from companion.rules.codes import all_ticket_codes, control_codes, open_bet_codes, parse_code
from companion.tools.labels import DOT, GROUPS, INK, LAYOUTS, MM, build_labels, codes_listing, render_pdf
from companion.rules import load_deck
from conftest import hotstreak

ALL_LABELS = build_labels()


def expected_codes() -> list[str]:
    deck = load_deck()
    return ([dc.code for dc in deck] + [t.code() for t in all_ticket_codes()]
            + [f"HS-S{n:02d}" for n in range(1, 13)] + control_codes()
            + [b.code() for seat in range(1, 13) for b in open_bet_codes(seat)])


# ---------------------------------------------------------------- the label list

def test_label_list_has_every_code_once_in_group_order():
    codes = [label.code for label in ALL_LABELS]
    assert codes == expected_codes()
    assert len(codes) == 53 + 36 + 12 + 19 + 12 * 6 == len(set(codes))
    assert [label.group for label in ALL_LABELS] == sorted((label.group for label in ALL_LABELS), key=GROUPS.index)


def test_every_label_code_is_a_code_the_reader_accepts():
    assert len(ALL_LABELS) > 53  # every card of the deck, and the control codes
    for label in ALL_LABELS:
        assert parse_code(label.code) is not None  # raises InvalidCodeError for a code the controller would reject


def test_card_captions_come_from_the_deck_data():
    by_code = {label.code: label for label in ALL_LABELS}
    assert by_code["HS15"].caption == "HS15 Hurley +3"
    assert by_code["HS48"].caption == "HS48 All +2"
    assert by_code["HS02"].caption == "HS02 Gobbler R+2" and by_code["HS02"].detail == "starting card"
    deck = load_deck()
    assert len(deck) > 48  # the 48 race cards and the starting cards
    for dc in deck:
        label = by_code[dc.code]
        assert label.caption.startswith(dc.code + " ")
        assert label.caption.endswith(dc.card.notation()[1:])
        assert label.ink == (INK["green"] if dc.card.is_green else INK[dc.card.who.value])


def test_ticket_side_bet_and_control_captions():
    by_code = {label.code: label for label in ALL_LABELS}
    assert by_code["HS-T-DANGLE-2-R"].caption == "Dangle middle - risky"
    assert by_code["HS-T-YES-1-S"].caption == "YES top - safe"
    assert by_code["HS-S07"].caption == "Side bet card 7"
    assert by_code["HS-DOUBLE"].caption == "DOUBLE (RACE 3)" and by_code["HS-OPEN"].caption == "OPEN GAME (POTS)"
    assert by_code["HS-BET-3-DANGLE"].caption == "Seat 3 - Dangle" and by_code["HS-BET-3-DANGLE"].ink == INK["dangle"]
    assert by_code["HS-BET-12-NO"].caption == "Seat 12 - NO" and by_code["HS-BET-12-NO"].group == "bets"
    assert by_code["HS-PLAYERS-12"].caption == "12 PLAYERS"
    assert by_code["HS-UNDO"].caption == "UNDO"


def test_mascot_inks_are_distinct():
    inks = [INK[m] for m in ("gobbler", "hurley", "dangle", "mum", "green")]
    assert len(set(inks)) == len(inks)


def test_build_labels_filters_groups_and_rejects_unknown_ones():
    assert {label.group for label in build_labels(groups=["controls", "sidebets"])} == {"controls", "sidebets"}
    with pytest.raises(ValueError, match="unknown label group 'card'"):
        build_labels(groups=["card"])


# ---------------------------------------------------------------- sheet geometry

@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=list(LAYOUTS))
def test_layout_cells_stay_on_the_page_without_overlap(layout):
    cells = [layout.cell(i) for i in range(layout.per_page)]
    assert len(cells) > 1
    for x, y, w, h in cells:
        assert -0.01 <= x and x + w <= layout.page_w * MM + 0.01
        assert -0.01 <= y and y + h <= layout.page_h * MM + 0.01
    for i, (x1, y1, w1, h1) in enumerate(cells):
        for x2, y2, w2, h2 in cells[i + 1:]:
            assert x1 + w1 <= x2 + 0.01 or x2 + w2 <= x1 + 0.01 or y1 + h1 <= y2 + 0.01 or y2 + h2 <= y1 + 0.01
    with pytest.raises(ValueError, match="expected 0"):
        layout.cell(layout.per_page)


def test_groups_start_on_a_fresh_sheet_and_skip_leaves_stickers_empty(tmp_path):
    layout = LAYOUTS["a4-3x8"]
    placed = render_pdf(ALL_LABELS, tmp_path / "a.pdf", layout)
    first_of = {}
    for p in placed:
        first_of.setdefault(p.label.group, p)
    assert all(p.cell == layout.cell(0) for p in first_of.values())
    assert [first_of[g].page for g in GROUPS] == [0, 3, 5, 6, 7]
    skipped = render_pdf(ALL_LABELS[:2], tmp_path / "b.pdf", layout, skip=5)
    assert [p.cell for p in skipped] == [layout.cell(5), layout.cell(6)]


# ---------------------------------------------------------------- scanning the printed sheets

def _rasterise(pdf: Path, tmp_path: Path) -> list[Path]:
    """The PDF's pages as 300 dpi greyscale images (pdftoppm); skips the test when a tool is missing."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm not installed (apt-get install poppler-utils)")
    try:
        import pyzbar.pyzbar  # noqa: F401
    except ImportError as exc:  # pyzbar missing, or its libzbar0
        pytest.skip(f"zbar decoder not available ({exc}; pip install pyzbar, apt-get install libzbar0)")
    subprocess.run(["pdftoppm", "-r", "300", "-gray", str(pdf), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page-*.pgm"))
    assert pages, "pdftoppm produced no pages"
    return pages


@pytest.mark.parametrize("layout_name, symbology", [
    ("a4-3x8", "code128"), ("a4-3x8", "qr"), ("letter-3x10", "code128"), ("letter-3x10", "qr")])
@pytest.mark.slow
def test_every_sticker_scans_to_its_own_code_exactly_once(tmp_path, layout_name, symbology):
    """Like a scanner aimed at one sticker: each sticker's area of the 300 dpi page holds exactly one symbol
    of the chosen kind (Code 128 and QR both enabled, as on the scanner), decoding to that label's code."""
    from PIL import Image
    from pyzbar.pyzbar import ZBarSymbol, decode

    layout = LAYOUTS[layout_name]
    pdf = tmp_path / "labels.pdf"
    placed = render_pdf(ALL_LABELS, pdf, layout, symbology=symbology)
    pages = _rasterise(pdf, tmp_path)
    assert len(pages) == placed[-1].page + 1
    px = 300 / 72
    decoded: list[str] = []
    images = [Image.open(path) for path in pages]
    try:
        for p in placed:
            x, y, w, h = p.cell
            box = (round(x * px), round((layout.page_h * MM - y - h) * px), round((x + w) * px),
                   round((layout.page_h * MM - y) * px))
            symbols = decode(images[p.page].crop(box), symbols=[ZBarSymbol.CODE128, ZBarSymbol.QRCODE])
            found = [(s.type, s.data.decode("ascii")) for s in symbols]
            assert found == [("CODE128" if symbology == "code128" else "QRCODE", p.label.code)], \
                f"sticker {p.label.code} on page {p.page + 1} decoded as {found}"
            decoded.append(found[0][1])
    finally:
        for image in images:
            image.close()
    counts = Counter(decoded)
    assert sorted(counts) == sorted(expected_codes()) and set(counts.values()) == {1}


def test_bars_are_whole_printer_dots_with_quiet_zones():
    from companion.tools.labels import _code128, _qr

    bc = _code128("HS-T-GOBBLER-1-S", 10 * MM, 63.5 * MM)
    assert bc.barWidth / DOT == pytest.approx(round(bc.barWidth / DOT)) and round(bc.barWidth / DOT) >= 3
    assert bc.lquiet == bc.rquiet == pytest.approx(10 * bc.barWidth)
    qr = _qr("HS-T-GOBBLER-1-S", 20 * MM)
    assert qr.module / DOT == pytest.approx(round(qr.module / DOT)) and round(qr.module / DOT) >= 4
    assert qr.size == pytest.approx((len(qr.modules) + 8) * qr.module) and qr.size <= 20 * MM
    with pytest.raises(ValueError, match="does not fit"):
        _qr("HS-T-GOBBLER-1-S", 8 * MM)
    with pytest.raises(ValueError, match="does not fit"):
        _code128("HS-T-GOBBLER-1-S", 10 * MM, 40 * MM)


# ---------------------------------------------------------------- the command

@pytest.mark.slow
def test_codes_lists_every_code_with_its_meaning():
    result = hotstreak("labels", "--codes")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 53 + 36 + 12 + 19 + 12 * 6
    assert [line.split()[0] for line in lines] == expected_codes()
    assert "HS15" in lines[14] and "Hurley +3 (H+3)" in lines[14]
    assert any(line.startswith("HS-T-DANGLE-2-R ") and "Dangle middle - risky" in line for line in lines)
    assert lines == codes_listing(ALL_LABELS)


@pytest.mark.slow  # runs the real install script / label maker: up to 1.1 s with the cores busy
def test_codes_only_filters():
    result = hotstreak("labels", "--codes", "--only", "controls,sidebets")
    assert [line.split()[0] for line in result.stdout.splitlines()] == [f"HS-S{n:02d}" for n in range(1, 13)] + control_codes()


@pytest.mark.slow
def test_out_writes_a_pdf(tmp_path):
    out = tmp_path / "cards.pdf"
    result = hotstreak("labels", "--out", str(out), "--paper", "letter", "--only", "controls")
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(b"%PDF") and "19 labels on 1 pages" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["--paper", "a5"], "unknown paper 'a5'"),
    (["--symbology", "ean13"], "unknown symbology 'ean13'"),
    (["--only", "card"], "unknown label group 'card'"),
    (["--layout", "a4-3x7", "--paper", "letter"], "is for a4 paper"),
    (["--skip", "99"], "skip 99"),
])
@pytest.mark.slow
def test_bad_option_value_exits_2_with_one_line(tmp_path, args, message):
    out = tmp_path / "x.pdf"
    result = hotstreak("labels", "--out", str(out), *args)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr and result.stderr.startswith("hotstreak labels:")
    assert not out.exists()


@pytest.mark.slow
def test_no_out_and_no_codes_is_bad_input():
    result = hotstreak("labels")
    assert result.returncode == 2 and "--out" in result.stderr and result.stderr.count("\n") == 1


def test_codes_with_out_is_refused_rather_than_writing_nothing(tmp_path, capsys):
    from companion.cli import main
    out = tmp_path / "c.pdf"
    assert main(["labels", "--codes", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--codes" in err and str(out) in err and err.count("\n") == 1 and not out.exists()
