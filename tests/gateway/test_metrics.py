"""app.metrics: what `/metrics` says, read from one registry per app and from the pools as they
are at scrape time (a reload's new plugins included), with no `*_created` series."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from app.metrics import GatewayMetrics


def pools_of(**by_id: SimpleNamespace) -> Any:
    """A stand-in PluginPools: what the collectors read of it, and nothing else."""
    return SimpleNamespace(by_id=by_id)


def plugin_pool(queued: int, live: int, restarts: int, suppressed: int) -> SimpleNamespace:
    health = SimpleNamespace(restarts=restarts, stderr_line=SimpleNamespace(suppressed=suppressed))
    return SimpleNamespace(queue_depth=queued, live_sessions=live, health=health)


def series(metrics: GatewayMetrics) -> dict[str, float]:
    rows = metrics.render().decode().splitlines()
    return {
        name: float(value)
        for name, value in (row.rsplit(" ", 1) for row in rows if not row.startswith("#"))
    }


def test_requests_are_counted_and_timed_by_plugin_and_outcome() -> None:
    metrics = GatewayMetrics(pools_of())
    for seconds in (0.002, 0.02, 3.0):
        metrics.observe("echo", "ok", seconds)
    metrics.observe("echo", "E_EOF", 0.5)
    said = series(metrics)
    assert said['gpp_requests_total{outcome="ok",plugin="echo"}'] == 3
    assert said['gpp_requests_total{outcome="E_EOF",plugin="echo"}'] == 1
    assert said['gpp_request_seconds_count{plugin="echo"}'] == 4
    assert said['gpp_request_seconds_bucket{le="0.025",plugin="echo"}'] == 2
    assert not [name for name in said if "_created" in name]


def test_pool_gauges_are_read_at_scrape_time() -> None:
    pools = pools_of(a=plugin_pool(queued=2, live=1, restarts=3, suppressed=40))
    metrics = GatewayMetrics(pools)
    assert series(metrics)['gpp_queue_depth{plugin="a"}'] == 2
    pools.by_id["b"] = plugin_pool(queued=0, live=4, restarts=0, suppressed=0)  # a reload added it
    pools.by_id["a"].health.stderr_line.suppressed = 41
    said = series(metrics)
    assert said['gpp_live_sessions{plugin="b"}'] == 4
    assert said['gpp_restarts{plugin="a"}'] == 3
    assert said['gpp_plugin_stderr_lines_suppressed_total{plugin="a"}'] == 41


def test_each_app_has_its_own_registry() -> None:
    first, second = GatewayMetrics(pools_of()), GatewayMetrics(pools_of())
    first.observe("echo", "ok", 0.1)
    assert 'gpp_requests_total{outcome="ok",plugin="echo"}' not in series(second)
