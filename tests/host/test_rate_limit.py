"""gpp.host.rate_limit: the token bucket and the log that counts what it refuses, so a plugin
cannot decide how many lines the gateway logs about it (50,000 in 5 s once came from one)."""

from __future__ import annotations

import logging

import pytest

from gpp.host import RateLimitedLog, TokenBucket


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_token_bucket_allows_a_burst_then_its_rate() -> None:
    clock = FakeClock()
    bucket = TokenBucket(burst=5, rate=2.0, clock=clock)
    assert [bucket.take() for _ in range(7)] == [True] * 5 + [False] * 2
    clock.now += 1.0
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    clock.now += 100.0  # refills to the burst, not beyond
    assert sum(bucket.take() for _ in range(10)) == 5


def test_refused_lines_are_said_in_one_summary_per_interval_and_at_the_flush(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    clock = FakeClock()
    lines = RateLimitedLog(logging.getLogger("gpp.test"), "p", "junk suppressed", 2, 1.0, clock)
    for n in range(5):
        lines.warning("junk", n=n)
    lines.skipped(4)
    assert lines.suppressed == 3 + 4
    said = [(r.getMessage(), getattr(r, "fields", {})) for r in caplog.records]
    assert said == [("junk", {"plugin": "p", "n": 0}), ("junk", {"plugin": "p", "n": 1})]
    clock.now += 1.0
    lines.flush()
    lines.flush()  # nothing new: no second summary
    summaries = [
        getattr(r, "fields", {}) for r in caplog.records if r.getMessage() == "junk suppressed"
    ]
    assert summaries == [{"plugin": "p", "lines": 7, "limit": "1/s, burst 2"}]
