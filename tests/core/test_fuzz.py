"""The fuzz targets in the suite: the committed corpus replayed, then a short atheris pass each.

`make fuzz` is the long run (FUZZ_SECONDS per target). Here each target gets GPP_FUZZ_RUNS
fresh inputs (default 4000), bounded by GPP_FUZZ_SECONDS of wall time (default 60).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "tests" / "fuzz"))
from targets import TARGETS  # tests/fuzz is not a package: on sys.path above

CORPUS = REPO / "tests" / "fuzz" / "corpus"
RUNS = int(os.environ.get("GPP_FUZZ_RUNS", "4000"))
SECONDS = int(os.environ.get("GPP_FUZZ_SECONDS", "60"))


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_the_committed_corpus_replays_clean(target: str) -> None:
    inputs = sorted((CORPUS / target).iterdir())
    assert len(inputs) >= 10, "the corpus is seeded"
    for path in inputs:
        TARGETS[target](path.read_bytes())


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_short_coverage_guided_pass_finds_nothing(target: str, tmp_path: Path) -> None:
    grown = tmp_path / "corpus"
    grown.mkdir()
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "tests/fuzz/fuzz.py"),
            target,
            str(grown),
            str(CORPUS / target),
            f"-runs={RUNS}",
            f"-max_total_time={SECONDS}",
            f"-artifact_prefix={tmp_path}/",
            "-print_final_stats=1",
        ],
        capture_output=True,
        text=True,
        timeout=SECONDS + 60,
    )
    crashes = [p.name for p in tmp_path.iterdir() if p.name.startswith(("crash-", "timeout-"))]
    assert done.returncode == 0 and not crashes, f"{crashes}\n{done.stderr[-4000:]}"
    assert "stat::number_of_executed_units" in done.stderr
