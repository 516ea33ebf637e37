"""The phone page under attack: a real kiosk child process (``hotstreak run --hardware mock --web
127.0.0.1:PORT --display none --audio none --db TMP``) on loopback only, hit by each attack in turn for
``--seconds``, while a fresh phone keeps loading the page and scans keep being typed at the kiosk.

Attacks (the attacker is 127.0.0.1; "many addresses" uses 127.0.0.20-59): 8 POSTs claiming 150 MB bodies
and streaming them; 8 chunked 150 MB bodies; 250 slowloris connections (a header byte every 0.5 s); 250
idle connections; 500 WebSockets; 40 addresses x 8 idle connections; garbage and 1000-deep JSON bodies.
Every attack connection reopens when the kiosk closes it.

Figures per phase: the kiosk's peak RSS and thread count (/proc), page loads by a new phone (a new
loopback address each time: the page, its script and style) with their time, scan latency (each scan
``HS-NAME-2:Scan N`` typed on the kiosk's stdin until a phone's WebSocket (127.0.0.9) shows it), scans not
seen on the page, and at the end whether the last scan is in the journal (``hotstreak status --json``).
If this machine lets it make a memory cgroup (cgroup v1 ``memory``, under this process's own one), the kiosk
runs in one with ``--memory-max`` (default 1 GiB, a 1 GB Pi) and its peak and OOM kills are printed.

    python bench/attack.py [--seconds 6] [--memory-max 1G] [--only slowloris,websockets]

``--seats`` runs the attacks on seats instead (a phone plays only its own seat), each printed as refused or
not: claiming a seat named at the kiosk or played from the bet sheet without its consent code, guessing that
code, a claim whose phone stopped waiting (the kiosk stalled past the phone's wait with
$HOTSTREAK_MOCK_STALL_FILE), and yesterday's token against today's journal (moved aside, same key file, the
same entry ids). The honest moves are checked too (a free seat, the screen's code, today's token).

    python bench/attack.py --seats

``--cafe`` runs the attacks of a shared room (bench/attack_cafe.py; figures in docs/web-hardening.md): seat
squatting without the join code, a phone's hold after the Dealer names its seat, 7,200 renames then a scan's
latency, connection caps against a new address, consent-code guessing from 40 addresses, name impersonation,
and what a refused Host is told.

    python bench/attack.py --cafe [--seconds 6]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOTSTREAK = [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())"]
ATTACKER = "127.0.0.1"
PHONE = "127.0.0.9"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ----- the kiosk child and its memory cgroup -------------------------------------------------------------------
class MemoryCgroup:
    """A cgroup v1 memory group under this process's own, or None from :meth:`make` when none can be made."""

    def __init__(self, path: Path):
        self.path = path

    @classmethod
    def make(cls, limit: int) -> "MemoryCgroup | None":
        try:
            own = next(line.split(":", 2)[2] for line in Path("/proc/self/cgroup").read_text().splitlines()
                       if line.split(":")[1] == "memory")
            path = Path("/sys/fs/cgroup/memory") / own.lstrip("/") / f"hotstreak-attack-{os.getpid()}"
            path.mkdir()
            (path / "memory.limit_in_bytes").write_text(str(limit))
            return cls(path)
        except (OSError, StopIteration, IndexError):
            return None

    def add(self, pid: int) -> None:
        (self.path / "cgroup.procs").write_text(str(pid))

    def figures(self) -> dict[str, int]:
        oom = dict(line.split() for line in (self.path / "memory.oom_control").read_text().splitlines())
        return {"peak": int((self.path / "memory.max_usage_in_bytes").read_text()),
                "failcnt": int((self.path / "memory.failcnt").read_text()), "oom_kill": int(oom.get("oom_kill", 0))}

    def remove(self) -> None:
        """Remove the group once its last process is gone. The kiosk's helpers (its odds child) left after it
        are killed after 15 s, as systemd kills what is left in a unit's group."""
        deadline = time.monotonic() + 30
        killed = False
        while True:
            try:
                self.path.rmdir()
                return
            except OSError as exc:
                left = (self.path / "cgroup.procs").read_text().split()
                if time.monotonic() > deadline - 15 and left:
                    if not killed:
                        print(f"killing the kiosk's leftover processes {' '.join(left)}", file=sys.stderr)
                    killed = True
                    for pid in left:
                        try:
                            os.kill(int(pid), 9)
                        except OSError:
                            pass
                if time.monotonic() > deadline:
                    print(f"could not remove {self.path}: {exc}", file=sys.stderr)
                    return
                time.sleep(0.2)


