"""The Python host drives the Node and the Python reference detectors: byte-identical documents.

The two detectors share no code; only DESIGN.md's rules. Equality over the demo repo and over a
generated repo built to hit every ordering and encoding corner is the evidence they agree.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import DEMO_REPO, FIXTURE_PLUGINS, REPO, process_gone
from deep_trees import remove_tree
from gateway_harness import reference_plugin, running_gateway, write_config

from gpp.core import canonical, codes
from gpp.host import PluginSession

NODE = shutil.which("node") or "node"
PYTHON_DETECTOR = ("reference-detector", None)
NODE_DETECTOR = ("reference-detector-node", [NODE, str(REPO / "plugins/reference_detector.mjs")])
DEMO_PATHS = [".", "README.md", "outside.gfx", "missing.gfx", "legacy/latin1.gfx"]


def _session(detector: tuple[str, list[str] | None], root: Path) -> PluginSession:
    import sys

    plugin_id, command = detector
    command = command or [sys.executable, str(REPO / "plugins/reference_detector.py")]
    return PluginSession(command, plugin_id, "1.0.0", cwd=str(root))


async def _both(root: Path, paths: list[str]) -> tuple[bytes, bytes]:
    documents = []
    for detector in (PYTHON_DETECTOR, NODE_DETECTOR):
        async with _session(detector, root) as session:
            documents.append(canonical(await session.discover(paths, request_id="same")))
    return documents[0], documents[1]


def generated_repo(root: Path, files: int = 1200) -> Path:
    """Unicode names in every byte-order corner, attrs in odd orders, every fault kind."""
    rng = random.Random(7)
    names = [
        "Zeta",
        "alpha",
        "école",
        "ёлка",
        "日本",
        "😀emoji",
        "\ue000private",
        "a b",
        "Ab",
        "ab",
    ]
    for n in range(files):
        directory = root / rng.choice(names) / f"{rng.choice(names)}{n % 7}"
        directory.mkdir(parents=True, exist_ok=True)
        lines = ["# generated"]
        for k in range(rng.randint(1, 6)):
            table = f"t_{rng.randint(0, 400)}_{rng.choice(names)}"
            attrs = " ".join(
                f"{key}={rng.choice(names)}"
                for key in rng.sample(
                    ["pii", "1", "10", "2", "z", "ключ", "owner"], rng.randint(0, 4)
                )
            )
            lines.append(f"table {table} {attrs}".rstrip())
            lines.append(f"route GET /{rng.choice(names)}/{k}\tauth=required")
        if n % 97 == 0:
            lines.append("route GET")  # parse error
        if n % 89 == 0:
            lines.append("bogus directive")
        text = "\r\n".join(lines) if n % 5 == 0 else "\n".join(lines)
        prefix = "\ufeff" if n % 31 == 0 else ""
        (directory / f"{rng.choice(names)}-{n}.gfx").write_text(prefix + text + "\n", "utf-8")
    (root / "bad.gfx").write_bytes(b"table caf\xe9\n")
    (root / ".hidden.gfx").write_text("table hidden\n")
    (root / "notes.txt").write_text("not a gfx file\n")
    os.symlink(root / "bad.gfx", root / "link.gfx")
    os.symlink("/etc/hostname", root / "escape.gfx")
    os.symlink(root / "missing-target", root / "dangling.gfx")
    return root


def test_demo_repo_documents_are_byte_identical() -> None:
    python_doc, node_doc = asyncio.run(_both(DEMO_REPO, DEMO_PATHS))
    assert python_doc == node_doc


def test_no_paths_is_answered_with_the_same_empty_document() -> None:
    python_doc, node_doc = asyncio.run(_both(DEMO_REPO, []))
    assert (
        python_doc
        == node_doc
        == canonical(
            {
                "classificationSignals": [],
                "findings": [],
                "requestId": "same",
                "resources": [],
                "unresolved": [],
            }
        )
    )


def test_generated_repo_documents_are_byte_identical(tmp_path: Path) -> None:
    root = generated_repo(tmp_path)
    paths = [".", "bad.gfx", "link.gfx", "escape.gfx", "dangling.gfx", "notes.txt", "nope.gfx",
             "日本", "école"]  # fmt: skip
    python_doc, node_doc = asyncio.run(_both(root, paths))
    assert python_doc == node_doc
    import json

    doc = json.loads(python_doc)
    assert len({r["location"]["path"] for r in doc["resources"]}) >= 1000
    assert doc["classificationSignals"] and doc["findings"]
    assert {u["reason"] for u in doc["unresolved"]} == {
        "unreadable",
        "parse-error",
        "unsupported",
        "not-found",
    }


def test_through_http_the_bodies_are_byte_identical(tmp_path: Path) -> None:
    node = {
        "id": "reference-detector-node",
        "version": "1.0.0",
        "root": str(DEMO_REPO),
        "command": NODE_DETECTOR[1],
    }
    config = write_config(tmp_path, [reference_plugin(), node])
    with running_gateway(config) as gw, gw.client() as http:
        bodies = [
            http.post(f"/plugins/{plugin}/discover", json={"paths": DEMO_PATHS, "requestId": "r"})
            for plugin in ("reference-detector", "reference-detector-node")
        ]
    assert [b.status_code for b in bodies] == [200, 200]
    assert bodies[0].content == bodies[1].content
    assert bodies[0].headers["X-GPP-Digest"] == bodies[1].headers["X-GPP-Digest"]


@pytest.mark.parametrize("detector", [PYTHON_DETECTOR, NODE_DETECTOR], ids=["python", "node"])
def test_a_thousand_discovers_on_one_session(detector: tuple[str, list[str] | None]) -> None:
    async def scenario() -> PluginSession:
        async with _session(detector, DEMO_REPO) as session:
            first = None
            for n in range(1000):
                result = await session.discover(["api", "billing"], request_id=f"r{n}")
                assert result["requestId"] == f"r{n}"
                body = canonical({k: v for k, v in result.items() if k != "requestId"})
                assert first is None or body == first
                first = body
        return session

    session = asyncio.run(scenario())
    assert session.returncode == 0 and process_gone(session.pid)


BUDGET_PLUGINS = {
    "python": (
        "import sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from gpp.sdk import request_budget_ms, serve\n"
        "def discover(paths):\n"
        "    here = {'path': 'x', 'line': 1}\n"
        "    return {'resources': [{'kind': 'budget', 'name': str(request_budget_ms()),\n"
        "             'location': here, 'attrs': {}}],\n"
        "            'unresolved': [], 'findings': [], 'classificationSignals': []}\n"
        "sys.exit(serve('budget', '1.0.0', discover))\n"
    ),
    "node": (
        f"import {{ requestBudgetMs, servePlugin }} from {(REPO / 'plugins/sdk/node/index.js').as_uri()!r};\n"
        "const here = { path: 'x', line: 1 };\n"
        "process.exitCode = await servePlugin(() => ({ resources: [{ kind: 'budget',\n"
        "  name: String(requestBudgetMs()), location: here, attrs: {} }], unresolved: [],\n"
        "  findings: [], classificationSignals: [] }), { pluginId: 'budget', pluginVersion: '1.0.0' });\n"
    ),
}


@pytest.mark.parametrize("language", sorted(BUDGET_PLUGINS))
def test_each_sdk_tells_its_plugin_the_hosts_request_budget(tmp_path: Path, language: str) -> None:
    """The host's `request_ms` reaches a plugin through its SDK's accessor (the contract's
    `environment.requestBudget`), the same figure in both languages."""
    import sys

    from gpp.host import Timeouts

    plugin = tmp_path / ("budget.py" if language == "python" else "budget.mjs")
    plugin.write_text(BUDGET_PLUGINS[language], "utf-8")
    command = [sys.executable if language == "python" else NODE, str(plugin)]

    async def run() -> Any:
        session = PluginSession(command, "budget", "1.0.0", cwd=str(tmp_path), timeouts=Timeouts(request_ms=4321))  # fmt: skip
        async with session:
            return await session.discover(["."])

    document = asyncio.run(run())
    assert [r["name"] for r in document["resources"]] == ["4321"]


def test_node_gpp2_peer_fails_at_the_handshake() -> None:
    async def scenario() -> codes.ProtocolError:
        session = PluginSession(
            [NODE, str(FIXTURE_PLUGINS / "plugin_gpp2_peer.mjs")], "fixture", "1.0.0"
        )
        with pytest.raises(codes.ProtocolVersionError) as info:
            await session.start()
        assert process_gone(session.pid)
        return info.value

    error = asyncio.run(scenario())
    assert error.fail_line() == (
        "[plugin-protocol] FAIL E_PROTOCOL_VERSION: frame 1: hello.protocolVersion speaks GPP/2 "
        "but this host speaks GPP/3 — expected 3, got integer 2"
    )
    assert (
        error.diagnostic()
        .splitlines()[1]
        .startswith('[plugin-protocol] offending frame: {"protocolVersion":2,')
    )


# ------------------------------------------------------------- strange, deep, wide and big trees

PRLIMIT = shutil.which("prlimit") or "prlimit"


def _registered_env(plugin_id: str) -> dict[str, str]:
    """The `env` the shipped registry gives `plugin_id` (what the gateway would run it with)."""
    import tomllib

    registry = tomllib.loads((REPO / "plugins/registry.toml").read_text("utf-8"))
    (entry,) = [p for p in registry["plugin"] if p["id"] == plugin_id]
    return {**os.environ, **entry.get("env", {})}


async def _both_limited(
    root: Path, paths: list[str], *limits: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both detectors' documents, each run under `prlimit limits…` with its registered env."""
    import json
    import sys

    from gpp.host import Timeouts

    documents = []
    for plugin_id, command in (
        ("reference-detector", [sys.executable, str(REPO / "plugins/reference_detector.py")]),
        NODE_DETECTOR,
    ):
        assert command is not None
        session = PluginSession(
            [PRLIMIT, *limits, *command],
            plugin_id,
            "1.0.0",
            cwd=str(root),
            env=_registered_env(plugin_id),
            timeouts=Timeouts(handshake_ms=20000, request_ms=60000, shutdown_ms=10000),
            max_line_bytes=64 * 1024 * 1024,
        )
        async with session:
            result = await session.discover(paths, request_id="same")
        documents.append(json.loads(canonical(result)))
    return documents[0], documents[1]


