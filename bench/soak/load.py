"""The clients: normal, trickling and vanishing ones, the plugin killer, and the sampler."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .catalog import DEAF, DIRECTIVE_FAULTS, ERRATIC, PLUGIN_WEIGHTS, REFERENCE_PLUGINS, REQUEST_MS
from .plans import Planned, plan_echo, plan_reference, verdict
from .procfs import fd_count, parent_of, rss_kib, zombie_children
from .rawhttp import http_call

ZOMBIE_S = 5.0
"""How long a child may stay unreaped before it counts as a zombie: asyncio reaps each child in
a thread of its own, which a machine running the rest of `make test` beside the soak (load 10+)
can leave unscheduled past a second (a 1 s bound failed there once); a child never reaped is
still caught at the end, after the run's 5 s wait."""

BIG_PATHS = [f"big/{i:04}/" + "p" * 90 for i in range(3000)]  # ~300 KB: more than a pipe holds
FAULT_SHARE = 0.2  # of soak-erratic requests carry a directive
STOP_READING_SHARE = 0.15  # of soak-deaf requests
BIG_SHARE = 0.2  # of soak-deaf requests
NORMAL_CLIENTS = 6
KILL_EVERY_S = (2.0, 6.0)


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
                paths += BIG_PATHS
        return plan_echo(plugin, rid, paths, faults)

    def directive(self, fault: str) -> str:
        """The path that asks soak_hostile.py for `fault`."""
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
        reply = await http_call(
            self.port,
            "POST",
            f"/plugins/{planned.plugin}/discover",
            planned.body,
            timeout=self.client_timeout,
            **how,
        )
        self.outcomes.append(
            Outcome(
                planned.plugin,
                client,
                planned.faults,
                str(reply.status) if reply.status is not None else reply.error or "?",
                verdict(planned, reply),
                round(time.monotonic() - started, 3),
            )
        )

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
            await self.send(
                "vanish",
                planned,
                vanish_after_s=self.rng.uniform(0.0, 0.6),
                send_bytes=len(planned.body) // 2 if mid_body else None,
            )
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
            self.zombies.update(pid for pid in zombies if now - first_seen_z[pid] >= ZOMBIE_S)
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
