"""A plugin's stdout, kept for protocol frames alone. Standard library only.

A stray `print()` in a plugin once broke request 481 with E_FRAME_JSON: any line on stdout
that is not a frame is a protocol violation. While a plugin serves, fd 1 is stderr, so
`print()`, a library's log line or a child process's output lands in the host's stderr log,
and frames go to a private copy of the original stdout that no child inherits.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO


@contextmanager
def stdout_for_frames() -> Iterator[IO[bytes]]:
    """The real stdout as a binary stream for frames; fd 1 is stderr until the block ends."""
    sys.stdout.flush()
    frames_fd = os.dup(1)  # os.dup is non-inheritable: an exec'd child never gets it
    os.dup2(2, 1)
    text, sys.stdout = sys.stdout, sys.stderr  # print() as unbuffered as stderr, in order
    try:
        with open(frames_fd, "wb", closefd=False) as frames:
            yield frames
    finally:
        sys.stdout = text
        os.dup2(frames_fd, 1)
        os.close(frames_fd)
