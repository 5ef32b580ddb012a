"""The bundled reference detector over the demo repo, through the real host session."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import DEMO_REPO, REPO, process_gone, reference_command
from symlink_race import then_swap

from gpp.core import canonical
from gpp.host import PluginSession

sys.path.insert(0, str(REPO / "plugins"))

import reference_detector

GOLDEN = Path(__file__).parents[1] / "vectors" / "demo_repo_document.json"
SWAP_HOOK = Path(__file__).parents[1] / "fixtures" / "hooks" / "swap_after_realpath.mjs"
DEMO_PATHS = [".", "README.md", "outside.gfx", "missing.gfx", "legacy/latin1.gfx"]


def _session(root: Path = DEMO_REPO) -> PluginSession:
    return PluginSession(reference_command(), "reference-detector", "1.0.0", cwd=str(root))


async def _discover(paths: list[str], root: Path = DEMO_REPO) -> dict[str, Any]:
    async with _session(root) as session:
        result = await session.discover(paths, request_id="golden")
    return result


def test_demo_repo_document_matches_the_golden_file() -> None:
    document = asyncio.run(_discover(DEMO_PATHS))
    assert document == json.loads(GOLDEN.read_text("utf-8"))


def test_demo_repo_exercises_every_feature() -> None:
    doc = asyncio.run(_discover(DEMO_PATHS))
    kinds = {r["kind"] for r in doc["resources"]}
    reasons = {u["reason"] for u in doc["unresolved"]}
    assert kinds == {"table", "route"}
    assert reasons == {"unsupported", "parse-error", "unreadable", "not-found"}
    assert [f["code"] for f in doc["findings"]] == ["DUPLICATE_TABLE_NAME"]
    assert {
        "resource": "table:users",
        "signal": "pii",
        "value": "email,phone",
        "source": {"path": "api/users.gfx", "line": 2},
    } in doc["classificationSignals"]
    assert not any(".hidden" in r["location"]["path"] for r in doc["resources"])
    assert {
        "path": "outside.gfx",
        "reason": "unreadable",
        "detail": "symlink leads outside the repository",
    } in doc["unresolved"]


def test_same_request_gives_byte_identical_documents_across_sessions() -> None:
    first = canonical(asyncio.run(_discover(["."])))
    second = canonical(asyncio.run(_discover(["."])))
    assert first == second


def test_one_session_serves_many_discovers() -> None:
    async def scenario() -> None:
        async with _session() as session:
            documents = set()
            for n in range(150):
                result = await session.discover(["api", "billing"], request_id=f"r{n}")
                assert result["requestId"] == f"r{n}"
                documents.add(canonical({k: v for k, v in result.items() if k != "requestId"}))
            assert len(documents) == 1
        assert session.returncode == 0 and process_gone(session.pid)

    asyncio.run(scenario())


def test_walk_order_is_by_utf8_bytes_and_skips_symlinks(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.gfx").write_text("table zed\n")
    (tmp_path / "a.gfx").write_text("route GET /a\n")
    (tmp_path / "é.gfx").write_text("table accented\n")
    (tmp_path / "Z.gfx").write_text("table upper\ntable upper\n")
    os.symlink(tmp_path / "a.gfx", tmp_path / "link.gfx")
    doc = asyncio.run(_discover(["."], root=tmp_path))
    assert [r["location"]["path"] for r in doc["resources"]] == [
        "Z.gfx",
        "Z.gfx",
        "a.gfx",
        "b/z.gfx",
        "é.gfx",
    ]
    assert doc["findings"][0]["locations"] == [
        {"path": "Z.gfx", "line": 1},
        {"path": "Z.gfx", "line": 2},
    ]


def test_plugin_run_from_a_copy_under_tmp(tmp_path: Path) -> None:
    shutil.copytree(DEMO_REPO, tmp_path / "repo", symlinks=True)
    doc = asyncio.run(_discover(["api"], root=tmp_path / "repo"))
    assert len(doc["resources"]) == 3


def _race_repo(tmp_path: Path) -> tuple[Path, Path, Path]:
    repo = tmp_path / "repo"
    repo.mkdir()
    victim = repo / "victim.gfx"
    victim.write_text("table harmless\n")
    secret = tmp_path / "secret.gfx"
    secret.write_text("table leaked_secret pii=ssn\n")
    return repo, victim, secret


SWAPPED = [{"path": "victim.gfx", "reason": "unreadable", "detail": "cannot be read"}]


def test_python_detector_never_reads_a_symlink_swapped_in_after_its_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, victim, secret = _race_repo(tmp_path)
    monkeypatch.setattr(
        reference_detector, "_locate", then_swap(reference_detector._locate, victim, secret)
    )
    monkeypatch.chdir(repo)
    document = reference_detector.discover(["victim.gfx"])
    assert "leaked_secret" not in repr(document)
    assert document["resources"] == [] and document["unresolved"] == SWAPPED


def test_node_detector_never_reads_a_symlink_swapped_in_after_its_check(tmp_path: Path) -> None:
    repo, victim, secret = _race_repo(tmp_path)
    command = [
        shutil.which("node") or "node",
        "--import",
        str(SWAP_HOOK),
        str(REPO / "plugins" / "reference_detector.mjs"),
    ]
    session = PluginSession(
        command,
        "reference-detector-node",
        "1.0.0",
        cwd=str(repo),
        env={"SWAP_VICTIM": "victim.gfx", "SWAP_SECRET": str(secret)},
    )

    async def scenario() -> dict[str, Any]:
        async with session:
            return await session.discover(["victim.gfx"])

    document = asyncio.run(scenario())
    assert victim.is_symlink()  # the hook did swap it
    assert "leaked_secret" not in repr(document)
    assert document["resources"] == [] and document["unresolved"] == SWAPPED


def test_nested_file_whose_directory_is_swapped_after_its_check_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`_locate`'s check found `sub/victim.gfx` with no symlink on the way; a directory of that
    path is then swapped for a link out: the read's O_NOFOLLOW chain refuses it."""
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    (repo / "sub" / "victim.gfx").write_text("table harmless\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.gfx").write_text("table leaked_secret pii=ssn\n")
    monkeypatch.setattr(
        reference_detector, "_locate", then_swap(reference_detector._locate, repo / "sub", outside)
    )
    monkeypatch.chdir(repo)
    for paths in (["sub/victim.gfx"], ["sub"]):  # named, and found by the walk
        document = reference_detector.discover(paths)
        assert "leaked_secret" not in repr(document)
        assert document["resources"] == []
        assert document["unresolved"] == [
            {"path": "sub/victim.gfx", "reason": "unreadable", "detail": "cannot be read"}
        ]
        (repo / "sub").unlink()
        (repo / "sub-moved").rename(repo / "sub")


