"""The soak: a real `gpp serve` under hostile plugins, hostile clients and random SIGKILLs.

It finds the next hole before an attacker does. One run starts the gateway on an ephemeral
loopback port with four plugins (the Python and Node reference detectors over a generated
repository, and two registrations of `tests/fixtures/plugins/soak_hostile.py`), drives it with
concurrent clients for a bounded time, then checks what a gateway must never do:

- lost: a request that got neither an HTTP answer nor a connection error its own client caused;
- mixed: an answer that belongs to another request (every request asks for a path unique to it,
  and every plugin's document encodes the paths it was asked about, so this is checked exactly);
- 500s and unhandled exceptions in the gateway's log: a fault must end in its own status code;
- zombies: a child of the gateway in state Z for two samples a second or more apart, or at the end;
- orphans: a plugin process (marked by an environment variable only plugins get, or working
  in the run's temporary directory) alive after the gateway exited;
- fd and RSS slopes: least-squares lines through a sample a second, after the warm-up;
- SIGTERM: the gateway exits 0 within grace + shutdown_ms + a margin, and takes its plugins.

Faults are injected by the clients, so each is counted and its outcomes tallied: `fault/…` paths
make the hostile plugin answer late, crash, write garbage, fail the request, flood stderr or stop
reading stdin; clients trickle bodies or vanish mid-request; plugin pids from `GET /plugins/{id}`
are SIGKILLed. `--faults` and `--plugins` choose subsets (a fault whose fix has not landed can be
left out of a run that must pass). Prints one table, writes JSON, exits 1 when an invariant
fails. Traffic goes to 127.0.0.1 only; the load is paced by a clock, and everything is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
HOSTILE_PLUGIN = REPO / "tests" / "fixtures" / "plugins" / "soak_hostile.py"
RUN_MARKER = "GPP_SOAK_RUN"  # in every plugin's environment: one way orphans are found

REFERENCE_PLUGINS = ("reference-detector", "reference-detector-node")
ERRATIC, DEAF = "soak-erratic", "soak-deaf"
ALL_PLUGINS = (*REFERENCE_PLUGINS, ERRATIC, DEAF)
PLUGIN_WEIGHTS = {"reference-detector": 3, "reference-detector-node": 2, ERRATIC: 3, DEAF: 2}

DIRECTIVE_FAULTS = ("slow", "crash", "garbage", "error", "flood")  # asked of soak-erratic
ALL_FAULTS = (*DIRECTIVE_FAULTS, "stop-reading", "sigkill", "trickle", "vanish")

REQUEST_MS = 1000
SHUTDOWN_MS = 2000
GRACE_S = 5
SIGTERM_MARGIN_S = 10.0
GFX_FILES = 40
BIG_PATHS = 3000  # ~300 KB of paths: more than a pipe holds
FAULT_SHARE = 0.2  # of soak-erratic requests carry a directive
STOP_READING_SHARE = 0.15  # of soak-deaf requests
BIG_SHARE = 0.2  # of soak-deaf requests
NORMAL_CLIENTS = 6
KILL_EVERY_S = (2.0, 6.0)
WARMUP_S = 10.0
UNHANDLED_MARKS = ("Traceback (most recent call last)", "Exception in ASGI application")


# ------------------------------------------------------------------------------ HTTP client


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


# ------------------------------------------------------------------------- requests and checks


def echo_name(paths: list[str]) -> str:
    """What soak_hostile.py names its one resource: the count and digest of the paths."""
    digest = hashlib.sha256("\n".join(paths).encode()).hexdigest()
    return f"{len(paths)}:{digest}"


@dataclass
class Planned:
    """A request and what a correct answer to it contains."""

    plugin: str
    request_id: str
    paths: list[str]
    faults: list[str]
    check: Callable[[dict[str, Any]], str | None]  # None when the document fits the request

    @property
    def body(self) -> bytes:
        return json.dumps({"requestId": self.request_id, "paths": self.paths}).encode()


def plan_reference(plugin: str, rid: str, rng: random.Random) -> Planned:
    """Some generated .gfx files plus a missing path unique to this request."""
    picked = sorted(rng.sample(range(GFX_FILES), rng.randint(1, 4)))
    gone = f"gone/{rid}.gfx"
    want_resources = sorted(
        (f"f{i:02}.gfx", name) for i in picked for name in (f"t{i:02}", f"GET /t{i:02}")
    )

    def check(doc: dict[str, Any]) -> str | None:
        got = sorted((r["location"]["path"], r["name"]) for r in doc["resources"])
        unresolved = [u["path"] for u in doc["unresolved"]]
        if got != want_resources or unresolved != [gone]:
            return f"asked {want_resources} + {gone}, got {got} + {unresolved}"
        return None

    return Planned(plugin, rid, [f"f{i:02}.gfx" for i in picked] + [gone], [], check)


def plan_echo(plugin: str, rid: str, paths: list[str], faults: list[str]) -> Planned:
    want = echo_name(paths)

    def check(doc: dict[str, Any]) -> str | None:
        names = [r["name"] for r in doc["resources"]]
        return None if names == [want] else f"asked {want}, got {names}"

    return Planned(plugin, rid, paths, faults, check)


def verdict(planned: Planned, reply: Reply) -> str | None:
    """Why this answer does not belong to its request (None: it does, or it is no answer)."""
    if reply.status is None:
        return None
    try:
        doc = json.loads(reply.body)
    except ValueError:
        return (
            f"status {reply.status} with a body that is not JSON" if reply.status == 200 else None
        )
    answered = doc.get("requestId") if isinstance(doc, dict) else None
    if answered is not None and answered != planned.request_id:
        return f"requestId {answered!r} in the answer to {planned.request_id!r}"
    if reply.status != 200:
        return None
    header = reply.headers.get("x-request-id")
    if header != planned.request_id:
        return f"X-Request-Id {header!r} in the answer to {planned.request_id!r}"
    try:
        return planned.check(doc)
    except (KeyError, TypeError) as exc:
        return f"malformed document ({exc!r})"


# ------------------------------------------------------------------------------ the run


@dataclass
class Outcome:
    plugin: str
    client: str
    faults: list[str]
    outcome: str  # the HTTP status, "vanished", "timeout" or the connection error
    mixed: str | None
    seconds: float


@dataclass
class Sample:
    t: float
    fds: int
    rss_kib: int


@dataclass
class Soak:
    port: int
    gateway: subprocess.Popen[bytes]
    rng: random.Random
    plugins: list[str]
    faults: set[str]
    deadline: float
    client_timeout: float
    outcomes: list[Outcome] = field(default_factory=list)
    injected: Counter[str] = field(default_factory=Counter)
    samples: list[Sample] = field(default_factory=list)
    zombies: set[int] = field(default_factory=set)
    fixed_big_paths: list[str] = field(default_factory=list)

    def running(self) -> bool:
        return time.monotonic() < self.deadline

    # ------------------------------------------------------------------- what clients ask

    def plan(self, plugin: str, fault: str | None = None) -> Planned:
        """A request to `plugin`; soak-erratic gets `fault`, or else each fault once, then a
        random one now and then."""
        rid = f"soak-{uuid.uuid4().hex}"
        if plugin in REFERENCE_PLUGINS:
            return plan_reference(plugin, rid, self.rng)
        paths, faults = [f"ok/{rid}"], []
        directives = [f for f in DIRECTIVE_FAULTS if f in self.faults]
        if plugin == ERRATIC and fault is None and directives:
            not_yet = [f for f in directives if not self.injected[f]]
            if not_yet:
                fault = not_yet[0]
            elif self.rng.random() < FAULT_SHARE:
                fault = self.rng.choice(directives)
        if plugin == ERRATIC and fault is not None:
            faults.append(fault)
            paths.append(self.directive(fault))
        if plugin == DEAF:
            if "stop-reading" in self.faults and self.rng.random() < STOP_READING_SHARE:
                faults.append("stop-reading")
                paths.append("fault/stop-reading")
            if self.rng.random() < BIG_SHARE:
                paths += self.fixed_big_paths
        return plan_echo(plugin, rid, paths, faults)

    def directive(self, fault: str) -> str:
        if fault == "slow":  # half within the budget, half past it
            late = self.rng.random() < 0.5
            ms = (
                self.rng.randint(REQUEST_MS + 200, REQUEST_MS * 2)
                if late
                else self.rng.randint(50, REQUEST_MS // 2)
            )
            return f"fault/slow/{ms}"
        if fault == "flood":
            return f"fault/flood/{self.rng.randint(256, 4096)}"
        return f"fault/{fault}"

    def pick_plugin(self) -> str:
        return self.rng.choices(self.plugins, [PLUGIN_WEIGHTS[p] for p in self.plugins])[0]

    # ---------------------------------------------------------------------------- clients

    async def send(self, client: str, planned: Planned, **how: Any) -> None:
        for fault in planned.faults:
            self.injected[fault] += 1
        started = time.monotonic()
        reply = await http_call(self.port, "POST", f"/plugins/{planned.plugin}/discover",
                                planned.body, timeout=self.client_timeout, **how)  # fmt: skip
        self.outcomes.append(Outcome(
            planned.plugin, client, planned.faults,
            str(reply.status) if reply.status is not None else reply.error or "?",
            verdict(planned, reply), round(time.monotonic() - started, 3),
        ))  # fmt: skip

    async def normal_client(self) -> None:
        while self.running():
            await self.send("normal", self.plan(self.pick_plugin()))
            await asyncio.sleep(self.rng.uniform(0, 0.02))

    async def trickling_client(self) -> None:
        """Sends its body in ten pieces over one to three seconds."""
        while self.running():
            planned = self.plan(self.pick_plugin())
            planned.faults.append("trickle")
            await self.send("trickle", planned, trickle_s=self.rng.uniform(1.0, 3.0))

    async def vanishing_client(self) -> None:
        """Hangs up mid-body, while queued or while its request runs (a slow one, so it does)."""
        while self.running():
            planned = self.plan(self.pick_plugin(), "slow" if "slow" in self.faults else None)
            planned.faults.append("vanish")
            mid_body = self.rng.random() < 0.3
            await self.send("vanish", planned, vanish_after_s=self.rng.uniform(0.0, 0.6),
                            send_bytes=len(planned.body) // 2 if mid_body else None)  # fmt: skip
            await asyncio.sleep(self.rng.uniform(0.05, 0.3))

    async def killer(self) -> None:
        """SIGKILLs a live plugin process now and then (pid from GET /plugins/{id})."""
        while self.running():
            await asyncio.sleep(self.rng.uniform(*KILL_EVERY_S))
            plugin = self.pick_plugin()
            reply = await http_call(self.port, "GET", f"/plugins/{plugin}", timeout=10)
            pid = json.loads(reply.body).get("pid") if reply.status == 200 else None
            if isinstance(pid, int) and parent_of(pid) == self.gateway.pid:  # not a reused pid
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                    self.injected["sigkill"] += 1

    async def sampler(self) -> None:
        """fd count and RSS of the gateway, and its zombie children, once a second."""
        first_seen_z: dict[int, float] = {}
        start = time.monotonic()
        while self.running():
            now = time.monotonic()
            fds, rss = fd_count(self.gateway.pid), rss_kib(self.gateway.pid)
            if fds is not None and rss is not None:
                self.samples.append(Sample(round(now - start, 3), fds, rss))
            zombies = zombie_children(self.gateway.pid)
            first_seen_z = {pid: first_seen_z.get(pid, now) for pid in zombies}
            self.zombies.update(pid for pid in zombies if now - first_seen_z[pid] >= 1.0)
            await asyncio.sleep(1.0)

    async def drive(self) -> None:
        clients = [self.normal_client() for _ in range(NORMAL_CLIENTS)]
        if "trickle" in self.faults:
            clients.append(self.trickling_client())
        if "vanish" in self.faults:
            clients.append(self.vanishing_client())
        if "sigkill" in self.faults:
            clients.append(self.killer())
        await asyncio.gather(self.sampler(), *clients)


# ------------------------------------------------------------------------------ /proc


def _stat_fields(pid: int) -> list[str] | None:
    """Fields of /proc/<pid>/stat after the command name (state first, then ppid)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw.rpartition(")")[2].split()


