"""`packs.scan_read`: a file's bytes read safely and capped, its outcome from the pack's
`extract` (facts, or the reason it gave none), through the memo, in batches the deadline sizes;
and the selection's opens of a directory chain once."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.scan_deadline import Pace
from packs.scan_document import ReaderError, Unresolved
from packs.scan_read import (
    MAX_FILE_BYTES,
    Directories,
    FileReader,
    ParseFailure,
    is_bundle,
    judge_bytes,
    read_capped,
    too_large,
)
from packs.scan_walk import Found

from gpp.plugin import FileMemo, repo_files

Outcome = str | Unresolved | ReaderError


def extract(path: str, source: str) -> str:
    """Facts: the text itself; some names make the reader fail the ways readers do."""
    if path.startswith("syntax"):
        raise SyntaxError("invalid syntax", ("x", 3, 1, ""))
    if path.startswith("failure"):
        raise ParseFailure(7, "a block is not closed")
    if path.startswith("deep"):
        raise RecursionError
    if path.startswith("bug"):
        raise KeyError("oops")
    return source


@pytest.fixture
def root_fd(tmp_path: Path) -> Iterator[int]:
    fd = repo_files.open_root(str(tmp_path))
    yield fd
    os.close(fd)


def found(root: Path, rel: str) -> Found:
    return Found(rel, os.stat(root / rel, follow_symlinks=False))


def reader(deadline_ms: float | None = None) -> FileReader[str]:
    pace = Pace(deadline_ms, lambda: 0.0)
    memo: FileMemo[Outcome] = FileMemo()
    return FileReader(memo, extract, pace, workers=1, min_files_per_worker=1)


def outcomes(root: Path, root_fd: int, texts: dict[str, bytes]) -> dict[str, Outcome]:
    for rel, data in texts.items():
        (root / rel).write_bytes(data)
    files = {rel: found(root, rel) for rel in texts}
    return dict(reader().read_all(root_fd, list(texts), files, []))


def test_each_files_outcome_is_its_facts_or_why_it_gave_none(tmp_path: Path, root_fd: int) -> None:
    got = outcomes(
        tmp_path,
        root_fd,
        {
            "ok.py": b"\xef\xbb\xbfx = 1\n",  # a byte-order mark is not the source's
            "latin1.py": "caf\xe9".encode("latin-1"),
            "syntax.py": b"def (",
            "failure.prisma": b"model A {",
            "deep.py": b"(((",
            "bug.py": b"x",
            "bundle.js": b"var a=1;" * 200 + b"\n",
            "long.py": b"x = 1;" * 400 + b"\n",  # a long Python line is no bundle
        },
    )
    assert got["ok.py"] == "x = 1\n"
    assert got["latin1.py"] == Unresolved("latin1.py", "unreadable", "not valid UTF-8")
    assert got["syntax.py"] == Unresolved("syntax.py", "parse-error", "line 3: invalid syntax")
    assert got["failure.prisma"] == Unresolved(
        "failure.prisma", "parse-error", "line 7: a block is not closed"
    )
    assert got["deep.py"] == Unresolved("deep.py", "parse-error", "line 1: RecursionError")
    bug = got["bug.py"]
    assert isinstance(bug, ReaderError) and bug.path == "bug.py"
    assert "KeyError at test_scan_read.py:" in bug.detail
    assert got["bundle.js"] == Unresolved(
        "bundle.js", "unsupported", "generated code is not read (a minified bundle)"
    )
    assert got["long.py"] == "x = 1;" * 400 + "\n"


def test_a_memo_hit_opens_nothing_and_a_read_error_is_tried_again(
    tmp_path: Path, root_fd: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from packs import scan_read

    (tmp_path / "a.py").write_text("a")
    files = {"a.py": found(tmp_path, "a.py")}
    once = reader()
    assert once.read_all(root_fd, ["a.py"], files, []) == [("a.py", "a")]
    opened: list[str] = []

    def refusing(fd: int, rel: str) -> tuple[int, os.stat_result]:
        opened.append(rel)
        raise PermissionError(13, "denied")

    monkeypatch.setattr(scan_read, "open_file_in_root", refusing)
    assert once.read_all(root_fd, ["a.py"], files, []) == [("a.py", "a")]
    assert opened == [] and not once.volatile
    fresh = reader()
    unreadable = Unresolved("a.py", "unreadable", "cannot be read")
    assert fresh.read_all(root_fd, ["a.py"], files, []) == [("a.py", unreadable)]
    assert fresh.volatile  # not remembered: the next discover reads it again
    assert fresh.read_all(root_fd, ["a.py"], files, []) == [("a.py", unreadable)]
    assert opened == ["a.py", "a.py"]


def test_too_large_by_the_walks_stat_is_not_opened(tmp_path: Path, root_fd: int) -> None:
    (tmp_path / "big.py").write_text("x")
    big = Found("big.py", os.stat_result((0o100644, 1, 1, 1, 0, 0, MAX_FILE_BYTES + 1, 0, 0, 0)))
    assert reader().read_all(root_fd, ["big.py"], {"big.py": big}, []) == [
        ("big.py", too_large("big.py"))
    ]
    assert too_large("x") == Unresolved("x", "too-large", f"larger than {MAX_FILE_BYTES} bytes")


def test_past_the_deadline_the_files_left_are_not_reached(tmp_path: Path, root_fd: int) -> None:
    for n in range(3):
        (tmp_path / f"m{n}.py").write_text(str(n))
    files = {f"m{n}.py": found(tmp_path, f"m{n}.py") for n in range(3)}
    late = reader(deadline_ms=1_000)
    late.pace.started = -5.0  # the discover began five seconds ago
    not_reached: list[str] = []
    assert late.read_all(root_fd, sorted(files), files, not_reached) == []
    assert not_reached == ["m0.py", "m1.py", "m2.py"]


def test_read_capped_reads_what_the_file_holds_up_to_one_byte_past_the_cap(
    tmp_path: Path,
) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"abc")
    with open(path, "rb") as file:
        assert read_capped(file.fileno(), 3) == b"abc"
    with open(path, "rb") as file:
        assert read_capped(file.fileno(), 1) == b"abc"  # grew since its stat: read on
    with open(path, "rb") as file:
        assert read_capped(file.fileno(), 10) == b"abc"  # shrank: what is there
    path.write_bytes(b"y" * (MAX_FILE_BYTES + 10))
    with open(path, "rb") as file:
        assert len(read_capped(file.fileno(), 0)) == MAX_FILE_BYTES + 1  # enough to tell


def test_is_bundle_never_for_python() -> None:
    code = b"a();" * 300 + b"\n"
    assert is_bundle("app.js", code) and is_bundle("app.ts", code)
    assert not is_bundle("app.py", code)
    assert not is_bundle("app.js", b"const a = 1;\n")


def test_judge_bytes_through_directories_opened_once(tmp_path: Path, root_fd: int) -> None:
    for rel, data in (
        ("a/b/one.py", b"1"),
        ("a/b/two.py", b"2"),
        ("a/b/latin1.py", "\xe9".encode("latin-1")),
        ("top.py", b"t"),
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    (tmp_path / "a" / "b" / "link.py").symlink_to("one.py")
    before = len(os.listdir("/proc/self/fd"))
    with Directories(root_fd) as directories:
        assert judge_bytes(directories, found(tmp_path, "a/b/one.py")) == b"1"
        assert judge_bytes(directories, found(tmp_path, "a/b/two.py")) == b"2"
        assert list(directories.open) == ["a/b"]  # one chain for the folder's files
        assert judge_bytes(directories, found(tmp_path, "a/b/latin1.py")) is None
        assert judge_bytes(directories, found(tmp_path, "a/b/link.py")) is None  # no symlink
        assert judge_bytes(directories, Found("a/gone.py", os.stat(tmp_path))) is None
        assert judge_bytes(directories, found(tmp_path, "top.py")) == b"t"
    assert directories.open == {} and len(os.listdir("/proc/self/fd")) == before


def test_directories_keep_a_few_chains_least_recently_used_out(
    tmp_path: Path, root_fd: int
) -> None:
    names = [f"d{n}" for n in range(Directories.KEEP + 2)]
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "m.py").write_text(name)
    with Directories(root_fd) as directories:
        for name in names:
            assert judge_bytes(directories, found(tmp_path, f"{name}/m.py")) == name.encode()
        assert list(directories.open) == names[2:]
