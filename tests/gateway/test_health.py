"""app.health: a failed session is gone; the next request spawns a fresh one, after a back-off
when failures repeat."""

from __future__ import annotations

from pathlib import Path

import pytest
from gateway_harness import (
    echo_plugin,
    running_gateway,
    write_config,
    writes_to,
)
from test_endpoints import post

from app import health


def test_crash_recovery_with_backoff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A first back-off of 2 s (not 0.5) leaves a loaded machine time to observe it.
    monkeypatch.setattr(health, "BACKOFF_FIRST_S", 2.0)
    crash_file = tmp_path / "crashes"
    env = {"ECHO_CRASH_FILE": str(crash_file), "ECHO_CRASHES": "2"}
    config = write_config(
        tmp_path, [echo_plugin(root=str(tmp_path), env=env, **writes_to(tmp_path))]
    )
    with running_gateway(config) as gw:
        first = post(gw, "echo", {"paths": ["a"]})
        assert first.status_code == 502 and first.json()["code"] == "E_EOF"
        assert first.json()["exitCode"] == 4
        assert "crash 1 as asked" in first.json()["stderrTail"]
        second = post(gw, "echo", {"paths": ["a"]})  # a fresh session at once, which fails too
        assert second.status_code == 502
        refused = post(gw, "echo", {"paths": ["a"]})
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "2"
        problem = refused.json()
        assert problem["lastCode"] == "E_EOF" and "FAIL E_EOF" in problem["lastDiagnostic"]
        assert gw.plugin("echo")["state"] == "backoff"
        gw.wait_for("echo", lambda i: i["state"] != "backoff")
        recovered = post(gw, "echo", {"paths": ["a"]})
        assert recovered.status_code == 200
        info = gw.plugin("echo")
        assert info["restarts"] == 2 and info["state"] == "ready" and info["failed"] == 2
