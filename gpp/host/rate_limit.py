"""Log lines a plugin provokes, rate-limited: a token bucket, and a sink that counts what it
refuses and says so in one summary line per interval.

A plugin decides how often the gateway would log about it (stderr, stdout junk, answers to no
request), so without a bound one plugin can fill the gateway's log. Pure but for the `logging`
call; the clock is injectable.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

BURST_LINES = 100
LINES_PER_SECOND = 20.0
SUMMARY_INTERVAL_S = 1.0


class TokenBucket:
    """`burst` tokens, refilled at `rate` per second; `take()` spends one if there is one."""

    def __init__(
        self, burst: int, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.tokens = float(burst)
        self.refilled_at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled_at) * self.rate)
        self.refilled_at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class RateLimitedLog:
    """Lines about one plugin through a token bucket; `suppressed` counts those refused (and
    those its caller skipped), reported as a WARNING `summary` line at most once per interval
    and by `flush` at the session's end."""

    def __init__(
        self,
        log: logging.Logger,
        plugin_id: str,
        summary: str,
        burst: int = BURST_LINES,
        rate: float = LINES_PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log = log
        self.plugin_id = plugin_id
        self.summary = summary
        self.suppressed = 0
        self._bucket = TokenBucket(burst, rate, clock)
        self._clock = clock
        self._unreported = 0
        self._reported_at = clock()

    def warning(self, message: str, **fields: object) -> None:
        self.say(logging.WARNING, message, **fields)

    def say(self, level: int, message: str, **fields: object) -> None:
        if self._bucket.take():
            self._report(force=False)
            self.log.log(level, message, extra={"fields": {"plugin": self.plugin_id, **fields}})
        else:
            self.skipped(1)

    def skipped(self, count: int) -> None:
        """`count` lines not logged for another reason (unread in a flood): counted alike."""
        self.suppressed += count
        self._unreported += count
        self._report(force=False)

    def flush(self) -> None:
        """Say how many lines were suppressed since the last summary, if any."""
        self._report(force=True)

    def _report(self, *, force: bool) -> None:
        now = self._clock()
        if self._unreported and (force or now - self._reported_at >= SUMMARY_INTERVAL_S):
            self.log.warning(
                self.summary,
                extra={
                    "fields": {
                        "plugin": self.plugin_id,
                        "lines": self._unreported,
                        "limit": f"{self._bucket.rate:g}/s, burst {self._bucket.burst}",
                    }
                },
            )
            self._unreported = 0
            self._reported_at = now
