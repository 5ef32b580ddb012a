"""Run a pure function over many items on every CPU the plugin may use: forked workers.

A cold discover reads thousands of files, and each file's facts depend on that file alone
(`extract` is pure), so the reading spreads over CPUs with nothing to coordinate. Workers are
forks, not a `multiprocessing` pool: a fork inherits the parsers, the open repository root and
the items as they are (nothing to send, no start-up imports, no /dev/shm semaphores, which a
sandbox may not have), and sends back only its results, pickled into a memfd (a pipe would
block the worker on the parent, which is busy with its own share).

What a worker cannot break:
- **The result.** Chunks go to whichever process asks first and are put back in order, so
  the output is the serial one whatever the timing. A worker that fails in any way (fork
  refused by RLIMIT_NPROC, killed, an exception, a result that does not pickle) has its chunks
  computed again by the parent, where an exception raises as it would have without workers.
- **The session.** A worker never touches stdout (it leaves by `os._exit`, which flushes
  nothing) and never outlives its parent: it is reaped before `fan_out` returns or raises,
  dies with the parent (PR_SET_PDEATHSIG), and shares its process group, which the host kills
  on a timeout.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import os
import pickle
import signal
import struct
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

MIN_ITEMS_PER_WORKER = 32
"""Below this share a fork (a few ms for a large parent) costs more than it saves."""
MAX_WORKERS = 8
CHUNK_ITEMS = 16
"""Items handed out at a time: small enough to even out the end, large enough per pickle."""
_MAX_CHUNKS = 1_024  # their 4-byte numbers fit the one page every pipe holds at least (a
# user over pipe-user-pages-soft gets no more), so writing them all at once cannot block
_PR_SET_PDEATHSIG = 1


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity, as a cgroup cpuset or `taskset` sets it)."""
    return len(os.sched_getaffinity(0))


def fan_out(
    compute: Callable[[T], R],
    items: Sequence[T],
    *,
    workers: int | None = None,
    min_items_per_worker: int = MIN_ITEMS_PER_WORKER,
) -> list[R]:
    """`[compute(item) for item in items]`, shared between this process and forked workers.

    `workers` counts this process too (default: the usable CPUs, at most MAX_WORKERS); fewer
    are used when items are too few to give each `min_items_per_worker`. Items go out in
    chunks from a pipe every process reads, so a worker slowed by its neighbours takes fewer.
    """
    wanted = min(workers or usable_cpus(), MAX_WORKERS, len(items) // max(min_items_per_worker, 1))
    if wanted <= 1 or threading.active_count() > 1:  # a fork copies one thread of many
        return [compute(item) for item in items]
    size = max(CHUNK_ITEMS, -(-len(items) // _MAX_CHUNKS))
    chunks = [range(start, min(start + size, len(items))) for start in range(0, len(items), size)]
    done: dict[int, list[R]] = {}
    queue = _chunk_queue(len(chunks))
    forked: list[tuple[int, int]] = []
    try:
        for _ in range(wanted - 1):
            worker = _fork(compute, items, chunks, queue)
            if worker is not None:  # else fork was refused: the others take its chunks
                forked.append(worker)
        for number in _take(queue):
            done[number] = [compute(items[index]) for index in chunks[number]]
        while forked:
            done.update(_collect(*forked.pop(0)))
    finally:
        os.close(queue)
        for pid, memfd in forked:  # only when this process raised: leave no worker behind
            _kill(pid, memfd)
    results: list[R] = []
    for number, chunk in enumerate(chunks):  # a failed worker's chunks are missing: do them
        results += done[number] if number in done else [compute(items[i]) for i in chunk]
    return results


def _chunk_queue(count: int) -> int:
    """The read end of a pipe holding the chunk numbers (at most `_MAX_CHUNKS`), its write end
    already closed, so a read past the last number is an end of file. Reads of 4 bytes never tear (Linux reads a
    pipe under its lock, and every number was written at once)."""
    read_end, write_end = os.pipe2(os.O_CLOEXEC)
    try:
        os.write(write_end, struct.pack(f">{count}I", *range(count)))
    finally:
        os.close(write_end)
    return read_end


def _take(queue: int) -> Iterator[int]:
    while len(data := os.read(queue, 4)) == 4:
        yield struct.unpack(">I", data)[0]


def _fork(
    compute: Callable[[T], R], items: Sequence[T], chunks: list[range], queue: int
) -> tuple[int, int] | None:
    """A worker taking chunks from `queue`, as (pid, the memfd its pickled chunks go to); None
    if refused."""
    try:
        memfd = os.memfd_create("gpp-fan-out", os.MFD_CLOEXEC)
    except OSError:
        return None
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        os.close(memfd)
        return None
    if pid == 0:  # the worker: whatever happens, it leaves here
        status = 1
        try:
            _die_with(parent)
            with open(memfd, "wb", closefd=False) as out:
                for number in _take(queue):
                    values = [compute(items[index]) for index in chunks[number]]
                    pickle.dump((number, values), out, protocol=5)
            status = 0
        finally:
            os._exit(status)
    return pid, memfd


def _die_with(parent: int) -> None:
    """Have the kernel kill this worker when the parent dies; leave now if it already did."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def _collect(pid: int, memfd: int) -> dict[int, list[R]]:
    """The chunks a worker computed, once it exited cleanly; none if it did not."""
    chunks: dict[int, list[R]] = {}
    try:
        _, status = os.waitpid(pid, 0)
        if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
            return {}
        size = os.fstat(memfd).st_size
        stream = io.BytesIO(os.pread(memfd, size, 0))
        while stream.tell() < size:
            number, values = pickle.load(stream)
            chunks[number] = values
        return chunks
    except Exception:  # any fault here only means "compute those again"
        return {}
    finally:
        os.close(memfd)


def _kill(pid: int, memfd: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
    os.close(memfd)
