"""The README and docs/ cannot drift: every shell, Python and JavaScript block is run here or
names the test that runs it; links resolve; the README stays short enough to read.

A block is claimed by the HTML comment on the line before it:
`<!-- tested by tests/<side>/test_x.py::test_name -->`, naming a test that exists.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import DOC_PAGES, REPO, doc
from gateway_harness import stop

from app.config import parse_config
from gpp.core import DOCUMENT

RUNNABLE = ("sh", "bash", "python", "js")
CLAIM = re.compile(r"<!-- tested by (tests/[\w/]+\.py)::(\w+) -->")
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")
README_MAX_LINES = 150


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    language: str
    code: str
    claim: tuple[str, str] | None

    def __str__(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line} ({self.language})"


def blocks(page: Path) -> list[Block]:
    lines = page.read_text("utf-8").splitlines()
    found, index = [], 0
    while index < len(lines):
        opening = re.match(r"^(\s*)```(\w*)\s*$", lines[index])
        if opening is None:
            index += 1
            continue
        indent, language = opening.groups()
        end = index + 1
        while not lines[end].strip().startswith("```"):
            end += 1
        code = "\n".join(line.removeprefix(indent) for line in lines[index + 1 : end]) + "\n"
        claim = CLAIM.search(lines[index - 1]) if index else None
        found.append(
            Block(page, index + 1, language, code, (claim[1], claim[2]) if claim else None)
        )
        index = end + 1
    return found


ALL_BLOCKS = [block for page in DOC_PAGES for block in blocks(page)]


def test_every_runnable_block_names_an_existing_test() -> None:
    unclaimed = [str(b) for b in ALL_BLOCKS if b.language in RUNNABLE and b.claim is None]
    assert not unclaimed, f"blocks no test runs (add `<!-- tested by FILE::TEST -->`): {unclaimed}"
    for block in ALL_BLOCKS:
        if block.claim is None:
            continue
        path, name = block.claim
        source = REPO / path
        assert source.is_file(), f"{block} names {path}, which does not exist"
        defined = {
            node.name
            for node in ast.walk(ast.parse(source.read_text("utf-8")))
            if isinstance(node, ast.FunctionDef)
        }
        assert name in defined, f"{block} names {path}::{name}, which does not exist"


def test_the_readme_reads_in_five_minutes_and_maps_every_page() -> None:
    readme = (REPO / "README.md").read_text("utf-8")
    assert len(readme.splitlines()) <= README_MAX_LINES
    assert readme.startswith("# gate-forge gateway\n")
    first_commands = blocks(REPO / "README.md")[0].code.splitlines()
    assert [line.split()[:2] for line in first_commands] == [["make", "serve"], ["make", "test"]]
    for page in sorted((REPO / "docs").glob("*.md")):
        assert f"](docs/{page.name})" in readme, f"the README's map does not name {page.name}"


def test_the_readme_and_the_detectors_page_list_every_finding_code() -> None:
    """Every finding code a pack defines (`NAME = "NAME"` in `plugins/`) is in the README's
    Detectors section and in docs/detectors.md: a new code cannot ship unexplained."""
    codes = {
        name
        for path in (REPO / "plugins").rglob("*.py")
        if "node_modules" not in path.parts
        for name in re.findall(r'(?m)^([A-Z][A-Z_]+) = "\1"$', path.read_text("utf-8"))
    }
    assert {"UNRESOLVED_PREFIX", "READER_ERROR", "COMPUTED_TABLENAME"} <= codes
    readme = (REPO / "README.md").read_text("utf-8")
    detectors = readme[readme.index("## Detectors") : readme.index("## Documentation")]
    page = (REPO / "docs" / "detectors.md").read_text("utf-8")
    for code in sorted(codes):
        assert f"`{code}`" in detectors, f"the README's Detectors section does not name {code}"
        assert f"`{code}`" in page, f"docs/detectors.md does not name {code}"


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: p.name)
def test_every_relative_link_resolves(page: Path) -> None:
    for target, _ in LINK.findall(page.read_text("utf-8")):
        if "://" in target or target.startswith("mailto:"):
            continue
        assert (page.parent / target).exists(), f"{page.name} links to {target}, which is missing"


def test_no_page_points_outside_the_repository() -> None:
    assert "../shared" not in doc(), "the contract's in-repo account is docs/protocol.md"


def test_make_targets_exist() -> None:
    for target in ("serve", "test"):
        done = subprocess.run(
            ["make", "-n", target], capture_output=True, text=True, cwd=REPO, timeout=60
        )
        assert done.returncode == 0, done.stderr


def test_make_test_runs_no_apt_get_and_no_container_suite() -> None:
    """Issue 35: `make test` ran apt-get when a tool was missing and compose whenever an engine
    answered. apt-get is `make system-deps`' (CI asks for it), containers `make test-container`'s,
    the cgroup v2 guest `make test-vm`'s."""
    done = subprocess.run(
        ["make", "-n", "test"], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert done.returncode == 0 and "apt-get" not in done.stdout, done.stdout
    steps = [
        line for line in (REPO / ".ci/run").read_text().splitlines() if line.startswith("make ")
    ]
    assert steps == ["make system-deps", "make test", "make test-container", "make test-vm"]
    env = {k: v for k, v in os.environ.items() if k not in ("GPP_REQUIRE_DOCKER", "GPP_VM_TEST")}
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests/product"],
        capture_output=True, text=True, cwd=REPO, timeout=300, env=env,
    )  # fmt: skip
    assert collected.returncode == 0, collected.stdout + collected.stderr
    assert "test_container_files.py::" in collected.stdout
    assert "test_container.py::" not in collected.stdout
    assert "test_vm_cgroup2.py::" not in collected.stdout


