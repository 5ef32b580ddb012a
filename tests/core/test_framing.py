"""gpp.core.framing: a byte stream in, `\\n`-terminated lines out, with the byte cap."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpp.core import LineBuffer, LineTooLong


def test_line_buffer_splits_lines_across_chunks() -> None:
    buf = LineBuffer(cap=100)
    buf.feed(b"ab")
    assert buf.next_line() is None
    buf.feed(b"c\nde\n\nf")
    assert [buf.next_line(), buf.next_line(), buf.next_line(), buf.next_line()] == [
        b"abc",
        b"de",
        b"",
        None,
    ]
    assert buf.pending == b"f"


def test_line_buffer_refuses_an_endless_line_while_reading() -> None:
    buf = LineBuffer(cap=1000)
    fed = 0
    with pytest.raises(LineTooLong):
        while True:  # a peer that never sends a newline
            buf.feed(b"x" * 300)
            fed += 300
            buf.next_line()
    assert fed <= 1200  # refused within one chunk of the cap, not at the newline


def test_line_buffer_accepts_exactly_the_cap() -> None:
    buf = LineBuffer(cap=10)
    buf.feed(b"x" * 10 + b"\n")
    assert buf.next_line() == b"x" * 10
    buf.feed(b"y" * 11 + b"\n")
    with pytest.raises(LineTooLong):
        buf.next_line()


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=8),
    st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")),
    st.lists(st.integers(1, 50), min_size=1, max_size=10),
)
def test_line_buffer_gives_the_lines_for_any_chunking(
    lines: list[bytes], tail: bytes, cuts: list[int]
) -> None:
    stream = b"".join(line + b"\n" for line in lines) + tail
    buf = LineBuffer(cap=1000)
    got: list[bytes] = []
    position, turn = 0, 0
    while position < len(stream):
        size = cuts[turn % len(cuts)]
        buf.feed(stream[position : position + size])
        position, turn = position + size, turn + 1
        while (line := buf.next_line()) is not None:
            got.append(line)
    assert got == lines
    assert buf.pending == tail


def test_line_buffer_joins_a_large_line_from_many_chunks() -> None:
    line = bytes(range(256)).replace(b"\n", b"") * 20_000
    buf = LineBuffer()
    chunks = [line[i : i + 65536] for i in range(0, len(line), 65536)]
    for chunk in chunks[:-1]:
        buf.feed(chunk)
        assert buf.next_line() is None
    buf.feed(chunks[-1] + b"\nnext")
    assert buf.next_line() == line
    assert buf.next_line() is None and buf.pending == b"next"
