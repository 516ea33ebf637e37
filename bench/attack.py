"""The phone page under attack: a real kiosk child process (``hotstreak run --hardware mock --web
127.0.0.1:PORT --display none --audio none --db TMP``) on loopback only, hit by each attack in turn for
``--seconds``, while a fresh phone keeps loading the page and scans keep being typed at the kiosk.

Attacks (bench/attack_flood.py; the attacker is 127.0.0.1; "many addresses" uses 127.0.0.20-59): 8 POSTs
claiming 150 MB bodies and streaming them; 8 chunked 150 MB bodies; 250 slowloris connections (a header byte
every 0.5 s); 250 idle connections; 500 WebSockets; 40 addresses x 8 idle connections; garbage and 1000-deep
JSON bodies. Every attack connection reopens when the kiosk closes it.

Figures per phase: the kiosk's peak RSS and thread count (/proc), page loads by a new phone (a new
loopback address each time: the page, its script and style) with their time, scan latency (each scan
``HS-NAME-2:Scan N`` typed on the kiosk's stdin until a phone's WebSocket (127.0.0.9) shows it), scans not
seen on the page, and at the end whether the last scan is in the journal (``hotstreak status --json``).
If this machine lets it make a memory cgroup (cgroup v1 ``memory``, under this process's own one), the kiosk
runs in one with ``--memory-max`` (default 1 GiB, a 1 GB Pi) and its peak and OOM kills are printed.

    python bench/attack.py [--seconds 6] [--memory-max 1G] [--only slowloris,websockets]

``--seats`` runs the attacks on seats instead (bench/attack_seats.py; a phone plays only its own seat), each
printed as refused or not: claiming a seat named at the kiosk or played from the bet sheet without its consent
code, guessing that code, a claim whose phone stopped waiting (the kiosk stalled past the phone's wait with
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
from typing import Callable

from attack_flood import ATTACKS, attack

ROOT = Path(__file__).resolve().parent.parent
HOTSTREAK = [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())"]
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


# ----- a phone's requests and the kiosk's stop (the seat and café attacks use them too) -----------------------
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


def kiosk_ready(db: Path, port: int, inputs: tuple[str, ...], ready: Callable[[dict], bool],
                env: dict[str, str] | None = None, wait: float = 60.0) -> tuple[Kiosk, float]:
    """A kiosk child on ``db`` serving its page on ``port``, with ``inputs`` typed once the page answers; returned
    with the seconds until the page first answered once ``ready(view)`` holds. RuntimeError (the child's last
    stderr) when it ends or ``wait`` seconds pass first."""
    began = time.monotonic()
    kiosk = Kiosk(db, port, None, env)
    up: float | None = None
    typed = False
    while True:
        if kiosk.proc.poll() is not None or time.monotonic() > began + wait:
            raise RuntimeError("the kiosk did not start: " + "".join(kiosk.stderr)[-2000:])
        try:
            view = seat_view(port)
        except OSError:
            time.sleep(0.05)
            continue
        up = up if up is not None else time.monotonic() - began
        if not typed:
            for line in inputs:
                kiosk.type(line)
            typed = True
        elif ready(view):
            return kiosk, up
        time.sleep(0.05)


def stop_kiosk(kiosk: Kiosk) -> None:
    if kiosk.proc.poll() is None:
        kiosk.proc.stdin.close()
        kiosk.proc.terminate()
    kiosk.proc.wait(15)


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
        from attack_seats import seat_attacks
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
