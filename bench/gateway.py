"""/discover and /rpc under load (wrk) against a bare FastAPI route doing one pipe round trip.

The bare route (`bench/bare_app.py`) runs on the same stack (uvicorn, uvloop, httptools, no
access log) and relays one line, lock-stepped, to a long-lived `cat`: what a gateway that did
nothing but relay would cost. The machine is shared and noisy, so the two are interleaved in
rounds, one server at a time (each round: the bare server, then the gateway, each started,
measured and stopped), and each figure is the median over the rounds of the ratio measured
within one round. The gateway runs as `gpp serve` does, at its default log level (its one log
line per request is part of its cost), logging to /dev/null.

/discover is measured on two plugins, both Python SDK plugins run as `gpp serve` runs them
(sandboxed): `tiny-result`, which answers every discover with the same one-resource document
(the GPP/3 counterpart of `cat`: what any plugin must do, reading, checking and signing a
frame, and nothing else), so its ratio is the gateway's own cost; and the reference detector
on `api`, which also opens, reads and parses a file of the demo repo on every request.

Usage: `bench/gateway.py [--quick] [ROUNDS]`; `BENCH_SECONDS` sets each wrk run (default 3).
Needs `wrk` (Debian package). Prints figures; asserts nothing. Targets (issue 13): req/s at
c=1 and c=16 ≥ 0.7 of the bare route's for /discover (p99 at c=16 ≤ 2×), ≥ 0.8 for /rpc.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script, only bench/ is on it
    sys.path.insert(0, str(REPO))

from bench.serving import stop_process  # noqa: E402

DISCOVER_BODY = '{"paths": ["api"]}'
RPC_BODY = '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}'
CONCURRENCY = (1, 16)
GATEWAY_CASES = {  # case: (path, body)
    "discover tiny-result": ("/plugins/tiny-result/discover", DISCOVER_BODY),
    "discover reference": ("/plugins/reference-detector/discover", DISCOVER_BODY),
    "rpc subtract": ("/plugins/jsonrpc-example/rpc", RPC_BODY),
}
TARGETS = {"discover tiny-result": 0.7, "discover reference": 0.7, "rpc subtract": 0.8}
SESSION_CASES = {"discover tiny-result": "tiny-result", "discover reference": "reference-detector"}
P99_TARGET = 2.0
Figures = dict[str, float]
PLUGINS = REPO / "plugins"
DEMO_REPO = PLUGINS / "examples" / "demo-repo"
TINY_RESULT_PLUGIN = f"""
import sys
sys.path.insert(0, {str(REPO)!r})
from gpp.plugin.sdk import serve

