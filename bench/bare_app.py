"""Baseline for bench/gateway.py: a bare FastAPI route doing one pipe round trip to a child.

No protocol, no validation, no digest, no log line: what /discover would cost if the gateway
did nothing but relay a line, lock-stepped, to a long-lived `cat` and back.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from starlette.responses import Response

child: asyncio.subprocess.Process | None = None
turn = asyncio.Lock()


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    global child
    child = await asyncio.create_subprocess_exec(
        "cat", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    yield
    assert child.stdin
    child.stdin.close()
    await child.wait()


app = FastAPI(lifespan=lifespan)


@app.post("/echo")
async def echo(request: Request) -> Response:
    body = await request.body()
    assert child and child.stdin and child.stdout
    async with turn:
        child.stdin.write(body.replace(b"\n", b" ") + b"\n")
        await child.stdin.drain()
        line = await child.stdout.readline()
    return Response(line, media_type="application/json")
