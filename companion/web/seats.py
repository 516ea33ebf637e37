"""Which phone holds which seat: the join code, the consent codes and the seat tokens kept on the phones.

A phone claims a seat by naming it: the web page submits ``HS-NAME-<seat>:<name>`` with source ``web``
(an ordinary journaled input, so it is undoable and replayed after a power cut). The claims are not stored
anywhere else: :class:`companion.web.seating.Seating` folds them from the journal's effective inputs, so a
restart, an undo or a replay gives the same claims as before (the rules, the Dealer's included, are there).

Every claim carries the table's join code (:func:`join_code`: 6 characters the screen shows, in its QR code's
URL and as text; nothing the network serves reveals it): whoever can see the screen can take a seat, nobody
else. It is made from the journal's key and the game's first entry, so a new game brings a new one and a
restart keeps it.

The phone proves its seat with a token: HMAC-SHA256 over ``"<epoch>:<seat>"`` with the journal's key
(:func:`journal_key`: the per-kiosk secret of :func:`load_secret`, a file beside the journal, bound to the
journal's own identity). A new claim of a seat has a new epoch, so an old phone's token stops working when the
seat is freed and claimed again; a journal moved aside, deleted or swapped has another identity, so every
token of the old one stops working although entry ids start again at 1.

A seat the table itself named (``HS-NAME`` typed or scanned at the kiosk) or bets for from the bet sheet
(:func:`table_seats`) is claimed from a phone only with its consent code (:func:`consent_code`: 6 digits shown
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

from companion.web.seating import WEB, Seating, claims_from_entries, table_seats

log = logging.getLogger(__name__)
__all__ = ["WEB", "claims_from_entries", "consent_code", "join_code", "journal_key", "load_secret", "read_secret",
           "seat_codes", "seat_token", "table_seats", "token_matches"]
JOIN_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read off a screen across the table
JOIN_LENGTH = 6
CONSENT_DIGITS = 6  # docs/web-hardening.md: the chance of guessing one in an evening stays under 0.1%


def journal_key(secret: bytes, identity: str | None) -> bytes:
    """The key that signs the tokens and consent codes of the journal with ``identity``
    (:attr:`companion.kiosk.journal.Journal.identity`; None for a journal that has none): 32 bytes."""
    return hmac.new(secret, f"journal:{identity or ''}".encode(), hashlib.sha256).digest()


def consent_code(key: bytes, seat: int, start: int) -> str:
    """The 6-digit code that claims ``seat`` of the game started at journal entry ``start`` (the id of the
    game's first entry) from a phone; ``key`` from :func:`journal_key`. The screen shows it beside the seat."""
    digest = hmac.new(key, f"consent:{start}:{seat}".encode(), hashlib.sha256).digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10 ** CONSENT_DIGITS:0{CONSENT_DIGITS}d}"


def join_code(key: bytes, start: int) -> str:
    """The table's join code for the game started at journal entry ``start`` (0 before any game): 6 characters
    of :data:`JOIN_ALPHABET` (about 8.9e8 codes), shown on the screen, never served to the network. A new game
    brings a new one; a restart keeps it. ``key`` from :func:`journal_key`."""
    number = int.from_bytes(hmac.new(key, f"join:{start}".encode(), hashlib.sha256).digest()[:8], "big")
    chars = []
    for _ in range(JOIN_LENGTH):
        number, digit = divmod(number, len(JOIN_ALPHABET))
        chars.append(JOIN_ALPHABET[digit])
    return "".join(chars)


def same_join(given: object, code: str) -> bool:
    """True when ``given`` (what a phone sent) is ``code``: case, spaces and dashes ignored, constant time."""
    if not isinstance(given, str) or not given.isascii():
        return False
    typed = "".join(given.split()).replace("-", "").upper()
    return hmac.compare_digest(typed.encode(), code.encode())


def join_link(address: str, code: str) -> str:
    """``"http://HOST:PORT/"`` and the join code -> the URL the screen's QR code holds,
    ``http://HOST:PORT/?join=CODE``."""
    return f"{address.split('?', 1)[0]}?join={code}"


def codes_of(key: bytes, seating: Seating) -> dict[int, str]:
    """``{seat: consent code}`` of the seats that need one now: those the table plays that no phone holds."""
    return {seat: consent_code(key, seat, seating.start)
            for seat in sorted(seating.table_seats() - set(seating.claims))}


def seat_codes(key: bytes, entries: Iterable[object]) -> dict[int, str]:
    """``{seat: consent code}`` of the seats that need one now (:func:`codes_of`) from the current game's
    ``entries`` (``TableView.journaled``), their first one's id the game's start."""
    return codes_of(key, Seating.of(entries))


def seat_token(secret: bytes, seat: int, epoch: int) -> str:
    """The token a phone keeps for ``seat`` claimed at journal entry ``epoch``: 32 hex digits."""
    return hmac.new(secret, f"{epoch}:{seat}".encode(), hashlib.sha256).hexdigest()[:32]


def token_matches(secret: bytes, claims: dict[int, int], seat: int, token: object) -> bool:
    """True when ``token`` proves the current claim of ``seat`` (constant-time compare)."""
    epoch = claims.get(seat)
    if epoch is None or not isinstance(token, str):
        return False
    return hmac.compare_digest(seat_token(secret, seat, epoch), token)


def table_codes(journal_path: str | Path, identity: str | None,
                entries: Iterable[object]) -> tuple[str | None, dict[int, str]]:
    """(join code, ``{seat: consent code}``) of the game in ``entries`` (the journal's current game) of the
    journal at ``journal_path`` with ``identity``, as the kiosk's screen shows them; (None, {}) when the kiosk
    never served its page (no secret beside the journal). For ``hotstreak status``: reads, never writes."""
    secret = read_secret(journal_path)
    if secret is None:
        return None, {}
    key = journal_key(secret, identity)
    seating = Seating.of(entries)
    return join_code(key, seating.start), codes_of(key, seating)


def address_file(journal_path: str | Path) -> Path:
    """Where the kiosk keeps its page's address (``http://HOST:PORT/``) for ``hotstreak status``."""
    return Path(f"{journal_path}.web-address")


def keep_address(journal_path: str | Path, address: str) -> None:
    """Write ``address`` to :func:`address_file` (whole or not at all). Raises OSError."""
    if str(journal_path) == ":memory:":
        return
    path = address_file(journal_path)
    part = path.with_name(path.name + ".part")
    part.write_text(address + "\n")
    os.replace(part, path)


def kept_address(journal_path: str | Path) -> str | None:
    """The address :func:`keep_address` kept, or None (none kept, unreadable, not an http URL)."""
    try:
        text = address_file(journal_path).read_text(errors="replace").strip()
    except OSError:
        return None
    return text if text.startswith("http://") and len(text) < 200 else None


def read_secret(journal_path: str | Path) -> bytes | None:
    """The kiosk's secret as :func:`load_secret` keeps it, or None when there is none yet (never makes one):
    for commands that only read, like ``status``."""
    try:
        secret = bytes.fromhex(Path(f"{journal_path}.web-key").read_text().strip())
    except (OSError, ValueError):
        return None
    return secret if len(secret) >= 16 else None


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
