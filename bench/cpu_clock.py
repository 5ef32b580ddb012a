"""Time measurement for the pack benches: a stopwatch over processes, and medians of rounds.

A stopwatch reads wall seconds and CPU seconds (user + system, from /proc/PID/stat), the CPU of
waited-for children included, so work a scanner hands to forked workers is counted. Throughput
is a wall-clock figure; CPU says what it cost. One reading is disturbed by the neighbours on a
shared machine, so a bench measures in rounds that interleave the baseline with the thing
measured (both see the same conditions), takes the ratio within each round, and reports the
median over the rounds.
"""

from __future__ import annotations

import contextlib
import gc
import os
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) process `pid` and its waited-for children have used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return sum(int(field) for field in fields[11:15]) / TICK


class Stopwatch:
    """Wall seconds and CPU seconds of the given processes (default: this one) over a block."""

    def __init__(self, *pids: int) -> None:
        self.pids = pids or (os.getpid(),)
        self.wall = self.cpu = 0.0

    def _cpu_now(self) -> float:
        if self.pids == (os.getpid(),):  # finer than the clock ticks of /proc
            children = os.times()
            return time.process_time() + children.children_user + children.children_system
        return sum(process_cpu(pid) for pid in self.pids)

    def __enter__(self) -> Stopwatch:
        self._wall, self._cpu = time.perf_counter(), self._cpu_now()
        return self

    def __exit__(self, *_: object) -> None:
        self.wall = time.perf_counter() - self._wall
        self.cpu = self._cpu_now() - self._cpu


class Rounds:
    """Named figures collected round by round, printed as `median (min-max)` over the rounds."""

    def __init__(self) -> None:
        self.figures: dict[str, list[float]] = {}

    def add(self, figures: dict[str, float]) -> None:
        for name, value in figures.items():
            self.figures.setdefault(name, []).append(value)

    def median(self, name: str) -> float:
        return statistics.median(self.figures[name])

    def table(self, width: int) -> str:
        return "\n".join(
            f"{name:{width}} {statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"
            for name, values in self.figures.items()
        )


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """The cyclic collector off, as `Scanner.discover` runs: a baseline measured with it on
    would also time the collector's passes over whatever the bench holds."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
