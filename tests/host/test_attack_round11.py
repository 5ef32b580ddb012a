"""Issue 32, an eleventh round of attack on the stdio pipes (attack13): per-byte reads of the
gateway's pipes without packet mode. A pipe's ring holds as many buffers as its size has pages,
and a buffer `splice` fills from a file is never merged with the next: a plugin that shrank its
stderr pipe to one page and spliced it one byte at a time made every read of the gateway's end
return one byte, as packet mode did.

Each test runs the attack as root inside a real sandbox and passes only when the attack fails.
"""

from __future__ import annotations

import platform
from pathlib import Path

from test_attack_round8 import attempts
from test_seccomp import run

from gpp.host import seccomp

F_SETPIPE_SZ = 1031

SHRUNK = r"""
import fcntl


def pipe_size(fd, size):
    def attempt():
        fcntl.fcntl(fd, 1031, size)  # F_SETPIPE_SZ
    return attempt


def read_size(fd):
    return lambda: str(fcntl.fcntl(fd, 1032))  # F_GETPIPE_SZ


ATTEMPTS = {
    "stderr": pipe_size(2, 4096),
    "stdout": pipe_size(3, 4096),  # the SDK keeps its stdout on fd 3
    "stderr-32k": pipe_size(2, 32768),
    "stderr-high-bits": pipe_size(2, (1 << 32) | 4096),
    "stderr-size": read_size(2),
    "stderr-grown": pipe_size(2, 1 << 17),
    "stderr-grown-size": read_size(2),
}
"""


def test_a_plugin_cannot_shrink_its_stdio_pipes_to_one_buffer(tmp_path: Path) -> None:
    """Broken on main (medium). `fcntl(F_SETPIPE_SZ, 4096)` on its stderr left the pipe one
    buffer, and 200,000 one-byte `splice`s from a file (buffers the kernel never merges) took
    the gateway 200,003 reads and 8 times the time of 200,000 one-byte writes (7,050 reads),
    the packet mode of round 10 without `O_DIRECT`. The filter refuses F_SETPIPE_SZ below
    64 KiB with EPERM: the pipe keeps its 16 buffers; growing it stays allowed (round 8)."""
    got = attempts(tmp_path, SHRUNK)
    shrunk = ("stderr", "stdout", "stderr-32k", "stderr-high-bits")
    assert [got[name] for name in shrunk] == ["EPERM"] * 4, got
    assert got["stderr-size"] == "65536", got
    assert got["stderr-grown"] == "ok" and got["stderr-grown-size"] == "131072", got


def test_the_filter_refuses_shrinking_a_pipe_alone() -> None:
    """The program itself: `fcntl(F_SETPIPE_SZ)` refused below 64 KiB (its low 32 bits: the
    kernel's), allowed from there up; other commands (F_GETPIPE_SZ, F_SETFL without O_DIRECT)
    allowed whatever their third argument."""
    program = seccomp.program()
    arch = seccomp.AUDIT_ARCH[platform.machine()]
    fcntl_nr = seccomp._syscall_number("fcntl")
    for size in (0, 4096, 65535, (1 << 32) | 4096):
        assert run(program, arch, fcntl_nr, 2, size, arg1=F_SETPIPE_SZ) == seccomp.RET_EPERM
    for size in (65536, 1 << 20, 1 << 31):
        assert run(program, arch, fcntl_nr, 2, size, arg1=F_SETPIPE_SZ) == seccomp.RET_ALLOW
    assert run(program, arch, fcntl_nr, 2, 0, arg1=F_SETPIPE_SZ + 1) == seccomp.RET_ALLOW
    assert run(program, arch, fcntl_nr, 2, 0o4000, arg1=4) == seccomp.RET_ALLOW
