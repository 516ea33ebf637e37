"""The phone page in a shared room (a café, a club, a party's Wi-Fi): its attacks against real kiosk
children (``hotstreak run --hardware mock --web 127.0.0.1:PORT --display none --audio none``), each printed as
refused or not with its figures. Run by ``python bench/attack.py --cafe [--seconds S]``.

1. seat squatting: a script watching ``/ws`` claims every free seat as soon as the player count is scanned,
   without the join code (and with a made-up one); nothing the network serves shows the code;
2. the Dealer: a phone's seat named, then freed, at the kiosk; the phone's token, then the script, try again;
3. a phone-hour of renames: a journal holding 7,200 (and 65,000) phone inputs; the kiosk's start-up and the time a scan
   typed at the kiosk takes to reach a phone's WebSocket, beside an empty journal; then a phone renaming as
   fast as it can for S seconds (how many renames are journaled);
4. connection caps: 16 WebSockets from each of 12 addresses and 3 from each of 25 more, then 41 new phones
   load the page and open their WebSocket;
5. consent guessing: 40 addresses guess a seat's 6-digit code as fast as the page lets them for S seconds;
   then the seat's owner types the right one on another phone;
6. names: "Seat 3", another seat's name in capitals with an accent, a letter with 15 accents;
7. a refused Host: what the 403 says.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from attack import ROOT, Kiosk, free_port, kiosk_ready, load_page, seat_post, seat_view, stop_kiosk

sys.path.insert(0, str(ROOT))


def post(port: int, body: dict, source: str, path: str = "/api/claim") -> tuple[int, dict]:
    """A phone's POST from loopback address ``source`` (a claim unless ``path`` says otherwise): (status, answer)."""
    return seat_post(port, path, body, source)


def codes(db: Path) -> tuple[str | None, dict[int, str]]:
    """The join code and the seats' consent codes the kiosk's screen shows (journal and key file)."""
    from companion.kiosk.journal import Journal
    from companion.web.seats import table_codes
    with Journal(db, readonly=True) as journal:
        return table_codes(db, journal.identity, journal.current())


def kiosk_at(db: Path, inputs: tuple[str, ...], ready: Callable[[dict], bool]) -> tuple[Kiosk, int, float]:
    """A kiosk child on ``db`` with ``inputs`` typed once its page answers; (kiosk, port, seconds until the
    page first answered) once ``ready(view)``."""
    port = free_port()
    kiosk, up = kiosk_ready(db, port, inputs, ready, wait=120)
    return kiosk, port, up


def until(port: int, ready: Callable[[dict], bool], seconds: float = 30.0) -> dict:
    deadline = time.monotonic() + seconds
    while not ready(view := seat_view(port)):
        if time.monotonic() > deadline:
            raise RuntimeError("the table never got there")
        time.sleep(0.05)
    return view


def served(port: int) -> str:
    """The page, its script, the view and one /ws frame: everything a phone without the code can read."""
    from websockets.sync.client import connect
    texts = []
    for path in ("/", "/static/app.js", "/api/view"):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", path)
        texts.append(conn.getresponse().read().decode())
        conn.close()
    with connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}", open_timeout=10) as ws:
        texts.append(str(ws.recv(timeout=10)))
    return "\n".join(texts)


def latencies(kiosk: Kiosk, port: int, scans: int) -> list[float]:
    """Seconds from typing ``HS-NAME-2:Scan n`` at the kiosk to a phone's WebSocket showing it."""
    from websockets.sync.client import connect
    out = []
    with connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}", open_timeout=10) as ws:
        ws.recv(timeout=10)
        for n in range(1, scans + 1):
            began = time.monotonic()
            kiosk.type(f"HS-NAME-2:Scan {n}")
            while json.loads(ws.recv(timeout=30))["seats"][1]["name"] != f"Scan {n}":
                pass
            out.append(time.monotonic() - began)
            time.sleep(0.1)
    return out


