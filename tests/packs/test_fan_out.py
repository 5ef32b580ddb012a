"""`packs.fan_out`: forked workers give the serial result, whatever fails, and leave no process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, process_gone

from gpp.core import canonical
from gpp.host import PluginSession, SandboxPolicy

sys.path.insert(0, str(REPO / "plugins"))

import packs.fan_out
from pack_http_routes import make_scanner
from packs import django_models, sqlalchemy_models
from packs.fan_out import fan_out
from packs.scan import Scanner

PARENT = os.getpid()
ITEMS = list(range(200))


class WorkerShare:
    """Makes sure a worker and this process both take a chunk: chunks go to whoever asks first,
    so a quick process could take them all. A worker's first item announces its pid and waits
    until this process has started one; this process's first item waits until a worker has
    announced. Each worker holds a chunk while it waits, so with more chunks than workers this
    process always finds one. Every wait is bounded. `wrap(f)` is `f` behind that meeting."""

    def __init__(self) -> None:
        self.announce_read, self.announce_write = os.pipe()
        self.started_read, self.started_write = os.pipe()
        os.set_blocking(self.announce_read, False)
        self.first = True  # a fork's copy is its own

    def wrap(self, compute: Any) -> Any:
        def wrapped(*args: Any) -> Any:
            if self.first:
                self.first = False
                if os.getpid() != PARENT:
                    os.write(self.announce_write, f"{os.getpid()}\n".encode())
                    select.select([self.started_read], [], [], 30)  # read by none: seen by all
                else:
                    os.write(self.started_write, b"x")
                    ready, _, _ = select.select([self.announce_read], [], [], 30)
                    assert ready, "no worker started within 30 s"
            return compute(*args)

        return wrapped

    def worker_pids(self) -> set[int]:
        """Every worker that announced itself so far."""
        text = b""
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(self.announce_read, 4096):
                text += chunk
        return {int(pid) for pid in text.split()}

    def close(self) -> None:
        for fd in (self.announce_read, self.announce_write, self.started_read, self.started_write):
            os.close(fd)


@pytest.fixture
def worker_share() -> Iterator[WorkerShare]:
    share = WorkerShare()
    yield share
    share.close()


def _square_and_pid(item: int) -> tuple[int, int]:
    return item * item, os.getpid()


@pytest.mark.parametrize("count", [0, 1, 2, 17, 200])
@pytest.mark.parametrize("workers", [2, 3])
def test_the_result_is_the_serial_one_and_workers_did_share_it(
    count: int, workers: int, worker_share: WorkerShare
) -> None:
    shared = count > 16 * workers  # more chunks of 16 than processes: see WorkerShare
    compute = worker_share.wrap(_square_and_pid) if shared else _square_and_pid
    out = fan_out(compute, ITEMS[:count], workers=workers, min_items_per_worker=1)
    assert [value for value, _ in out] == [i * i for i in range(count)]
    if shared:
        assert {pid for _, pid in out} - {PARENT}, "no item was computed by a worker"


def test_too_few_items_or_one_worker_stays_in_this_process() -> None:
    assert {pid for _, pid in fan_out(_square_and_pid, ITEMS, workers=1)} == {PARENT}
    few = fan_out(_square_and_pid, ITEMS[:40], workers=4, min_items_per_worker=32)
    assert {pid for _, pid in few} == {PARENT}


def _fails_in_workers(how: str) -> Any:
    def compute(item: int) -> int:
        if os.getpid() != PARENT and item % 50 == 7:
            if how == "raise":
                raise RuntimeError("worker fault")
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            if how == "unpicklable":
                return lambda: item  # type: ignore[return-value]  # pickling it fails
        return item + 1

    return compute


@pytest.mark.parametrize("how", ["raise", "killed", "unpicklable"])
def test_a_failed_workers_chunks_are_computed_again_here(how: str) -> None:
    out = fan_out(_fails_in_workers(how), ITEMS, workers=3, min_items_per_worker=1)
    assert out == [i + 1 for i in ITEMS]


def test_an_exception_here_propagates_and_leaves_no_worker(worker_share: WorkerShare) -> None:
    def compute(item: int) -> int:
        if os.getpid() == PARENT:  # once a worker has started (worker_share)
            raise ValueError("parent fault")
        return item

    with pytest.raises(ValueError, match="parent fault"):
        fan_out(worker_share.wrap(compute), ITEMS, workers=3, min_items_per_worker=1)
    workers = worker_share.worker_pids()
    assert workers and all(process_gone(pid) for pid in workers)


def test_workers_are_reaped_on_success(worker_share: WorkerShare) -> None:
    out = fan_out(worker_share.wrap(_square_and_pid), ITEMS, workers=3, min_items_per_worker=1)
    workers = {pid for _, pid in out} - {PARENT}
    assert workers and workers <= worker_share.worker_pids()
    assert all(process_gone(pid) for pid in workers)


ROUTE_APPS = [
    "fastapi-app",
    "flask-app",
    "starlette-app",
    "express-app",
    "express-factory-app",
    "express-ts-app",
]


def _scanners() -> list[tuple[str, Any]]:
    def tables(module: Any) -> Any:
        return lambda: Scanner((".py",), module.extract, module.link, language="Python")

    return [(app, make_scanner) for app in ROUTE_APPS] + [
        ("sqlalchemy-app", tables(sqlalchemy_models)),
        ("django-app", tables(django_models)),
        ("fastapi-sqlalchemy-app", tables(sqlalchemy_models)),
        ("flask-sqlalchemy-app", tables(sqlalchemy_models)),
        ("django-users-app", tables(django_models)),
        ("mixed-broken", make_scanner),
    ]


@pytest.mark.parametrize(("app", "make"), _scanners(), ids=[a for a, _ in _scanners()])
def test_a_fanned_out_discover_is_byte_identical_to_a_serial_one(
    app: str, make: Any, monkeypatch: pytest.MonkeyPatch, worker_share: WorkerShare
) -> None:
    monkeypatch.chdir(REPO / "tests" / "fixtures" / "repos" / app)
    monkeypatch.setattr(packs.fan_out, "CHUNK_ITEMS", 1)  # sample apps have a few files
    serial, fanned = make(), make()
    serial.workers = 1
    fanned.workers, fanned.min_files_per_worker = 2, 1
    fanned.extract = worker_share.wrap(fanned.extract)
    expected = canonical(serial.discover(["."]))
    assert canonical(fanned.discover(["."])) == expected
    fanned.documents.forget()  # not the last document whole: each file from the memo
    assert canonical(fanned.discover(["."])) == expected  # the memo kept what workers read
    assert fanned.memo.stats.hits == fanned.memo.stats.misses > 0


SANDBOXED_PLUGIN = """
import importlib.util, os, select, sys
from gpp.plugin.sdk import serve

