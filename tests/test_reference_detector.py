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

from gpp.canonical_json import canonical
from gpp.host import PluginSession

sys.path.insert(0, str(REPO / "plugins"))

import reference_detector

GOLDEN = Path(__file__).parent / "vectors" / "demo_repo_document.json"
SWAP_HOOK = Path(__file__).parent / "fixtures" / "hooks" / "swap_after_realpath.mjs"
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
