"""The gateway under test: its registry, its start on a free loopback port, its SIGTERM."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .catalog import DEAF, ERRATIC, REFERENCE_PLUGINS, REQUEST_MS
from .plans import GFX_FILES
from .procfs import RUN_MARKER

REPO = Path(__file__).resolve().parents[2]
HOSTILE_PLUGIN = REPO / "tests" / "fixtures" / "plugins" / "soak_hostile.py"
SHUTDOWN_MS = 2000
LISTEN_WITHIN_S = 90  # a bound, not a pace: a shared 2-core machine at load 12 took over 30 s
GRACE_S = 5
SIGTERM_MARGIN_S = 10.0
SIGTERM_BOUND_S = GRACE_S + SHUTDOWN_MS / 1000 + SIGTERM_MARGIN_S


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    """Poll `condition` every 50 ms for at most `seconds`; whether it came true."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


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
    lines = [
        "[gateway]",
        f"grace_seconds = {GRACE_S}",
        "",
        "[defaults]",
        f"request_ms = {REQUEST_MS}",
        f"shutdown_ms = {SHUTDOWN_MS}",
        "max_queue = 64",
    ]
    for plugin in plugins:
        env = {RUN_MARKER: token, "SOAK_PLUGIN_ID": plugin}
        lines += [
            "",
            "[[plugin]]",
            f"id = {json.dumps(plugin)}",
            'version = "1.0.0"',
            f"command = {json.dumps(commands[plugin])}",
            f"root = {json.dumps(str(repo))}",
            "env = {" + ", ".join(f"{k} = {json.dumps(v)}" for k, v in env.items()) + "}",
            f"instances = {2 if plugin in REFERENCE_PLUGINS else 1}",
        ]
    path = directory / "registry.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def start_gateway(config: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        gateway = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gpp.gateway",
                "serve",
                "--config",
                str(config),
                "--port",
                str(port),
                "--log-level",
                "warning",
                "--no-token",  # a throwaway gateway, driven by raw HTTP (bench/soak/rawhttp.py)
            ],
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )

    def listening() -> bool:
        if gateway.poll() is not None:
            raise RuntimeError(f"gateway exited at start: {log.read_text()[-2000:]}")
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", port)) == 0

    if not wait_until(listening, LISTEN_WITHIN_S):
        gateway.kill()
        gateway.wait(10)
        raise RuntimeError(f"gateway did not listen within {LISTEN_WITHIN_S} s")
    return gateway


def stop_gateway(gateway: subprocess.Popen[bytes], bound_s: float) -> dict[str, Any]:
    started = time.monotonic()
    gateway.send_signal(signal.SIGTERM)
    try:
        code: int | None = gateway.wait(bound_s)
    except subprocess.TimeoutExpired:
        code = None
        gateway.kill()
        gateway.wait(30)
    return {
        "exitCode": code,
        "seconds": round(time.monotonic() - started, 2),
        "boundSeconds": bound_s,
    }
