"""What connections holding unfinished request bodies cost the gateway (issue 33, item 3).

Runs `gpp serve` as a child on loopback (default `gateway.max_buffered_bytes`, 256 MiB) and
opens N connections (4,096 by default, the default connection cap), each sending a request
head declaring a 1 MiB body and all of it but its last byte, then holding it. Reports the
gateway's RSS before, while they are all held, and its peak (VmHWM); how many were refused
(503) and how many are held; the RSS once they are closed. Bounded: every socket has a
timeout, and everything is closed at the end. `python bench/held_bodies.py [--quick] [N]`;
nothing is asserted.
"""

from __future__ import annotations

import contextlib
import json
import resource
import select
import socket
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import table  # noqa: E402
from bench.serving import (  # noqa: E402
    REFERENCE_DETECTOR_TOML,
    Gateway,
    rss_kib,
    status_kib,
    workdir,
)

Row = dict[str, object]
CONFIG = REFERENCE_DETECTOR_TOML
BODY_BYTES = 1024 * 1024
SOCKET_TIMEOUT_S = 30.0


def body() -> bytes:
    text = json.dumps({"paths": ["p" * (BODY_BYTES - 15)]}).encode()
    assert len(text) == BODY_BYTES
    return text


def head(length: int) -> bytes:
    return (
        b"POST /plugins/reference-detector/discover HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % length
    )


def hold(port: int, count: int, sockets: list[socket.socket]) -> int:
    """Open `count` connections, each with all of its body but the last byte sent; returns
    how many could not send it all (the gateway closed them)."""
    unfinished = head(BODY_BYTES) + body()[:-1]
    cut = 0
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT_S)
        sockets.append(sock)
        try:
            sock.sendall(unfinished)
        except OSError:
            cut += 1
    return cut


def refused(sockets: list[socket.socket]) -> int:
    """Connections the gateway answered (only a refusal answers an unfinished body)."""
    answered = 0
    by_fd = {sock.fileno(): sock for sock in sockets}
    poller = select.poll()  # not select: descriptors past 1024
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    for fd, _ in poller.poll(0):
        with contextlib.suppress(OSError):
            if by_fd[fd].recv(64).startswith(b"HTTP/1.1 503 "):
                answered += 1
    return answered


def row(case: str, figure: str, value: float, unit: str, **detail: object) -> Row:
    return table.row("held_bodies", case, figure, value, unit, detail=detail)


def measure(count: int) -> list[Row]:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    count = min(count, hard - 64)
    with workdir() as folder:
        config = folder / "registry.toml"
        config.write_text(CONFIG.format(repo=REPO), "utf-8")
        sockets: list[socket.socket] = []
        with Gateway(config) as gateway:
            before = rss_kib(gateway.pid)
            try:
                cut = hold(gateway.port, count, sockets)
                held_kib = rss_kib(gateway.pid)
                peak_kib = status_kib(gateway.pid, "VmHWM")
                answered = refused(sockets)
            finally:
                for sock in sockets:
                    sock.close()
            # one full request after they are gone: the gateway serves again
            with socket.create_connection(("127.0.0.1", gateway.port), SOCKET_TIMEOUT_S) as sock:
                sock.sendall(head(13) + b'{"paths": []}')
                served = sock.recv(64).split(b"\r\n")[0].decode()
            after = rss_kib(gateway.pid)
    case = f"{count:,} connections each holding an unfinished {BODY_BYTES // 1024} KiB body"
    return [
        row(case, "RSS before", round(before / 1024, 1), "MiB"),
        row(case, "RSS while held", round(held_kib / 1024, 1), "MiB",
            peak_mib=round(peak_kib / 1024, 1)),
        row(case, "RSS growth while held", round((held_kib - before) / 1024, 1), "MiB"),
        row(case, "refused (503)", answered, "count", cut_while_sending=cut),
        row(case, "RSS once closed", round(after / 1024, 1), "MiB", next_request=served),
    ]  # fmt: skip


def run(quick: bool) -> list[Row]:
    return measure(512 if quick else 4096)


def main() -> None:
    numbers = [int(arg) for arg in sys.argv[1:] if arg.isdigit()]
    rows = measure(numbers[0]) if numbers else run("--quick" in sys.argv[1:])
    print(table.render(rows))


if __name__ == "__main__":
    main()
