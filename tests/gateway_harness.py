"""Real gateways for tests: uvicorn on an ephemeral loopback port, in a thread of this process,
or `gpp serve` as a child process on a loopback port or a Unix socket (for signal, reload and
lifecycle tests)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from conftest import FIXTURE_PLUGINS, REPO

from app.config import load_config
from app.default_token import with_default_token
from app.main import create_app
from app.server.front_door import server_config
from bench.serving import stop_process
from gpp.client import find_token, unix_transport


def with_token(**kwargs: Any) -> dict[str, Any]:
    """httpx.Client keywords with the token a user's client would find (GPP_TOKEN, else the
    file a `gpp serve` with no token configured generates), unless the test gives its own."""
    token = find_token()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return {**kwargs, "headers": {**headers, **kwargs.get("headers", {})}}


CHILD_WAIT_S = 30.0
"""How long a test waits for a gateway child to say something: far above what it needs."""


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def write_config(
    directory: Path,
    plugins: list[dict[str, Any]],
    gateway: dict[str, Any] | None = None,
    defaults: dict[str, Any] | None = None,
) -> Path:
    lines = ["[gateway]"] + [f"{k} = {toml_value(v)}" for k, v in (gateway or {}).items()]
    lines += ["", "[defaults]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in (defaults or {}).items()]
    for plugin in plugins:
        lines += ["", "[[plugin]]"] + [f"{k} = {toml_value(v)}" for k, v in plugin.items()]
    path = directory / "registry.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def fault_plugin(name: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": name,
        "version": "1.0.0",
        "root": str(REPO),
        "env": {"FIXTURE_PLUGIN_ID": name},
        "command": ["{python}", str(FIXTURE_PLUGINS / f"plugin_{name}.py")],
        **extra,
    }


def writes_to(folder: Path) -> dict[str, Any]:
    """The entry keys for a plugin that leaves files in its root `folder` (markers the test
    reads): a writable repository, said explicitly, and writable by the plugin's uid (a uid of
    its own per session when the tests run as root: writable by others)."""
    folder.chmod(0o777)
    return {"sandbox": {"readonly_root": False}}


def private_socket(directory: Path) -> Path:
    """A socket path in a 0700 folder inside `directory`: a folder others may write (a
    plugin's, after `writes_to`) is refused by `gpp serve --uds`."""
    folder = directory / "run"
    folder.mkdir(mode=0o700)
    return folder / "gw.sock"


def echo_plugin(plugin_id: str = "echo", **extra: Any) -> dict[str, Any]:
    return {
        "id": plugin_id,
        "version": "1.0.0",
        "root": str(REPO),
        "command": ["{python}", str(FIXTURE_PLUGINS / "echo_plugin.py")],
        **extra,
    }


def reference_plugin(**extra: Any) -> dict[str, Any]:
    return {
        "id": "reference-detector",
        "version": "1.0.0",
        "root": str(REPO / "plugins/examples/demo-repo"),
        "command": ["{python}", str(REPO / "plugins/reference_detector.py")],
        **extra,
    }


def jsonrpc_plugin(plugin_id: str, script: Path, **extra: Any) -> dict[str, Any]:
    return {
        "id": plugin_id,
        "version": "1.0.0",
        "protocol": "jsonrpc-2.0",
        "root": str(REPO),
        "command": ["{python}", str(script)],
        **extra,
    }


class _Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()

    async def startup(self, sockets: Any = None) -> None:
        await super().startup(sockets)
        self.ready.set()

    def install_signal_handlers(self) -> None:  # the test process keeps its own
        pass


class Gateway:
    def __init__(self, app: Any, server: _Server) -> None:
        self.app = app
        self.server = server
        port = server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.port = port

    @property
    def state(self) -> Any:
        return self.app.state.gateway

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(**with_token(base_url=self.url, **{"timeout": 30, **kwargs}))

    def plugin(self, plugin_id: str) -> dict[str, Any]:
        with self.client() as http:
            info: dict[str, Any] = http.get(f"/plugins/{plugin_id}").json()
            return info

    def wait_for(self, plugin_id: str, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Poll the plugin's live state until `predicate(info)`; bounded."""
        deadline = time.monotonic() + timeout
        while True:
            info = self.plugin(plugin_id)
            if predicate(info):
                return info
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting on {plugin_id}: {info}")
            time.sleep(0.02)


@contextmanager
def running_gateway(config_path: Path, *, as_served: bool = False) -> Iterator[Gateway]:
    """`as_served`: with the token `gpp serve` would require (the default one, generated
    when the config names none); else the config's own (none: no authentication)."""
    config = load_config(config_path)
    if as_served:
        config = with_default_token(config, no_token=False)
    app = create_app(config)
    server = _Server(
        server_config(app, config.gateway, host="127.0.0.1", port=0, timeout_graceful_shutdown=5)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    if not server.ready.wait(30):
        raise RuntimeError("gateway did not start")
    try:
        yield Gateway(app, server)
    finally:
        server.should_exit = True
        thread.join(30)
        assert not thread.is_alive(), "gateway thread did not stop"


def serve_command(config_path: Path, *args: str) -> list[str]:
    """`gpp serve --config CONFIG ARGS` as this interpreter runs it."""
    return [sys.executable, "-m", "gpp.gateway", "serve", "--config", str(config_path), *args]


@contextmanager
def _gateway_child(command: list[str], **popen: Any) -> Iterator[subprocess.Popen[Any]]:
    """A gateway child, its stdout and stderr in one pipe; SIGKILLed and reaped at the end."""
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=REPO, **popen
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait(30)


@contextmanager
def gateway_process(
    config_path: Path, uds: Path, *, umask: int = -1, prefix: tuple[str, ...] = ()
) -> Iterator[subprocess.Popen[bytes]]:
    """`gpp serve` as a child on a Unix socket; killed at the end whatever happened. `prefix`
    runs it under a wrapper (e.g. prlimit), `umask` gives it that umask."""
    command = [*prefix, *serve_command(config_path, "--uds", str(uds))]
    with _gateway_child(command, umask=umask) as proc:
        deadline = time.monotonic() + 30
        while not uds.exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"gateway did not start: {proc.stdout.read() if proc.stdout else ''!r}"
                )
            time.sleep(0.02)
        yield proc


@contextmanager
def served_on(command: list[str], uds: Path, **popen: Any) -> Iterator[httpx.Client]:
    """A `gpp serve` command, as a user starts it, that listens on `uds`: a client once the
    socket is there (bounded; a gateway that dies says why), then SIGTERM as a user stops it
    (SIGKILL if it lingers), reaped either way."""
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, **popen)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not uds.exists():
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the gateway did not start"
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(0.02)  # a bounded wait for it to listen, or to die saying why
        with uds_client(uds, timeout=60) as client:
            yield client
    finally:
        stop(proc)


@contextmanager
def logging_to(command: list[str], uds: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A `gpp serve` command that listens on `uds`, its stderr in the file `log` (a file, not a
    pipe: a pipe nobody reads can stall the gateway): yielded once the socket is there
    (bounded; a gateway that dies says why), then stopped as a user stops it and reaped."""
    with log.open("wb") as sink:
        proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=sink)
    try:
        deadline = time.monotonic() + 30
        while not uds.exists():
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.02)
        yield proc
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[Any]) -> None:
    """SIGTERM, as a user stops a gateway; SIGKILL if it lingers past 30 s. Reaped either way."""
    stop_process(proc, 30)


def uds_client(uds: Path, timeout: float = 30, **kwargs: Any) -> httpx.Client:
    return httpx.Client(
        base_url="http://localhost",
        transport=unix_transport(str(uds)),
        timeout=timeout,
        **with_token(**kwargs),
    )


def process_exited(pid: int) -> bool:
    """Gone, or a zombie whose parent is not ours to reap (an orphan awaiting init)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def wait_exited(pid: int, timeout: float = 10.0) -> bool:
    """Whether `pid` exits (`process_exited`) within `timeout`: woken by its exit (a pidfd is
    readable once the process has terminated, zombie or reaped), not by polling."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([pidfd], [], [], timeout)
        return bool(readable) or process_exited(pid)
    finally:
        os.close(pidfd)


def make_fifo(directory: Path) -> tuple[Path, int]:
    """A FIFO gate and a read-write descriptor to release it (one byte per waiter)."""
    path = directory / "gate.fifo"
    os.mkfifo(path)
    return path, os.open(path, os.O_RDWR)


class ServedGateway:
    """`gpp serve` on an ephemeral 127.0.0.1 port; its log lines are collected as they come."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self._new_line = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        started = self.wait_line(r"Uvicorn running on http://127\.0\.0\.1:(\d+)")
        port = re.search(r"127\.0\.0\.1:(\d+)", started)
        assert port is not None
        self.url = f"http://127.0.0.1:{port.group(1)}"

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._new_line:
                self.lines.append(line.rstrip("\n"))
                self._new_line.notify_all()
        with self._new_line:
            self._new_line.notify_all()

    def wait_line(self, pattern: str, count: int = 1) -> str:
        """The `count`-th log line matching `pattern`, waiting for it (bounded)."""

        def found() -> list[str]:
            return [line for line in self.lines if re.search(pattern, line)]

        with self._new_line:
            ok = self._new_line.wait_for(
                lambda: len(found()) >= count or self.proc.poll() is not None, CHILD_WAIT_S
            )
            matches = found()
        assert ok and len(matches) >= count, (pattern, self.lines[-30:])
        return matches[count - 1]

    def reload(self, count: int) -> str:
        """SIGHUP, then the `count`-th reload's outcome line (applied or refused)."""
        self.proc.send_signal(signal.SIGHUP)
        return self.wait_line(r"event=reload( |$)|event=\"reload refused\"", count)

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(**with_token(base_url=self.url, **{"timeout": CHILD_WAIT_S, **kwargs}))

    def pids(self) -> dict[str, list[int]]:
        with self.client() as http:
            return {p["id"]: p["pids"] for p in http.get("/plugins").json()}

    def metric(self, name: str) -> float | None:
        with self.client() as http:
            text = http.get("/metrics").text
        match = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
        return float(match.group(1)) if match else None


@contextmanager
def served(config_path: Path, *args: str, prefix: tuple[str, ...] = ()) -> Iterator[ServedGateway]:
    """`gpp serve` as a child on an ephemeral 127.0.0.1 port, its log read as it comes; killed at
    the end whatever happened. `prefix` runs it under a wrapper (e.g. prlimit)."""
    command = [*prefix, *serve_command(config_path, "--port", "0", *args)]
    with _gateway_child(command, text=True) as proc:
        yield ServedGateway(proc)
