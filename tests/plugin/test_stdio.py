"""gpp.plugin.stdio: while a plugin serves, its stdout carries frames alone.

A stray `print()`, a library's log line or a child process's output once broke a request with
E_FRAME_JSON; inside `stdout_for_frames` all of them go to stderr, and only what is written to
the yielded stream reaches the host."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO

PLUGIN = """
import os
from gpp.plugin.stdio import stdout_for_frames

print("before")
with stdout_for_frames() as frames:
    print("stray print")
    os.write(1, b"raw fd 1\\n")
    os.system("echo child output; ls /proc/self/fd | wc -l")
    frames.write(b'{"frame":1}\\n')
    frames.flush()
print("after")
"""


def test_inside_the_block_only_frames_reach_stdout_and_the_rest_goes_to_stderr() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PLUGIN],
        capture_output=True,
        cwd=REPO,
        timeout=60,
        check=True,
    )
    assert done.stdout == b'before\n{"frame":1}\nafter\n'
    said = done.stderr.decode().splitlines()
    assert said[:3] == ["stray print", "raw fd 1", "child output"]
    # The child sees 0, 1, 2 and the descriptor `ls` opened on /proc/self/fd: not the frames'
    # private copy of stdout, which is not inheritable.
    assert said[3].strip() == "4"
