"""A non-root `gpp serve` asks the user's systemd for a delegated scope (issue 32, item 8).

Where the gateway can make no plugin cgroup (a terminal's `session-N.scope` is root's), cgroup
v2 and a user manager at hand, `--cgroup auto` (the default) execs itself once under
`systemd-run --user --scope -p Delegate=yes --quiet -- <the same command>`. There is no systemd
here (the real one is in tests/product/test_vm_cgroup2.py's guest): a fake `systemd-run` on
PATH logs each call with the marker it saw and execs what follows `--`, as the real one does
once the scope is made. The fake gateway is this checkout's own `gpp serve`, run as root with
what it reads of the host made what a user on a v2 host reads (`FAKE_USER_GATEWAY`): the ask, the
trial, the exec chain, the marker, the start line and the exit status are the product's."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO
from gateway_harness import write_config

from app import cgroup_notice, systemd_scope
from gpp.host import Layout

START_WITHIN_S = 60
STOP_WITHIN_S = 30
WHY = "cannot make the plugin's cgroup under /sys/fs/cgroup/user.slice/session-3.scope: Permission denied"

FAKE_SYSTEMD_RUN = """#!/bin/sh
printf '%s|%s\\n' "$*" "${GPP_SYSTEMD_SCOPE:-}" >>"$FAKE_SYSTEMD_LOG"
if [ -n "${FAKE_SYSTEMD_REFUSES:-}" ]; then
    echo "Failed to connect to bus: No medium found" >&2
    exit 1
