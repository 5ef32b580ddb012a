"""A hand-written HTTP/1.1 client: one connection per exchange, so a soak client can trickle
its body, send only part of it, or hang up at a moment of its choosing (httpx cannot)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass
class Reply:
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    error: str | None = None  # why no answer came: "timeout", "vanished" or the exception


async def http_call(
    port: int,
    method: str,
    target: str,
    body: bytes = b"",
    *,
    timeout: float,
    trickle_s: float = 0.0,
    vanish_after_s: float | None = None,
    send_bytes: int | None = None,
) -> Reply:
    """One HTTP/1.1 exchange on its own connection, written by hand so a client can trickle
    its body, send only `send_bytes` of it, or hang up after `vanish_after_s` seconds."""
    writer: asyncio.StreamWriter | None = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(
                f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            payload = body if send_bytes is None else body[:send_bytes]
            for chunk in _chunks(payload, 10 if trickle_s else 1):
                writer.write(chunk)
                await writer.drain()
                if trickle_s:
                    await asyncio.sleep(trickle_s / 10)
            if vanish_after_s is None:
                return _parse_reply(await reader.read())
            try:
                async with asyncio.timeout(vanish_after_s):
                    return _parse_reply(await reader.read())
            except TimeoutError:
                writer.transport.abort()
                return Reply(error="vanished")
    except TimeoutError:
        return Reply(error="timeout")
    except (OSError, ValueError) as exc:
        return Reply(error=f"{type(exc).__name__}: {exc}")
    finally:
        if writer is not None:
            writer.transport.abort()


def _chunks(data: bytes, count: int) -> Iterator[bytes]:
    size = max(1, -(-len(data) // count))
    for start in range(0, len(data), size):
        yield data[start : start + size]


def _parse_reply(raw: bytes) -> Reply:
    head, sep, body = raw.partition(b"\r\n\r\n")
    if not sep:
        raise ValueError(f"connection closed without a complete answer ({len(raw)} bytes)")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Reply(status=int(status_line.split()[1]), headers=headers, body=body)
