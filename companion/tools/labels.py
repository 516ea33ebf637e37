"""Printable barcode labels for race cards, betting tickets, side bet cards, the control sheet and the
open variant's bet sheet (one row per seat: the four mascots, YES and NO).

The label list is built from data: the race cards from the deck file (``load_deck()``), the ticket sides and
controls from :mod:`companion.rules.codes`. Each label carries its code as a barcode (Code 128, or QR) plus a big
human-readable caption in the mascot's ink colour, laid out on a common sticker sheet (:data:`LAYOUTS`).

Barcodes are sized for a 300 dpi print: every bar or QR module is a whole number of printer dots (at least 3
dots, 0.254 mm, for Code 128 and 4 dots for QR), with the full quiet zone (10 modules for Code 128, 4 for QR)
inside the label's safe area, and the symbol's corner snapped to the 300 dpi grid.

>>> from companion.tools.labels import build_labels, render_pdf, LAYOUTS
>>> labels = build_labels()                     # 53 cards, 36 ticket sides, 12 side bets, 19 controls, 72 bets
>>> placements = render_pdf(labels, "labels.pdf", LAYOUTS["a4-3x8"], symbology="qr")  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import BinaryIO, Iterable, Protocol, Sequence

from companion.rules.codes import (MAX_PLAYERS, Control, SideBetCode, all_ticket_codes, control_codes, open_bet_codes,
                                   parse_code)
from companion.rules.deck import Deck, load_deck
from companion.rules.mascots import Mascot

MM = 72 / 25.4            # points per millimetre
DPI = 300                 # the print resolution the barcodes are sized for
DOT = 72 / DPI            # one printer dot at 300 dpi, in points

GROUPS = ("cards", "tickets", "sidebets", "controls", "bets")
SYMBOLOGIES = ("code128", "qr")
PAPERS = ("a4", "letter")

# Every ink colour of the labels, in one place. Dark enough to read on white; the barcodes are always black
# (a red or green bar is invisible to many red-light scanners).
INK: dict[str, str] = {
    "gobbler": "#B8560B",   # turkey orange-brown
    "hurley": "#C8102E",    # red
    "dangle": "#6E2C8F",    # purple (the screen and LEDs: purple)
    "mum": "#1F4FB4",       # blue (the screen and LEDs: blue)
    "green": "#1B7F3A",     # green multi cards
    "yes": "#00695C",       # teal YES side tickets
    "no": "#4A4A4A",        # dark grey NO side tickets
    "sidebet": "#000000",
    "control": "#000000",
}

_CONTROL_CAPTIONS = {"new": "NEW GAME", "go": "GO / NEXT", "undo": "UNDO", "standard": "STANDARD GAME",
                     "open": "OPEN GAME (POTS)", "double": "DOUBLE (RACE 3)", "service": "SERVICE MODE",
                     "service-exit": "LEAVE SERVICE MODE"}
_CONTROL_MEANINGS = {
    "new": "control: start a new game",
    "go": "control: go / next step (same as the go button)",
    "undo": "control: undo the last scan (same as the undo button)",
    "standard": "control: this game plays with betting tickets (before or right after the player count)",
    "open": "control: this game plays the open variant, pots and no tickets (before or right after the count)",
    "double": "control: race 3, the next ticket or bet scanned pays double",
    "service": "control: the builder's service mode (LED test and calibration, scanner, buttons, sound, screen)",
    "service-exit": "control: leave the service mode; the table is as it was",
}


@dataclass(frozen=True, slots=True)
class Label:
    """One sticker: ``code`` is the barcode text, ``caption`` the big human-readable line, ``meaning`` the
    one-line description listed by ``hotstreak labels --codes``, ``group`` one of GROUPS, ``ink`` the caption's
    colour (``#RRGGBB``), ``detail`` an optional small note (``starting card``)."""

    code: str
    caption: str
    meaning: str
    group: str
    ink: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """A sticker sheet: ``columns`` x ``rows`` labels of ``label_w`` x ``label_h`` mm, the first one's top-left
    corner ``left`` / ``top`` mm from the page's top-left, then every ``pitch_x`` / ``pitch_y`` mm."""

    name: str
    paper: str
    page_w: float
    page_h: float
    columns: int
    rows: int
    label_w: float
    label_h: float
    left: float
    top: float
    pitch_x: float
    pitch_y: float
    description: str

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def cell(self, index: int) -> tuple[float, float, float, float]:
        """The label at ``index`` (0 top-left, row by row) as (x, y, width, height) in points, y from the page
        bottom. Raises ValueError for an index outside 0..per_page-1."""
        if not 0 <= index < self.per_page:
            raise ValueError(f"label position {index} is not on the {self.name} sheet (expected 0..{self.per_page - 1})")
        row, col = divmod(index, self.columns)
        x = (self.left + col * self.pitch_x) * MM
        top = (self.top + row * self.pitch_y) * MM
        return x, (self.page_h - self.label_h) * MM - top, self.label_w * MM, self.label_h * MM


LAYOUTS: dict[str, SheetLayout] = {layout.name: layout for layout in (
    SheetLayout("a4-3x8", "a4", 210, 297, 3, 8, 70, 37, 0, 0.5, 70, 37,
                "A4, 24 labels of 70 x 37 mm edge to edge (3 x 8)"),
    SheetLayout("a4-3x7", "a4", 210, 297, 3, 7, 63.5, 38.1, 7.2, 15.15, 66.04, 38.1,
                "A4, 21 labels of 63.5 x 38.1 mm (3 x 7, Avery L7160 style)"),
    SheetLayout("letter-3x10", "letter", 215.9, 279.4, 3, 10, 66.675, 25.4, 4.7625, 12.7, 69.85, 25.4,
                "US Letter, 30 labels of 2 5/8 x 1 inch (3 x 10, Avery 5160 style)"),
)}
DEFAULT_LAYOUT = {"a4": "a4-3x8", "letter": "letter-3x10"}


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a label was drawn: page (0-based) and its sticker cell (x, y, width, height) in points, y from
    the page bottom."""

    label: Label
    page: int
    cell: tuple[float, float, float, float]


# ---------------------------------------------------------------- the label list

def card_labels(deck: Deck | None = None) -> list[Label]:
    """One label per physical race card of ``deck`` (default: the packaged deck), in code order:
    caption ``HS15 Hurley +3``, green cards ``HS48 All +2`` (docs/rules.md section 2)."""
    deck = deck if deck is not None else load_deck()
    labels = []
    for dc in deck:
        notation = dc.card.notation()
        who = "All" if dc.card.who is None else dc.card.who.title
        text = f"{who} {notation[1:]}"
        detail = "starting card" if dc.starting else ""
        kind = "green multi card" if dc.card.who is None else "race card"
        meaning = f"{kind}: {text} ({notation})" + (", starting card" if dc.starting else "")
        ink = INK["green"] if dc.card.who is None else INK[dc.card.who.value]
        labels.append(Label(dc.code, f"{dc.code} {text}", meaning, "cards", ink, detail))
    return labels


def ticket_labels() -> list[Label]:
    """One label per betting ticket side (6 stacks x 3 levels x 2 sides = 36): caption
    ``Dangle middle - risky`` (docs/rules.md section 6)."""
    labels = []
    for t in all_ticket_codes():
        stack = t.stack.upper() if t.stack in ("yes", "no") else Mascot(t.stack).title
        text = f"{stack} {t.level} - {t.side}"
        labels.append(Label(t.code(), text, f"betting ticket: {text}", "tickets", INK[t.stack]))
    return labels


def sidebet_labels() -> list[Label]:
    """One label per side bet card of the side bet data (``HS-S01``..), captioned by its number, with its id
    in the meaning (docs/rules.md section 6)."""
    from companion.rules.sidebets import load_side_bets
    return [Label(SideBetCode(card.number).code(), f"Side bet card {card.number}",
                  f"side bet card {card.number}: {card.id} ({card.question})", "sidebets", INK["sidebet"])
            for card in load_side_bets()]


def control_labels() -> list[Label]:
    """The control sheet: HS-NEW, HS-PLAYERS-2..12, HS-GO, HS-UNDO with big captions (docs/rules.md section 8)."""
    labels = []
    for code in control_codes():
        ctl = parse_code(code)
        assert isinstance(ctl, Control)
        if ctl.action == "players":
            caption, meaning = f"{ctl.players} PLAYERS", f"control: {ctl.players} players at the table"
        else:
            caption, meaning = _CONTROL_CAPTIONS[ctl.action], _CONTROL_MEANINGS[ctl.action]
        labels.append(Label(code, caption, meaning, "controls", INK["control"]))
    return labels


def bet_labels(seats: int = MAX_PLAYERS) -> list[Label]:
    """The open variant's bet sheet: per seat 1..``seats`` the four mascot bets, then YES and NO, captioned
    ``Seat 3 - Dangle`` (docs/rules.md section 7; the double is HS-DOUBLE scanned before a bet)."""
    labels = []
    for seat in range(1, seats + 1):
        for bet in open_bet_codes(seat):
            what = bet.choice.upper() if bet.is_side else Mascot(bet.choice).title
            kind = "side bet answer" if bet.is_side else "mascot bet"
            labels.append(Label(bet.code(), f"Seat {seat} - {what}", f"open bet: seat {seat}, {kind} {what}",
                                "bets", INK[bet.choice]))
    return labels


def build_labels(deck: Deck | None = None, groups: Iterable[str] = GROUPS) -> list[Label]:
    """Every label of the chosen ``groups`` (any of GROUPS), in GROUPS order. Raises ValueError naming an
    unknown group."""
    wanted = set(groups)
    if bad := sorted(wanted - set(GROUPS)):
        raise ValueError(f"unknown label group {bad[0]!r} (expected one of: {', '.join(GROUPS)})")
    makers = {"cards": lambda: card_labels(deck), "tickets": ticket_labels, "sidebets": sidebet_labels,
              "controls": control_labels, "bets": bet_labels}
    return [label for group in GROUPS if group in wanted for label in makers[group]()]


def codes_listing(labels: Sequence[Label]) -> list[str]:
    """One line per label: the code, padded, then what it means (for ``hotstreak labels --codes``)."""
    width = max((len(label.code) for label in labels), default=0)
    return [f"{label.code:<{width}}  {label.meaning}" for label in labels]


# ---------------------------------------------------------------- drawing

_PAD_X = 4.0 * MM          # safe area inside each sticker: printers and sheets shift by a millimetre or two
_PAD_Y = 2.0 * MM
_BAR_PAD_X = 1.5 * MM      # a barcode's quiet zone (blank) may come this close to the sticker's edge
_CAPTION_FONT = "Helvetica-Bold"
_SMALL_FONT = "Helvetica"
_CODE128_DOTS = (3, 5)     # bar module: 3 dots (0.254 mm, 10 mil) at least, 5 dots (0.423 mm) at most
_CODE128_QUIET = 10        # modules of quiet zone on each side (ISO/IEC 15417)
_QR_DOTS = (4, 10)         # QR module: 4..10 dots (0.34..0.85 mm)
_QR_BORDER = 4             # modules of quiet zone around a QR symbol (ISO/IEC 18004)


class _Path(Protocol):
    """The part of a reportlab path object the labels use."""

    def rect(self, x: float, y: float, width: float, height: float) -> None: ...


class _Canvas(Protocol):
    """The part of a reportlab ``Canvas`` the label drawing uses (reportlab ships no type information)."""

    def beginPath(self) -> _Path: ...
    def drawPath(self, path: _Path, stroke: int = 1, fill: int = 0) -> None: ...
    def setFillColor(self, color: str) -> None: ...
    def setFont(self, name: str, size: float) -> None: ...
    def drawString(self, x: float, y: float, text: str) -> None: ...
    def drawCentredString(self, x: float, y: float, text: str) -> None: ...


class _Barcode(Protocol):
    """The part of a reportlab barcode widget the labels use: its size in points, and drawing it."""

    width: float
    height: float

    def drawOn(self, canvas: _Canvas, x: float, y: float) -> None: ...


def _snap(value: float) -> float:
    """Round a length in points down to whole 300 dpi dots."""
    return int(value / DOT + 1e-6) * DOT


def _fit_font(text: str, font: str, max_size: float, width: float, min_size: float = 6.0) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    size = max_size
    while size > min_size and stringWidth(text, font, size) > width:
        size -= 0.5
    return size


def _code128(code: str, bar_height: float, avail_w: float) -> _Barcode:
    """A reportlab Code128 with whole-dot modules and a 10-module quiet zone fitting ``avail_w`` points.
    Raises ValueError when even the narrowest module does not fit."""
    from reportlab.graphics.barcode.code128 import Code128

    for dots in range(_CODE128_DOTS[1], _CODE128_DOTS[0] - 1, -1):
        x = dots * DOT
        bc: _Barcode = Code128(code, barWidth=x, barHeight=bar_height, quiet=1, lquiet=_CODE128_QUIET * x,
                     rquiet=_CODE128_QUIET * x, humanReadable=0)
        if bc.width <= avail_w:
            return bc
    raise ValueError(f"code {code!r} does not fit a {avail_w / MM:.1f} mm wide label area as Code 128 with "
                     f"{_CODE128_DOTS[0]}-dot bars (expected a wider label layout, --symbology qr, or --only without "
                     f"the group that holds it)")


@dataclass(frozen=True, slots=True)
class QrSymbol:
    """A QR symbol ready to draw: ``modules`` rows of dark (True) / light cells, ``module`` their size in
    points; ``size`` includes the 4-module quiet zone on every side."""

    modules: tuple[tuple[bool, ...], ...]
    module: float

    @property
    def size(self) -> float:
        return (len(self.modules) + 2 * _QR_BORDER) * self.module

    def draw(self, canvas: _Canvas, x: float, y: float) -> None:
        """Fill the dark modules as one path (no seams between rows); (x, y) is the quiet zone's bottom-left."""
        path = canvas.beginPath()
        top = y + self.size - _QR_BORDER * self.module
        for r, row in enumerate(self.modules):
            c = 0
            for dark, run in groupby(row):
                n = len(list(run))
                if dark:
                    path.rect(x + (_QR_BORDER + c) * self.module, top - (r + 1) * self.module,
                              n * self.module, self.module)
                c += n
        canvas.drawPath(path, stroke=0, fill=1)


def _qr(code: str, avail: float) -> QrSymbol:
    """``code`` as QR (error correction level M, encoded by reportlab) with whole-dot modules, its quiet zone
    included, fitting ``avail`` points square. Raises ValueError when the smallest module does not fit."""
    from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel

    qr = QRCode(None, QRErrorCorrectLevel.M)
    qr.addData(code)
    qr.make()
    modules = tuple(tuple(bool(cell) for cell in row) for row in qr.modules)
    dots = min(_QR_DOTS[1], int(avail / DOT + 1e-6) // (len(modules) + 2 * _QR_BORDER))
    if dots < _QR_DOTS[0]:
        raise ValueError(f"code {code!r} does not fit a {avail / MM:.1f} mm label area as QR with "
                         f"{_QR_DOTS[0]}-dot modules (expected a taller label layout)")
    return QrSymbol(modules, dots * DOT)


def _draw_code128(canvas: _Canvas, label: Label, cell: tuple[float, float, float, float], page_h: float) -> None:
    x0, y0, w, h = cell
    inner_w = w - 2 * _PAD_X
    top = y0 + h - _PAD_Y
    caption_size = _fit_font(label.caption, _CAPTION_FONT, min(18.0, h * 0.2), inner_w)
    small = min(8.0, h * 0.09)
    bar_top = top - caption_size * 1.05
    bar_bottom = y0 + _PAD_Y + small * 1.25
    bc = _code128(label.code, _snap(bar_top - bar_bottom), w - 2 * _BAR_PAD_X)
    # snap the symbol's corner to the 300 dpi grid, counted from the page's top-left as a rasteriser does
    bx = _snap(x0 + (w - bc.width) / 2)
    by = page_h - _snap(page_h - bar_top) - bc.height
    canvas.setFillColor(label.ink)
    canvas.setFont(_CAPTION_FONT, caption_size)
    canvas.drawCentredString(x0 + w / 2, top - caption_size * 0.78, label.caption)
    canvas.setFillColor("#000000")  # bars always black
    bc.drawOn(canvas, bx, by)
    canvas.setFont(_SMALL_FONT, small)
    foot = label.code + (f"  ·  {label.detail}" if label.detail else "")
    canvas.drawCentredString(x0 + w / 2, y0 + _PAD_Y + small * 0.2, foot)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap; a `` - `` in the text always starts a new line (``Dangle middle`` / ``risky``)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines: list[str] = []
    for part in text.split(" - "):
        lines.append("")
        for word in part.split():
            if lines[-1] and stringWidth(f"{lines[-1]} {word}", font, size) <= width:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines[-1:] = [*lines[-1:], word] if lines[-1] else [word]
    return lines


def _draw_qr(canvas: _Canvas, label: Label, cell: tuple[float, float, float, float], page_h: float) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    x0, y0, w, h = cell
    side = min(h - 2 * _PAD_Y, (w - 2 * _PAD_X) * 0.5)
    qr = _qr(label.code, side)
    qx = _snap(x0 + _PAD_X)
    qy = page_h - _snap(page_h - (y0 + (h + qr.size) / 2)) - qr.size
    canvas.setFillColor("#000000")
    qr.draw(canvas, qx, qy)
    tx = qx + qr.size  # the text block starts right of the symbol's quiet zone, never inside it
    tw = x0 + w - _PAD_X - tx
    small = min(8.0, h * 0.09)
    size = min(18.0, h * 0.22)
    while True:
        lines = _wrap(label.caption, _CAPTION_FONT, size, tw)
        fits_w = all(stringWidth(line, _CAPTION_FONT, size) <= tw for line in lines)
        if (fits_w and len(lines) * size * 1.1 <= h - 2 * _PAD_Y - small * 2.6) or size <= 6:
            break
        size -= 0.5
    canvas.setFillColor(label.ink)
    canvas.setFont(_CAPTION_FONT, size)
    y = y0 + h - _PAD_Y - size * 0.85
    for line in lines:
        canvas.drawString(tx, y, line)
        y -= size * 1.1
    canvas.setFillColor("#000000")
    canvas.setFont(_SMALL_FONT, small)
    canvas.drawString(tx, y0 + _PAD_Y + small * 0.2, label.code)
    if label.detail:
        canvas.drawString(tx, y0 + _PAD_Y + small * 1.4, label.detail)


def render_pdf(labels: Sequence[Label], out: str | Path | BinaryIO, layout: SheetLayout,
               symbology: str = "code128", skip: int = 0, outline: bool = False,
               group_per_page: bool = True) -> list[Placement]:
    """Draw ``labels`` onto ``layout`` sticker sheets and write the PDF to ``out`` (a path or binary file).

    ``symbology`` is ``code128`` or ``qr``; ``skip`` leaves the first positions of the first sheet empty (a
    partly used sheet); ``outline`` draws each sticker's outline (for a test print on plain paper);
    ``group_per_page`` starts each group (cards, tickets, ...) on a fresh sheet. Returns where every label
    went. Raises ValueError for an unknown symbology, a skip outside 0..per_page-1, or a code that does not
    fit the layout at a scannable size.
    """
    from reportlab.pdfgen.canvas import Canvas

    if symbology not in SYMBOLOGIES:
        raise ValueError(f"unknown symbology {symbology!r} (expected one of: {', '.join(SYMBOLOGIES)})")
    if not 0 <= skip < layout.per_page:
        raise ValueError(f"skip {skip} is not a position on the {layout.name} sheet (expected 0..{layout.per_page - 1})")
    draw = _draw_code128 if symbology == "code128" else _draw_qr
    page_w, page_h = layout.page_w * MM, layout.page_h * MM
    canvas = Canvas(str(out) if isinstance(out, Path) else out, pagesize=(page_w, page_h), pageCompression=1)
    canvas.setTitle("Hot Streak labels")
    canvas.setCreator("hotstreak labels")
    placements: list[Placement] = []
    page, slot, group = 0, skip, None
    for label in labels:
        new_group = group is not None and label.group != group and group_per_page
        if slot >= layout.per_page or (new_group and slot > 0):
            canvas.showPage()
            page, slot = page + 1, 0
        group = label.group
        cell = layout.cell(slot)
        if outline:
            canvas.setStrokeColor("#BBBBBB")
            canvas.setLineWidth(0.3)
            canvas.roundRect(*cell, radius=2 * MM, stroke=1, fill=0)
        draw(canvas, label, cell, page_h)
        placements.append(Placement(label, page, cell))
        slot += 1
    canvas.showPage()
    canvas.save()
    return placements