class Kiosk:
    def __init__(self, db: Path, port: int, cgroup: MemoryCgroup | None, env: dict[str, str] | None = None):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_AUDIODRIVER": "dummy", **(env or {})}
        self.proc = subprocess.Popen([*HOTSTREAK, "run", "--hardware", "mock", "--web", f"127.0.0.1:{port}",
                                      "--display", "none", "--audio", "none", "--db", str(db)],
                                     stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True, env=env, cwd=tempfile.gettempdir())
        if cgroup is not None:
            cgroup.add(self.proc.pid)
        self.lock = threading.Lock()
        self.peak_rss = self.peak_threads = 0
        self.stderr: list[str] = []
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while self.proc.poll() is None:
            try:
                fields = dict(line.split(":", 1) for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines())
            except OSError:
                return
            if "VmRSS" not in fields:   # exiting
                return
            with self.lock:
                self.peak_rss = max(self.peak_rss, int(fields["VmRSS"].split()[0]) * 1024)
                self.peak_threads = max(self.peak_threads, int(fields["Threads"]))
            time.sleep(0.02)

    def take_peaks(self) -> tuple[int, int]:
        with self.lock:
            peaks = self.peak_rss, self.peak_threads
            self.peak_rss = self.peak_threads = 0
        return peaks

    def type(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()


# ----- the honest phone and the scanner --------------------------------------------------------------------
def load_page(port: int, source: str) -> tuple[bool, float]:
    """A new phone loads the page, its script and its style on one connection: (all 200, seconds)."""
    start = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
        ok = True
        for path in ("/", "/static/app.js", "/static/style.css"):
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            ok = ok and response.status == 200
        conn.close()
    except OSError:
        ok = False
    return ok, time.monotonic() - start


class Phone(threading.Thread):
    """A phone's WebSocket from PHONE: notes when each seat-2 name is first seen."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.seen: dict[str, float] = {}
        self.ws = None

    def run(self) -> None:
        from websockets.sync.client import connect
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10, source_address=(PHONE, 0))
        with connect(f"ws://127.0.0.1:{self.port}/ws", sock=sock, origin=f"http://127.0.0.1:{self.port}") as ws:
            self.ws = ws
            try:
                for text in ws:
                    seats = json.loads(text).get("seats") or []
                    if len(seats) > 1:
                        self.seen.setdefault(seats[1]["name"], time.monotonic())
            except Exception:  # noqa: BLE001 - the kiosk closed it; the figures show it
                return


def measure(kiosk: Kiosk, phone: Phone, port: int, seconds: float, first_scan: int, probe_base: int) -> dict:
    """Scans every 0.25 s and a new phone's page load every 0.5 s for ``seconds``."""
    loads: list[tuple[bool, float]] = []
    sent: dict[str, float] = {}
    stop = time.monotonic() + seconds

    def probes() -> None:
        k = 0
        while time.monotonic() < stop:
            loads.append(load_page(port, f"127.0.{1 + (probe_base + k) // 250}.{1 + (probe_base + k) % 250}"))
            k += 1
            time.sleep(0.5)
    prober = threading.Thread(target=probes, daemon=True)
    prober.start()
    n = first_scan
    while time.monotonic() < stop:
        name = f"Scan {n}"
        sent[name] = time.monotonic()
        try:
            kiosk.type(f"HS-NAME-2:{name}")
        except OSError:
            break
        n += 1
        time.sleep(0.25)
    prober.join()
    time.sleep(1.0)   # the last scans' views
    latencies = [phone.seen[name] - at for name, at in sent.items() if name in phone.seen]
    return {"loads": loads, "sent": len(sent), "latencies": latencies, "next_scan": n, "last": name}


# ----- the attacks -------------------------------------------------------------------------------------------
def head(port: int, extra: str) -> bytes:
    return (f"POST /api/claim HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\n{extra}\r\n").encode()


async def _open(port: int, source: str = ATTACKER):
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def big_bodies(port: int, stop: float, stats: dict, chunked: bool = False) -> None:
    block = b"x" * (1 << 20)

    async def one() -> None:
        while time.monotonic() < stop:
            try:
                reader, writer = await _open(port)
                writer.write(head(port, "Transfer-Encoding: chunked\r\n" if chunked else "Content-Length: 150000000\r\n"))
                sent = 0
                while sent < 150_000_000 and time.monotonic() < stop:
                    writer.write(b"100000\r\n" + block + b"\r\n" if chunked else block)
                    await asyncio.wait_for(writer.drain(), 5)
                    sent += len(block)
                stats["bytes sent"] = stats.get("bytes sent", 0) + sent
                writer.close()
            except (OSError, asyncio.TimeoutError):
                stats["cut"] = stats.get("cut", 0) + 1
            await asyncio.sleep(0.05)
    await asyncio.gather(*(one() for _ in range(8)))


async def held(port: int, stop: float, stats: dict, count: int, trickle: bool, sources: list[str]) -> None:
    async def one(source: str) -> None:
        while time.monotonic() < stop:
            try:
                reader, writer = await _open(port, source)
                stats["opened"] = stats.get("opened", 0) + 1
                if trickle:
                    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                while time.monotonic() < stop:
                    if trickle:
                        writer.write(b"X")
                        await writer.drain()
                    try:
                        data = await asyncio.wait_for(reader.read(4096), 0.5)
                    except asyncio.TimeoutError:
                        continue
                    if not data or data.startswith(b"HTTP/1.1 503"):
                        stats["closed by kiosk"] = stats.get("closed by kiosk", 0) + 1
                        break
                writer.close()
            except ConnectionError:
                stats["closed by kiosk"] = stats.get("closed by kiosk", 0) + 1
            except OSError:
                stats["failed"] = stats.get("failed", 0) + 1
            await asyncio.sleep(0.1)
    await asyncio.gather(*(one(sources[i % len(sources)]) for i in range(count)))


async def websockets_flood(port: int, stop: float, stats: dict) -> None:
    from websockets.asyncio.client import connect

    async def one() -> None:
        while time.monotonic() < stop:
            try:
                async with connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}",
                                   open_timeout=5) as ws:
                    stats["accepted"] = stats.get("accepted", 0) + 1
                    while time.monotonic() < stop:
                        try:
                            await asyncio.wait_for(ws.recv(), 0.5)
                        except asyncio.TimeoutError:
                            pass
            except Exception:  # noqa: BLE001 - refused or closed: counted, then tried again
                stats["refused or closed"] = stats.get("refused or closed", 0) + 1
            await asyncio.sleep(0.2)
    await asyncio.gather(*(one() for _ in range(500)))


