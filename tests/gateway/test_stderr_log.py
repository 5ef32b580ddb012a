"""app.stderr_log: a plugin's stderr as log lines, which a flood cannot turn into a flood of logs."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest
from gateway_harness import echo_plugin, fault_plugin, running_gateway, write_config
from test_rate_limit import FakeClock

from app.stderr_log import BURST_LINES, PluginStderrLog


def test_stderr_over_the_limit_is_counted_and_summarised_once_per_interval(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    clock = FakeClock()
    sink = PluginStderrLog("noisy", burst=10, rate=1.0, clock=clock)
    for n in range(1000):
        sink(f"line {n}")
    sink.lines_skipped(500)  # what a session's ring skipped unread
    assert sink.suppressed == 990 + 500
    assert list(sink.recent) == [f"line {n}" for n in range(980, 1000)]
    logged = [r for r in caplog.records if r.getMessage() == "plugin stderr"]
    assert [getattr(r, "fields", {})["line"] for r in logged] == [f"line {n}" for n in range(10)]
    assert not [r for r in caplog.records if r.getMessage() == "plugin stderr suppressed"]
    clock.now += 1.5
    sink("after the flood")
    summaries = [r for r in caplog.records if r.getMessage() == "plugin stderr suppressed"]
    assert [getattr(r, "fields", {})["lines"] for r in summaries] == [1490]
    assert getattr(caplog.records[-1], "fields", {})["line"] == "after the flood"


def test_a_stderr_flood_is_logged_within_the_limit_and_counted_in_metrics(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    config = write_config(tmp_path, [fault_plugin("stderr_flood"), echo_plugin()])
    with running_gateway(config) as gw, gw.client() as http:
        assert http.post("/plugins/stderr_flood/discover", json={"paths": ["."]}).status_code == 200
        # the drain may still be reading the pipe when the answer is in: wait, bounded
        gw.wait_for("stderr_flood", lambda _: _flood_accounted(http, caplog) == 20 * 1024)
        suppressed = _suppressed_metric(http, "stderr_flood")
        assert _suppressed_metric(http, "echo") == 0
    logged = _logged_lines(caplog, "stderr_flood")
    assert logged + suppressed == 20 * 1024
    assert logged <= 20 * 1024 // 10 and logged >= BURST_LINES


def _logged_lines(caplog: pytest.LogCaptureFixture, plugin: str) -> int:
    return sum(
        1
        for r in caplog.records
        if r.getMessage() == "plugin stderr" and getattr(r, "fields", {})["plugin"] == plugin
    )


def _suppressed_metric(http: Any, plugin: str) -> float:
    text = http.get("/metrics").text
    found = re.search(
        rf'^gpp_plugin_stderr_lines_suppressed_total{{plugin="{plugin}"}} (\S+)$',
        text,
        re.MULTILINE,
    )
    assert found is not None, text
    return float(found[1])


def _flood_accounted(http: Any, caplog: pytest.LogCaptureFixture) -> float:
    return _logged_lines(caplog, "stderr_flood") + _suppressed_metric(http, "stderr_flood")


def test_the_diagnostic_tail_survives_a_flood(tmp_path: Path) -> None:
    config = write_config(tmp_path, [fault_plugin("stderr_flood_then_crash")])
    with running_gateway(config) as gw, gw.client() as http:
        response = http.post("/plugins/stderr_flood_then_crash/discover", json={"paths": ["."]})
        info = http.get("/plugins/stderr_flood_then_crash").json()
    problem = response.json()
    assert response.status_code == 502 and problem["code"] == "E_EOF"
    tail = problem["stderrTail"].split("\n")
    assert tail[-1] == "fixture: the real reason"
    assert tail[:-1] == [f"fixture: noise {n}" for n in range(10_000 - len(tail) + 1, 10_000)]
    assert info["recentStderr"][-1] == "fixture: the real reason"
