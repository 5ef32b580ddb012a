"""The seccomp program, run by a tiny classic-BPF interpreter: what it answers for each kind of
call, without a kernel in the way (the escape tests prove the kernel applies it)."""

from __future__ import annotations

import struct

import pytest

from gpp.host import seccomp

X86_64 = seccomp.AUDIT_ARCH["x86_64"]
I386 = 0x40000003


def run(program: bytes, arch: int, nr: int, arg0: int = 0) -> int:
    """The action the program returns for `struct seccomp_data` {nr, arch, ip=0, args[0]}."""
    data = struct.pack("=iIQQ", nr, arch, 0, arg0) + bytes(40)
    code = [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]
    pc, acc = 0, 0
    for _ in range(len(code)):  # no backward jumps: at most one pass
        op, jt, jf, k = code[pc]
        if op == seccomp.LD_W_ABS:
            (acc,) = struct.unpack_from("=I", data, k)
            pc += 1
        elif op in (seccomp.JEQ_K, seccomp.JGE_K):
            taken = acc == k if op == seccomp.JEQ_K else acc >= k
            pc += 1 + (jt if taken else jf)
        elif op == seccomp.RET_K:
            return int(k)
        else:
            raise AssertionError(f"unexpected opcode {op:#x}")
    raise AssertionError("ran off the end")


@pytest.fixture(scope="module")
def program() -> bytes:
    return seccomp.assemble(X86_64, [101, 250, 425], 135, x32=True)


def test_refused_calls_get_eperm_and_the_rest_pass(program: bytes) -> None:
    for nr in (101, 250, 425):  # ptrace, keyctl, io_uring_setup
        assert run(program, X86_64, nr) == seccomp.RET_EPERM, nr
    for nr in (0, 1, 39, 57, 59, 102, 424, 426):  # read, write, getpid, fork, execve, neighbours
        assert run(program, X86_64, nr) == seccomp.RET_ALLOW, nr


def test_other_abis_are_refused_whatever_the_number(program: bytes) -> None:
    assert run(program, I386, 20) == seccomp.RET_EPERM  # getpid, int 0x80
    assert run(program, X86_64, seccomp.X32_SYSCALL_BIT | 39) == seccomp.RET_EPERM  # x32 getpid


def test_personality_keeps_its_harmless_values_only(program: bytes) -> None:
    for value in seccomp.PERSONALITY_ALLOWED:
        assert run(program, X86_64, 135, value) == seccomp.RET_ALLOW, hex(value)
    for value in (0x0040000, 0x0400000, 0x0100000, 0x1):  # no ASLR, READ_IMPLIES_EXEC, page 0
        assert run(program, X86_64, 135, value) == seccomp.RET_EPERM, hex(value)


def test_the_real_program_refuses_every_named_call_this_machine_has() -> None:
    program = seccomp.program()
    numbers = [seccomp._syscall_number(name) for name in seccomp.REFUSED]
    present = [n for n in numbers if n >= 0]
    assert len(present) > 40
    arch = seccomp.AUDIT_ARCH[__import__("platform").machine()]
    for nr in present:
        assert run(program, arch, nr) == seccomp.RET_EPERM, nr
    for name in ("read", "write", "openat", "clone", "clone3", "execve", "wait4", "mmap"):
        assert run(program, arch, seccomp._syscall_number(name)) == seccomp.RET_ALLOW, name
