"""The built wheel and the npm tarballs, installed as users install them, not the checkout.

`make install` is editable, so it reads the source tree and hides a wheel that lacks a
subpackage or a data file (gpp.plugin.jsonrpc once was missing; the bundled plugins and registry once
were: `pip install .` then `gpp serve` failed with `registry.toml: cannot read`). This builds
the wheel from a copy of the sources, installs it with its pinned dependencies into a fresh
venv (from the package index, as users install), imports every module from there, and serves
every bundled plugin from it; the Node packages are packed and installed the same way.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from conftest import REPO, run_ok
from gateway_harness import served_on
from test_first_hour import ORIGINAL_API_PLUGIN

SOURCES = {
    "gpp": "gpp",
    "app": "gpp.gateway",
    "plugins/sdk/python/gateforge_plugin": "gateforge_plugin",  # the original package's name
}
"""Checkout folder → the package it ships as."""
BUNDLED = ("registry.toml", "reference_detector.py", "reference_detector.mjs", "packs/scan.py")
NODE_PACKAGES = ("plugins/sdk/node", "plugins/client/node")


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    site: Path


def run(
    command: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = env or {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    return run_ok(command, cwd=cwd, timeout=300, env=env)


def source_modules() -> list[str]:
    """Every module of the checkout's packages, by the name the wheel gives it."""
    modules = []
    for folder, package in SOURCES.items():
        for path in sorted((REPO / folder).rglob("*.py")):
            parts = (package, *path.relative_to(REPO / folder).with_suffix("").parts)
            modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    tmp_path = tmp_path_factory.mktemp("wheel")
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    skip = shutil.ignore_patterns("__pycache__", "node_modules", "test")
    for folder in ("gpp", "app", "plugins"):
        shutil.copytree(REPO / folder, source / folder, ignore=skip, symlinks=True)
    dist = tmp_path / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(dist),
            str(source),
        ],
        cwd=tmp_path,
    )
    (wheel,) = dist.glob("gate_forge-*.whl")
    with zipfile.ZipFile(wheel) as archive:  # package data: GPP/3 as data ships with gpp
        assert "gpp/core/contract/gpp3.json" in archive.namelist()
        assert "gpp/gateway/contract/gateway.json" in archive.namelist()  # the gateway's own

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path)
    python = venv / "bin" / "python"
    # its dependencies as a user gets them (the pinned versions), into the venv itself: the
    # plugins' sandbox shows them the venv, not this checkout's
    run(
        [
            *pip,
            "--python",
            str(python),
            "install",
            "-c",
            str(REPO / "requirements.lock"),
            str(wheel),
        ],
        cwd=tmp_path,
    )
    site = Path(
        run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            cwd=tmp_path,
        ).stdout.strip()
    )
    return Installed(wheel, venv, site)


def test_the_wheel_holds_and_imports_every_module(installed: Installed) -> None:
    modules = source_modules()
    assert {"gpp.plugin.jsonrpc", "gpp.gateway.cli", "gateforge_plugin"} <= set(modules)
    check = (  # a __main__ module runs its program when imported: found, not imported
        "import importlib, importlib.util\n"
        f"for name in {modules!r}:\n"
        "    spec = importlib.util.find_spec(name)\n"
        "    assert spec is not None, f'{name} is not in the wheel'\n"
        f"    assert spec.origin.startswith({str(installed.site)!r}), (name, spec.origin)\n"
        "    if not name.endswith('__main__'):\n"
        "        importlib.import_module(name)\n"
        "print('imported all')\n"
    )
    python = str(installed.venv / "bin" / "python")
    assert run([python, "-c", check], cwd=installed.venv).stdout.strip() == "imported all"
    usage = run([str(installed.venv / "bin" / "gpp"), "--help"], cwd=installed.venv).stdout
    assert usage.startswith("usage: gpp") and "serve" in usage


def test_the_wheel_installs_one_top_level_name_and_the_bundled_plugins(
    installed: Installed,
) -> None:
    names = zipfile.ZipFile(installed.wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"gpp", "gateforge_plugin"}, "`app` or `plugins` would clash with users' code"
    for name in BUNDLED:
        assert f"gpp/plugins/{name}" in names
    assert not any("node_modules" in name for name in names)
    assert "gpp/plugins/examples/demo-repo/outside.gfx" not in names, "a symlink's target"


@pytest.fixture
def served(installed: Installed, tmp_path: Path) -> Iterator[httpx.Client]:
    """`gpp serve` from the wheel's venv, with no --config: the bundled registry."""
    uds = tmp_path / "gpp.sock"
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    env["GPP_STATE_DIR"] = os.environ["GPP_STATE_DIR"]  # its token, where the client looks
    gpp = str(installed.venv / "bin" / "gpp")
    with served_on([gpp, "serve", "--uds", str(uds)], uds, cwd=tmp_path, env=env) as client:
        yield client


def test_the_installed_gateway_serves_every_bundled_plugin(served: httpx.Client) -> None:
    plugins = served.get("/plugins").json()
    ids = {plugin["id"]: plugin["protocol"] for plugin in plugins}
    assert len(ids) >= 6, ids
    for plugin_id, protocol in sorted(ids.items()):
        if protocol == "gpp/3":
            answer = served.post(f"/plugins/{plugin_id}/discover", json={"paths": ["."]})
            assert answer.status_code == 200, (plugin_id, answer.text)
            assert answer.json()["resources"], f"{plugin_id} found nothing in its bundled repo"
        else:
            call = {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}
            answer = served.post(f"/plugins/{plugin_id}/rpc", json=call)
            assert answer.status_code == 200 and answer.json()["result"] == 19, answer.text


def test_a_gateforge_plugin_plugin_answers_through_the_installed_gpp_serve(
    installed: Installed, tmp_path: Path
) -> None:
    """The original package's module comes from the wheel's site-packages, in the sandbox."""
    (tmp_path / "original_api.py").write_text(ORIGINAL_API_PLUGIN)
    uds = tmp_path / "gpp.sock"
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    env["GPP_STATE_DIR"] = os.environ["GPP_STATE_DIR"]
    command = [str(installed.venv / "bin" / "gpp"), "serve", "--uds", str(uds), "--repo", "."]
    command += ["--plugin", "original-api", "--", "original_api.py"]
    with served_on(command, uds, cwd=tmp_path, env=env) as client:
        answer = client.post("/plugins/original-api/discover", json={"paths": ["README.md"]})
    assert answer.status_code == 200, answer.text
    assert [r["name"] for r in answer.json()["resources"]] == ["README.md"]


@pytest.mark.parametrize("package", NODE_PACKAGES)
def test_the_npm_tarball_installs_into_an_empty_project(package: str, tmp_path: Path) -> None:
    npm = shutil.which("npm")
    assert npm is not None, "npm comes with Node 20, which `make test` needs"
    packed = run(
        [npm, "pack", "--json", "--pack-destination", str(tmp_path), str(REPO / package)],
        cwd=tmp_path,
    )
    tarball = tmp_path / json.loads(packed.stdout)[0]["filename"]
    project = tmp_path / "project"
    project.mkdir()
    (project / "package.json").write_text('{"name": "empty", "version": "1.0.0", "type": "module"}')
    run([npm, "install", "--offline", "--no-audit", "--no-fund", str(tarball)], cwd=project)
    name = json.loads((REPO / package / "package.json").read_text())["name"]
    exported = run(
        [
            "node",
            "--input-type=module",
            "-e",
            f"const m = await import({name!r}); console.log(Object.keys(m).sort().join(','))",
        ],
        cwd=project,
    ).stdout.strip()
    assert exported, f"{name} exports nothing"