fi
while [ "$1" != "--" ]; do shift; done
shift
exec "$@"
"""

FAKE_USER_GATEWAY = textwrap.dedent(
    f"""
    import sys

    from gpp.gateway import cgroup_notice, cli, systemd_scope

    asked, said = cli._ask_systemd, cgroup_notice.start_line
    cli._ask_systemd = lambda mode, argv, euid: asked(mode, argv, 1000)  # a user, not root
    cgroup_notice.start_line = lambda found, optional, euid, **kw: said(found, optional, 1000, **kw)
    systemd_scope.cgroup_version = lambda: 2  # this host mounts v1 too
    cgroup_notice.probe = lambda: {WHY!r}  # root could make one anywhere
    sys.exit(cli.main())
    """
)
"""`gpp serve` (the console script's `main`) as a user on a v2 host would see it; run again
by its own command line, the gateway in the scope is this same script."""


@dataclass
class FakeHost:
    folder: Path
    env: dict[str, str]
    log: Path
    gateway: Path

    def calls(self) -> list[tuple[str, str]]:
        """Each call of the fake `systemd-run`: its arguments, and the marker it saw."""
        if not self.log.exists():
            return []
        lines = self.log.read_text().splitlines()
        return [(args, marker) for args, _, marker in (line.rpartition("|") for line in lines)]


@pytest.fixture
def fake_host(tmp_path: Path) -> Iterator[FakeHost]:
    bin_dir, runtime = tmp_path / "bin", tmp_path / "runtime"
    bin_dir.mkdir()
    runtime.mkdir(mode=0o700)
    fake = bin_dir / "systemd-run"
    fake.write_text(FAKE_SYSTEMD_RUN)
    fake.chmod(0o755)
    bus = socket.socket(socket.AF_UNIX)
    bus.bind(str(runtime / "bus"))  # the user bus `systemd-run --user` would connect to
    gateway = tmp_path / "fake_user_gateway.py"
    gateway.write_text(FAKE_USER_GATEWAY)
    env = {k: v for k, v in os.environ.items() if k not in (systemd_scope.MARKER, "GPP_TOKEN")}
    env |= {
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "XDG_RUNTIME_DIR": str(runtime),
        "FAKE_SYSTEMD_LOG": str(tmp_path / "systemd-run.log"),
    }
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    try:
        yield FakeHost(tmp_path, env, tmp_path / "systemd-run.log", gateway)
    finally:
        bus.close()


def serve_command(host: FakeHost, *flags: str) -> list[str]:
    registry = write_config(host.folder, [])
    return [sys.executable, str(host.gateway), "serve", "--no-token", "--config", str(registry),
            *flags]  # fmt: skip


def start(host: FakeHost, command: list[str], uds: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """The gateway started, waited for until its socket is published (it serves: its signal
    handlers are installed), or until it exits."""
    stderr = host.folder / "gateway.log"
    with stderr.open("wb") as sink:  # a file: a pipe nobody reads could stall the gateway
        gateway = subprocess.Popen(
            [*command, "--uds", str(uds)],
            cwd=host.folder,
            env=host.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
    deadline = time.monotonic() + START_WITHIN_S
    while not uds.exists() and gateway.poll() is None:
        if time.monotonic() > deadline:
            gateway.kill()
            gateway.wait(STOP_WITHIN_S)
            pytest.fail(
                f"the gateway did not start within {START_WITHIN_S} s: {stderr.read_text()}"
            )
        time.sleep(0.05)
    return gateway, stderr


def stop(gateway: subprocess.Popen[bytes]) -> int:
    """SIGTERM to the pid that was started (the gateway, whatever it exec'd through)."""
    gateway.send_signal(signal.SIGTERM)
    try:
        return gateway.wait(STOP_WITHIN_S)
    except subprocess.TimeoutExpired:
        gateway.kill()
        gateway.wait(STOP_WITHIN_S)
        raise


def cgroup_line(stderr: Path) -> str:
    lines = [line for line in stderr.read_text().splitlines() if "cgroup" in line]
    assert len(lines) == 1, stderr.read_text()
    return lines[0]


SCOPE = "--user --scope -p Delegate=yes --quiet --"


def test_a_user_gateway_that_can_make_no_cgroup_runs_itself_again_in_a_delegated_scope(
    fake_host: FakeHost,
) -> None:
    command = serve_command(fake_host)
    gateway, stderr = start(fake_host, command, fake_host.folder / "gw.sock")
    try:
        assert gateway.poll() is None, stderr.read_text()
        line = cgroup_line(stderr)
    finally:
        status = stop(gateway)
    assert status == 0, f"SIGTERM reached the gateway in the scope: {stderr.read_text()}"
    uds = f"--uds {fake_host.folder / 'gw.sock'}"
    assert fake_host.calls() == [
        (f"{SCOPE} true", ""),  # the trial: a refusal would leave the gateway where it is
        (f"{SCOPE} {' '.join(command)} {uds}", "1"),  # itself, once, marked
    ], stderr.read_text()
    assert line == (
        f"gpp: no cgroup for plugins here ({WHY}, {cgroup_notice.ASKED}): "
        f"{cgroup_notice.REFUSED}; or `gpp serve --cgroup optional`: {cgroup_notice.LOST}"
    ), line


def test_the_exit_status_of_the_gateway_in_the_scope_is_the_one_its_starter_sees(
    fake_host: FakeHost,
) -> None:
    """The port is taken: the gateway in the scope says so and exits 1, and the process that
    was started (the same pid, exec after exec) exits 1."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        done = subprocess.run(
            serve_command(fake_host, "--port", port),
            cwd=fake_host.folder,
            env=fake_host.env,
            capture_output=True,
            text=True,
            timeout=START_WITHIN_S,
            check=False,
        )
    assert done.returncode == 1, done.stderr
    assert "is already in use" in done.stderr, done.stderr
    assert [marker for _, marker in fake_host.calls()] == ["", "1"], fake_host.calls()


def test_where_systemd_refuses_the_gateway_stays_and_says_why_and_what_to_do(
    fake_host: FakeHost,
) -> None:
    fake_host.env["FAKE_SYSTEMD_REFUSES"] = "1"
    gateway, stderr = start(fake_host, serve_command(fake_host), fake_host.folder / "gw.sock")
    try:
        assert gateway.poll() is None, stderr.read_text()
        line = cgroup_line(stderr)
    finally:
        assert stop(gateway) == 0, stderr.read_text()
    assert fake_host.calls() == [(f"{SCOPE} true", "")], "only the trial: no exec"
    assert line.startswith(f"gpp: no cgroup for plugins here ({WHY}; "), line
    refused = "`systemd-run --user --scope -p Delegate=yes` failed: Failed to connect to bus"
    assert refused in line, line
    assert f"{cgroup_notice.REFUSED}; {cgroup_notice.DELEGATE}" in line, line


@pytest.mark.parametrize("flag", ["required", "optional"])
def test_only_cgroup_auto_asks(fake_host: FakeHost, flag: str) -> None:
    gateway, stderr = start(
        fake_host, serve_command(fake_host, "--cgroup", flag), fake_host.folder / "gw.sock"
    )
    assert stop(gateway) == 0, stderr.read_text()
    assert fake_host.calls() == [], stderr.read_text()


def test_the_gateway_asks_only_where_a_delegated_scope_is_what_it_lacks() -> None:
    assert systemd_scope.should_ask("auto", 1000, {}, 2, manager=True)
    assert not systemd_scope.should_ask("required", 1000, {}, 2, manager=True)
    assert not systemd_scope.should_ask("optional", 1000, {}, 2, manager=True)
    assert not systemd_scope.should_ask("auto", 0, {}, 2, manager=True), "root writes any cgroup"
    marked = {systemd_scope.MARKER: "1"}
    assert not systemd_scope.should_ask("auto", 1000, marked, 2, manager=True), "asks once"
    assert not systemd_scope.should_ask("auto", 1000, {}, 1, manager=True), "v1: nothing to ask"
    assert not systemd_scope.should_ask("auto", 1000, {}, None, manager=True)
    assert not systemd_scope.should_ask("auto", 1000, {}, 2, manager=False)


def test_a_user_manager_is_reachable_through_its_socket_or_the_user_bus(tmp_path: Path) -> None:
    def which(name: str) -> str | None:
        return "/usr/bin/systemd-run" if name == "systemd-run" else None

    def nowhere(name: str) -> None:
        return None

    runtime = {"XDG_RUNTIME_DIR": str(tmp_path)}
    assert systemd_scope.user_manager(runtime, which) is None, "no socket"
    (tmp_path / "bus").write_text("")
    assert systemd_scope.user_manager(runtime, which) is None, "a file is no socket"
    (tmp_path / "systemd").mkdir()
    with socket.socket(socket.AF_UNIX) as private:
        private.bind(str(tmp_path / "systemd" / "private"))
        assert systemd_scope.user_manager(runtime, which) == "/usr/bin/systemd-run"
        assert systemd_scope.user_manager(runtime, nowhere) is None, "no systemd-run"
        assert systemd_scope.user_manager({}, which) is None, "no XDG_RUNTIME_DIR"
    bus = {**runtime, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}
    assert systemd_scope.user_manager(bus, which) == "/usr/bin/systemd-run"


def test_the_command_run_again_is_the_gateways_own() -> None:
    assert systemd_scope.own_command(None) == [sys.executable, *sys.orig_argv[1:]]
    again = systemd_scope.own_command(["serve", "--port", "9000"])
    flags = subprocess._args_from_interpreter_flags()  # type: ignore[attr-defined]
    assert again == [sys.executable, *flags, "-m", "app", "serve", "--port", "9000"]
    assert (REPO / "app" / "__main__.py").exists()


def test_the_command_run_again_keeps_the_interpreters_isolation(tmp_path: Path) -> None:
    """Round 9 (low). `python -I -m gpp.gateway serve` (isolated: neither its working folder,
    a repository it serves, nor `PYTHONPATH` imports anything) ran itself again in the scope
    as `python -m gpp.gateway serve`, where a `gpp` package of the working folder came first."""
    shown = subprocess.run(
        [sys.executable, "-I", "-c", "from gpp.gateway import systemd_scope as s; "
         "print(s.own_command(['serve']))"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert shown.strip() == str([sys.executable, "-I", "-m", "gpp.gateway", "serve"]), shown


def test_the_start_line_in_the_asked_scope_says_where_plugin_cgroups_go() -> None:
    made = cgroup_notice.start_line(Layout(2, {"unified": Path("/x")}), False, 1000, asked=True)
    assert made == (
        "gpp: plugin cgroups: cgroup v2, one per session, in the scope systemd delegated at the "
        "gateway's asking (systemd-run --user --scope -p Delegate=yes)"
    )
    assert "\n" not in made
