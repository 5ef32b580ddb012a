"""A non-root `gpp serve` (issue 35, item 3): one line at start says where plugin cgroups go,
or why there are none and what to do; `--cgroup optional` runs every plugin without one.

The non-root cases run for real, as uid 65534, in a child forked from this process once what
it needs is imported (this interpreter may lie in a folder only root can read): the line is
computed, and a plugin is started in its sandbox, as that uid."""

from __future__ import annotations

import asyncio
import concurrent.futures.thread  # noqa: F401  (asyncio.to_thread, in the child)
import io
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import uvicorn  # noqa: F401  (what `gpp serve` imports, loaded before the uid changes)
from conftest import REPO
from gateway_harness import served, write_config

from app import cgroup_notice, cli, fd_limit, logs, main, unix_socket  # noqa: F401
from app.config import PluginConfig
from app.server import front_door  # noqa: F401
from gpp.core import codes
from gpp.host import Layout, view

NOBODY = 65534
CHILD_S = 60
DEMO_REPO = Path("plugins/examples/demo-repo")
NODE_DETECTOR = Path("plugins/reference_detector.mjs")
"""Both under `searchable_checkout` for uid 65534 (the checkout may lie behind a 0700 folder,
as CI's `$(mktemp -d)/c`: the product rightly refuses a repository that uid cannot reach)."""


def node_detector(checkout: Path = REPO) -> list[str]:
    return ["node", str(checkout / NODE_DETECTOR)]


def as_nobody(work: Callable[[], str], checkout: Path) -> str:
    """`work()` run as uid/gid 65534 with no groups, in a forked child (bounded by an alarm).
    The sandbox binds the gateway's own `gpp` (and `gateforge_plugin`) into every plugin's view:
    the child's are `checkout`'s, a folder that uid reaches, as a non-root user's own install
    would be (this checkout may lie behind a 0700 folder, as CI's `$(mktemp -d)/c`)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        said = "child failed"
        try:
            os.close(read_end)
            signal.alarm(CHILD_S)
            os.chdir("/")  # a user's working folder is theirs; the checkout's may be 0700-bound
            view.GPP_PACKAGE = checkout / "gpp"
            view.PYTHON_SDK = checkout / "plugins/sdk/python/gateforge_plugin"
            os.setgroups([])
            os.setresgid(NOBODY, NOBODY, NOBODY)
            os.setresuid(NOBODY, NOBODY, NOBODY)
            said = work()
        except BaseException as exc:  # said to the parent, which fails the test with it
            said = f"child raised {type(exc).__name__}: {exc}"
        finally:
            os.write(write_end, said.encode())
            os._exit(0)
    os.close(write_end)
    chunks = []
    with os.fdopen(read_end, "rb") as said_by_child:
        chunks.append(said_by_child.read())
    os.waitpid(pid, 0)
    return b"".join(chunks).decode()


def started(plugin: PluginConfig) -> str:
    """'ok: NAMES' then its sandbox's identity and cgroup, one a line, when the plugin answers
    a discover in its sandbox; else 'refused: WHY'."""

    async def discover() -> str:
        async with plugin.session() as session:
            result = await session.discover(["api"])
            said = session.sandbox_mechanisms
        names = ",".join(resource["name"] for resource in result["resources"])
        return f"ok: {names}\n{said['identity']}\n{said['cgroup']}"

    try:
        return asyncio.run(discover())
    except codes.ProtocolError as exc:
        return f"refused: {exc.diagnostic()}"


def registry(tmp_path: Path, checkout: Path, *flags: str) -> dict[str, PluginConfig]:
    entry = {"id": "reference-detector-node", "version": "1.0.0",
             "root": str(checkout / DEMO_REPO), "command": node_detector(checkout)}  # fmt: skip
    args = cli.build_parser().parse_args(
        ["serve", "--no-token", "--config", str(write_config(tmp_path, [entry])), *flags]
    )
    return cli._serve_config(args).plugins


@pytest.mark.parametrize("euid", [0, 1000])
def test_no_cgroup_is_one_line_with_what_is_lost_and_what_to_do(euid: int) -> None:
    why = "cannot make the plugin's cgroup under /sys/fs/cgroup/pids: Permission denied"
    refused = cgroup_notice.start_line(why, optional=False, euid=euid)
    relaxed = cgroup_notice.start_line(why, optional=True, euid=euid)
    for line in (refused, relaxed):
        assert "\n" not in line and f"({why})" in line, line
        assert "rlimits only (no whole-plugin memory, CPU or process bound" in line, line
    assert "plugins that need one are refused" in refused
    assert "or `gpp serve --cgroup optional`" in refused
    delegation = "systemd-run --user --scope -p Delegate=yes gpp serve" in refused
    assert delegation == (euid != 0), refused
    assert "; --cgroup optional: plugins run bounded per process" in relaxed
    made = cgroup_notice.start_line(Layout(2, {"unified": Path("/x")}), False, euid)
    assert made == "gpp: plugin cgroups: cgroup v2, one per session"


def test_a_non_root_start_says_no_cgroup_exactly_when_its_plugins_are_refused(
    tmp_path: Path, searchable_checkout: Path
) -> None:
    """As uid 65534 the hierarchies are mounted and readable, yet no group can be made under
    root's cgroup (this machine: cgroup v1): the line must follow what a start does."""
    plugin = registry(tmp_path, searchable_checkout)["reference-detector-node"]
    assert plugin.sandbox.cgroup == "required"

    def both() -> str:
        line = cgroup_notice.start_line(cgroup_notice.probe(), False, os.geteuid())
        return f"{line}\n{started(plugin)}"

    line, outcome = as_nobody(both, searchable_checkout).split("\n", 1)
    assert line.startswith("gpp: "), (line, outcome)
    refused = outcome.startswith("refused: ")
    assert refused == line.startswith("gpp: no cgroup for plugins here"), (line, outcome)
    if refused:
        assert "no cgroup can be made for the plugin here" in outcome, outcome
        assert "systemd-run --user --scope -p Delegate=yes gpp serve" in line
        assert "or `gpp serve --cgroup optional`" in line
    else:
        assert outcome.startswith("ok: "), outcome


