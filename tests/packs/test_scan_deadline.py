"""`packs.scan_deadline.Pace`: when a scan is past its soft deadline, and how many files it
reads before it looks at the clock again, on a clock the test moves by hand."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.scan_deadline import FIRST_BATCH, DeadlinePassed, Pace, soft_deadline_ms
from packs.scan_document import DocumentPieces

from gpp.core import REQUEST_BUDGET_VARIABLE


class Clock:
    """Seconds that pass only when the test says."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def pace_at(deadline_ms: float | None, *, parse_all: bool = False, batch: int = 256) -> Pace:
    clock = Clock()
    pace = Pace(deadline_ms, clock, batch, parse_all=parse_all)
    pace.start()  # at 100 s: the deadline counts from here, not from the clock's zero
    return pace


def advance(pace: Pace, seconds: float) -> None:
    clock = pace.clock
    assert isinstance(clock, Clock)
    clock.now += seconds


def test_the_deadline_counts_from_the_discovers_start_and_owed_work_brings_it_nearer() -> None:
    pace = pace_at(2_000)
    advance(pace, 1.5)
    assert not pace.passed()
    assert pace.passed(owed_s=0.5)  # the link still owed would end on the deadline
    assert not pace.passed(owed_s=0.49)
    advance(pace, 0.5)
    assert pace.passed()
    pace.start()  # the next discover starts afresh
    assert not pace.passed()


def test_check_raises_only_past_the_deadline() -> None:
    pace = pace_at(1_000)
    pace.check()
    advance(pace, 1.0)
    with pytest.raises(DeadlinePassed):
        pace.check()


@pytest.mark.parametrize(("deadline_ms", "parse_all"), [(None, False), (1_000, True)])
def test_no_deadline_and_the_reference_scan_never_stop(
    deadline_ms: float | None, parse_all: bool
) -> None:
    """Without a budget, and for `parse_all` (the reference a filtered scan is held to), every
    file is read in one batch and no stage ever stops, however late."""
    pace = pace_at(deadline_ms, parse_all=parse_all)
    advance(pace, 3_600.0)
    assert not pace.passed(owed_s=1e9)
    pace.check()
    assert pace.batch_size(left=10_000, read=0) == 10_000


def test_the_first_batch_is_small_until_a_read_rate_is_measured() -> None:
    pace = pace_at(10_000)
    assert pace.batch_size(left=1_000, read=0) == FIRST_BATCH
    assert pace.batch_size(left=2, read=0) == 2


def test_a_batch_fills_half_the_time_left_at_the_measured_rates() -> None:
    """10 s left, 0.1 s to read and 0.1 s to link a file: 25 files fill half of it; files read
    before count by the link they still owe (40 files: 4 s), the batch cap bounds it."""
    pace = pace_at(10_000)
    pace.read_s_per_file = 0.1
    pace.link_s_per_file = 0.1
    assert pace.batch_size(left=1_000, read=0) == 25
    assert pace.batch_size(left=1_000, read=40) == 15  # (10 - 4) / 2 / 0.2
    assert pace.batch_size(left=7, read=0) == 7
    assert pace_with(deadline_batch=10).batch_size(left=1_000, read=0) == 10


def pace_with(deadline_batch: int) -> Pace:
    pace = pace_at(10_000, batch=deadline_batch)
    pace.read_s_per_file = pace.link_s_per_file = 0.1
    return pace


def test_an_unmeasured_link_is_guessed_at_half_a_read() -> None:
    pace = pace_at(10_000)
    pace.read_s_per_file = 0.2  # with the link guessed at 0.1: 0.3 s a file
    assert pace.batch_size(left=1_000, read=0) == 16  # int(10 / 2 / 0.3)


def test_the_last_file_that_fits_whole_is_read_and_then_none() -> None:
    pace = pace_at(10_000)
    pace.read_s_per_file = pace.link_s_per_file = 0.1
    advance(pace, 9.7)  # 0.3 s left: half of it holds no file, but one fits whole
    assert pace.batch_size(left=50, read=0) == 1
    advance(pace, 0.2)  # 0.1 s left: not one more fits
    assert pace.batch_size(left=50, read=0) == 0
    assert pace_at(10_000).batch_size(left=50, read=0) > 0
    past = pace_at(1_000)
    past.read_s_per_file = past.link_s_per_file = 0.1
    assert past.batch_size(left=50, read=10) == 0  # the owed link of 10 files is the budget


def test_timed_measures_what_linking_a_file_costs() -> None:
    pace = pace_at(10_000)

    def link(files: Sequence[tuple[str, int]]) -> DocumentPieces:
        advance(pace, 0.5 * len(files))
        return DocumentPieces(resources=[{"files": len(files)}])

    timed = pace.timed(link)
    assert timed([("a.py", 1), ("b.py", 2), ("c.py", 3), ("d.py", 4)]).resources == [{"files": 4}]
    assert pace.link_s_per_file == 0.5
    timed([])  # no file: the time is not divided by zero
    assert pace.link_s_per_file == 0.0


@pytest.mark.parametrize(("value", "deadline_ms"), [("9000", 4_500.0), ("", None), ("0", None)])
def test_the_soft_deadline_is_half_the_hosts_budget(
    monkeypatch: pytest.MonkeyPatch, value: str, deadline_ms: float | None
) -> None:
    monkeypatch.setenv(REQUEST_BUDGET_VARIABLE, value)
    assert soft_deadline_ms() == deadline_ms