def cafe_attacks(seconds: float = 6.0) -> int:
    from companion.kiosk.journal import Entry, Journal
    results: list[bool] = []

    def note(attack: str, refused: bool, detail: str) -> None:
        results.append(refused)
        print(f"{'refused' if refused else 'NOT REFUSED':<12} {attack}: {detail}", flush=True)

    betting = lambda v: v.get("phase") == "betting"  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "journal.db"
        kiosk, port, _ = kiosk_at(db, ("HS-NEW", "HS-OPEN"), lambda v: True)
        try:
            # 1. squatting
            from websockets.sync.client import connect
            taken = []
            with connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}", open_timeout=10) as ws:
                kiosk.type("HS-PLAYERS-12")
                while not json.loads(ws.recv(timeout=30)).get("players"):
                    pass
                began = time.monotonic()
                for seat in range(1, 13):
                    body = {"seat": seat, "name": f"Squat {seat}", **({"join": "ABCDEF"} if seat % 2 else {})}
                    status, answer = post(port, body, "127.0.0.70")
                    taken += [seat] if status == 200 else []
                took = time.monotonic() - began
            join, _ = codes(db)
            leaked = join is not None and join in served(port)
            note("squat all 12 seats without the join code", not taken and not leaked,
                 f"{len(taken)} of 12 taken in {took:.2f} s; the code in the page, script, view or /ws: "
                 f"{'yes' if leaked else 'no'}")

            # 2. the Dealer
            kiosk.type("HS-GO")
            until(port, betting)
            status, phone = post(port, {"seat": 3, "name": "Mallory", "join": join}, "127.0.0.71")
            kiosk.type("HS-NAME-3:Ann")
            until(port, lambda v: v["seats"][2]["name"] == "Ann")
            bet = post(port, {"seat": 3, "token": phone.get("token"), "mascot": "mum"}, "127.0.0.71", "/api/bet")[0]
            rename = post(port, {"seat": 3, "name": "Mal", "token": phone.get("token"), "join": join}, "127.0.0.71")[0]
            note("the phone's hold after the Dealer names its seat", status == 200 and bet == 403 and rename == 403,
                 f"claim {status}, then bet {bet}, rename {rename}")
            kiosk.type("HS-NAME-3:")
            until(port, lambda v: not v["seats"][2]["named"])
            began = time.monotonic()
            back = post(port, {"seat": 3, "name": "Mallory"}, "127.0.0.72")[0]
            note("a script takes back the seat the Dealer freed, without the join code", back == 403,
                 f"{back} after {(time.monotonic() - began) * 1000:.0f} ms")

            # 6. names
            kiosk.type("HS-NAME-2:Ann")
            until(port, lambda v: v["seats"][1]["name"] == "Ann")
            for name in ("Seat 3", "ÁNN", "e" + "\u0301" * 15):
                status, answer = post(port, {"seat": 4, "name": name, "join": join}, "127.0.0.73")
                note(f"name seat 4 {name!r}", status == 400, f"{status} {answer.get('error')}")

            # 7. a refused Host
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/api/view", headers={"Host": "evil.example"})
            response = conn.getresponse()
            said = response.read().decode()
            conn.close()
            note("a refused Host learns the kiosk's names", response.status == 403 and "127.0.0.1" not in said
                 and "localhost" not in said, f"{response.status} {json.loads(said).get('error')}")

            # 5. consent guessing from 40 addresses
            kiosk.type("HS-NAME-5:Dora")
            until(port, lambda v: v["seats"][4]["name"] == "Dora")
            right = codes(db)[1][5]
            looked, slowed = guess(port, join, 5, right, seconds)
            status, _ = post(port, {"seat": 5, "name": "Dora", "code": right, "join": join}, "127.0.0.200")
            per = max(looked.values())
            note(f"guess seat 5's code from 40 addresses for {seconds:g} s", status == 200 and per <= 16,
                 f"{sum(looked.values())} codes looked at (at most {per} from one address), {slowed} answered "
                 f"'wait'; the owner's right code from another phone -> {status}")
        finally:
            stop_kiosk(kiosk)

        # 4. connection caps
        for plan in ([(16, 12), (3, 25)], [(4, 70)]):
            kiosk, port, _ = kiosk_at(Path(tmp) / "caps.db", (), lambda v: True)
            try:
                loads, before, held = caps(port, plan)
                what = " + ".join(f"{n} x {count}" for count, n in plan)
                note(f"a new phone against {what} held WebSockets", all(loads),
                     f"{sum(loads)} of {len(loads)} new phones loaded the page and opened their WebSocket; the "
                     f"attack held {before} of its {sum(c * n for c, n in plan)} before they came, {held} after")
            finally:
                stop_kiosk(kiosk)

        # 3. a phone-hour of inputs
        figures = {}
        for n in (0, 7200, 65000):
            path = Path(tmp) / f"renames-{n}.db"
            game = [Entry(1, 0.0, "scan", "HS-NEW"), Entry(2, 0.0, "scan", "HS-PLAYERS-3"),
                    Entry(3, 0.0, "scan", "HS-GO")]
            game += [Entry(4 + k, 0.0, "web", f"HS-NAME-1:Ann {k % 10}") for k in range(n)]
            with Journal(path) as journal:
                journal.rebuild(game)
            kiosk, port, up = kiosk_at(path, (), betting)
            try:
                lat = latencies(kiosk, port, 20)
                figures[n] = (up, statistics.median(lat), max(lat))
                if n:
                    journaled = flood(port, codes(path)[0], seconds)
            finally:
                stop_kiosk(kiosk)
        for n, (up, p50, worst) in figures.items():
            print(f"{'':<12} {n:>5} phone inputs in the journal: page up {up:.2f} s after start, a scan reaches a "
                  f"phone in {p50 * 1000:.0f} ms (median of 20), {worst * 1000:.0f} ms at most")
        note("7,200 phone inputs slow a scan", figures[7200][2] < 0.25,
             f"worst {figures[7200][2] * 1000:.0f} ms (empty journal {figures[0][2] * 1000:.0f} ms)")
        note(f"a phone renaming its seat as fast as it can for {seconds:g} s", journaled[1] <= seconds / 2 + 1,
             f"{journaled[0]} renames sent, {journaled[1]} journaled")
    print(f"{sum(results)} of {len(results)} café attacks refused")
    return 0 if all(results) else 1


