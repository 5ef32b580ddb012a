"""What hostile clients and a noisy plugin cost the gateway: memory, log lines, CPU, latency.

Runs `gpp serve` as a child on loopback and reports, from /proc and the gateway's own log:
- RSS before and after requests each holding a ~1 MiB valid path and a bad one (422);
- RSS after attempts to send a 64 MB request header;
- for one plugin writing 20 MB to stderr: the log lines it became, the gateway's CPU time, and
  another plugin's median latency before and during the flood.
`python bench/front_door.py [--quick]` prints the rows; nothing is asserted.
"""

from __future__ import annotations

import socket
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import table  # noqa: E402
from bench.serving import (  # noqa: E402
    REFERENCE_DETECTOR_TOML,
    Gateway,
    cpu_seconds,
    probe_while,
    rss_kib,
    workdir,
)

Row = dict[str, object]
CONFIG = (
    """
[gateway]
max_body_bytes = 2097152
"""
    + REFERENCE_DETECTOR_TOML
    + """
[[plugin]]
id = "flood"
version = "1.0.0"
command = ["{{python}}", "{repo}/tests/fixtures/plugins/plugin_stderr_flood.py"]
root = "{repo}"
env = {{ FIXTURE_PLUGIN_ID = "flood" }}
"""
)
FLOOD_LINES = 20 * 1024
"""What plugin_stderr_flood.py writes: 20,480 lines of 1 KiB."""


@dataclass(frozen=True)
class Sizes:
    hostile_requests: int
    header_attempts: int
    quiet_probe_s: float


FULL = Sizes(hostile_requests=1000, header_attempts=10, quiet_probe_s=2.0)
QUICK = Sizes(hostile_requests=50, header_attempts=2, quiet_probe_s=0.5)


def hostile_paths(http: httpx.Client, count: int) -> None:
    for n in range(count):
        body = {"paths": [f"r{n}/" + "p" * (1024 * 1024 - 16), "/bad"]}
        status = http.post("/plugins/reference-detector/discover", json=body).status_code
        if status != 422:
            raise RuntimeError(f"a request with a bad path got {status}, not 422")


def huge_header(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        try:
            for _ in range(1024):
                sock.sendall(b"a" * 65536)
        except (BrokenPipeError, ConnectionResetError):
            pass


def stderr_flood(other: httpx.Client) -> None:
    """The flood plugin's discover, then a second for its stderr to drain."""
    other.post("/plugins/flood/discover", json={"paths": ["."]}).raise_for_status()
    time.sleep(1)  # the drain finishes reading the pipe after the answer


def row(case: str, figure: str, value: float, unit: str, **detail: object) -> Row:
    return table.row("front_door", case, figure, value, unit, detail=detail)


def measure(sizes: Sizes) -> list[Row]:
    with workdir() as folder:
        config = folder / "registry.toml"
        config.write_text(CONFIG.format(repo=REPO), "utf-8")
        with (
            Gateway(config, log_level="info") as gateway,
            httpx.Client(base_url=gateway.base_url, timeout=60) as http,
        ):
            http.post("/plugins/reference-detector/discover", json={"paths": ["api"]})
            start_kib = rss_kib(gateway.pid)
            hostile_paths(http, sizes.hostile_requests)
            paths_kib = rss_kib(gateway.pid)
            for _ in range(sizes.header_attempts):
                huge_header(gateway.port)
            header_kib = rss_kib(gateway.pid)
            quiet = probe_while(http, sizes.quiet_probe_s)
            cpu = cpu_seconds(gateway.pid)
            with httpx.Client(base_url=gateway.base_url, timeout=60) as other:
                noisy = probe_while(http, lambda: stderr_flood(other))
            cpu = cpu_seconds(gateway.pid) - cpu
            lines = [line for line in gateway.log_text().splitlines() if "plugin=flood" in line]
    logged = sum(1 for line in lines if 'event="plugin stderr"' in line)
    summaries = sum(1 for line in lines if 'event="plugin stderr suppressed"' in line)
    paths_case = f"{sizes.hostile_requests:,} requests with a 1 MiB path (422)"
    header_case = f"{sizes.header_attempts} attempts at a 64 MB request header"
    flood = f"a plugin writing {FLOOD_LINES:,} lines (20 MB) to stderr"
    return [
        row(
            paths_case,
            "RSS growth",
            round((paths_kib - start_kib) / 1024, 1),
            "MiB",
            rss_mib_at_start=round(start_kib / 1024, 1),
        ),
        row(header_case, "RSS growth", round((header_kib - paths_kib) / 1024, 1), "MiB"),
        row(flood, "log lines it became", logged, "count", suppressed_summaries=summaries),
        row(flood, "gateway CPU over the flood", round(cpu, 2), "s"),
        row(
            flood,
            "other plugin's p50 latency during",
            round(statistics.median(noisy), 2),
            "ms",
            quiet_ms=round(statistics.median(quiet), 2),
            samples=len(noisy),
        ),
        row(
            flood,
            "p50 latency during / quiet",
            round(statistics.median(noisy) / statistics.median(quiet), 3),
            "ratio",
        ),
    ]


def run(quick: bool) -> list[Row]:
    """The bench rows (see bench/table.py); no targets: they show what a hostile peer costs."""
    return measure(QUICK if quick else FULL)


def main() -> None:
    from bench.table import render

    print(render(run("--quick" in sys.argv[1:])))


if __name__ == "__main__":
    main()
