"""Reload and start never lose or block (issue 33, item 8): a SIGHUP at any moment is queued,
never fatal; files are read off the loop, regular files only; an empty registry or TOML nested
too deep is refused like any file that does not load, the old registry kept."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import FIXTURE_PLUGINS, REPO
from gateway_harness import (
    echo_plugin,
    fault_plugin,
    serve_command,
    served,
    stop,
    uds_client,
    write_config,
)

WAIT_S = 30.0
ANNOUNCES = str(FIXTURE_PLUGINS / "plugin_announces_version.py")


def _gate(folder: Path) -> Path:
    """A FIFO a plugin in `folder` (its root, seen by its unprivileged uid) blocks on."""
    folder.chmod(0o755)
    fifo = folder / "gate.fifo"
    os.mkfifo(fifo, 0o644)
    return fifo


def _release_when_waited_on(fifo: Path, before: object = None) -> None:
    """Wait (bounded) until the plugin has the FIFO open for reading, call `before`, then give
    it its byte. A writer's non-blocking open fails (ENXIO) until a reader is there."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as exc:
            assert exc.errno == errno.ENXIO and time.monotonic() < deadline, exc
            time.sleep(0.02)
    try:
        if callable(before):
            before()
        os.write(fd, b"x")
    finally:
        os.close(fd)


@contextlib.contextmanager
def _gateway(command: list[str], log: Path, cwd: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as sink:
        proc = subprocess.Popen(command, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)  # fmt: skip
    try:
        yield proc
    finally:
        stop(proc)


def _wait_log(log: Path, pattern: str, proc: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + WAIT_S
    while not (found := re.search(pattern, log.read_text(errors="replace"))):
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.05)
    return found.group(0)


def _wait_socket(uds: Path, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + WAIT_S
    while not uds.exists():
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.02)


def test_a_sighup_while_plugin_flags_are_pinned_is_queued_not_fatal(tmp_path: Path) -> None:
    """On main the default SIGHUP action killed the gateway, with no log line."""
    repo, uds, log = tmp_path / "repo", tmp_path / "gw.sock", tmp_path / "log"
    repo.mkdir()
    fifo = _gate(repo)
    command = [sys.executable, "-m", "gpp.gateway", "serve", "--uds", str(uds), "--repo",
               str(repo), "--plugin", "fixture", "--", sys.executable, ANNOUNCES, "1.0.0",
               str(fifo)]  # fmt: skip
    with _gateway(command, log, REPO) as gateway:
        _release_when_waited_on(fifo, lambda: gateway.send_signal(signal.SIGHUP))
        _wait_socket(uds, gateway, log)
        _wait_log(log, r"event=reload( |$)", gateway)
        with uds_client(uds) as http:
            assert http.get("/plugins/fixture").json()["version"] == "1.0.0"
        gateway.send_signal(signal.SIGTERM)
        assert gateway.wait(WAIT_S) == 0, log.read_text()


def test_a_sighup_during_the_eager_start_is_applied_once_it_is_done(tmp_path: Path) -> None:
    """On main SIGHUP was ignored until the eager start ended: the reload was lost."""
    uds, log = tmp_path / "gw.sock", tmp_path / "log"
    fifo = _gate(tmp_path)
    slow = fault_plugin(
        "gated_wrong_hello",
        eager=True,
        root=str(tmp_path),
        env={"FIXTURE_PLUGIN_ID": "gated_wrong_hello", "GATE_FIFO": str(fifo)},
    )
    config = write_config(tmp_path, [slow])
    with _gateway(serve_command(config, "--uds", str(uds)), log, REPO) as gateway:

        def edit_and_hup() -> None:
            write_config(tmp_path, [slow, echo_plugin("added")])
            gateway.send_signal(signal.SIGHUP)

        _release_when_waited_on(fifo, edit_and_hup)
        _wait_socket(uds, gateway, log)
        _wait_log(log, r"event=reload .*added=added", gateway)
        with uds_client(uds) as http:
            assert http.get("/plugins/added").status_code == 200
        gateway.send_signal(signal.SIGTERM)
        assert gateway.wait(WAIT_S) == 0, log.read_text()


@pytest.mark.parametrize("what", ["token-fifo", "registry-fifo", "empty-registry", "deep-toml"])
def test_a_reload_that_meets_a_file_it_cannot_use_is_refused_and_blocks_nothing(
    tmp_path: Path, what: str
) -> None:
    """A FIFO token file hung every request and SIGTERM on main; an empty registry removed every
    plugin; TOML nested too deep crashed the reload."""
    token = tmp_path / "token"
    token.write_text("first-token\n")
    token.chmod(0o600)
    config = write_config(tmp_path, [echo_plugin()], gateway={"token_file": str(token)})
    auth = {"Authorization": "Bearer first-token"}
    with served(config) as gateway, gateway.client(headers=auth) as http:
        assert http.post("/plugins/echo/discover", json={"paths": ["."]}).status_code == 200
        if what == "token-fifo":
            token.unlink()
            os.mkfifo(token, 0o600)
        elif what == "registry-fifo":
            config.unlink()
            os.mkfifo(config, 0o600)
        elif what == "empty-registry":
            config.write_text("")
        else:
            config.write_text("[gateway]\nx = " + "[" * 3000 + "]" * 3000 + "\n")
        outcome = gateway.reload(1)
        assert "reload refused" in outcome, outcome
        assert http.post("/plugins/echo/discover", json={"paths": ["."]}).status_code == 200
        assert 'gpp_reloads_total{result="invalid"} 1.0' in http.get("/metrics").text
        gateway.proc.send_signal(signal.SIGTERM)
        assert gateway.proc.wait(WAIT_S) == 0


def test_check_config_names_toml_nested_too_deep(tmp_path: Path) -> None:
    path = tmp_path / "registry.toml"
    path.write_text("[gateway]\nx = " + "{a = " * 400 + "1" + "}" * 400 + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "gpp.gateway", "check-config", "--no-start", str(path)],
        capture_output=True, text=True, timeout=60, cwd=REPO,
    )  # fmt: skip
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert done.stderr == f"{path}: not valid TOML: nested too deep\n"
