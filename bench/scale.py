"""Scale: a thousand registered plugins, an 8 MiB result, and `instances = 2` on two cores.

Three figures of issue 13, each from a real `gpp serve` on loopback, one server at a time:
- 1,000 registered lazy plugins: time from spawn to the first 200 from /readyz, and the RSS
  each registration costs: (RSS with 1,000 − RSS with 1) / 999, the two servers interleaved;
- relaying an 8 MiB result: the gateway's peak RSS (VmHWM, reset before each request) above its
  RSS just before, as a multiple of the result frame;
- a CPU-bound plugin (a fixed amount of pure-Python work a request): requests a second with
  `instances = 2` over `instances = 1`, both registered on one server, rounds interleaved and
  the median ratio taken, the load from `wrk` (4 keep-alive connections; httpx where wrk is
  missing), beside two bare processes doing the same work against one, and the gateway's CPU a
  request, which the plugins' two cores pay for too.
`python bench/scale.py [--quick]` prints the rows; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import re
import resource
import shutil
import statistics
import subprocess
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
    Gateway,
    cpu_seconds,
    reset_peak_rss,
    rss_kib,
    status_kib,
    workdir,
)

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
from gpp.plugin.sdk import serve

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
    load_seconds: int
    ceiling_requests: int


FULL = Sizes(
    registry_rounds=3, relay_rounds=3, instance_rounds=5, load_seconds=4, ceiling_requests=60
)
QUICK = Sizes(
    registry_rounds=1, relay_rounds=1, instance_rounds=1, load_seconds=1, ceiling_requests=16
)


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


def row(
    case: str,
    figure: str,
    value: float,
    unit: str,
    target: str | None,
    met: bool | None,
    **detail: object,
) -> Row:
    return table.row("scale", case, figure, value, unit, target, met, detail)


# --- 1,000 registered lazy plugins --------------------------------------------------------------


def registry_rows(folder: Path, sizes: Sizes) -> list[Row]:
    script = write_plugin(folder)
    one = registry(folder, "one.toml", [plugin_entry("p0000", script, folder)])
    many = registry(
        folder, "many.toml", [plugin_entry(f"p{n:04d}", script, folder) for n in range(REGISTERED)]
    )
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
        row(
            case,
            "gpp serve ready (/readyz)",
            round(ready_s, 3),
            "s",
            f"< {READY_TARGET_S:g}",
            ready_s < READY_TARGET_S,
            ready_s_with_1=round(statistics.median(ready[1]), 3),
            rounds=sizes.registry_rounds,
        ),
        row(
            case,
            "RSS per registered plugin",
            round(per_plugin, 2),
            "KiB",
            f"< {PER_PLUGIN_TARGET_KIB:g}",
            per_plugin < PER_PLUGIN_TARGET_KIB,
            rss_kib_with_1=rss[1],
            rss_kib_with_1000=rss[REGISTERED],
            rounds=sizes.registry_rounds,
        ),
    ]


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
gateway that parses the whole result into Python objects pays before it does anything else.
The gateway does not: it verifies a result of 1 MiB or more in pieces (`gpp.core.piecewise`)."""


