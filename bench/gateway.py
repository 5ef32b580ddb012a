"""/discover and /rpc under load (wrk) against a bare FastAPI route doing one pipe round trip.

Prints req/s and p50/p99 at concurrency 1 and 16, and the ratios, all from one run on the same
machine. Needs `wrk` (Debian package).
Both servers run as uvicorn child processes on loopback; nothing is asserted.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DISCOVER_BODY = '{"paths": ["api"]}'
RPC_BODY = '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}'
SECONDS = int(os.environ.get("BENCH_SECONDS", "5"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_listening(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listening on {port}")


def wrk(url: str, connections: int, body: str = DISCOVER_BODY) -> dict[str, float]:
    script = Path(tempfile.mkdtemp()) / "post.lua"
    script.write_text(
        'wrk.method = "POST"\n'
        f"wrk.body = '{body}'\n"
        'wrk.headers["Content-Type"] = "application/json"\n'
    )
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{SECONDS}s", "--latency", "-s", str(script), url],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rate, "p50": _ms(out, "50%"), "p99": _ms(out, "99%"),
            "errors": float(non2xx.group(1)) if non2xx else 0.0}  # fmt: skip


def _ms(out: str, pct: str) -> float:
    value, unit = re.search(rf"{pct}\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def main() -> None:
    gw_port, bare_port = free_port(), free_port()
    gateway = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--port", str(gw_port), "--log-level", "warning"],
        cwd=REPO,
    )
    bare = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "bare_app:app", "--port", str(bare_port),
         "--log-level", "warning", "--no-access-log"],
        cwd=REPO / "bench",
    )  # fmt: skip
    try:
        wait_listening(gw_port)
        wait_listening(bare_port)
        discover = f"http://127.0.0.1:{gw_port}/plugins/reference-detector/discover"
        rpc = f"http://127.0.0.1:{gw_port}/plugins/jsonrpc-example/rpc"
        baseline = f"http://127.0.0.1:{bare_port}/echo"
        wrk(discover, 1)  # warm up: spawn and handshake the plugins
        wrk(rpc, 1, RPC_BODY)
        for connections in (1, 16):
            results = {
                "/discover": wrk(discover, connections),
                "/rpc": wrk(rpc, connections, RPC_BODY),
                "bare pipe round trip": wrk(baseline, connections),
            }
            print(f"concurrency {connections}:")
            for name, r in results.items():
                print(f"  {name:22} {r['rps']:8.0f} req/s  p50 {r['p50']:7.2f} ms  "
                      f"p99 {r['p99']:7.2f} ms  non-2xx {r['errors']:.0f}")  # fmt: skip
            base = results["bare pipe round trip"]["rps"]
            print(
                f"  ratios to bare: /discover {results['/discover']['rps'] / base:.3f}, "
                f"/rpc {results['/rpc']['rps'] / base:.3f}; "
                f"/rpc / /discover {results['/rpc']['rps'] / results['/discover']['rps']:.3f}"
            )
    finally:
        for proc in (gateway, bare):
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