def _symlinked_repo(root: Path) -> Path:
    (root / "d" / "e").mkdir(parents=True)
    (root / "d" / "e" / "x.gfx").write_text("table x\nroute GET /x a=b\n")
    (root / "d" / "y.gfx").write_text("table y\nbogus\n")
    (root / "d.gfx").mkdir()
    (root / "d.gfx" / "z.gfx").write_text("table z\n")
    (root / "notes.txt").write_text("no\n")
    (root / "bad.gfx").write_bytes(b"table caf\xe9\n")
    os.mkfifo(root / "fifo.gfx")
    outside = root.parent / "outside"
    outside.mkdir()
    (outside / "s.gfx").write_text("table secret\n")
    os.symlink("d", root / "in-dir")
    os.symlink("d/y.gfx", root / "in-file.gfx")
    os.symlink(outside, root / "out-dir")
    os.symlink(outside / "s.gfx", root / "out-file.gfx")
    os.symlink("missing", root / "dangling.gfx")
    os.symlink("in-dir", root / "link-to-link")
    return root


PROBED_PATHS = [
    ".", "d", "d/e", "d/e/x.gfx", "d/y.gfx", "d.gfx", "d.gfx/z.gfx", "notes.txt", "bad.gfx",
    "fifo.gfx", "in-dir", "in-dir/e/x.gfx", "in-file.gfx", "out-dir", "out-dir/s.gfx",
    "out-file.gfx", "dangling.gfx", "link-to-link", "link-to-link/y.gfx", "missing",
    "missing/x.gfx", "d/missing.gfx", "bad.gfx/below", "notes.txt/x.gfx",
]  # fmt: skip


@pytest.mark.parametrize("path", PROBED_PATHS)
def test_the_no_symlink_shortcut_agrees_with_resolving_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """`_locate` skips `realpath` when no component is a symlink; `_locate_by_name`, which
    resolves every path, must reach the very same verdict and files."""
    repo = _symlinked_repo(tmp_path / "repo")
    monkeypatch.chdir(repo)
    root_fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        fast: dict[str, str] = {}
        slow: dict[str, str] = {}
        fast_skips: list[dict[str, Any]] = []
        slow_skips: list[dict[str, Any]] = []
        verdict = reference_detector._locate(path, root_fd, fast, fast_skips)
        assert verdict == reference_detector._locate_by_name(path, root_fd, slow, slow_skips)
        assert fast == slow and fast_skips == slow_skips
    finally:
        os.close(root_fd)


def test_words_are_split_as_the_regex_does() -> None:
    """The Node twin splits at `/[ \t]+/`: `_words` must give the same words. 300 examples
    find each way of getting it wrong in every one of 20 seeded runs (measured: `str.split()`,
    other whitespace; no `\r` strip, or all of them, or `rstrip()`; tabs not split)."""
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    pieces = st.sampled_from(
        [" ", "\t", "\r", "\n", "\x0b", "\x0c", "\xa0", "\u3000", "#", "=", "a", "b=c", "é",
         "table", "route", "GET", "/x", "k=", "=v"]
    )  # fmt: skip

    @settings(max_examples=300)
    @given(st.lists(pieces, max_size=12).map("".join))
    def check(line: str) -> None:
        expected = [w for w in re.split(r"[ \t]+", line.rstrip("\r")) if w]
        assert reference_detector._words(line) == expected

    check()


def test_a_session_keeps_reading_the_directory_it_started_in(tmp_path: Path) -> None:
    """The served detector opens its root once. The working directory is the directory, not
    its name: moved away and replaced, it is still what a per-request `open(".")` would name,
    so the pinned descriptor reads exactly what the plugin read before it was pinned."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.gfx").write_text("table original\n")

    async def scenario() -> tuple[dict[str, Any], ...]:
        async with _session(repo) as session:
            before = await session.discover(["."], request_id="r")
            repo.rename(tmp_path / "moved")
            replacement = tmp_path / "replacement"
            replacement.mkdir()
            (replacement / "a.gfx").write_text("table replaced\n")
            os.symlink(replacement, repo)  # the old name now leads elsewhere
            after = await session.discover(["."], request_id="r")
            (tmp_path / "moved" / "b.gfx").write_text("table added\n")
            added = await session.discover(["."], request_id="r")
        return before, after, added

    before, after, added = asyncio.run(scenario())
    assert after == before
    assert [r["name"] for r in added["resources"]] == ["original", "added"]
    fresh = asyncio.run(_discover(["."], root=repo))
    assert [r["name"] for r in fresh["resources"]] == ["replaced"]