def parse_floor(folder: Path, body: bytes) -> float:
    saved = folder / "result.json"
    saved.write_bytes(body)
    done = subprocess.run(
        [sys.executable, "-c", PARSE_FLOOR, str(saved), str(REPO)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
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
    case = f"relaying a result of {len(body) / MIB:.1f} MiB"
    return [
        row(
            case,
            "peak extra RSS / result frame",
            round(multiple, 2),
            "ratio",
            f"< {FRAME_MULTIPLE_TARGET:g}",
            multiple < FRAME_MULTIPLE_TARGET,
            peak_extra_kib=extras,
            result_bytes=len(body),
            rounds=sizes.relay_rounds,
            note="worst round; the frame is the body plus a ~130-byte envelope",
        ),
        row(
            case,
            "orjson.loads alone: peak extra / bytes",
            round(floor, 2),
            "ratio",
            None,
            None,
            note="the same bytes parsed in a fresh process: the floor of a full parse",
        ),
    ]


# --- instances = 2 against instances = 1 ----------------------------------------------------------


WRK_SCRIPT = """wrk.method = "POST"
wrk.body = '{"paths": ["cpu"]}'
wrk.headers["Content-Type"] = "application/json"
"""


@dataclass(frozen=True)
class Load:
    """One round of load on one plugin."""

    rate: float
    """Answered requests a second."""
    requests: int
    client_cpu_s: float
    """What the load generator itself spent: taken from the cores the plugins share."""


def wrk_load(folder: Path, url: str, seconds: int) -> Load:
    """CLIENTS keep-alive connections from `wrk` for `seconds`; a non-2xx answer is an error."""
    script = folder / "post.lua"
    script.write_text(WRK_SCRIPT, "utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        ["wrk", "-t1", f"-c{CLIENTS}", f"-d{seconds}s", "--timeout", "30s", "-s", str(script), url],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", done.stdout)
    total = re.search(r"(\d+) requests in", done.stdout)
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors:", done.stdout)
    if rate is None or total is None or failed is not None:
        raise RuntimeError(f"wrk against {url}: {done.stdout}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Load(float(rate.group(1)), int(total.group(1)), cpu)


async def httpx_load(url: str, seconds: int) -> Load:
    """The same load from httpx where `wrk` is missing (heavier: ~2 ms of CPU a request)."""
    count = 0
    cpu = time.process_time()
    started = time.perf_counter()
    deadline = started + seconds

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal count
        while time.perf_counter() < deadline:
            (await http.post(url, json={"paths": ["cpu"]})).raise_for_status()
            count += 1

    async with httpx.AsyncClient(timeout=120, limits=httpx.Limits(max_connections=CLIENTS)) as h:
        await asyncio.wait_for(asyncio.gather(*(client(h) for _ in range(CLIENTS))), seconds + 120)
    return Load(count / (time.perf_counter() - started), count, time.process_time() - cpu)


def load(folder: Path, url: str, seconds: int) -> Load:
    if shutil.which("wrk"):
        return wrk_load(folder, url, seconds)
    return asyncio.run(httpx_load(url, seconds))


BURN = f"""
import sys


def work():  # the plugin's loop, in a function as there (locals, not globals)
    total = 0
    for i in range({CPU_WORK}):
        total += i * i % 7


for _ in range(int(sys.argv[1])):
    work()
"""
"""The plugin's per-request work without the gateway, `argv[1]` times in a row."""


def bare_ceiling(requests: int) -> tuple[float, float]:
    """What two processes doing the plugin's work get over one, on this machine now (the
    ratio the gateway's instances = 2 could reach at best while other load shares the cores),
    and the seconds one request's work takes alone."""

    def wall(processes: int) -> float:
        started = time.perf_counter()
        burners = [
            subprocess.Popen([sys.executable, "-c", BURN, str(requests // processes)])
            for _ in range(processes)
        ]
        for burner in burners:
            burner.wait(600)
        return time.perf_counter() - started

    one = wall(1)
    return one / wall(2), one / requests


def instances_rows(folder: Path, sizes: Sizes) -> list[Row]:
    script = write_plugin(folder)
    extra = "instances = {}\nrequest_ms = 120000\nsandbox = {{ cpu_seconds = 3600 }}\n"
    config = registry(
        folder,
        "instances.toml",
        [
            plugin_entry("cpu-1", script, folder, extra.format(1)),
            plugin_entry("cpu-2", script, folder, extra.format(2)),
        ],
    )
    ratios: list[float] = []
    ceilings: list[float] = []
    work_s: list[float] = []
    rates: dict[str, list[float]] = {"cpu-1": [], "cpu-2": []}
    gateway_cpu_s = client_cpu_s = 0.0
    requests = 0
    with Gateway(config) as gateway:
        url = f"{gateway.base_url}/plugins/{{}}/discover"
        for plugin_id in rates:  # start the sessions, both of cpu-2's
            load(folder, url.format(plugin_id), 1)
        for index in range(sizes.instance_rounds):
            order = ("cpu-1", "cpu-2") if index % 2 == 0 else ("cpu-2", "cpu-1")
            for plugin_id in order:
                cpu = cpu_seconds(gateway.pid)
                done = load(folder, url.format(plugin_id), sizes.load_seconds)
                gateway_cpu_s += cpu_seconds(gateway.pid) - cpu
                client_cpu_s += done.client_cpu_s
                requests += done.requests
                rates[plugin_id].append(done.rate)
            ratios.append(rates["cpu-2"][-1] / rates["cpu-1"][-1])
            ceiling, work = bare_ceiling(sizes.ceiling_requests)
            ceilings.append(ceiling)
            work_s.append(work)
    ratio = statistics.median(ratios)
    ceiling = statistics.median(ceilings)
    case = "CPU-bound plugin, instances = 2"
    return [
        row(
            case,
            "req/s vs instances = 1",
            round(ratio, 3),
            "ratio",
            f">= {INSTANCES_TARGET:g}",
            ratio >= INSTANCES_TARGET,
            req_s_instances_1=[round(r, 1) for r in rates["cpu-1"]],
            req_s_instances_2=[round(r, 1) for r in rates["cpu-2"]],
            clients=CLIENTS,
            seconds_per_round=sizes.load_seconds,
            rounds=sizes.instance_rounds,
            ratios=[round(r, 3) for r in ratios],
            load="wrk" if shutil.which("wrk") else "httpx",
        ),
        row(
            case,
            "machine ceiling: 2 bare processes vs 1",
            round(ceiling, 3),
            "ratio",
            None,
            None,
            ceilings=[round(c, 3) for c in ceilings],
            plugin_work_ms=round(statistics.median(work_s) * 1000, 2),
            note="the plugin's work without the gateway, interleaved with the rounds above",
        ),
        row(
            case,
            "gateway CPU a request",
            round(gateway_cpu_s * 1000 / requests, 2),
            "ms",
            None,
            None,
            load_generator_ms=round(client_cpu_s * 1000 / requests, 3),
            note="taken from the same two cores as the plugins' work",
        ),
    ]


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
