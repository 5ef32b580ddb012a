"""Prometheus metrics, in a registry per app so tests can build many apps in one process."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from .pool import PluginPool, SessionPool
from .rpc import JsonRpcPlugin

AnyPool = PluginPool | JsonRpcPlugin

__all__ = ["CONTENT_TYPE_LATEST", "GatewayMetrics"]

disable_created_metrics()  # type: ignore[no-untyped-call]  # *_created series double the output and no dashboard reads them


class GatewayMetrics:
    def __init__(self, pool: SessionPool) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "gpp_requests",
            "Requests by plugin and outcome (ok, or the E_* code / HTTP refusal)",
            ["plugin", "outcome"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "gpp_request_seconds",
            "Time from request to answer, queueing included",
            ["plugin"],
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
            registry=self.registry,
        )
        queue = Gauge("gpp_queue_depth", "Requests waiting for a session", ["plugin"],
                      registry=self.registry)  # fmt: skip
        live = Gauge("gpp_live_sessions", "Plugin sessions alive", ["plugin"],
                     registry=self.registry)  # fmt: skip
        restarts = Gauge("gpp_restarts", "Sessions replaced after a failure", ["plugin"],
                         registry=self.registry)  # fmt: skip
        for plugin_id, plugin_pool in pool.pools.items():
            queue.labels(plugin_id).set_function(partial(_queue_depth, plugin_pool))
            live.labels(plugin_id).set_function(partial(_live_sessions, plugin_pool))
            restarts.labels(plugin_id).set_function(partial(_restarts, plugin_pool))
        self.registry.register(StderrSuppressed(pool))

    def observe(self, plugin: str, outcome: str, seconds: float) -> None:
        self.requests.labels(plugin, outcome).inc()
        self.latency.labels(plugin).observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)


def _queue_depth(pool: AnyPool) -> float:
    return pool.queue_depth


def _live_sessions(pool: AnyPool) -> float:
    return pool.live_sessions


def _restarts(pool: AnyPool) -> float:
    return pool.health.restarts


class StderrSuppressed(Collector):
    """Plugin stderr lines not logged (rate limit or flood), read live from each plugin's sink."""

    def __init__(self, pool: SessionPool) -> None:
        self.pool = pool

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "gpp_plugin_stderr_lines_suppressed",
            "Plugin stderr lines not logged: over the per-plugin rate limit, or skipped in a flood",
            labels=["plugin"],
        )
        for plugin_id, plugin_pool in self.pool.pools.items():
            family.add_metric([plugin_id], plugin_pool.health.stderr_line.suppressed)
        yield family
