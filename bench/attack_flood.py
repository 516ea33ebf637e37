"""The attacks of ``python bench/attack.py`` on the phone page's resources, each bounded in count and in time: 8
POSTs claiming 150 MB bodies and streaming them; 8 chunked 150 MB bodies; 250 slowloris connections (a header
byte every 0.5 s); 250 idle connections; 500 WebSockets; 40 addresses x 8 idle connections; garbage and
1000-deep JSON bodies. Every attack connection reopens when the kiosk closes it. ``attack(name, port, seconds)``
runs one of ``ATTACKS`` on a thread and counts what happened in its stats.
"""

from __future__ import annotations

import asyncio
import threading
import time

ATTACKER = "127.0.0.1"


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
                writer.write(head(port, "Transfer-Encoding: chunked\r\n" if chunked
                                  else "Content-Length: 150000000\r\n"))
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
