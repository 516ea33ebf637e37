"""Which phone holds which seat: claims derived from the journal, and the seat tokens kept on the phones.

A phone claims a seat by naming it: the web page submits ``HS-NAME-<seat>:<name>`` with source ``web``
(an ordinary journaled input, so it is undoable and replayed after a power cut). The claims are not stored
anywhere else: :func:`claims_from_entries` derives them from the journal's effective inputs, so a restart,
an undo or a replay gives the same claims as before.

- a web ``HS-NAME`` for a free seat claims it; its journal entry id is the claim's ``epoch``;
- a later web ``HS-NAME`` for that seat (only its owner may send one) renames it and keeps the claim;
- an empty name (``HS-NAME-3:``, from the phone or typed at the kiosk) or undoing the claim frees the seat;
- ``HS-NEW`` and ``HS-PLAYERS-n`` start a new game with every seat free.

The phone proves its seat with a token: HMAC-SHA256 over ``"<epoch>:<seat>"`` with the journal's key
(:func:`journal_key`: the per-kiosk secret of :func:`load_secret`, a file beside the journal, bound to the
journal's own identity). A new claim of a seat has a new epoch, so an old phone's token stops working when the
seat is freed and claimed again; a journal moved aside, deleted or swapped has another identity, so every
token of the old one stops working although entry ids start again at 1.

A seat the table itself named (``HS-NAME`` typed or scanned at the kiosk) or bets for from the bet sheet
(:func:`table_seats`) is claimed from a phone only with its consent code (:func:`consent_code`: 4 digits shown
beside the seat on the screen while no phone holds it).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
from pathlib import Path
from typing import Iterable

from companion.rules.codes import Control, OpenBetCode, SeatNameCode, parse_code
from companion.rules.errors import HotStreakError

log = logging.getLogger(__name__)
WEB = "web"  # the journal source of inputs from a phone


def claims_from_entries(entries: Iterable[object]) -> dict[int, int]:
    """Claims of the current game: ``{seat (1-based): epoch (journal entry id)}`` from journal entries
    (objects with ``id``, ``source``, ``text`` and maybe ``skipped``, oldest first: ``Controller.entries``);
    an entry that replay skipped (it no longer applies) claims nothing."""
    claims: dict[int, int] = {}
    for entry, code in _codes(entries):
        if code is None:
            claims.clear()
        elif isinstance(code, SeatNameCode):
            if not code.name:
                claims.pop(code.seat, None)
            elif getattr(entry, "source") == WEB and code.seat not in claims:
                claims[code.seat] = int(getattr(entry, "id"))
    return claims


def _codes(entries: Iterable[object]) -> Iterable[tuple[object, SeatNameCode | OpenBetCode | None]]:
    """(entry, parsed code) of the current game's entries that count, oldest first; a new game or player count
    yields ``(entry, None)`` (everything before it no longer counts)."""
    for entry in entries:
        text = getattr(entry, "text")
        if getattr(entry, "skipped", None) or not text.startswith(("HS-", "hs-")):
            continue
        try:
            code = parse_code(text)
        except HotStreakError:
            continue
        if isinstance(code, Control) and code.action in ("new", "players"):
            yield entry, None
        elif isinstance(code, (SeatNameCode, OpenBetCode)):
            yield entry, code


def table_seats(entries: Iterable[object]) -> set[int]:
    """Seats (1-based) the table itself plays in the current game: named at the kiosk (a non-web ``HS-NAME``
    with a name, not cleared since) or with a bet from the bet sheet (a non-web ``HS-BET``). Such a seat is
    claimed from a phone only with its :func:`consent_code`. ``entries`` as for :func:`claims_from_entries`."""
    named: set[int] = set()
    betting: set[int] = set()
    for entry, code in _codes(entries):
        if code is None:
            named.clear()
            betting.clear()
        elif isinstance(code, SeatNameCode):
            if not code.name:
                named.discard(code.seat)
            elif getattr(entry, "source") != WEB:
                named.add(code.seat)
        elif getattr(entry, "source") != WEB:
            betting.add(code.seat)
    return named | betting


def journal_key(secret: bytes, identity: str | None) -> bytes:
    """The key that signs the tokens and consent codes of the journal with ``identity``
    (:attr:`companion.kiosk.journal.Journal.identity`; None for a journal that has none): 32 bytes."""
    return hmac.new(secret, f"journal:{identity or ''}".encode(), hashlib.sha256).digest()


def consent_code(key: bytes, seat: int, start: int) -> str:
    """The 4-digit code that claims ``seat`` of the game started at journal entry ``start`` (the id of the
    game's first entry) from a phone; ``key`` from :func:`journal_key`. The screen shows it beside the seat."""
    digest = hmac.new(key, f"consent:{start}:{seat}".encode(), hashlib.sha256).digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10000:04d}"


def seat_codes(key: bytes, entries: Iterable[object]) -> dict[int, str]:
    """``{seat: consent code}`` of the seats that need one now: :func:`table_seats` that no phone holds.
    ``entries`` are the current game's (``TableView.journaled``), their first one's id the game's start."""
    entries = list(entries)
    if not entries:
        return {}
    start = int(getattr(entries[0], "id"))
    claims = claims_from_entries(entries)
    return {seat: consent_code(key, seat, start) for seat in sorted(table_seats(entries) - set(claims))}


def seat_token(secret: bytes, seat: int, epoch: int) -> str:
    """The token a phone keeps for ``seat`` claimed at journal entry ``epoch``: 32 hex digits."""
    return hmac.new(secret, f"{epoch}:{seat}".encode(), hashlib.sha256).hexdigest()[:32]


def token_matches(secret: bytes, claims: dict[int, int], seat: int, token: object) -> bool:
    """True when ``token`` proves the current claim of ``seat`` (constant-time compare)."""
    epoch = claims.get(seat)
    if epoch is None or not isinstance(token, str):
        return False
    return hmac.compare_digest(seat_token(secret, seat, epoch), token)


def load_secret(journal_path: str | Path) -> bytes:
    """The kiosk's token secret, kept in ``<journal>.web-key`` (created once, mode 0600) so tokens outlive a
    restart. An in-memory journal (``:memory:``, the demo) gets a fresh secret per run. When the file cannot
    be read or written the secret lives in memory only (phones claim their seats again after a restart)."""
    if str(journal_path) == ":memory:":
        return secrets.token_bytes(32)
    path = Path(f"{journal_path}.web-key")
    try:
        if not path.exists():
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
        secret = bytes.fromhex(path.read_text().strip())
        if len(secret) < 16:
            raise ValueError("too short")
        return secret
    except (OSError, ValueError) as exc:
        log.warning("seat token key %s not usable (%s); phones claim their seats again after a restart", path, exc)
        return secrets.token_bytes(32)