spec = importlib.util.spec_from_file_location("fan_out", sys.argv[1])
fan_out = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fan_out)
parent = os.getpid()
meet_read, meet_write = os.pipe()


def compute(item):
    if os.getpid() != parent:
        os.write(meet_write, b"x")
    elif item == 0:  # this process's first item waits (bounded) for a worker to start one
        select.select([meet_read], [], [], 30)
    return os.getpid()


def discover(paths):
    pids = set(fan_out.fan_out(compute, range(64), workers=2, min_items_per_worker=1))
    attrs = {"workers": len(pids - {parent}), "reaped": all(
        not os.path.exists(f"/proc/{pid}") for pid in pids - {parent})}
    resource = {"kind": "probe", "name": "fan-out", "location": {"path": "x", "line": 1},
                "attrs": attrs}
    return {"resources": [resource], "unresolved": [], "findings": [],
            "classificationSignals": []}


sys.exit(serve("fan-out-probe", "0.1.0", discover))
"""


def test_workers_fork_and_report_under_the_default_sandbox(tmp_path: Path) -> None:
    """The sandbox (namespaces, rlimits, pids cgroup, no /dev/shm needs) lets a plugin fan out."""
    plugin = tmp_path / "probe.py"
    plugin.write_text(SANDBOXED_PLUGIN)
    fan_out_file = REPO / "plugins" / "packs" / "fan_out.py"
    session = PluginSession(
        [sys.executable, str(plugin), str(fan_out_file)],
        "fan-out-probe",
        "0.1.0",
        cwd=str(tmp_path),
        sandbox=SandboxPolicy(readonly_root=True),
    )

    async def scenario() -> dict[str, Any]:
        async with session:
            return await session.discover(["."])

    (resource,) = asyncio.run(scenario())["resources"]
    assert resource["attrs"] == {"workers": 1, "reaped": True}
