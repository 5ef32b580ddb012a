"""`pack-http-routes` over realistic sample apps, through the real host session and sandbox.

Each app under tests/fixtures/repos/ has its expected document in
tests/fixtures/repos/<app>.routes.json, derived by hand from the frameworks' own rules (prefix joining,
default methods, auth dependencies) and compared byte for byte.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, process_gone

from gpp.core import canonical
from gpp.host import PluginSession, SandboxPolicy

sys.path.insert(0, str(REPO / "plugins"))

from pack_http_routes import PLUGIN_ID, PLUGIN_VERSION, make_scanner
from packs.routes import RouteDocumentMemo

PLUGIN = REPO / "plugins" / "pack_http_routes.py"
REPOS = REPO / "tests" / "fixtures" / "repos"
APPS = {
    "fastapi-app": ["."],
    "fastapi-plugins-app": ["."],
    "flask-app": ["."],
    "starlette-app": ["."],
    "express-app": ["."],
    "express-factory-app": ["."],
    "express-ts-app": ["."],
    "express-views-app": ["."],
    "mixed-broken": [".", "README.md", "missing.py"],
}


def _session(root: Path) -> PluginSession:
    return PluginSession(
        [sys.executable, str(PLUGIN)],
        PLUGIN_ID,
        PLUGIN_VERSION,
        cwd=str(root),
        sandbox=SandboxPolicy(readonly_root=True),
    )


async def _discover(root: Path, paths: list[str]) -> dict[str, Any]:
    async with _session(root) as session:
        return await session.discover(paths, request_id="golden")


def _pretty(document: dict[str, Any]) -> bytes:
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


@pytest.mark.parametrize("app", sorted(APPS))
def test_sample_app_gives_its_expected_document_under_the_default_sandbox(app: str) -> None:
    document = asyncio.run(_discover(REPOS / app, APPS[app]))
    assert _pretty(document) == (REPOS / f"{app}.routes.json").read_bytes()


def test_every_sample_app_contributes_routes_and_auth_both_ways() -> None:
    """Guards the expectations themselves: no app's document is trivially empty."""
    for app in APPS:
        expected = json.loads((REPOS / f"{app}.routes.json").read_text("utf-8"))
        assert expected["resources"], app
        values = {s["value"] for s in expected["classificationSignals"]}
        assert values == ({"none"} if app == "mixed-broken" else {"none", "required"}), app


def test_documents_are_byte_identical_across_sessions_and_requests() -> None:
    async def scenario() -> list[bytes]:
        documents = []
        for _ in range(2):
            async with _session(REPOS / "express-app") as session:
                for n in range(2):
                    result = await session.discover(["."], request_id=f"r{n}")
                    result.pop("requestId")
                    documents.append(canonical(result))
            assert session.returncode == 0 and process_gone(session.pid)
        return documents

    documents = asyncio.run(scenario())
    assert len(set(documents)) == 1 and b"GET /api/v1/users/" in documents[0]


@pytest.fixture
def fastapi_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = tmp_path / "fastapi-app"
    shutil.copytree(REPOS / "fastapi-app", repo)
    monkeypatch.chdir(repo)
    return repo


def test_a_repeated_discover_parses_nothing_again(fastapi_copy: Path) -> None:
    scanner = make_scanner()
    first = scanner.discover(["."])
    files = scanner.memo.stats.misses  # the pre-filter's choice: fewer than every file
    assert files == scanner.parsed < len(list(fastapi_copy.rglob("*.py")))
    assert scanner.memo.stats.hits == 0
    assert isinstance(scanner.link, RouteDocumentMemo)
    links = scanner.link.links  # one per round of the pre-filter's on-demand parsing
    second = scanner.discover(["."])
    assert scanner.memo.stats.misses == files  # nothing re-parsed
    assert scanner.documents.hits == 1  # the last document: no file even looked up
    assert canonical(first) == canonical(second)
    assert scanner.link.links == links  # nor re-linked
    scanner.documents.forget()
    assert canonical(scanner.discover(["."])) == canonical(first)
    assert scanner.memo.stats.hits == files and scanner.memo.stats.misses == files
    assert scanner.link.links == links  # from the memo, the very facts: not re-linked either


def test_a_changed_file_is_parsed_again_alone_and_its_routes_follow(fastapi_copy: Path) -> None:
    scanner = make_scanner()
    before = {r["name"] for r in scanner.discover(["."])["resources"]}
    assert isinstance(scanner.link, RouteDocumentMemo)
    links = scanner.link.links
    users = fastapi_copy / "backend/app/api/routes/users.py"
    users.write_text(users.read_text().replace('prefix="/users"', 'prefix="/members"'))
    misses = scanner.memo.stats.misses
    after = {r["name"] for r in scanner.discover(["."])["resources"]}
    assert scanner.memo.stats.misses == misses + 1
    assert scanner.link.links == links + 1  # linked again once: nothing new was asked for
    assert "GET /api/v1/users/me" in before and "GET /api/v1/users/me" not in after
    assert after - before == {
        name.replace("/users", "/members") for name in before if "/api/v1/users" in name
    }


def test_the_registered_plugin_reads_the_sample_app_through_the_cli() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gpp.gateway",
            "discover",
            "--config",
            "plugins/registry.toml",
            PLUGIN_ID,
            ".",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    signals = {s["resource"]: s["value"] for s in json.loads(done.stdout)["classificationSignals"]}
    assert signals["route:GET /api/v1/users/me"] == "required"
    assert signals["route:GET /api/v1/users/{user_id}"] == "none"
    assert signals["route:POST /shop/products"] == "required"
    assert signals["route:DELETE /api/v1/orders/{order_id}"] == "required"
