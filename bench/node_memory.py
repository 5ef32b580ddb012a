"""A Node plugin registered by hand (no `MALLOC_ARENA_MAX`) scanning a generated tree of small
files under the default sandbox limits (issue 32, item 7): the time, the answer, and the peak
memory of its cgroup. Prints figures (`python bench/node_memory.py [FILES]`); asserts nothing.

Under `RLIMIT_AS = memory_mb` this walk aborted (`std::bad_alloc`, SIGABRT) at 30,000 files:
each of Node's GC and platform threads gets a glibc malloc arena of 64 MiB of address space,
and V8 reserves its heap's address space up front, far beyond what it touches.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from gpp.host import (  # noqa: E402
    PluginSession,
    SandboxPolicy,
    Timeouts,
)

NODE_DETECTOR = REPO / "plugins/reference_detector.mjs"
FILES = 30_000


def generate(root: Path, files: int) -> None:
    """`files` small `.gfx` files in one folder (the shape that aborted), readable by others."""
    folder = root / "many"
    folder.mkdir()
    for index in range(files):
        (folder / f"f{index:05}.gfx").write_text(f"table t{index}\n")
    root.chmod(0o755)
    folder.chmod(0o755)


async def scan(root: Path) -> tuple[int, float, dict[str, str], int | None]:
    """Resources found, seconds, the sandbox mechanisms, and the cgroup's peak bytes."""
    async with PluginSession(
        ["node", str(NODE_DETECTOR)],
        "reference-detector-node",
        "1.0.0",
        cwd=str(root),
        sandbox=SandboxPolicy(),
        timeouts=Timeouts(request_ms=600_000),
    ) as session:
        started = time.perf_counter()
        result = await session.discover(["."])
        elapsed = time.perf_counter() - started
        return len(result["resources"]), elapsed, session.sandbox_mechanisms, _peak(session)


def _peak(session: PluginSession) -> int | None:
    process = getattr(session, "_process", None)
    group = getattr(process, "group", None)
    for directory in getattr(group, "dirs", {}).values():
        for name in ("memory.peak", "memory.max_usage_in_bytes"):
            path = Path(directory) / name
            if path.exists():
                return int(path.read_text().split()[0])
    return None


def main() -> None:
    files = int(sys.argv[1]) if len(sys.argv) > 1 else FILES
    with tempfile.TemporaryDirectory(prefix="gpp-node-memory-") as directory:
        root = Path(directory)
        generate(root, files)
        found, elapsed, mechanisms, peak = asyncio.run(scan(root))
    print(f"files: {files}, resources: {found}, discover: {elapsed:.2f} s")
    print(f"rlimits: {mechanisms.get('rlimits')}")
    print(f"cgroup peak: {peak / 2**20:.0f} MiB" if peak else "cgroup peak: not available")


if __name__ == "__main__":
    main()