def parent_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields else None


def _pids() -> Iterator[int]:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            yield int(entry)


def zombie_children(parent: int) -> list[int]:
    found = []
    for pid in _pids():
        fields = _stat_fields(pid)
        if fields and fields[0] == "Z" and int(fields[1]) == parent:
            found.append(pid)
    return found


def marked_processes(token: str, workdir: Path) -> list[int]:
    """Live processes of this run's plugins and their kin: the marker in their environment, or
    a working directory inside the run's own (a plugin that scrubs its environment is found)."""
    needle = f"{RUN_MARKER}={token}".encode()
    found = []
    for pid in _pids():
        with contextlib.suppress(OSError):
            cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            if needle in environ or cwd.is_relative_to(workdir):
                found.append(pid)
    return found


def fd_count(pid: int) -> int | None:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def rss_kib(pid: int) -> int | None:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


def slope_per_minute(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of y over t (seconds), per minute; 0 for fewer than two points."""
    if len(points) < 2:
        return 0.0
    mean_t = sum(t for t, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    if spread == 0:
        return 0.0
    return 60 * sum((t - mean_t) * (y - mean_y) for t, y in points) / spread


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# ------------------------------------------------------------------------------ set-up


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def write_registry(directory: Path, plugins: list[str], token: str) -> Path:
    """Generated .gfx repository (file fNN.gfx holds table tNN) and the registry over it."""
    repo = directory / "repo"
    repo.mkdir()
    for i in range(GFX_FILES):
        (repo / f"f{i:02}.gfx").write_text(f"table t{i:02} owner=soak\nroute GET /t{i:02}\n")
    commands = {
        "reference-detector": [sys.executable, str(REPO / "plugins" / "reference_detector.py")],
        "reference-detector-node": ["node", str(REPO / "plugins" / "reference_detector.mjs")],
        ERRATIC: [sys.executable, str(HOSTILE_PLUGIN)],
        DEAF: [sys.executable, str(HOSTILE_PLUGIN)],
    }
    lines = ["[gateway]", f"grace_seconds = {GRACE_S}", "", "[defaults]",
             f"request_ms = {REQUEST_MS}", f"shutdown_ms = {SHUTDOWN_MS}", "max_queue = 64"]  # fmt: skip
    for plugin in plugins:
        env = {RUN_MARKER: token, "SOAK_PLUGIN_ID": plugin}
        lines += ["", "[[plugin]]", f"id = {json.dumps(plugin)}", 'version = "1.0.0"',
                  f"command = {json.dumps(commands[plugin])}", f"root = {json.dumps(str(repo))}",
                  "env = {" + ", ".join(f"{k} = {json.dumps(v)}" for k, v in env.items()) + "}",
                  f"instances = {2 if plugin in REFERENCE_PLUGINS else 1}"]  # fmt: skip
    path = directory / "registry.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def start_gateway(config: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        gateway = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--config", str(config), "--port", str(port),
             "--log-level", "warning"],
            cwd=REPO, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    def listening() -> bool:
        if gateway.poll() is not None:
            raise RuntimeError(f"gateway exited at start: {log.read_text()[-2000:]}")
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", port)) == 0

    if not wait_until(listening, 30):
        gateway.kill()
        gateway.wait(10)
        raise RuntimeError("gateway did not listen within 30 s")
    return gateway


# ------------------------------------------------------------------------------ the report


def stop_gateway(gateway: subprocess.Popen[bytes], bound_s: float) -> dict[str, Any]:
    started = time.monotonic()
    gateway.send_signal(signal.SIGTERM)
    try:
        code: int | None = gateway.wait(bound_s)
    except subprocess.TimeoutExpired:
        code = None
        gateway.kill()
        gateway.wait(30)
    return {"exitCode": code, "seconds": round(time.monotonic() - started, 2),
            "boundSeconds": bound_s}  # fmt: skip


def summarise(soak: Soak, args: argparse.Namespace, sigterm: dict[str, Any],
              orphans: list[int], final_zombies: list[int], unhandled: int) -> dict[str, Any]:  # fmt: skip
    outcomes = Counter(o.outcome for o in soak.outcomes)
    lost = [o for o in soak.outcomes if o.outcome != "vanished" and not o.outcome.isdigit()]
    mixed = [o for o in soak.outcomes if o.mixed]
    steady = [s for s in soak.samples if s.t >= min(WARMUP_S, args.duration / 5)]
    served = Counter(o.plugin for o in soak.outcomes if o.outcome == "200")
    by_fault: dict[str, Counter[str]] = {}
    for o in soak.outcomes:
        for fault in o.faults:
            by_fault.setdefault(fault, Counter())[o.outcome] += 1
    fd_slope = slope_per_minute([(s.t, s.fds) for s in steady])
    rss_slope = slope_per_minute([(s.t, s.rss_kib / 1024) for s in steady])
    invariants = {
        "lost": (len(lost), 0),
        "mixed": (len(mixed), 0),
        "http 500": (outcomes.get("500", 0), 0),
        "unhandled exceptions in the gateway log": (unhandled, 0),
        "zombies": (len(soak.zombies | set(final_zombies)), 0),
        "orphans": (len(orphans), 0),
        "plugins that never answered 200": (sum(1 for p in soak.plugins if not served[p]), 0),
        "fd slope per minute": (round(fd_slope, 2), args.max_fd_slope),
        "RSS slope MiB per minute": (round(rss_slope, 2), args.max_rss_slope),
        "SIGTERM exit status": (sigterm["exitCode"], 0),
    }
    failed = [name for name, (value, limit) in invariants.items()
              if value is None or (value > limit if "slope" in name else value != limit)]  # fmt: skip
    return {
        "seed": args.seed,
        "durationSeconds": args.duration,
        "plugins": soak.plugins,
        "faults": sorted(soak.faults),
        "machine": {
            "nproc": os.cpu_count(),
            "memTotalKiB": mem_total_kib(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        },
        "requests": len(soak.outcomes),
        "outcomes": dict(outcomes.most_common()),
        "servedByPlugin": dict(served),
        "faultsInjected": dict(soak.injected.most_common()),
        "outcomesByFault": {k: dict(v.most_common()) for k, v in sorted(by_fault.items())},
        "fd": {
            "first": steady[0].fds if steady else None,
            "last": steady[-1].fds if steady else None,
            "slopePerMinute": round(fd_slope, 2),
        },
        "rssMiB": {
            "first": round(steady[0].rss_kib / 1024, 1) if steady else None,
            "last": round(steady[-1].rss_kib / 1024, 1) if steady else None,
            "slopePerMinute": round(rss_slope, 2),
        },
        "sigterm": sigterm,
        "invariants": {k: {"value": v, "limit": lim} for k, (v, lim) in invariants.items()},
        "failed": failed,
        "lostExamples": [asdict(o) for o in lost[:10]],
        "mixedExamples": [asdict(o) for o in mixed[:10]],
        "samples": [asdict(s) for s in soak.samples],
    }


def unhandled_exceptions(log_text: str) -> dict[str, dict[str, Any]]:
    """Log lines that report an exception nothing handled: count and first line, by class."""
    found: dict[str, dict[str, Any]] = {}
    for line in log_text.splitlines():
        if any(mark in line for mark in UNHANDLED_MARKS):
            match = re.search(r'error="(\w+)|\\n(\w+(?:\.\w+)*): [^\\]*\\n"$', line)
            name = next((g for g in match.groups() if g), "?") if match else "?"
            entry = found.setdefault(name.rpartition(".")[2], {"count": 0, "example": line[:600]})
            entry["count"] += 1
    return found


def mem_total_kib() -> int | None:
    with contextlib.suppress(OSError, IndexError, ValueError):
        return int(Path("/proc/meminfo").read_text().split()[1])
    return None


def render(report: dict[str, Any]) -> str:
    rows = [f"soak: {report['durationSeconds']} s, seed {report['seed']}, "
            f"{len(report['plugins'])} plugins, {report['machine']['nproc']} cpus, "
            f"{report['machine']['date']}",
            f"{'requests sent':44}{report['requests']:>10}"]  # fmt: skip
    rows += [
        f"  {'HTTP ' + k if k.isdigit() else k:42}{v:>10}" for k, v in report["outcomes"].items()
    ]
    rows.append("faults injected")
    for kind, count in report["faultsInjected"].items():
        seen = ", ".join(f"{k}: {v}" for k, v in report["outcomesByFault"].get(kind, {}).items())
        rows.append(f"  {kind:42}{count:>10}   {seen}")
    rows.append(f"{'invariant':44}{'value':>10}{'limit':>10}")
    for name, entry in report["invariants"].items():
        mark = "FAIL" if name in report["failed"] else "ok"
        rows.append(f"  {name:42}{entry['value']!s:>10}{entry['limit']!s:>10}  {mark}")
    lost = Counter(f"{o['plugin']} ({o['outcome']})" for o in report["lostExamples"])
    if lost:
        rows.append("  lost, first ten: " + ", ".join(f"{k} ×{v}" for k, v in lost.items()))
    if report["unhandledExceptions"]:
        rows.append("  unhandled: " + ", ".join(
            f"{name} ×{entry['count']}" for name, entry in report["unhandledExceptions"].items()))  # fmt: skip
    sigterm = report["sigterm"]
    rows.append(f"  (SIGTERM took {sigterm['seconds']} s, bound {sigterm['boundSeconds']} s; "
                f"fd {report['fd']['first']} → {report['fd']['last']}, "
                f"RSS {report['rssMiB']['first']} → {report['rssMiB']['last']} MiB)")  # fmt: skip
    return "\n".join(row.rstrip() for row in rows)


def run(args: argparse.Namespace) -> dict[str, Any]:
    token = uuid.uuid4().hex
    with tempfile.TemporaryDirectory(prefix="gpp-soak-") as tmp:
        config = write_registry(Path(tmp), args.plugins, token)
        port = free_port()
        log = Path(tmp) / "gateway.log"
        gateway = start_gateway(config, port, log)
        try:
            soak = Soak(port, gateway, random.Random(args.seed), args.plugins, set(args.faults),
                        time.monotonic() + args.duration, args.client_timeout,
                        fixed_big_paths=[f"big/{i:04}/" + "p" * 90 for i in range(BIG_PATHS)])  # fmt: skip
            asyncio.run(soak.drive())
            wait_until(lambda: not zombie_children(gateway.pid), 5)
            final_zombies = zombie_children(gateway.pid)
            sigterm = stop_gateway(gateway, GRACE_S + SHUTDOWN_MS / 1000 + SIGTERM_MARGIN_S)
        finally:
            if gateway.poll() is None:
                gateway.kill()
                gateway.wait(30)
        wait_until(lambda: not marked_processes(token, Path(tmp)), 3)
        orphans = marked_processes(token, Path(tmp))
        for pid in orphans:  # found and counted; now leave nothing behind
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        log_text = log.read_text(errors="replace")
        unhandled = unhandled_exceptions(log_text)
        count = sum(entry["count"] for entry in unhandled.values())
        report = summarise(soak, args, sigterm, orphans, final_zombies, count)
        report["unhandledExceptions"] = unhandled
        report["gatewayLogTail"] = log_text[-4000:]
    return report


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of load (180)")
    parser.add_argument("--quick", action="store_true", help="60 s of load (for make test)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument("--plugins", default=",".join(ALL_PLUGINS),
                        help=f"comma-separated subset of {','.join(ALL_PLUGINS)}")  # fmt: skip
    parser.add_argument("--faults", default=",".join(ALL_FAULTS),
                        help=f"comma-separated subset of {','.join(ALL_FAULTS)}")  # fmt: skip
    parser.add_argument("--client-timeout", type=float, default=20.0,
                        help="seconds a client waits for its answer before counting it lost")  # fmt: skip
    parser.add_argument("--max-fd-slope", type=float, default=20.0,
                        help="allowed fd growth per minute after warm-up (20)")  # fmt: skip
    parser.add_argument("--max-rss-slope", type=float, default=10.0,
                        help="allowed RSS growth in MiB per minute after warm-up (10)")  # fmt: skip
    parser.add_argument("--json", type=Path, default=Path("soak-results.json"),
                        help="where to write the results (soak-results.json)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.quick:
        args.duration = 60.0
    if args.seed is None:
        args.seed = random.randrange(2**32)
    args.plugins = [p for p in args.plugins.split(",") if p]
    args.faults = [f for f in args.faults.split(",") if f]
    for name, chosen, allowed in (("plugin", args.plugins, ALL_PLUGINS),
                                  ("fault", args.faults, ALL_FAULTS)):  # fmt: skip
        unknown = sorted(set(chosen) - set(allowed))
        if unknown:
            parser.error(f"unknown {name}(s): {', '.join(unknown)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = run(args)
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    print(render(report))
    print(f"results: {args.json}")
    if report["failed"]:
        print(f"soak FAILED: {', '.join(report['failed'])}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
