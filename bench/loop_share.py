"""Whether one plugin's output can take the gateway's event loop from everyone else (issue 33).

Runs `gpp serve` as a child on loopback with the reference detector and two flooding JSON-RPC
plugins, and reports the reference detector's median /discover latency:
- idle;
- while `notify-flood` answers one call with 300,000 `$/progress` notifications (valid
  traffic the gateway must read, parse and drop: no client streams them);
- while `junk-flood` writes tiny `1` lines without pause after each call (the gateway ends
  that session; the bench calls it again and again, so the flood is renewed for as long as
  the probe runs);
- while another client sends back-to-back discovers of 5.7 MB to an echo plugin, which
  answers each with a result of the same size (both parsed off the loop now).
Each as a ratio over idle, in interleaved rounds; the goal is at most 2. Also how the junk sessions ended (from the
log) and the gateway's CPU time over each flood. `python bench/loop_share.py [--quick]`;
nothing is asserted. The flooders are bounded: each stops by itself.
"""

from __future__ import annotations

import statistics
import sys
import time
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
    workdir,
)

Row = dict[str, object]
CONFIG = (
    """
[gateway]
max_body_bytes = 8388608

[[plugin]]
id = "echo"
version = "1.0.0"
command = ["{{python}}", "{repo}/tests/fixtures/plugins/echo_plugin.py"]
root = "{repo}"
max_line_bytes = 16777216

[[plugin]]
id = "notify-flood"
version = "1.0.0"
protocol = "jsonrpc-2.0"
command = ["{{python}}", "{repo}/tests/fixtures/plugins/jsonrpc_notification_flood.py"]
root = "{repo}"
request_ms = 600000

[[plugin]]
id = "junk-flood"
version = "1.0.0"
protocol = "jsonrpc-2.0"
command = ["{{python}}", "{repo}/tests/fixtures/plugins/jsonrpc_junk_flood.py"]
root = "{repo}"
request_ms = 600000
"""
    + REFERENCE_DETECTOR_TOML
)
NOTIFICATIONS = 300_000
BIG_PATHS = ["p" * 560 + f"/{n:04}" for n in range(10_000)]
"""A discover body of 5.7 MB, which the echo plugin answers with a result of the same size."""


def rpc(http: httpx.Client, plugin: str, method: str, params: object) -> int:
    body = {"jsonrpc": "2.0", "method": method, "params": params, "id": 1}
    answer = http.post(f"/plugins/{plugin}/rpc", json=body)
    return answer.status_code if "error" not in answer.json() else answer.json()["error"]["code"]


def row(case: str, figure: str, value: float, unit: str, **detail: object) -> Row:
    return table.row("loop_share", case, figure, value, unit, detail=detail)


def measure(seconds: float, rounds: int) -> list[Row]:
    """`rounds` rounds of idle, notification flood, junk flood: the machine is shared, so each
    ratio is taken within one round (against that round's idle) and the median reported."""
    samples: dict[str, list[list[float]]] = {"idle": [], "notify": [], "junk": [], "big": []}
    cpu: dict[str, float] = {"notify": 0.0, "junk": 0.0, "big": 0.0}
    statuses: list[int] = []
    big_statuses: list[int] = []
    with workdir() as folder:
        config = folder / "registry.toml"
        config.write_text(CONFIG.format(repo=REPO), "utf-8")
        with (
            Gateway(config, log_level="info") as gateway,
            httpx.Client(base_url=gateway.base_url, timeout=600) as http,
            httpx.Client(base_url=gateway.base_url, timeout=600) as other,
        ):
            for _ in range(20):  # warm up
                http.post("/plugins/reference-detector/discover", json={"paths": ["api"]})

            def notify_flood() -> None:
                rpc(other, "notify-flood", "flood", {"count": NOTIFICATIONS})

            def junk_for_a_while() -> None:
                ends = time.monotonic() + seconds
                while time.monotonic() < ends:
                    statuses.append(rpc(other, "junk-flood", "work", []))
                    time.sleep(0.05)

            def big_results_for_a_while() -> None:
                ends = time.monotonic() + seconds
                while time.monotonic() < ends:
                    big_statuses.append(
                        other.post("/plugins/echo/discover", json={"paths": BIG_PATHS}).status_code
                    )

            for _ in range(rounds):
                samples["idle"].append(probe_while(http, seconds))
                for case, work in (
                    ("notify", notify_flood),
                    ("junk", junk_for_a_while),
                    ("big", big_results_for_a_while),
                ):
                    before = cpu_seconds(gateway.pid)
                    samples[case].append(probe_while(http, work))
                    cpu[case] += cpu_seconds(gateway.pid) - before
            killed = [
                line
                for line in gateway.log_text().splitlines()
                if "plugin=junk-flood" in line and "event=kill" in line
            ]
    idle = [statistics.median(values) for values in samples["idle"]]
    rows = [row("idle", "reference discover p50", round(statistics.median(idle), 2), "ms",
                rounds=rounds, per_round=[round(v, 2) for v in idle],
                p99_per_round=[round(_p99(v), 2) for v in samples["idle"]])]  # fmt: skip
    cases = {
        "notify": f"one JSON-RPC call answered with {NOTIFICATIONS:,} notifications",
        "junk": "a JSON-RPC plugin writing `1` lines without pause after each call",
        "big": "back-to-back discovers with a 5.7 MB body and a 5.7 MB result",
    }
    for case, title in cases.items():
        during = [statistics.median(values) for values in samples[case]]
        p99 = [_p99(values) for values in samples[case]]
        ratios = [d / i for d, i in zip(during, idle, strict=True)]
        rows += [
            row(title, "reference discover p50 during", round(statistics.median(during), 2), "ms",
                per_round=[round(v, 2) for v in during],
                p99_per_round=[round(v, 2) for v in p99]),
            row(title, "p50 during / idle (median of rounds)", round(statistics.median(ratios), 3),
                "ratio", per_round=[round(v, 2) for v in ratios]),
            row(title, "gateway CPU over it", round(cpu[case], 2), "s"),
        ]  # fmt: skip
    rows.append(
        row(cases["big"], "discovers answered 200", big_statuses.count(200), "count",
            others=len(big_statuses) - big_statuses.count(200))
    )  # fmt: skip
    rows.append(
        row(cases["junk"], "junk sessions ended by the gateway", len(killed), "count",
            calls=len(statuses), answers=sorted(set(statuses)),
            reasons=sorted({_field(k, "reason") for k in killed}))
    )  # fmt: skip
    return rows


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else values[0]


def _field(line: str, key: str) -> str:
    return line.split(f"{key}=", 1)[1].split()[0] if f"{key}=" in line else "?"


def run(quick: bool) -> list[Row]:
    return measure(1.0, 2) if quick else measure(2.0, 5)


def main() -> None:
    print(table.render(run("--quick" in sys.argv[1:])))


if __name__ == "__main__":
    main()