def guess(port: int, join: str | None, seat: int, right: str, seconds: float) -> tuple[dict[str, int], int]:
    """40 addresses guess ``seat``'s code for ``seconds``: (codes looked at per address, answers 'wait')."""
    looked: dict[str, int] = {}
    slowed = [0]
    stop = time.monotonic() + seconds

    def one(k: int) -> None:
        source = f"127.0.0.{100 + k}"
        n = 0
        while time.monotonic() < stop:
            n += 1
            wrong = f"{(k * 7919 + n) % 10 ** 6:06d}"
            if wrong == right:
                continue
            status, answer = post(port, {"seat": seat, "name": "X", "code": wrong, "join": join}, source)
            if status == 403:
                looked[source] = looked.get(source, 0) + 1
            elif status == 429:
                slowed[0] += 1
                time.sleep(0.25)
    threads = [threading.Thread(target=one, args=(k,)) for k in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return looked, slowed[0]


def caps(port: int, plan: list[tuple[int, int]]) -> tuple[list[bool], int, int]:
    """Hold ``plan``'s WebSockets (``[(per address, addresses)]``), then 41 new phones come: (each one's page
    and WebSocket ok, attack sockets held before they came, still held at the end)."""
    from websockets.asyncio.client import connect
    stop = threading.Event()
    held = [0]

    async def hold(source: str) -> None:
        """One attack WebSocket from ``source``, opened again whenever it is refused or closed."""
        import socket
        while not stop.is_set():
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
                async with connect(f"ws://127.0.0.1:{port}/ws", sock=sock, origin=f"http://127.0.0.1:{port}",
                                   open_timeout=10) as ws:
                    held[0] += 1
                    try:
                        while not stop.is_set():
                            try:
                                await asyncio.wait_for(ws.recv(), 0.5)
                            except asyncio.TimeoutError:
                                pass
                    finally:
                        held[0] -= 1
            except Exception:  # noqa: BLE001 - refused or closed to make room: tried again
                await asyncio.sleep(0.5)

    async def attack() -> None:
        sources = [f"127.1.{k}.{a}" for k, (count, n) in enumerate(plan) for a in range(n) for _ in range(count)]
        await asyncio.gather(*(hold(s) for s in sources))
    thread = threading.Thread(target=lambda: asyncio.run(attack()), daemon=True)
    thread.start()
    deadline, last, steady = time.monotonic() + 30, -1, 0.0
    while time.monotonic() < deadline and steady < 3.0:  # until the attack holds all it can for 3 s
        time.sleep(0.5)
        steady, last = (steady + 0.5, last) if held[0] == last else (0.0, held[0])
    before = held[0]
    from websockets.sync.client import connect as ws_connect
    import socket
    loads = []
    for k in range(41):
        source = f"127.0.3.{k + 1}"
        ok = load_page(port, source)[0]
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
            with ws_connect(f"ws://127.0.0.1:{port}/ws", sock=sock, origin=f"http://127.0.0.1:{port}",
                            open_timeout=10) as ws:
                ok = ok and bool(json.loads(ws.recv(timeout=10)))
        except Exception:  # noqa: BLE001 - refused: counted
            ok = False
        loads.append(ok)
    still = held[0]
    stop.set()
    thread.join(15)
    return loads, before, still


def flood(port: int, join: str | None, seconds: float) -> tuple[int, int]:
    """A phone claims seat 3, then renames it as fast as it can: (renames sent, renames journaled)."""
    status, phone = post(port, {"seat": 3, "name": "Flo", "join": join}, "127.0.0.90")
    assert status == 200, phone
    sent = journaled = 0
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        sent += 1
        status, _ = post(port, {"seat": 3, "name": f"Flo {sent}", "token": phone.get("token"), "join": join},
                         "127.0.0.90")
        journaled += status == 200
    return sent, journaled


def main() -> int:
    return cafe_attacks(float(sys.argv[1]) if len(sys.argv) > 1 else 6.0)


if __name__ == "__main__":
    sys.exit(main())