def test_cgroup_optional_runs_a_non_root_gateways_plugins(
    tmp_path: Path, searchable_checkout: Path
) -> None:
    plugins = registry(tmp_path, searchable_checkout, "--cgroup", "optional")
    plugin = plugins["reference-detector-node"]
    assert plugin.sandbox.cgroup == "optional"
    answer, identity, cgroup = as_nobody(lambda: started(plugin), searchable_checkout).split("\n")
    assert answer.startswith("ok: ") and "users" in answer[4:].split(","), answer
    assert identity == f"the gateway's own uid ({NOBODY}), unprivileged"
    assert cgroup.startswith("none (") and 'config: cgroup = "optional"' in cgroup, cgroup


def test_gpp_serve_says_the_line_once_at_start(tmp_path: Path) -> None:
    entry = {"id": "echo", "version": "1.0.0", "root": str(tmp_path), "command": node_detector()}
    with served(write_config(tmp_path, [entry]), "--cgroup", "optional") as gateway:
        line = gateway.wait_line(r"^gpp: (plugin cgroups|no cgroup for plugins here)")
        expected = cgroup_notice.start_line(cgroup_notice.probe(), True, os.geteuid())
        assert line == expected
        assert len([said for said in gateway.lines if said.startswith("gpp: ")]) == 1


def test_a_non_root_gpp_serve_plugin_refused_at_its_start_says_what_to_do(
    searchable_checkout: Path,
) -> None:
    """`gpp serve --plugin` as uid 65534 (its first start pins the version): where no cgroup
    can be made, the refusal is followed by the one line that says what to do."""

    def serve() -> str:
        sys.stderr = said = io.StringIO()  # what `gpp serve` prints (the child's own copy)
        code = cli.main(["serve", "--port", "0", "--repo", str(searchable_checkout / DEMO_REPO),
                         "--plugin", "reference-detector-node", "--",
                         *node_detector(searchable_checkout)])  # fmt: skip
        return f"exit {code}\n{said.getvalue()}"

    exit_line, *said = as_nobody(serve, searchable_checkout).splitlines()
    assert exit_line == "exit 1", ("uid 65534 may make a cgroup on this host?", exit_line, said)
    assert any("no cgroup can be made for the plugin here" in line for line in said), said
    probed = [line for line in said if line.startswith("gpp: no cgroup for plugins here")]
    assert len(probed) == 1 and "or `gpp serve --cgroup optional`" in probed[0], said