DOCUMENT = {{
    "resources": [{{"kind": "table", "name": "users",
                    "location": {{"path": "api/users.gfx", "line": 2}}, "attrs": {{}}}}],
    "unresolved": [], "findings": [], "classificationSignals": [],
}}
sys.exit(serve("tiny-result", "1.0.0", lambda paths: DOCUMENT))
"""


def write_registry(folder: Path) -> Path:
    """The bench's registry: the bundled reference detector and JSON-RPC example as
    plugins/registry.toml has them, and the tiny-result plugin."""
    tiny = folder / "tiny_result.py"
    tiny.write_text(TINY_RESULT_PLUGIN, "utf-8")
    entries = [
        ("reference-detector", "gpp/3", PLUGINS / "reference_detector.py"),
        ("jsonrpc-example", "jsonrpc-2.0", PLUGINS / "jsonrpc_example.py"),
        ("tiny-result", "gpp/3", tiny),
    ]
    registry = folder / "registry.toml"
    registry.write_text(
        '[gateway]\nhost = "127.0.0.1"\n\n'
        + "".join(
            f'[[plugin]]\nid = "{plugin_id}"\nversion = "1.0.0"\nprotocol = "{protocol}"\n'
            f'command = ["{{python}}", "{script}"]\nroot = "{DEMO_REPO}"\n\n'
            for plugin_id, protocol, script in entries
        ),
        "utf-8",
    )
    return registry


def plugin_command(plugin_id: str, folder: Path) -> list[str]:
    script = (
        folder / "tiny_result.py"
        if plugin_id == "tiny-result"
        else PLUGINS / "reference_detector.py"
    )
    return [sys.executable, str(script)]


def session_round_trips(plugin_id: str, folder: Path, seconds: float) -> float:
    """Discovers per second through the host session alone (no HTTP, no sandbox), on the
    plugin and paths /discover is measured with, lock-stepped: the ceiling of the gateway's
    c=1 rate."""
    sys.path.insert(0, str(REPO))
    from gpp.host import PluginSession

    async def measure() -> float:
        command = plugin_command(plugin_id, folder)
        cwd = os.getcwd()
        os.chdir(DEMO_REPO)  # the plugin's root is its cwd, as the gateway starts it
        try:
            async with PluginSession(command, plugin_id, "1.0.0") as session:
                for _ in range(100):
                    await session.discover(["api"])
                count, started = 0, time.perf_counter()
                while time.perf_counter() - started < seconds:
                    await session.discover(["api"])
                    count += 1
                return count / (time.perf_counter() - started)
        finally:
            os.chdir(cwd)

    return asyncio.run(measure())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_listening(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listening on {port}")


@contextmanager
def server(command: list[str], port: int, cwd: Path) -> Iterator[str]:
    """One server at a time: started, yielded (its base URL), stopped (bounded)."""
    proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_listening(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(proc)


def bare_server() -> Iterator[str]:
    port = free_port()
    return server(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "bare_app:app",
            "--port",
            str(port),
            "--loop",
            "uvloop",
            "--http",
            "httptools",
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        port,
        REPO / "bench",
    )


def gateway_server(registry: Path) -> Iterator[str]:
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "gpp.gateway",
        "serve",
        "--config",
        str(registry),
        "--port",
        str(port),
        "--no-token",  # a throwaway gateway: the figures compare with earlier runs
    ]
    return server(command, port, REPO)


def wrk(url: str, connections: int, body: str, seconds: float) -> Figures:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "post.lua"
        script.write_text(
            'wrk.method = "POST"\n'
            f"wrk.body = '{body}'\n"
            'wrk.headers["Content-Type"] = "application/json"\n'
        )
        out = subprocess.run(
            [
                "wrk",
                "-t1",
                f"-c{connections}",
                f"-d{seconds:g}s",
                "--latency",
                "-s",
                str(script),
                url,
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=seconds + 30,
        ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "rps": rate,
        "p50": _ms(out, "50%"),
        "p99": _ms(out, "99%"),
        "errors": float(non2xx.group(1)) if non2xx else 0.0,
    }


def _ms(out: str, pct: str) -> float:
    value, unit = re.search(rf"{pct}\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def one_round(seconds: float, folder: Path) -> dict[tuple[str, int], Figures]:
    """The bare route's figures and then the gateway's, each at every concurrency."""
    figures: dict[tuple[str, int], Figures] = {}
    for case, plugin_id in SESSION_CASES.items():
        figures[(f"session {case}", 1)] = {"rps": session_round_trips(plugin_id, folder, seconds)}
    with bare_server() as base:
        wrk(f"{base}/echo", 1, DISCOVER_BODY, 1)  # warm up
        for c in CONCURRENCY:
            figures[("bare", c)] = wrk(f"{base}/echo", c, DISCOVER_BODY, seconds)
    with gateway_server(folder / "registry.toml") as base:
        for path, body in GATEWAY_CASES.values():
            wrk(f"{base}{path}", 1, body, 1)  # warm up: spawn and handshake the plugins
        for case, (path, body) in GATEWAY_CASES.items():
            for c in CONCURRENCY:
                figures[(case, c)] = wrk(f"{base}{path}", c, body, seconds)
    return figures


def measure(rounds: int, seconds: float) -> list[dict[tuple[str, int], Figures]]:
    if shutil.which("wrk") is None:
        raise RuntimeError("wrk is not installed (apt-get install -y wrk)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_registry(folder)
        return [one_round(seconds, folder) for _ in range(rounds)]


def rows(results: list[dict[tuple[str, int], Figures]]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []

    def median_of(case: str, c: int, key: str, over_bare: bool) -> tuple[float, list[float]]:
        values = [r[(case, c)][key] / (r[("bare", c)][key] if over_bare else 1) for r in results]
        return statistics.median(values), values

    for case in SESSION_CASES:
        ceiling, each = median_of(f"session {case}", 1, "rps", True)
        out.append(
            {
                "group": "gateway",
                "case": f"{case}, c=1",
                "figure": "session alone vs bare",
                "value": round(ceiling, 3),
                "unit": "ratio",
                "target": None,
                "met": None,
                "detail": {
                    "rounds": [round(v, 3) for v in each],
                    "why": "the host session round trip to the same plugin, no HTTP: the "
                    "most /discover at c=1 can reach",
                },
            }
        )
    for case, target in TARGETS.items():
        for c in CONCURRENCY:
            ratio, each = median_of(case, c, "rps", True)
            detail = {
                "rounds": [round(v, 3) for v in each],
                "gateway req/s": median_of(case, c, "rps", False)[0],
                "bare req/s": median_of("bare", c, "rps", False)[0],
                "gateway p99 ms": median_of(case, c, "p99", False)[0],
                "bare p99 ms": median_of("bare", c, "p99", False)[0],
                "gateway non-2xx": sum(r[(case, c)]["errors"] for r in results),
            }
            out.append(
                {
                    "group": "gateway",
                    "case": f"{case}, c={c}",
                    "figure": "req/s vs bare",
                    "value": round(ratio, 3),
                    "unit": "ratio",
                    "target": f">= {target}",
                    "met": ratio >= target,
                    "detail": detail,
                }
            )
            if case in SESSION_CASES and c == max(CONCURRENCY):
                p99, each = median_of(case, c, "p99", True)
                out.append(
                    {
                        "group": "gateway",
                        "case": f"{case}, c={c}",
                        "figure": "p99 vs bare",
                        "value": round(p99, 3),
                        "unit": "ratio",
                        "target": f"<= {P99_TARGET:g}x",
                        "met": p99 <= P99_TARGET,
                        "detail": {"rounds": [round(v, 3) for v in each]},
                    }
                )
    return out


def run(quick: bool) -> list[dict[str, object]]:
    """The bench runner's entry: one short round when quick (~10 s), else three."""
    seconds = 1.0 if quick else float(os.environ.get("BENCH_SECONDS", "3"))
    return rows(measure(1 if quick else 3, seconds))


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--quick"]
    quick = "--quick" in sys.argv[1:]
    rounds = int(args[0]) if args else (1 if quick else 3)
    seconds = 1.0 if quick else float(os.environ.get("BENCH_SECONDS", "3"))
    print(f"load before: {os.getloadavg()[0]:.2f} (1-min average, {os.cpu_count()} cpus)")
    results = measure(rounds, seconds)
    for index, result in enumerate(results, 1):
        print(f"round {index}:")
        for (case, c), r in result.items():
            if case.startswith("session"):
                print(f"  {case:30} c=1   {r['rps']:8.0f} req/s  (no HTTP)")
                continue
            print(
                f"  {case:30} c={c:<3} {r['rps']:8.0f} req/s  p50 {r['p50']:7.2f} ms  "
                f"p99 {r['p99']:7.2f} ms  non-2xx {r['errors']:.0f}"
            )
    print(f"medians over {rounds} rounds of the ratio to the bare route in the same round:")
    for row in rows(results):
        mark = "met" if row["met"] else "NOT met"
        mark = "no target" if row["met"] is None else mark
        print(
            f"  {row['case']:28} {row['figure']:21} {row['value']:6}  "
            f"(target {row['target']}: {mark})"
        )
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
