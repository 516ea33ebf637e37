"""The attacks on seats (a phone plays only its own seat) against real kiosk children, each printed as refused or
not: claiming a seat named at the kiosk or played from the bet sheet without its consent code, guessing that
code, a claim whose phone stopped waiting (the kiosk stalled past the phone's wait with
$HOTSTREAK_MOCK_STALL_FILE), and yesterday's token against today's journal (moved aside, same key file, the
same entry ids). The honest moves are checked too (a free seat, the screen's code, today's token). Run by
``python bench/attack.py --seats``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from attack import ROOT, Kiosk, free_port, kiosk_ready, seat_post, seat_view, stop_kiosk


def seat_table(db: Path, port: int, env: dict[str, str], inputs: tuple[str, ...], ready) -> Kiosk:
    """A kiosk child with ``inputs`` typed once its page answers, returned when ``ready(view)`` holds."""
    return kiosk_ready(db, port, inputs, ready, env)[0]


def seat_attacks() -> int:
    """The attacks on seats against real kiosk children; prints one line per attack. 0 when each was refused."""
    sys.path.insert(0, str(ROOT))
    from companion.kiosk.journal import Journal
    from companion.web.seats import journal_key, load_secret, seat_codes, table_codes
    results: list[tuple[str, bool, str]] = []

    def note(attack: str, refused: bool, detail: str) -> None:
        results.append((attack, refused, detail))
        print(f"{'refused' if refused else 'NOT REFUSED':<12} {attack}: {detail}", flush=True)

    def code_of(db: Path, seat: int) -> str:
        """The code the kiosk's screen shows beside ``seat`` (read from the journal and its key file)."""
        with Journal(db, readonly=True) as journal:
            return seat_codes(journal_key(load_secret(db), journal.identity), journal.current())[seat]

    def join_of(db: Path) -> str | None:
        """The join code the kiosk's screen shows (read from the journal and its key file)."""
        with Journal(db, readonly=True) as journal:
            return table_codes(db, journal.identity, journal.current())[0]

    start = ("HS-NEW", "HS-OPEN", "HS-PLAYERS-4", "HS-GO")
    betting = lambda v: v.get("phase") == "betting"  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        db, stall = Path(tmp) / "journal.db", Path(tmp) / "stall"
        env = {"HOTSTREAK_MOCK_STALL_FILE": str(stall)}
        port = free_port()
        kiosk = seat_table(db, port, env, start, betting)
        try:
            status, yesterday = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 2, "name": "Ann"},
                                          "127.0.0.31")
            print(f"yesterday: a phone claims free seat 2 -> {status}")
        finally:
            stop_kiosk(kiosk)
        epoch = next(e.id for e in Journal(db, readonly=True).entries() if e.text == "HS-NAME-2:Ann")
        for suffix in ("", "-wal", "-shm"):  # the documented recovery: the journal moved aside, the key file kept
            if Path(f"{db}{suffix}").exists():
                Path(f"{db}{suffix}").rename(Path(tmp) / f"yesterday.db{suffix}")

        port = free_port()
        named = lambda v: betting(v) and v["seats"][2]["named"] and v["seats"][3].get("locked")  # noqa: E731
        kiosk = seat_table(db, port, env, start, betting)
        try:
            status, today = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 2, "name": "Bo"}, "127.0.0.32")
            same = next(e.id for e in Journal(db, readonly=True).entries() if e.text == "HS-NAME-2:Bo") == epoch
            status, answer = seat_post(port, "/api/bet", {"seat": 2, "token": yesterday.get("token"),
                                                          "mascot": "hurley"}, "127.0.0.33")
            note("yesterday's token on today's seat 2", status == 403,
                 f"{status} {answer.get('reason')} (same entry id as yesterday's claim: {'yes' if same else 'no'})")
            status, _ = seat_post(port, "/api/bet", {"seat": 2, "token": today.get("token"), "mascot": "mum"},
                                  "127.0.0.34")
            print(f"{'ok':<12} today's phone bets for seat 2 -> {status}")

            for line in ("HS-NAME-3:Dora", "HS-BET-4-HURLEY"):
                kiosk.type(line)
            deadline = time.monotonic() + 30
            while not named(seat_view(port)) and time.monotonic() < deadline:
                time.sleep(0.1)
            status, answer = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 3, "name": "Dora"},
                                       "127.0.0.35")
            note("claim seat 3, named at the kiosk, as 'Dora' without a code", status == 403,
                 f"{status} {answer.get('reason')}")
            status, answer = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 4, "name": "Eve"},
                                       "127.0.0.36")
            note("claim seat 4, played from the bet sheet, without a code", status == 403,
                 f"{status} {answer.get('reason')}")
            code = code_of(db, 3)
            wrong = [f"{n:06d}" for n in range(20) if f"{n:06d}" != code][:5]
            statuses = [seat_post(port, "/api/claim", {"join": join_of(db), "seat": 3, "name": "X", "code": g},
                                  f"127.0.0.{40 + i}")[0] for i, g in enumerate(wrong)]
            note("guess seat 3's code (one wrong guess from each of 5 addresses)", all(s == 403 for s in statuses),
                 f"{statuses}")
            status, _ = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 3, "name": "Dora", "code": code},
                                  "127.0.0.50")
            print(f"{'ok':<12} the owner's right code for seat 3 from another phone after the guesses -> {status}")
            status, _ = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 4, "name": "Cy",
                                                       "code": code_of(db, 4)}, "127.0.0.51")
            print(f"{'ok':<12} a player with seat 4's code from the screen -> {status}")
            status, fay = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 1, "name": "Fay"}, "127.0.0.52")
            print(f"{'ok':<12} the first phone on free, unnamed seat 1 -> {status}")

            seat_post(port, "/api/leave", {"seat": 1, "token": fay.get("token")}, "127.0.0.53")
            stall.touch()  # the kiosk hangs in its next frame, past the phone's wait
            time.sleep(0.5)
            began = time.monotonic()
            status, answer = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 1, "name": "Gus"},
                                       "127.0.0.54")
            waited = time.monotonic() - began
            stall.unlink()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and kiosk.proc.poll() is None:
                time.sleep(0.5)
                view = seat_view(port)
                if view["version"] and not stall.exists():
                    break
            time.sleep(1.0)  # the queued claim reaches the kiosk's next pass
            view = seat_view(port)
            applied = view["seats"][0]["claimed"] or view["seats"][0]["name"] == "Gus"
            note("a claim answered 'try again' applied later anyway", status == 503 and not applied,
                 f"{status} after {waited:.1f} s; seat 1 claimed afterwards: {'yes' if applied else 'no'}")
        finally:
            stop_kiosk(kiosk)
    refused = sum(ok for _, ok, _ in results)
    print(f"{refused} of {len(results)} seat attacks refused")
    return 0 if refused == len(results) else 1
