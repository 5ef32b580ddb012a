"""The packs' shared scan scaffold: walk rules, safe opens, unresolved reasons, memo, ordering."""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from symlink_race import then_swap

from gpp.plugin import repo_files

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs import scan, scan_read, scan_walk
from packs.builders import (
    location,
)
from packs.scan import DocumentPieces, JSONObject, Scanner

Facts = list[tuple[str, int]]


def _functions(path: str, source: str) -> Facts:
    return [
        (n.name, n.lineno) for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)
    ]


def _link(files: Sequence[tuple[str, Facts]]) -> DocumentPieces:
    linked = DocumentPieces()
    for path, facts in files:
        for name, line in facts:
            linked.resources.append(
                {"kind": "function", "name": name, "location": location(path, line), "attrs": {}}
            )
    return linked


@pytest.fixture
def in_repo(tmp_path: Path) -> Iterator[Path]:
    repo = tmp_path / "repo"
    repo.mkdir()
    old = os.getcwd()
    os.chdir(repo)
    try:
        yield repo
    finally:
        os.chdir(old)


def _scanner() -> Scanner[Facts]:
    return Scanner((".py",), _functions, _link, language="Python")


def _write(repo: Path, rel: str, text: str) -> Path:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def _names(document: JSONObject) -> list[tuple[str, str]]:
    return [(r["location"]["path"], r["name"]) for r in document["resources"]]


def test_walk_skips_hidden_virtualenvs_vendored_and_built_trees_in_utf8_order(
    in_repo: Path,
) -> None:
    for rel in ["b/z.py", "a.py", "a/b.py", "é.py", "Z.py", "app/x.py"]:
        _write(
            in_repo,
            rel,
            "def " + rel.replace("/", "_").replace(".py", "").replace("é", "e") + "(): pass\n",
        )
    for rel in [
        ".hidden/h.py",
        "venv/v.py",
        "env/lib/e.py",
        "node_modules/n.py",
        "app/__pycache__/c.py",
        "lib/site-packages/s.py",
        "dist/d.py",
        "build/b.py",
        "app/.secret.py",
    ]:
        _write(in_repo, rel, "def skipped(): pass\n")
    _write(in_repo, "env/pyvenv.cfg", "home = /usr\n")
    _write(in_repo, "notes.txt", "def not_python(): pass\n")
    os.symlink(in_repo / "a.py", in_repo / "link.py")
    document = _scanner().discover(["."])
    assert _names(document) == [
        ("Z.py", "Z"),
        ("a.py", "a"),
        ("a/b.py", "a_b"),
        ("app/x.py", "app_x"),
        ("b/z.py", "b_z"),
        ("é.py", "e"),
    ]
    assert document["unresolved"] == [
        {
            "path": d,
            "reason": "unsupported",
            "detail": f"generated code is not read (a {d}/ directory)",
        }
        for d in ("build", "dist")
    ]


def test_unresolved_reasons_and_other_files_still_count(in_repo: Path) -> None:
    _write(in_repo, "good.py", "def good(): pass\n")
    _write(in_repo, "broken.py", "def ok(): pass\n\ndef broken(:\n")
    _write(in_repo, "README.md", "# hi\n")
    (in_repo / "latin1.py").write_bytes(b"name = '\xe9'\n")
    (in_repo / "big.py").write_bytes(b"#" * (scan.MAX_FILE_BYTES + 1))
    outside = in_repo.parent / "outside.py"
    outside.write_text("def secret(): pass\n")
    os.symlink(outside, in_repo / "escape.py")
    os.symlink(in_repo / "good.py", in_repo / "alias.py")
    document = _scanner().discover(
        [
            "broken.py",
            "good.py",
            "README.md",
            "missing.py",
            "latin1.py",
            "big.py",
            "escape.py",
            "alias.py",
        ]
    )
    assert _names(document) == [("alias.py", "good"), ("good.py", "good")]
    assert document["unresolved"] == [
        {"path": "README.md", "reason": "unsupported", "detail": "not a Python file"},
        {"path": "big.py", "reason": "too-large", "detail": "larger than 2097152 bytes"},
        {"path": "broken.py", "reason": "parse-error", "detail": "line 3: invalid syntax"},
        {
            "path": "escape.py",
            "reason": "unreadable",
            "detail": "symlink leads outside the repository",
        },
        {"path": "latin1.py", "reason": "unreadable", "detail": "not valid UTF-8"},
        {"path": "missing.py", "reason": "not-found", "detail": "no such file or directory"},
    ]


