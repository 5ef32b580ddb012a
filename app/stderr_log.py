"""A plugin's stderr as log lines, rate-limited per plugin.

A plugin's stderr is the plugin's to fill: 100 MB of it once became 373,054 log lines and
seconds of CPU, and slowed every other plugin's requests. So each plugin's stderr is logged
through a token bucket (a burst, then a steady rate); what the bucket refuses is counted, said
once in a "plugin stderr suppressed" line, and exported as a counter. The diagnostics do not
depend on it: the session's own `StderrRing` keeps the tail for problem documents.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable

from gpp.host import BURST_LINES, LINES_PER_SECOND, RateLimitedLog, TokenBucket

log = logging.getLogger("gpp.pool")

__all__ = ["BURST_LINES", "LINES_PER_SECOND", "PluginStderrLog", "TokenBucket"]


class PluginStderrLog:
    """The stderr sink a plugin's sessions write to: call it with each line.

    `suppressed` counts every line not logged: those the bucket refused and those the session's
    ring skipped unread in a flood (reported through `lines_skipped`).
    """

    def __init__(
        self,
        plugin_id: str,
        burst: int = BURST_LINES,
        rate: float = LINES_PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.plugin_id = plugin_id
        self.recent: deque[str] = deque(maxlen=20)
        self._lines = RateLimitedLog(log, plugin_id, "plugin stderr suppressed", burst, rate, clock)

    @property
    def suppressed(self) -> int:
        return self._lines.suppressed

    def __call__(self, line: str) -> None:
        self.recent.append(line)
        self._lines.say(logging.INFO, "plugin stderr", line=line)

    def lines_skipped(self, count: int) -> None:
        self._lines.skipped(count)
