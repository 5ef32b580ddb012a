"""What the routes share: the config, the session pool and the metrics."""

from __future__ import annotations

from dataclasses import dataclass

from .config import Config
from .metrics import GatewayMetrics
from .pool import SessionPool


@dataclass
class GatewayState:
    config: Config
    pool: SessionPool
    metrics: GatewayMetrics
