"""Issue 32, item 7: a Node plugin registered by hand, without the bundled entry's
`MALLOC_ARENA_MAX = "2"`, scans 30,000 small files under the default limits. Under
`RLIMIT_AS = memory_mb` it aborted (`std::bad_alloc`, SIGABRT) at 90 MiB resident: V8 and
glibc's per-thread arenas reserve address space they never touch. With a session cgroup the
memory bound is the pages used (`bench/node_memory.py` prints the figures)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bench.node_memory import FILES, generate, scan


def test_a_hand_registered_node_plugin_scans_30000_files_under_the_default_limits(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    generate(root, FILES)
    found, _, mechanisms, _ = asyncio.run(scan(root))
    assert found == FILES
    assert "RLIMIT_AS" not in mechanisms["rlimits"], mechanisms