def test_names_no_repo_path_can_carry_are_skipped_and_reported(tmp_path: Path) -> None:
    """`x\\y.gfx` or `c:x.gfx` in a walked directory failed the whole discover with E_SCHEMA
    (the document named a path the schema refuses); now each is an `unsupported` entry at its
    directory, and the rest of the tree still counts."""
    (tmp_path / "x\\y.gfx").write_text("table backslash\n")
    (tmp_path / "c:x.gfx").write_text("table drive\n")
    (tmp_path / "a\\b").mkdir()
    (tmp_path / "a\\b" / "in.gfx").write_text("table below_backslash\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c:fine.gfx").write_text("table fine\n")  # a drive letter only at the top
    (tmp_path / "ok.gfx").write_text("table ok\n")
    (tmp_path / os.fsdecode(b"caf\xe9.gfx")).write_text("table latin1_name\n")
    python_doc, node_doc = asyncio.run(_both_limited(tmp_path, ["."]))
    assert python_doc == node_doc
    assert [r["name"] for r in python_doc["resources"]] == ["ok", "fine"]
    assert python_doc["unresolved"] == [
        {"path": ".", "reason": "unsupported", "detail": d}
        for d in (
            "skipped a\\b: not a repo-relative path (must not contain a backslash)",
            "skipped c:x.gfx: not a repo-relative path (must not start with a drive letter)",
            "skipped an entry whose name is not UTF-8",
            "skipped x\\y.gfx: not a repo-relative path (must not contain a backslash)",
        )
    ]