BAD_BODIES = [b"[" * 1000 + b"]" * 1000, b'{"a":' * 1000 + b"1" + b"}" * 1000, b"\xff\xfe", b'{"seat": 1e999}',
              b'{"seat": 1, "token": "\\ud800"}', b'{"seat": 1, "name": "\\u0000"}', b"1" * 2000, b"{"]


async def bad_json(port: int, stop: float, stats: dict) -> None:
    async def one(k: int) -> None:
        i = k
        while time.monotonic() < stop:
            body = BAD_BODIES[i % len(BAD_BODIES)]
            i += 1
            try:
                reader, writer = await _open(port, f"127.0.0.{60 + i % 40}")   # spread over the rate limit
                writer.write(head(port, f"Content-Length: {len(body)}\r\n") + body)
                status = (await asyncio.wait_for(reader.readline(), 5)).split()[1].decode()
                writer.close()
            except (OSError, asyncio.TimeoutError, IndexError):
                status = "none"
            stats[status] = stats.get(status, 0) + 1
    await asyncio.gather(*(one(k) for k in range(4)))


ATTACKS = {
    "big bodies": lambda port, stop, stats: big_bodies(port, stop, stats),
    "chunked bodies": lambda port, stop, stats: big_bodies(port, stop, stats, chunked=True),
    "slowloris": lambda port, stop, stats: held(port, stop, stats, 250, True, [ATTACKER]),
    "idle connections": lambda port, stop, stats: held(port, stop, stats, 250, False, [ATTACKER]),
    "websockets": websockets_flood,
    "many addresses": lambda port, stop, stats: held(port, stop, stats, 320, False,
                                                     [f"127.0.0.{20 + i}" for i in range(40)]),
    "bad json": bad_json,
}