@pytest.mark.parametrize(
    ("request_path", "hook", "swapped"),
    [
        ("app/models.py", "locate", "app/models.py"),  # the file, after its check
        (".", "_walk", "app"),
    ],  # its directory, after the walk listed it
)
def test_a_symlink_swapped_in_after_the_check_is_never_followed(
    in_repo: Path, monkeypatch: pytest.MonkeyPatch, request_path: str, hook: str, swapped: str
) -> None:
    _write(in_repo, "app/models.py", "def harmless(): pass\n")
    elsewhere = in_repo.parent / "elsewhere"
    _write(elsewhere, "models.py", "def leaked_secret(): pass\n")
    secret = elsewhere / "models.py" if swapped.endswith(".py") else elsewhere
    scanner = _scanner()
    checked = then_swap(getattr(scan_walk.Walk, hook), in_repo / swapped, secret)
    monkeypatch.setattr(scan_walk.Walk, hook, checked)
    document = scanner.discover([request_path])
    assert "leaked_secret" not in repr(document)
    assert (in_repo / swapped).is_symlink()  # the attacker did win the race
    assert document["unresolved"] == [
        {"path": "app/models.py", "reason": "unreadable", "detail": "symlink not followed"}
    ]


def test_repeated_discover_reparses_only_the_changed_file(
    in_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(5):
        _write(in_repo, f"m{n}.py", f"def f{n}(): pass\n")
    _write(in_repo, "bad.py", "def (\n")
    links: list[int] = []

    def counting_link(files: Sequence[tuple[str, Facts]]) -> DocumentPieces:
        links.append(len(files))
        return _link(files)

    scanner = Scanner((".py",), _functions, counting_link, language="Python")
    first = scanner.discover(["."])
    assert scanner.memo.stats.misses == 6
    opened: list[str] = []
    open_file = repo_files.open_file_in_root  # the function scan_read imported

    def recording_open(fd: int, rel: str) -> tuple[int, os.stat_result]:
        opened.append(rel)
        return open_file(fd, rel)

    monkeypatch.setattr(scan_read, "open_file_in_root", recording_open)
    assert scanner.discover(["."]) == first and opened == []  # a memo hit opens nothing
    # nothing changed: the last document, not even a file looked up (`packs.repeat`)
    assert (scanner.memo.stats.misses, scanner.memo.stats.hits) == (6, 0)
    assert scanner.documents.hits == 1
    assert links == [5]  # nothing changed: the last link's result is reused
    assert len(_names(scanner.discover(["m1.py", "m2.py"]))) == 2 and links == [5, 2]
    _write(in_repo, "m3.py", "def renamed(): pass\n\n\ndef added(): pass\n")
    third = scanner.discover(["."])
    assert opened == ["m3.py"]
    assert (scanner.memo.stats.misses, scanner.memo.stats.hits) == (7, 7)
    assert links == [5, 2, 5]
    assert [n for p, n in _names(third) if p == "m3.py"] == ["renamed", "added"]
    assert third["unresolved"][0]["path"] == "bad.py"


def _long_line_in_head_by_lines(data: bytes) -> bool:
    """The line-by-line reading `scan_read.long_line_in_head`'s one search is held to."""
    start = 0
    while start < min(len(data), scan_read.MINIFIED_HEAD):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        if end - start >= scan_read.MINIFIED_LINE:
            return True
        start = end + 1
    return False


def test_a_long_line_in_the_head_is_found_by_one_search_as_line_by_line() -> None:
    """Each script's head is looked at for a minified bundle's long line: one search over the
    head and what a line starting there reaches, the same answer as reading line by line, at
    the head's edge (a long line starting at its last byte, or just past it) and elsewhere."""
    head, line = scan_read.MINIFIED_HEAD, scan_read.MINIFIED_LINE
    cases = [b"", b"\n", b"x" * line, b"x" * (line - 1), b"x" * (line - 1) + b"\n" + b"y" * 5]
    for start in (head - 2, head - 1, head, head + 1):
        for length in (line - 1, line, line + 1):
            for end in (b"", b"\n", b"\r\n"):
                prefix = (b"a" * 79 + b"\n") * (start // 80) + b"b" * (start % 80 - 1) + b"\n"
                assert len(prefix) == start or start % 80 == 0
                cases.append(prefix[:start] + b"z" * length + end + b"tail\n")
    answers = set()
    for data in cases:
        answers.add(_long_line_in_head_by_lines(data))
        assert scan_read.long_line_in_head(data) is _long_line_in_head_by_lines(data), len(data)
    assert answers == {True, False}