def test_deep_trees_are_walked_whole_with_few_descriptors(tmp_path: Path) -> None:
    """1,100 levels (the Python detector hit RecursionError) under a 32-descriptor limit: the
    file at the bottom and one 300 levels down are both found, by both detectors."""
    directory = tmp_path
    for level in range(1, 1101):
        directory = directory / "d"
        directory.mkdir()
        if level in (300, 1100):
            (directory / f"at{level}.gfx").write_text(f"table at{level}\n")
    try:
        python_doc, node_doc = asyncio.run(_both_limited(tmp_path, ["."], "--nofile=32"))
    finally:
        remove_tree(tmp_path / "d")  # pytest's clean-up recurses
    assert python_doc == node_doc
    assert [r["name"] for r in python_doc["resources"]] == ["at300", "at1100"]
    assert python_doc["unresolved"] == []


def test_a_wide_directory_fits_the_node_detector_in_its_memory_limit(tmp_path: Path) -> None:
    """30,000 files in one directory under the default 1 GiB address-space limit: the Node
    detector aborted (std::bad_alloc) while the Python one answered."""
    (tmp_path / "d").mkdir()
    for n in range(30000):
        (tmp_path / "d" / f"f{n}.gfx").write_bytes(b"table t%d\n" % n)
    python_doc, node_doc = asyncio.run(_both_limited(tmp_path, ["."], f"--as={1 << 30}"))
    assert python_doc == node_doc
    assert len(python_doc["resources"]) == 30000


def test_a_walked_file_over_the_cap_is_reported_not_read(tmp_path: Path) -> None:
    """The size cap of a named file holds for one reached by walking `.` (a 20 MB `.gfx` gave
    E_FRAME_JSON, a 200 MB one crashed the plugin)."""
    with open(tmp_path / "big.gfx", "wb") as big:
        big.truncate(20 * 1024 * 1024)  # sparse: costs no disk
    (tmp_path / "small.gfx").write_text("table small\n")
    python_doc, node_doc = asyncio.run(_both_limited(tmp_path, ["."]))
    assert python_doc == node_doc
    assert python_doc["unresolved"] == [
        {"path": "big.gfx", "reason": "too-large", "detail": "larger than 16777216 bytes"}
    ]
    assert [r["name"] for r in python_doc["resources"]] == ["small"]
