"""The soft deadline every stage of a scan looks at, and the rates that size its reading.

The host kills a plugin at `request_ms`; a scan too big for it answers what it has by a share of
that (`SOFT_DEADLINE_SHARE`) with a `DEADLINE_REACHED` finding, and what it computed stays in
its memos, so a repeat goes further. The walk, the selection, the read and the link each look at
one `Pace`, so they agree on when the discover under way started and whether it is too late.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from gpp.plugin import request_budget_ms

from .scan_document import DocumentPieces, Link

F = TypeVar("F")

SOFT_DEADLINE_SHARE = 0.5
"""Of `request_ms`, the share by which a discover has walked, judged, read and linked what it
answers (reading stops when the link it would then owe passes it); the other half is for
rendering, sending and checking the document, and for a loaded machine's scheduling: the host
kills the plugin at `request_ms`, so the soft deadline sits well inside the hard one."""
DEADLINE_BATCH = 256
"""At most this many files read between two looks at the clock when a deadline is set (fewer
when the time left at the rate measured so far is shorter)."""
FIRST_BATCH = 4
"""Files read before the first look at the clock, when no read rate has been measured yet."""
LINK_SHARE_GUESS = 0.5
"""Before a link has been timed: linking a file is taken to cost this share of reading it."""


class DeadlinePassed(Exception):
    """Raised inside a phase that cannot stop part-way (the pre-filter's link-following) when the
    soft deadline passes: what it computed stays in the memos, so a repeat goes further."""


def soft_deadline_ms() -> float | None:
    """How long a discover may spend reading files before it answers with what it has: a share
    of the host's `request_ms` (the SDK's `request_budget_ms`), None when the host did not say."""
    request_ms = request_budget_ms()
    return None if request_ms is None else request_ms * SOFT_DEADLINE_SHARE


class Pace:
    """One scanner's soft deadline (`deadline_ms` after `start`; None: none) and what reading
    and linking a file have cost so far, kept across discovers. A reference scan
    (`parse_all`) has no deadline: it never stops early."""

    def __init__(
        self,
        deadline_ms: float | None,
        clock: Callable[[], float],
        deadline_batch: int = DEADLINE_BATCH,
        *,
        parse_all: bool = False,
    ) -> None:
        self.deadline_ms = deadline_ms
        self.clock = clock
        self.deadline_batch = deadline_batch
        self.parse_all = parse_all
        self.started = 0.0  # when the discover under way started (`clock`)
        self.read_s_per_file: float | None = None  # measured on the batches read so far
        self.link_s_per_file: float | None = None  # measured on the last link

    def start(self) -> None:
        self.started = self.clock()

    def passed(self, owed_s: float = 0.0) -> bool:
        """Whether the soft deadline has passed, or would have once `owed_s` more seconds of
        work (the link of what is read) were done."""
        if self.deadline_ms is None or self.parse_all:
            return False
        return (self.clock() - self.started + owed_s) * 1000 >= self.deadline_ms

    def check(self) -> None:
        """Raise `DeadlinePassed` past the soft deadline (a phase that cannot stop part-way)."""
        if self.passed():
            raise DeadlinePassed

    def batch_size(self, left: int, read: int) -> int:
        """How many of the `left` files to read next: all without a deadline; else as many as
        fit in half the time left once the link of the `read` files and of these is counted
        (at the rates measured so far), at most `deadline_batch`; 0 once not one more fits."""
        if self.deadline_ms is None or self.parse_all:
            return left
        read_s = self.read_s_per_file
        link_s = self.link_s_per_file
        if link_s is None:
            link_s = LINK_SHARE_GUESS * (read_s or 0.0)
        owed_s = link_s * read
        if self.passed(owed_s):
            return 0
        if read_s is None:  # nothing timed yet: a small batch measures the rate
            return min(left, self.deadline_batch, FIRST_BATCH)
        time_left_s = self.deadline_ms / 1000 - (self.clock() - self.started) - owed_s
        fits = int(time_left_s / 2 / max(read_s + link_s, 1e-9))
        if fits == 0 and time_left_s >= read_s + link_s:
            fits = 1  # the last one that fits whole
        return min(left, self.deadline_batch, fits)

    def timed(self, link: Link[F]) -> Link[F]:
        """`link`, measuring what linking a file costs (`batch_size` counts it in)."""

        def timed(facts: Sequence[tuple[str, F]]) -> DocumentPieces:
            began = self.clock()
            linked = link(facts)
            self.link_s_per_file = (self.clock() - began) / max(1, len(facts))
            return linked

        return timed