def attack(name: str, port: int, seconds: float) -> tuple[threading.Thread, dict]:
    stats: dict = {}
    stop = time.monotonic() + seconds

    def run() -> None:
        asyncio.run(ATTACKS[name](port, stop, stats))
    thread = threading.Thread(target=run, daemon=True, name=name)
    thread.start()
    return thread, stats


# ----- attacks on seats --------------------------------------------------------------------------------------
def seat_post(port: int, path: str, body: dict, source: str) -> tuple[int, dict]:
    """A phone's POST from loopback address ``source``: (status, answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json",
                                                      "Origin": f"http://127.0.0.1:{port}"})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def seat_view(port: int) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/api/view")
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


def seat_table(db: Path, port: int, env: dict[str, str], inputs: tuple[str, ...], ready) -> Kiosk:
    """A kiosk child with ``inputs`` typed once its page answers, returned when ``ready(view)`` holds."""
    kiosk = Kiosk(db, port, None, env)
    deadline = time.monotonic() + 60
    typed = False
    while True:
        if kiosk.proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the kiosk did not start: " + "".join(kiosk.stderr)[-2000:])
        try:
            view = seat_view(port)
        except OSError:
            time.sleep(0.2)
            continue
        if not typed:
            for line in inputs:
                kiosk.type(line)
            typed = True
        elif ready(view):
            return kiosk
        time.sleep(0.1)


def stop_kiosk(kiosk: Kiosk) -> None:
    if kiosk.proc.poll() is None:
        kiosk.proc.stdin.close()
        kiosk.proc.terminate()
    kiosk.proc.wait(15)


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
            status, yesterday = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 2, "name": "Ann"}, "127.0.0.31")
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
            status, answer = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 3, "name": "Dora"}, "127.0.0.35")
            note("claim seat 3, named at the kiosk, as 'Dora' without a code", status == 403,
                 f"{status} {answer.get('reason')}")
            status, answer = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 4, "name": "Eve"}, "127.0.0.36")
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
            status, _ = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 4, "name": "Cy", "code": code_of(db, 4)},
                                  "127.0.0.51")
            print(f"{'ok':<12} a player with seat 4's code from the screen -> {status}")
            status, fay = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 1, "name": "Fay"}, "127.0.0.52")
            print(f"{'ok':<12} the first phone on free, unnamed seat 1 -> {status}")

            seat_post(port, "/api/leave", {"seat": 1, "token": fay.get("token")}, "127.0.0.53")
            stall.touch()  # the kiosk hangs in its next frame, past the phone's wait
            time.sleep(0.5)
            began = time.monotonic()
            status, answer = seat_post(port, "/api/claim", {"join": join_of(db), "seat": 1, "name": "Gus"}, "127.0.0.54")
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


# ----- the run --------------------------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="length of each attack (default 6)")
    parser.add_argument("--memory-max", default="1G", help="the kiosk's memory cgroup limit (default 1G)")
    parser.add_argument("--only", default="", help="comma-separated attacks (default: all): " + ", ".join(ATTACKS))
    parser.add_argument("--seats", action="store_true", help="the attacks on seats instead (see above)")
    parser.add_argument("--cafe", action="store_true", help="the attacks of a shared room instead (bench/attack_cafe.py)")
    args = parser.parse_args()
    if args.seats:
        return seat_attacks()
    if args.cafe:
        from attack_cafe import cafe_attacks
        return cafe_attacks(args.seconds)
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    limit = int(args.memory_max[:-1]) * units[args.memory_max[-1].upper()] if args.memory_max[-1].isalpha() \
        else int(args.memory_max)
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(ATTACKS)
    unknown = [n for n in names if n not in ATTACKS]
    if unknown:
        parser.error(f"--only {','.join(unknown)!r}: expected some of: {', '.join(ATTACKS)}")
    cgroup = MemoryCgroup.make(limit)
    print(f"memory cgroup: {cgroup.path} (limit {limit >> 20} MiB)" if cgroup else
          "memory cgroup: none could be made here (figures are without a memory limit)")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "journal.db"
        kiosk = Kiosk(db, port, cgroup)
        try:
            deadline = time.monotonic() + 30
            while not load_page(port, "127.0.0.1")[0]:
                if time.monotonic() > deadline or kiosk.proc.poll() is not None:
                    print("the kiosk did not start:", "".join(kiosk.stderr)[-2000:])
                    return 1
                time.sleep(0.2)
            for line in ("HS-NEW", "HS-PLAYERS-3", "HS-GO"):
                kiosk.type(line)
            phone = Phone(port)
            phone.start()
            time.sleep(1.0)
            print(f"{'phase':<17} {'peak RSS':>9} {'threads':>7} {'page loads':>10} {'load p50/max ms':>16} "
                  f"{'scans seen':>10} {'scan p50/max ms':>16}  attack")
            scan, probe = 1, 0
            for phase in ["none", *names]:
                kiosk.take_peaks()
                thread, stats = (None, {}) if phase == "none" else attack(phase, port, args.seconds)
                result = measure(kiosk, phone, port, args.seconds, scan, probe)
                if thread is not None:
                    thread.join(args.seconds + 15)
                scan, probe = result["next_scan"], probe + len(result["loads"])
                rss, threads = kiosk.take_peaks()
                loads = result["loads"]
                times = [t * 1000 for ok, t in loads if ok]
                lat = [t * 1000 for t in result["latencies"]]
                print(f"{phase:<17} {rss / (1 << 20):>7.0f}MB {threads:>7} {sum(ok for ok, _ in loads):>4}/{len(loads):<5} "
                      f"{pct(times, 0.5):>7.0f}/{max(times, default=float('nan')):<8.0f} "
                      f"{len(lat):>4}/{result['sent']:<5} {pct(lat, 0.5):>7.0f}/{max(lat, default=float('nan')):<8.0f}  "
                      + ", ".join(f"{k}: {v}" for k, v in sorted(stats.items())), flush=True)
                if kiosk.proc.poll() is not None:
                    print(f"the kiosk died (exit {kiosk.proc.returncode})")
                    break
            alive = kiosk.proc.poll() is None
        finally:
            if kiosk.proc.poll() is None:
                kiosk.proc.stdin.close()
                kiosk.proc.terminate()
            kiosk.proc.wait(15)
        try:
            sys.path.insert(0, str(ROOT))
            from companion.kiosk.journal import Journal
            journal = Journal(db)
            texts = {entry.text for entry in journal.entries()}
            journal.close()
            lost = f"{sum(f'HS-NAME-2:Scan {n}' not in texts for n in range(1, result['next_scan']))} of " \
                   f"{result['next_scan'] - 1}"
        except Exception as exc:  # noqa: BLE001 - another journal layout: the status check below still holds
            lost = f"unknown ({exc})"
        status = subprocess.run([*HOTSTREAK, "status", "--json", "--db", str(db)], capture_output=True, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp)
        try:
            journal_name = json.loads(status.stdout)["seats"][1]["name"]
        except (ValueError, KeyError, IndexError):
            journal_name = f"(status failed: {status.stderr.strip()[-200:]})"
        print(f"kiosk alive at the end: {'yes' if alive else 'no'}; scans missing from the journal: {lost}; "
              f"last scan typed: {result['last']!r}; seat 2 in `hotstreak status --json`: {journal_name!r}")
    if cgroup is not None:
        figures = cgroup.figures()
        print(f"cgroup: peak {figures['peak'] >> 20} MiB of {limit >> 20} MiB, limit hit {figures['failcnt']} times, "
              f"OOM kills {figures['oom_kill']}")
        cgroup.remove()
    return 0


if __name__ == "__main__":
    sys.exit(main())
