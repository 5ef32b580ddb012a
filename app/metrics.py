"""Prometheus metrics, in a registry per app so tests can build many apps in one process."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from .pool import PluginPools, Pool

__all__ = ["CONTENT_TYPE_LATEST", "GatewayMetrics"]

disable_created_metrics()  # type: ignore[no-untyped-call]  # *_created series double the output and no dashboard reads them


class GatewayMetrics:
    def __init__(self, pools: PluginPools) -> None:
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
        self.reloads = Counter(
            "gpp_reloads",
            "Registry reloads (SIGHUP) by result: applied, or invalid (nothing changed)",
            ["result"],
            registry=self.registry,
        )
        self.registry.register(PoolGauges(pools))
        self.registry.register(StderrSuppressed(pools))

        self._children: dict[tuple[str, str], tuple[Counter, Histogram]] = {}

    def observe(self, plugin: str, outcome: str, seconds: float) -> None:
        """One request's count and latency. The labelled children are looked up once per
        (plugin, outcome) and kept: `labels()` validates and locks on every call."""
        children = self._children.get((plugin, outcome))
        if children is None:
            children = (self.requests.labels(plugin, outcome), self.latency.labels(plugin))
            self._children[(plugin, outcome)] = children
        children[0].inc()
        children[1].observe(seconds)

    def render(self) -> bytes:
        return generate_latest(self.registry)


POOL_GAUGES: list[tuple[str, str, Callable[[Pool], float]]] = [
    ("gpp_queue_depth", "Requests waiting for a session", lambda p: p.queue_depth),
    ("gpp_live_sessions", "Plugin sessions alive", lambda p: p.live_sessions),
    ("gpp_restarts", "Sessions replaced after a failure", lambda p: p.health.restarts),
]


class PoolGauges(Collector):
    """Per-plugin gauges read at scrape time from the registry as it is now (reloads included)."""

    def __init__(self, pools: PluginPools) -> None:
        self.pools = pools

    def collect(self) -> Iterator[Metric]:
        for name, documentation, read in POOL_GAUGES:
            family = GaugeMetricFamily(name, documentation, labels=["plugin"])
            for plugin_id, plugin_pool in self.pools.by_id.items():
                family.add_metric([plugin_id], read(plugin_pool))
            yield family


class StderrSuppressed(Collector):
    """Plugin stderr lines not logged (rate limit or flood), read live from each plugin's sink."""

    def __init__(self, pools: PluginPools) -> None:
        self.pools = pools

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "gpp_plugin_stderr_lines_suppressed",
            "Plugin stderr lines not logged: over the per-plugin rate limit, or skipped in a flood",
            labels=["plugin"],
        )
        for plugin_id, plugin_pool in self.pools.by_id.items():
            family.add_metric([plugin_id], plugin_pool.health.stderr_line.suppressed)
        yield family
