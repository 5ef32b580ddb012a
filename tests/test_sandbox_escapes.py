"""Issue 10, hole 1: a plugin of a root host tries every known way out of its sandbox.

`escape_probe.py` runs each escape inside the default sandbox and inside `readonly_root = true`,
aimed at this test process (standing in for the gateway: its pid, environment and namespaces)
and at a mode-600 token file outside the repository. Every escape listed here but the
`interfaces` baseline succeeded against the sandbox these tests replaced (`unshare` + `sh`,
root's capabilities kept); each must fail.
Isolation is read from inside (status fields, errno values), never proven by sending traffic.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import DEMO_REPO, FIXTURE_PLUGINS

from gpp.host import PluginSession, Timeouts
from gpp.sandbox import SandboxPolicy

PROBE = FIXTURE_PLUGINS / "escape_probe.py"
PIDS_MAX = 16
MARKER = "escape-probe-was-here.txt"
Outcomes = dict[str, dict[str, Any]]

ESCAPES = [
    "capabilities",  # CapEff 000001fffeffffff and no no_new_privs before
    "interfaces",  # only lo (held before too: the baseline that setns-net then broke)
    "gateway-visible",
    "foreign-processes",
    "gateway-environ",
    "gateway-cmdline",
    "token-file",
    "symlink-out",
    "setns-net",
    "cgroup-leave",
    "cgroup-mount",
    "fork-past-limit",
]
READ_ONLY_ESCAPES = ["remount-repo", "userns-remount", "proc-root-write", "write-repo"]


def run_probe(directory: Path, policy: SandboxPolicy) -> tuple[Outcomes, Path]:
    repo = directory / "repo"
    shutil.copytree(DEMO_REPO, repo)
    token = directory / "token"
    token.write_text("secret-token")
    token.chmod(0o600)
    (repo / "token-link").symlink_to(token)
    env = {"GATEWAY_PID": str(os.getpid()), "TOKEN_FILE": str(token), "PIDS_MAX": str(PIDS_MAX)}

    async def scenario() -> Outcomes:
        async with PluginSession(
            [sys.executable, str(PROBE)],
            "escape-probe",
            "1.0.0",
            cwd=str(repo),
            env=env,
            sandbox=policy,
            timeouts=Timeouts(request_ms=60_000),
        ) as session:
            result = await session.discover(["."])
        return {r["name"]: r["attrs"] for r in result["resources"]}

    return asyncio.run(scenario()), repo


@pytest.fixture(scope="module")
def default_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Outcomes:
    outcomes, _ = run_probe(
        tmp_path_factory.mktemp("escape-default"), SandboxPolicy(max_processes=PIDS_MAX)
    )
    return outcomes


@pytest.fixture(scope="module")
def readonly_sandbox(tmp_path_factory: pytest.TempPathFactory) -> tuple[Outcomes, Path]:
    return run_probe(
        tmp_path_factory.mktemp("escape-readonly"),
        SandboxPolicy(max_processes=PIDS_MAX, readonly_root=True),
    )


@pytest.mark.parametrize("escape", ESCAPES)
def test_escape_fails_in_the_default_sandbox(default_sandbox: Outcomes, escape: str) -> None:
    outcome = default_sandbox[escape]
    assert outcome["escaped"] is False, outcome["detail"]


@pytest.mark.parametrize("escape", ESCAPES + READ_ONLY_ESCAPES)
def test_escape_fails_with_a_read_only_root(
    readonly_sandbox: tuple[Outcomes, Path], escape: str
) -> None:
    outcome = readonly_sandbox[0][escape]
    assert outcome["escaped"] is False, outcome["detail"]


def test_no_capability_is_held_and_no_new_privileges_can_be_gained(
    default_sandbox: Outcomes,
) -> None:
    detail = default_sandbox["capabilities"]["detail"]
    for field in ("CapAmb", "CapBnd", "CapEff", "CapInh", "CapPrm"):
        assert f"{field}=0000000000000000" in detail
    assert "NoNewPrivs=1" in detail


def test_the_read_only_repository_is_untouched(readonly_sandbox: tuple[Outcomes, Path]) -> None:
    _, repo = readonly_sandbox
    assert not (repo / MARKER).exists()
    added = {p.name for p in repo.iterdir()} - {p.name for p in DEMO_REPO.iterdir()}
    assert added == {"token-link"}


def test_the_pids_limit_holds_after_the_attempt_to_leave(default_sandbox: Outcomes) -> None:
    detail = default_sandbox["fork-past-limit"]["detail"]
    forked = int(detail.split()[1].rstrip(","))
    assert 0 < forked < PIDS_MAX and detail.endswith("EAGAIN"), detail