def test_the_registry_example_loads(tmp_path: Path) -> None:
    (example,) = [b for b in blocks(REPO / "docs/registry.md") if "examples/demo-repo" in b.code]
    (tmp_path / "examples" / "demo-repo").mkdir(parents=True)
    config = parse_config(tomllib.loads(example.code), tmp_path / "r.toml", tmp_path)
    assert config.plugins["reference-detector"].limits.request_ms == 20000
    assert config.plugins["reference-detector"].sandbox.memory_mb == 512


def test_the_example_document_is_valid() -> None:
    (example,) = [b for b in blocks(REPO / "docs/result-document.md") if b.language == "json"]
    DOCUMENT.check(json.loads(example.code))


def _language_blocks(page: str, language: str) -> list[Block]:
    return [b for b in blocks(REPO / page) if b.language == language]


def test_plugin_examples_answer_a_discover(tmp_path: Path) -> None:
    """The Python and Node examples of writing-plugins.md (both handler styles), as written,
    through `gpp discover`."""
    python, node = (
        [b for b in _language_blocks("docs/writing-plugins.md", language) if b.claim == CLAIMED]
        for language in ("python", "js")
    )
    assert len(python) == len(node) == 2  # discover(paths), and the request opted into
    commands = []
    for n, (py, js) in enumerate(zip(python, node, strict=True)):
        (tmp_path / f"my_plugin_{n}.py").write_text(py.code)
        (tmp_path / f"my_plugin_{n}.mjs").write_text(js.code)
        commands += [f"{{python}} my_plugin_{n}.py", f"node my_plugin_{n}.mjs"]
    shutil.copytree(REPO / "plugins/sdk/node", tmp_path / "sdk/node", ignore=_not_sdk)
    for command in commands:
        done = _gpp(
            "discover",
            "--command",
            command,
            "--plugin-id",
            "my-plugin",
            "--plugin-version",
            "1.0.0",
            "--root",
            str(tmp_path),
            ".",
            cwd=tmp_path,
        )
        assert done.returncode == 0, (command, done.stderr)
        assert json.loads(done.stdout)["resources"] == []


CLAIMED = ("tests/product/test_docs.py", "test_plugin_examples_answer_a_discover")


def test_jsonrpc_plugin_example_streams_its_progress(tmp_path: Path) -> None:
    """writing-plugins.md's JSON-RPC plugin and its serve and curl lines, as written bar the
    port: the progress notifications, then the answer, as server-sent events."""
    claim = ("tests/product/test_docs.py", "test_jsonrpc_plugin_example_streams_its_progress")
    plugin, commands = [b for b in blocks(REPO / "docs/writing-plugins.md") if b.claim == claim]
    (tmp_path / "counter.py").write_text(plugin.code)
    serve_line, curl = commands.code.replace("\\\n", " ").splitlines()
    stream = _serve_and_curl(serve_line, curl, "8789", tmp_path, tmp_path / "bin")
    events = [
        json.loads(line.removeprefix("data:"))
        for line in stream.splitlines()
        if line.startswith("data:")
    ]
    assert [e["params"]["done"] for e in events if e.get("method") == "$/progress"] == [1, 2, 3]
    assert events[-1] == {"jsonrpc": "2.0", "result": 3, "id": 1}, stream


def _not_sdk(folder: str, names: list[str]) -> list[str]:
    return [name for name in names if name in {"node_modules", "test"}]


def _gpp(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpp.gateway", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_readme_plugin_serves_with_one_command(tmp_path: Path) -> None:
    """The README's plugin and its `gpp serve --plugin` line, as written, bar the port, as after
    `pipx install .`: `gpp` on PATH, and no Python there that has `gpp` (the system's first)."""
    (plugin,) = _language_blocks("README.md", "python")
    (serve_block,) = [b for b in _language_blocks("README.md", "sh") if "my_plugin.py" in b.code]
    serve_line, curl = serve_block.code.replace("\\\n", " ").splitlines()
    (tmp_path / "my_plugin.py").write_text(plugin.code)
    (tmp_path / "README.md").write_text("# a repository\n")
    answer = _serve_and_curl(serve_line, curl, "8788", tmp_path, tmp_path / "pipx-bin")
    resources = json.loads(answer)["resources"]
    assert [r["name"] for r in resources] == ["README.md"]


def _serve_and_curl(serve_line: str, curl: str, doc_port: str, cwd: Path, installed: Path) -> str:
    """A doc's `gpp serve … &` line run in `cwd` as after `pipx install .` (`gpp` alone on PATH,
    in `installed`, and no Python there that has `gpp`), on a free port instead of the doc's;
    then the doc's curl line, to that port, once it listens: what curl printed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    installed.mkdir()
    (installed / "gpp").symlink_to(Path(sys.executable).parent / "gpp")
    env = {"PATH": f"/usr/bin:/bin:{installed}", "HOME": str(cwd), "LANG": "C.UTF-8"}
    env["GPP_STATE_DIR"] = os.environ["GPP_STATE_DIR"]  # the token, where `gpp token` finds it
    proc = subprocess.Popen(
        serve_line.removesuffix("&").replace(doc_port, port).split(),
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        return _curl_when_listening(curl.replace(doc_port, port), proc, int(port), env)
    finally:
        stop(proc)


def _curl_when_listening(
    curl: str, proc: subprocess.Popen[str], port: int, env: dict[str, str]
) -> str:
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        assert time.monotonic() < deadline, "the gateway did not listen"
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(0.05)  # a bounded wait for it to listen, or to die saying why
    done = subprocess.run(["bash", "-c", curl], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout
