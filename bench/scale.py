"""Scale: a thousand registered plugins, an 8 MiB result, and `instances = 2` on two cores.

Three figures of issue 13, each from a real `gpp serve` on loopback, one server at a time:
- 1,000 registered lazy plugins: time from spawn to the first 200 from /readyz, and the RSS
  each registration costs: (RSS with 1,000 − RSS with 1) / 999, the two servers interleaved;
- relaying an 8 MiB result: the gateway's peak RSS (VmHWM, reset before each request) above its
  RSS just before, as a multiple of the result frame;
- a CPU-bound plugin (a fixed amount of pure-Python work a request): requests a second with
  `instances = 2` over `instances = 1`, both registered on one server, rounds interleaved and
  the median ratio taken, the load from concurrent keep-alive clients.
`python bench/scale.py [--quick]` prints the rows; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.serving import Gateway, reset_peak_rss, rss_kib, status_kib, workdir  # noqa: E402

Row = dict[str, object]
MIB = 1024 * 1024
REGISTERED = 1000
READY_TARGET_S = 2.0
PER_PLUGIN_TARGET_KIB = 50.0
FRAME_MULTIPLE_TARGET = 8.0
INSTANCES_TARGET = 1.6
RESULT_BYTES = 8 * MIB
CPU_WORK = 400_000
"""Loop iterations a CPU-bound request does (some tens of ms of one core)."""
CLIENTS = 4
"""Concurrent clients: enough to keep two instances busy and one queue full."""

PLUGIN = '''
"""A bench plugin (its id is its argument): `big` answers with an ~{result_bytes}-byte document, `cpu` burns a fixed
amount of CPU first, anything else answers empty."""
import sys
sys.path.insert(0, {repo!r})
from gpp.sdk import serve

EMPTY = {{"resources": [], "unresolved": [], "findings": [], "classificationSignals": []}}


def big():
    resources, n, size = [], 0, 0
    while size < {result_bytes}:
        location = {{"path": f"services/svc{{n % 97}}/schema_{{n}}.gfx", "line": n % 5000 + 1}}
        resources.append({{"kind": "table", "name": f"table_{{n}}", "location": location,
                           "attrs": {{"pii": "email,phone", "rows": n}}}})
        size += 146
        n += 1
    return {{**EMPTY, "resources": resources}}


def discover(paths):
    if paths == ["big"]:
        return big()
    if paths == ["cpu"]:
        total = 0
        for i in range({cpu_work}):
            total += i * i % 7
    return EMPTY


sys.exit(serve(sys.argv[1], "1.0.0", discover))
'''


@dataclass(frozen=True)
class Sizes:
    registry_rounds: int
    relay_rounds: int
    instance_rounds: int
    requests_per_round: int


FULL = Sizes(registry_rounds=3, relay_rounds=3, instance_rounds=5, requests_per_round=80)
QUICK = Sizes(registry_rounds=1, relay_rounds=1, instance_rounds=1, requests_per_round=16)


def write_plugin(folder: Path) -> Path:
    script = folder / "bench_plugin.py"
    script.write_text(
        PLUGIN.format(repo=str(REPO), result_bytes=RESULT_BYTES, cpu_work=CPU_WORK), "utf-8"
    )
    return script


def plugin_entry(plugin_id: str, script: Path, root: Path, extra: str = "") -> str:
    return (
        f'[[plugin]]\nid = "{plugin_id}"\nversion = "1.0.0"\n'
        f'command = ["{{python}}", "{script}", "{plugin_id}"]\nroot = "{root}"\n{extra}\n'
    )


def registry(folder: Path, name: str, entries: list[str]) -> Path:
    path = folder / name
    path.write_text('[gateway]\nhost = "127.0.0.1"\n\n' + "".join(entries), "utf-8")
    return path


def row(case: str, figure: str, value: float, unit: str, target: str | None,
        met: bool | None, **detail: object) -> Row:  # fmt: skip
    return {"group": "scale", "case": case, "figure": figure, "value": value, "unit": unit,
            "target": target, "met": met, "detail": detail}  # fmt: skip


# --- 1,000 registered lazy plugins --------------------------------------------------------------


def registry_rows(folder: Path, sizes: Sizes) -> list[Row]:
    script = write_plugin(folder)
    one = registry(folder, "one.toml", [plugin_entry("p0000", script, folder)])
    many = registry(folder, "many.toml",
                    [plugin_entry(f"p{n:04d}", script, folder) for n in range(REGISTERED)])  # fmt: skip
    ready: dict[int, list[float]] = {1: [], REGISTERED: []}
    rss: dict[int, list[int]] = {1: [], REGISTERED: []}
    for _ in range(sizes.registry_rounds):
        for count, config in ((1, one), (REGISTERED, many)):
            with Gateway(config) as gateway:
                ready[count].append(gateway.ready_s)
                with httpx.Client(base_url=gateway.base_url, timeout=30) as http:
                    listed = http.get("/plugins").json()
                    if len(listed) != count:
                        raise RuntimeError(f"/plugins lists {len(listed)}, not {count}")
                rss[count].append(rss_kib(gateway.pid))
    ready_s = statistics.median(ready[REGISTERED])
    per_plugin = (statistics.median(rss[REGISTERED]) - statistics.median(rss[1])) / (REGISTERED - 1)
    case = f"{REGISTERED:,} registered lazy plugins"
    return [
        row(case, "gpp serve ready (/readyz)", round(ready_s, 3), "s", f"< {READY_TARGET_S:g}",
            ready_s < READY_TARGET_S, ready_s_with_1=round(statistics.median(ready[1]), 3),
            rounds=sizes.registry_rounds),
        row(case, "RSS per registered plugin", round(per_plugin, 2), "KiB",
            f"< {PER_PLUGIN_TARGET_KIB:g}", per_plugin < PER_PLUGIN_TARGET_KIB,
            rss_kib_with_1=rss[1], rss_kib_with_1000=rss[REGISTERED],
            rounds=sizes.registry_rounds),
    ]  # fmt: skip


# --- an 8 MiB result ----------------------------------------------------------------------------


PARSE_FLOOR = """
import gc, os, sys
from pathlib import Path
import orjson
sys.path.insert(0, sys.argv[2])
from bench.serving import reset_peak_rss, rss_kib, status_kib
body = Path(sys.argv[1]).read_bytes()
gc.collect()
before = rss_kib(os.getpid())
reset_peak_rss(os.getpid())
tree = orjson.loads(body)
print((status_kib(os.getpid(), "VmHWM") - before) * 1024 / len(body))
"""
"""Peak extra RSS of `orjson.loads` alone over the same bytes, in a fresh process: what any
gateway that parses the whole result into Python objects pays before it does anything else."""


def parse_floor(folder: Path, body: bytes) -> float:
    saved = folder / "result.json"
    saved.write_bytes(body)
    done = subprocess.run(
        [sys.executable, "-c", PARSE_FLOOR, str(saved), str(REPO)],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return float(done.stdout)


def relay_rows(folder: Path, sizes: Sizes) -> list[Row]:
    script = write_plugin(folder)
    limits = f"max_line_bytes = {4 * RESULT_BYTES}\nrequest_ms = 120000\n"
    config = registry(folder, "relay.toml", [plugin_entry("big", script, folder, limits)])
    extras: list[int] = []
    body = b""
    with Gateway(config) as gateway, httpx.Client(base_url=gateway.base_url, timeout=120) as http:
        http.post("/plugins/big/discover", json={"paths": ["small"]}).raise_for_status()
        for _ in range(sizes.relay_rounds):
            before = rss_kib(gateway.pid)
            if not reset_peak_rss(gateway.pid):
                raise RuntimeError("cannot reset VmHWM (/proc/<pid>/clear_refs)")
            answer = http.post("/plugins/big/discover", json={"paths": ["big"]})
            answer.raise_for_status()
            body = answer.content
            extras.append(status_kib(gateway.pid, "VmHWM") - before)
    multiple = max(extras) * 1024 / len(body)
    floor = parse_floor(folder, body)
    case = f"relaying a {len(body) / MIB:.1f} MiB result"
    return [
        row(case, "peak extra RSS / result frame", round(multiple, 2), "ratio",
            f"< {FRAME_MULTIPLE_TARGET:g}", multiple < FRAME_MULTIPLE_TARGET,
            peak_extra_kib=extras, result_bytes=len(body), rounds=sizes.relay_rounds,
            note="worst round; the frame is the body plus a ~130-byte envelope"),
        row(case, "orjson.loads alone: peak extra / bytes", round(floor, 2), "ratio", None, None,
            note="the same bytes parsed in a fresh process: the floor of a full parse"),
    ]  # fmt: skip


# --- instances = 2 against instances = 1 ----------------------------------------------------------


async def throughput(base_url: str, plugin_id: str, requests: int) -> float:
    """Requests a second for `requests` CPU-bound discovers from CLIENTS concurrent clients."""
    remaining = requests
    url = f"/plugins/{plugin_id}/discover"

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            (await http.post(url, json={"paths": ["cpu"]})).raise_for_status()

    limits = httpx.Limits(max_connections=CLIENTS)
    async with httpx.AsyncClient(base_url=base_url, timeout=120, limits=limits) as http:
        started = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(client(http) for _ in range(CLIENTS))), 600)
        return requests / (time.perf_counter() - started)


BURN = f"""
import sys
for _ in range(int(sys.argv[1])):
    total = 0
    for i in range({CPU_WORK}):
        total += i * i % 7
"""
"""The plugin's per-request work without the gateway, `argv[1]` times in a row."""


def bare_ceiling(requests: int) -> float:
    """What two processes doing the plugin's work get over one, on this machine now: the
    ratio the gateway's instances = 2 could reach at best while other load shares the cores."""

    def wall(processes: int) -> float:
        started = time.perf_counter()
        burners = [
            subprocess.Popen([sys.executable, "-c", BURN, str(requests // processes)])
            for _ in range(processes)
        ]
        for burner in burners:
            burner.wait(600)
        return time.perf_counter() - started

    return wall(1) / wall(2)


def instances_rows(folder: Path, sizes: Sizes) -> list[Row]:
    script = write_plugin(folder)
    extra = "instances = {}\nrequest_ms = 120000\nsandbox = {{ cpu_seconds = 3600 }}\n"
    config = registry(folder, "instances.toml", [
        plugin_entry("cpu-1", script, folder, extra.format(1)),
        plugin_entry("cpu-2", script, folder, extra.format(2)),
    ])  # fmt: skip
    ratios: list[float] = []
    ceilings: list[float] = []
    rates: dict[str, list[float]] = {"cpu-1": [], "cpu-2": []}
    with Gateway(config) as gateway:
        measure: Callable[[str, int], float] = lambda plugin_id, n: asyncio.run(  # noqa: E731
            throughput(gateway.base_url, plugin_id, n)
        )
        for plugin_id in rates:  # start the sessions, both of cpu-2's
            measure(plugin_id, CLIENTS)
        for index in range(sizes.instance_rounds):
            order = ("cpu-1", "cpu-2") if index % 2 == 0 else ("cpu-2", "cpu-1")
            for plugin_id in order:
                rates[plugin_id].append(measure(plugin_id, sizes.requests_per_round))
            ratios.append(rates["cpu-2"][-1] / rates["cpu-1"][-1])
            ceilings.append(bare_ceiling(sizes.requests_per_round))
    ratio = statistics.median(ratios)
    ceiling = statistics.median(ceilings)
    return [
        row("CPU-bound plugin, instances = 2", "req/s vs instances = 1", round(ratio, 3),
            "ratio", f">= {INSTANCES_TARGET:g}", ratio >= INSTANCES_TARGET,
            req_s_instances_1=[round(r, 1) for r in rates["cpu-1"]],
            req_s_instances_2=[round(r, 1) for r in rates["cpu-2"]],
            clients=CLIENTS, requests_per_round=sizes.requests_per_round,
            rounds=sizes.instance_rounds, ratios=[round(r, 3) for r in ratios]),
        row("CPU-bound plugin, instances = 2", "machine ceiling: 2 bare processes vs 1",
            round(ceiling, 3), "ratio", None, None, ceilings=[round(c, 3) for c in ceilings],
            note="the plugin's work without the gateway, interleaved with the rounds above"),
    ]  # fmt: skip


def run(quick: bool) -> list[Row]:
    """The bench rows (see bench/table.py) of the three scale figures."""
    sizes = QUICK if quick else FULL
    rows: list[Row] = []
    for part in (registry_rows, relay_rows, instances_rows):
        with workdir() as folder:
            rows.extend(part(folder, sizes))
    return rows


def main() -> None:
    from bench.table import render

    print(render(run("--quick" in sys.argv[1:])))


if __name__ == "__main__":
    main()
