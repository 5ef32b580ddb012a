"""Gateway CPU and wall time per request, this checkout against a baseline checkout, in one
run with interleaved rounds (a load change on the shared machine hits both alike).

    git -C . archive main | tar -x -C /tmp/baseline   # or a worktree of the baseline
    python bench/cost_vs_baseline.py /tmp/baseline [ROUNDS] [REQUESTS]

Both gateways run as `python -m app serve` from their own checkout (its `app` and `gpp` first
on the path) with this interpreter, serving the reference detector (/discover) and the
JSON-RPC example (/rpc). Each round sends REQUESTS requests over one keep-alive connection to
each gateway in turn (the order alternates) and reads the gateway's CPU time from /proc.
Prints each case's medians and the median of the per-round ratios; asserts nothing.
"""

from __future__ import annotations

import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.serving import (  # noqa: E402
    REFERENCE_DETECTOR_TOML,
    cpu_seconds,
    free_port,
    stop_process,
)

CONFIG = (
    REFERENCE_DETECTOR_TOML
    + """
[[plugin]]
id = "jsonrpc-example"
version = "1.0.0"
protocol = "jsonrpc-2.0"
command = ["{{python}}", "{repo}/plugins/jsonrpc_example.py"]
root = "{repo}"
"""
)
CASES = {
    "discover": (b"/plugins/reference-detector/discover", b'{"paths": ["api"]}'),
    "rpc": (
        b"/plugins/jsonrpc-example/rpc",
        b'{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
    ),
}
READY_S = 60.0


@contextlib.contextmanager
def gateway(repo: Path, folder: Path, registry: str = CONFIG) -> Iterator[tuple[int, int]]:
    """(pid, port) of `python -m app serve` run from `repo` with `registry` (a template of
    `{repo}`)."""
    port = free_port()
    config = folder / f"registry-{port}.toml"
    config.write_text(registry.format(repo=repo), "utf-8")
    command = [sys.executable, "-m", "app", "serve", "--config", str(config), "--port", str(port)]
    if "--no-token" in (repo / "app" / "cli.py").read_text("utf-8"):
        command.append("--no-token")  # a checkout that makes a token by default: the raw
        # requests below carry none (a baseline from before that serves without one anyway)
    env = {**os.environ, "PYTHONPATH": str(repo)}
    proc = subprocess.Popen(
        command, cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + READY_S
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the gateway from {repo} did not start")
            time.sleep(0.1)
        yield proc.pid, port
    finally:
        stop_process(proc, 10)


def request(path: bytes, body: bytes) -> bytes:
    return (
        b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body) + body
    )


def answer(sock: socket.socket) -> None:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += sock.recv(65536)
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(head.decode())


def one_run(pid: int, port: int, case: str, count: int) -> tuple[float, float]:
    """(gateway CPU µs, wall µs) per request."""
    line = request(*CASES[case])
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        for _ in range(20):  # warm
            sock.sendall(line)
            answer(sock)
        cpu, wall = cpu_seconds(pid), time.perf_counter()
        for _ in range(count):
            sock.sendall(line)
            answer(sock)
        return (cpu_seconds(pid) - cpu) / count * 1e6, (time.perf_counter() - wall) / count * 1e6


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    baseline = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with (
        tempfile.TemporaryDirectory(prefix="gpp-cost-") as folder,
        gateway(baseline, Path(folder)) as base,
        gateway(REPO, Path(folder)) as this,
    ):
        servers = {"baseline": base, "this": this}
        for n in range(rounds):
            order = ["baseline", "this"] if n % 2 == 0 else ["this", "baseline"]
            for case in CASES:
                for name in order:
                    results.setdefault((name, case), []).append(
                        one_run(*servers[name], case, count)
                    )
    for case in CASES:
        for index, figure in ((0, "gateway CPU µs/request"), (1, "wall µs/request")):
            base_runs = [run[index] for run in results[("baseline", case)]]
            this_runs = [run[index] for run in results[("this", case)]]
            ratios = [t / b for t, b in zip(this_runs, base_runs, strict=True) if b]
            print(
                f"{case:9} {figure:24} baseline {statistics.median(base_runs):8.1f}  "
                f"this {statistics.median(this_runs):8.1f}  "
                f"this/baseline (median of rounds) {statistics.median(ratios):.3f}"
            )


if __name__ == "__main__":
    main()
