#!/usr/bin/env python3
"""What an attacker without credentials can throw at a parley-server, all at once, from other loopback addresses than
the legitimate client's (Linux routes all of 127.0.0.0/8 to the loopback interface):

  - idle connections that never send a byte, and unfinished request heads (slowloris), 1,000 per address;
  - WebSocket upgrades without credentials;
  - floods of the routes that take no credentials and cost the server work: registrations, device-link attempts,
    provisioning fetches and PIN-backup guesses, each from its own address on kept-alive connections.

Prints what the server answered and how many of the idle connections it had closed by the end. Run by
`Scripts/load-test.sh unauthenticated-flood` beside `parley-load traffic`, which measures the legitimate client.
Standard library only."""
import argparse
import asyncio
import base64
import collections
import json
import os
import time


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def body_for(kind: str) -> tuple[str, str, bytes]:
    """Method, path and body of one request of `kind`."""
    if kind == "register":
        request = {"username": "flood" + os.urandom(6).hex(), "identityKey": b64(b"\x05" + os.urandom(32)),
                   "registrationId": 7, "password": b64(os.urandom(24)), "deviceName": None}
        return "POST", "/v1/accounts", json.dumps(request).encode()
    if kind == "link":
        request = {"code": os.urandom(16).hex(), "registrationId": 7, "password": b64(os.urandom(24)), "deviceName": None}
        return "PUT", "/v1/devices/link", json.dumps(request).encode()
    if kind == "provisioning":
        address = base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
        return "GET", "/v1/provisioning/" + address, b""
    if kind == "backup":
        return "POST", "/v1/backup/flood%s/evaluate" % os.urandom(4).hex(), json.dumps({"blindedElement": b64(os.urandom(32))}).encode()
    raise ValueError(kind)


async def read_response(reader: asyncio.StreamReader) -> int:
    """The status of one HTTP/1.1 response, its body read (Content-Length or chunked)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {line.split(":", 1)[0].strip().lower(): line.split(":", 1)[1].strip() for line in lines[1:] if ":" in line}
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip(), 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    return status


async def flood(host: str, port: int, source: str, kind: str, deadline: float, counts: collections.Counter) -> None:
    """One worker: requests of `kind` one after another on a kept-alive connection until `deadline`."""
    reader = writer = None
    while time.monotonic() < deadline:
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
            method, path, body = body_for(kind)
            head = f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
            writer.write(head.encode() + body)
            await writer.drain()
            status = await asyncio.wait_for(read_response(reader), 30)
            counts[status] += 1
            if status == 503:  # refused at the connection: the server closes it
                writer.close()
                writer = None
                await asyncio.sleep(0.05)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError, IndexError):
            counts["connection failed"] += 1
            if writer is not None:
                writer.close()
            writer = None
            await asyncio.sleep(0.05)
    if writer is not None:
        writer.close()


async def open_idle(host: str, port: int, source: str, count: int, partial: bool) -> list:
    """`count` connections from `source`: silent, or with a request head that never ends."""
    connections = []
    for _ in range(count):
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
        except OSError:
            break
        if partial:
            writer.write(f"GET /health HTTP/1.1\r\nHost: {host}\r\n".encode())
        connections.append((reader, writer))
    return connections


async def still_open(connections: list) -> int:
    """How many of `connections` the server has not closed (nothing to read and not at EOF within 10 ms)."""
    open_count = 0
    for reader, _ in connections:
        try:
            data = await asyncio.wait_for(reader.read(4096), 0.01)
            if data and not reader.at_eof():
                open_count += 1  # an answer (503) on a connection still open
        except asyncio.TimeoutError:
            open_count += 1
        except OSError:
            pass
    return open_count


async def unauthenticated_sockets(host: str, port: int, source: str, count: int) -> collections.Counter:
    """`count` WebSocket upgrades of /v1/websocket without credentials, 50 at a time; the statuses."""
    counts = collections.Counter()
    key = b64(os.urandom(16))

    async def one():
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
            writer.write((f"GET /v1/websocket HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
            await writer.drain()
            counts[await asyncio.wait_for(read_response(reader), 30)] += 1
            writer.close()
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError, IndexError):
            counts["connection failed"] += 1

    for start in range(0, count, 50):
        await asyncio.gather(*(one() for _ in range(min(50, count - start))))
    return counts


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="host:port")
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--idle", type=int, default=2000, help="idle and unfinished connections in all")
    parser.add_argument("--sockets", type=int, default=1000, help="WebSocket upgrades without credentials")
    parser.add_argument("--workers", type=int, default=8, help="connections per flooded route")
    arguments = parser.parse_args()
    host, port = arguments.server.rsplit(":", 1)
    port = int(port)
    started = time.monotonic()
    deadline = started + arguments.duration

    # Idle connections from 127.0.0.2 and .3 (half silent, half with an unfinished head), 1,000 per address at most.
    per_address = min(1000, arguments.idle // 2)
    silent = await open_idle(host, port, "127.0.0.2", per_address, partial=False)
    unfinished = await open_idle(host, port, "127.0.0.3", per_address, partial=True)

    counts = {kind: collections.Counter() for kind in ["register", "link", "provisioning", "backup"]}
    sources = {"register": "127.0.0.5", "link": "127.0.0.6", "provisioning": "127.0.0.7", "backup": "127.0.0.8"}
    workers = [flood(host, port, sources[kind], kind, deadline, counts[kind]) for kind in counts for _ in range(arguments.workers)]
    socket_counts, *_ = await asyncio.gather(unauthenticated_sockets(host, port, "127.0.0.4", arguments.sockets), *workers)
    silent_open, unfinished_open = await still_open(silent), await still_open(unfinished)
    elapsed = time.monotonic() - started

    def show(counter):
        return ", ".join(f"{status} ×{count}" for status, count in sorted(counter.items(), key=lambda item: str(item[0])))

    print(f"unauthenticated flood: {elapsed:.1f} s")
    print(f"  idle connections: {len(silent)} silent from 127.0.0.2, {silent_open} still open at the end; "
          f"{len(unfinished)} unfinished request heads from 127.0.0.3, {unfinished_open} still open at the end")
    print(f"  WebSocket upgrades without credentials: {sum(socket_counts.values())}: {show(socket_counts)}")
    for kind, counter in counts.items():
        total = sum(counter.values())
        print(f"  {kind}: {total} requests ({total / elapsed:.0f}/s) from {sources[kind]}: {show(counter)}")
    for _, writer in silent + unfinished:
        writer.close()


if __name__ == "__main__":
    asyncio.run(main())
