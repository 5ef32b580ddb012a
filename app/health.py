"""A plugin's health record, shared by both pool kinds (app.pool.Gpp3Pool, JsonRpcPool).

A failed session is gone and the next request spawns a fresh one at once; a second failure in
a row starts the back-off (0.5 s doubling to 30 s), during which requests are refused with the
last diagnostic instead of hammering a broken plugin. A success resets it.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field
from typing import Any

from gpp.core import codes

from .stderr_log import PluginStderrLog

log = logging.getLogger("gpp.pool")

BACKOFF_FIRST_S = 0.5
BACKOFF_MAX_S = 30.0


class PoolRefusal(Exception):
    """A request refused before reaching a plugin: 503 with Retry-After."""

    def __init__(self, reason: str, retry_after: float, last: codes.ProtocolError | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.last = last


def retry_after_header(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))


@dataclass
class PluginHealth:
    plugin_id: str
    served: int = 0
    failed: int = 0
    restarts: int = 0
    consecutive_failures: int = 0
    backoff_until: float = 0.0
    closing: bool = False
    last_error: codes.ProtocolError | None = None
    stderr_line: PluginStderrLog = field(init=False)
    """The sink every session of this plugin writes its stderr lines to (rate-limited logging)."""

    def __post_init__(self) -> None:
        self.stderr_line = PluginStderrLog(self.plugin_id)

    def retry_after(self) -> float:
        return max(0.0, self.backoff_until - time.monotonic())

    @property
    def backing_off(self) -> bool:
        return self.retry_after() > 0

    def refuse_if_unavailable(self) -> None:
        if self.closing:
            raise PoolRefusal("gateway is shutting down", 1, None)
        wait = self.retry_after()
        if wait:
            raise PoolRefusal(
                f"plugin {self.plugin_id} is backing off after "
                f"{self.consecutive_failures} consecutive failures",
                wait,
                self.last_error,
            )

    def record_success(self) -> None:
        self.served += 1
        self.consecutive_failures = 0

    def record_request_failure(self, error: codes.ProtocolError) -> None:
        """A request the plugin failed while its session lives on (an `error` frame for that
        request): counted, and its diagnostic kept, but no reason to back off."""
        self.failed += 1
        self.last_error = error

    def record_failure(self, error: codes.ProtocolError) -> None:
        self.failed += 1
        self.last_error = error
        self.consecutive_failures += 1
        if self.consecutive_failures >= 2:
            delay = min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** (self.consecutive_failures - 2))
            self.backoff_until = time.monotonic() + delay
        log.warning(
            "session failed",
            extra={
                "fields": {
                    "plugin": self.plugin_id,
                    "code": error.code,
                    "consecutive": self.consecutive_failures,
                    "backoff_s": round(self.retry_after(), 3),
                }
            },
        )

    def describe(self) -> dict[str, Any]:
        """The health half of GET /plugins/{id}."""
        last = self.last_error
        return {
            "restarts": self.restarts,
            "served": self.served,
            "failed": self.failed,
            "retryAfter": round(self.retry_after(), 3) or None,
            "lastDiagnostic": last.diagnostic() if last else None,
            "lastCode": last.code if last else None,
            "recentStderr": list(self.stderr_line.recent),
        }
