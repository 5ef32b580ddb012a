"""`python -m bench` (the runner): its table and bench-results.json keep their structure.

A smoke test, not a benchmark: it runs the runner in quick mode on groups of its own (one with
rows, one with no `run` yet, one that raises, one that hangs) and on the cheap real `sandbox`
group, and checks only the shape of what comes out and that a hung group is stopped with the
processes it started; no figure or timing is asserted.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, run_ok

sys.path.insert(0, str(REPO))  # bench/ holds tools, not an installed package
from bench.table import COLUMNS, UNITS, row_problems

BOUND_S = 180  # the quick sandbox group and two runner starts, on a loaded machine

GOOD_GROUP = """
def run(quick):
    assert quick is True
    return [
        {"group": "fake", "case": "a case", "figure": "vs nothing", "value": 0.75,
         "unit": "ratio", "target": ">= 0.7", "met": True, "detail": {"rounds": 1}},
        {"group": "fake", "case": "another", "figure": "latency", "value": 12,
         "unit": "ms", "target": None, "met": None},
        {"group": "fake", "case": "bad unit", "figure": "x", "value": 1.0,
         "unit": "furlongs", "target": None, "met": None},
    ]
"""
NO_RUN_GROUP = "FIGURES = []  # a group that has not grown its run(quick) yet\n"
RAISING_GROUP = "def run(quick):\n    raise RuntimeError('the server did not start')\n"
HANGING_GROUP = """
import os, subprocess, sys, threading
def run(quick):
    server = subprocess.Popen([sys.executable, "-c", "import threading; threading.Event().wait()"])
    with open(os.environ["HANGING_GROUP_PID"], "w") as out:
        out.write(str(server.pid))
    threading.Event().wait()  # a group that never returns
"""


@pytest.fixture
def groups(tmp_path: Path) -> Path:
    package = tmp_path / "fakebench"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "good.py").write_text(GOOD_GROUP)
    (package / "norun.py").write_text(NO_RUN_GROUP)
    (package / "raising.py").write_text(RAISING_GROUP)
    (package / "hanging.py").write_text(HANGING_GROUP)
    return tmp_path


def run_bench(groups: Path, only: str, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": f"{REPO}{os.pathsep}{groups}",
        "HANGING_GROUP_PID": str(groups / "hanging.pid"),
    }
    command = [sys.executable, "-m", "bench", "--quick", "--only", only, "--out", str(out), *extra]
    return run_ok(command, timeout=BOUND_S, check=False, env=env)


def test_rows_table_and_json_from_every_kind_of_group(groups: Path) -> None:
    out = groups / "bench-results.json"
    done = run_bench(groups, "fakebench.good,fakebench.norun,fakebench.raising", out)
    assert done.returncode == 1, done.stdout + done.stderr  # one group raised
    assert "skipped fakebench.norun: fakebench.norun has no run(quick) yet" in done.stdout
    assert "fakebench.raising failed" in done.stdout
    assert "RuntimeError: the server did not start" in done.stderr  # its traceback
    assert "malformed row 2: unit 'furlongs'" in done.stdout
    header = next(line for line in done.stdout.splitlines() if line.startswith("group"))
    assert header.split() == list(COLUMNS)
    assert any(
        line.split()[:1] == ["fake"] and "0.750" in line and line.endswith("yes")
        for line in done.stdout.splitlines()
    )

    document = json.loads(out.read_text())
    assert set(document) >= {
        "timestamp",
        "quick",
        "seconds",
        "machine",
        "versions",
        "groups",
        "rows",
    }
    assert document["quick"] is True
    machine = document["machine"]
    for key in (
        "cpu_model",
        "cores",
        "memory_kib",
        "kernel",
        "load_average_before",
        "load_average_after",
    ):
        assert key in machine
    assert len(machine["load_average_before"]) == 3
    assert set(document["versions"]) >= {"python", "uvicorn", "fastapi", "orjson", "node", "wrk"}
    statuses = {g["name"]: g["status"] for g in document["groups"]}
    assert statuses == {
        "fakebench.good": "ok",
        "fakebench.norun": "skipped",
        "fakebench.raising": "error",
    }
    good = next(g for g in document["groups"] if g["name"] == "fakebench.good")
    assert good["rows"] == 3 and good["problems"] == [
        "row 2: unit 'furlongs' is not one of " + str(sorted(UNITS))
    ]
    assert [row["case"] for row in document["rows"]] == ["a case", "another", "bad unit"]
    assert document["rows"][0]["detail"] == {"rounds": 1}


def test_a_real_group_gives_well_formed_rows(groups: Path) -> None:
    out = groups / "bench-results.json"
    done = run_bench(groups, "sandbox", out)
    assert done.returncode == 0, done.stdout + done.stderr
    document: dict[str, Any] = json.loads(out.read_text())
    assert [g["status"] for g in document["groups"]] == ["ok"]
    rows = document["rows"]
    assert rows
    for row in rows:
        assert row_problems(row) == [], row
        assert row["group"] == "sandbox"


def exits_within(pid: int, seconds: float) -> bool:
    """Whether the process (not our child: its parent was the group) has exited or does
    within `seconds`: a pidfd turns readable when it terminates."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([pidfd], [], [], seconds)
        return bool(readable)
    finally:
        os.close(pidfd)


def test_a_group_that_hangs_is_stopped_with_what_it_started(groups: Path) -> None:
    out = groups / "bench-results.json"
    done = run_bench(groups, "fakebench.hanging,fakebench.good", out, "--bound", "3")
    assert done.returncode == 1, done.stdout + done.stderr
    document = json.loads(out.read_text())
    hanging, good = document["groups"]
    assert hanging["status"] == "error"
    assert hanging["error"] == "stopped after its bound of 3 s"
    assert good["status"] == "ok"  # the run went on
    server = int((groups / "hanging.pid").read_text())
    assert exits_within(server, 30), "the hanging group's server outlived it"


def test_row_problems_names_each_fault() -> None:
    assert row_problems([]) == ["not a dict: list"]
    assert row_problems({"group": "g"}) == [
        f"missing key {key!r}" for key in COLUMNS if key != "group"
    ]
    bad = {
        "group": "g",
        "case": 1,
        "figure": "f",
        "value": True,
        "unit": "ratio",
        "target": 0.5,
        "met": "yes",
    }
    assert row_problems(bad) == [
        "case is not a string",
        "value is not a number or None",
        "target is not a string or None",
        "met is not True, False or None",
    ]
