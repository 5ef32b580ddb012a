"""Issue 23 (shims), issue 27 item 4 and issue 32: what a plugin's command really runs, and the
project it belongs to, are in its sandbox's view when the registry says so.

Each fake below lives in a temporary folder outside every path the sandbox binds on its own.
Only the registry's own `argv[0]` is resolved (a version manager's shim, asked with a fixed
environment); a wrapper script or a plugin's shebang is run as it is, inside the sandbox, and
what it names must be in the view (`sandbox.view`), else exit 126/127 says which path to add.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REFERENCE_DETECTOR, REPO
from test_containment import on_gateways_path, on_path, script, start

from gpp.core import codes
from gpp.host import SandboxPolicy

NODE_SDK = REPO / "plugins" / "sdk" / "node"


def run(
    command: list[str],
    env: dict[str, str] | None = None,
    plugin_id: str = "reference-detector",
    policy: SandboxPolicy | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """One discover of `api` in the demo repository by `command` in its sandbox."""
    return start(command, env=env, policy=policy, plugin_id=plugin_id, paths=("api",))


def test_a_version_manager_shim_is_resolved_by_asking_the_manager(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shape of a pyenv shim (rbenv, nodenv, asdf alike); the fake manager answers `which`."""
    root = tmp_path / "fakeenv"
    manager = script(
        root / "libexec" / "pyenv",
        f'#!/bin/sh\n[ "$1" = which ] && [ -n "$PYENV_ROOT" ] && echo "{sys.executable}" '
        "&& exit 0\nexit 1\n",
    )
    script(
        root / "shims" / "python3",
        '#!/usr/bin/env bash\nset -e\nprogram="${0##*/}"\n'
        f'export PYENV_ROOT="{root}"\nexec "{manager}" exec "$program" "$@"\n',
    )
    env = on_gateways_path(monkeypatch, root / "shims")
    result, mechanisms = run(["python3", str(REFERENCE_DETECTOR)], env)
    assert len(result["resources"]) == 3
    assert mechanisms["executable"] == f"{root}/shims/python3 → {sys.executable} (pyenv which)"


def test_a_shebang_script_runs_when_its_interpreter_is_in_the_registrys_view(
    tmp_path: Path,
) -> None:
    plugin = script(tmp_path / "plugin" / "detector", f"#!{sys.executable}\n")
    plugin.write_text(f"#!{sys.executable}\n" + REFERENCE_DETECTOR.read_text())
    prefixes = tuple(sorted({sys.prefix, sys.base_prefix}))
    result, mechanisms = run([str(plugin)], policy=SandboxPolicy(view=prefixes))
    assert len(result["resources"]) == 3
    assert mechanisms["executable"] == str(plugin)  # the gateway never read its shebang


def test_a_shebang_naming_what_is_not_in_the_view_says_what_to_add(tmp_path: Path) -> None:
    interpreter = script(
        tmp_path / "elsewhere" / "python3", f'#!/bin/sh\nexec "{sys.executable}" "$@"\n'
    )
    plugin = script(tmp_path / "plugin" / "detector", f"#!{interpreter}\n")
    with pytest.raises(codes.UnexpectedEOFError) as failed:
        run([str(plugin)])
    error = failed.value
    assert error.exit_code == 127, error.diagnostic()
    assert f"{plugin} names {interpreter} in its #! line" in (error.stderr_tail or "")
    assert "sandbox.view" in error.problem, error.problem


def test_a_manager_that_cannot_say_is_refused_naming_the_shim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "fakeenv"
    manager = script(root / "libexec" / "pyenv", "#!/bin/sh\necho 'no such version' >&2\nexit 1\n")
    script(root / "shims" / "python3", f'#!/bin/sh\nexec "{manager}" exec "$@"\n')
    with pytest.raises(codes.UnexpectedEOFError) as refused:
        run(["python3", str(REFERENCE_DETECTOR)], on_gateways_path(monkeypatch, root / "shims"))
    problem = refused.value.problem
    assert f"{root}/shims/python3 is a shim of {manager}" in problem, problem
    assert "no such version" in problem and "full path" in problem


def test_an_interpreter_the_sandbox_cannot_find_is_named_with_what_to_do(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    script(bin_dir / "python3", '#!/bin/sh\nexec "/nonexistent/bin/python3" "$@"\n')
    with pytest.raises(codes.UnexpectedEOFError) as failed:
        run(["python3", str(REFERENCE_DETECTOR)], on_path(bin_dir))
    error = failed.value
    assert error.exit_code == 127, error.diagnostic()
    assert f"the command resolved as: {bin_dir}/python3;" in error.problem, error.problem
    assert "sandbox.view" in error.problem and "by its full path" in error.problem


def test_a_compiled_js_plugin_finds_its_projects_node_modules(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / "package.json").parent.mkdir()
    (project / "package.json").write_text('{"name": "proj", "type": "module"}')
    shutil.copytree(
        NODE_SDK, project / "node_modules" / "gpp-sdk", ignore=lambda *_: {"node_modules", "test"}
    )
    x = project / "node_modules" / "x"
    x.mkdir()
    (x / "package.json").write_text('{"name": "x", "type": "module", "exports": "./index.js"}')
    (x / "index.js").write_text('export const kind = "from-node-modules";\n')
    script(
        project / "out" / "plugin.js",
        'import { servePlugin } from "gpp-sdk";\nimport { kind } from "x";\n'
        "process.exitCode = await servePlugin(async (paths) => ({ resources: paths.map((p) => "
        "({ kind, name: p, location: { path: p, line: 1 }, attrs: {} })), unresolved: [], "
        "findings: [], classificationSignals: [] }), "
        '{ pluginId: "compiled", pluginVersion: "1.0.0" });\n',
    )
    command = ["node", str(project / "out" / "plugin.js")]
    with pytest.raises(codes.UnexpectedEOFError):  # the project is not in view unless said
        run(command, plugin_id="compiled")
    result, mechanisms = run(
        command, plugin_id="compiled", policy=SandboxPolicy(view=(str(project),))
    )
    assert [r["kind"] for r in result["resources"]] == ["from-node-modules"]
    assert str(project) in mechanisms["view"].split(", ")


def test_a_python_plugin_whose_package_sits_above_its_entry_file_imports_it(
    tmp_path: Path,
) -> None:
    project = tmp_path / "pyproj"
    (project / "mypkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "mypkg"\n')
    (project / "mypkg" / "__init__.py").write_text('KIND = "from-the-package"\n')
    shutil.copytree(REPO / "gpp", project / "gpp")
    script(
        project / "scripts" / "run.py",
        "import sys, pathlib\nsys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))\n"
        "from mypkg import KIND\nfrom gpp.plugin.sdk import serve\n"
        "def discover(paths):\n"
        "    return {'resources': [{'kind': KIND, 'name': p, 'location': {'path': p, 'line': 1},"
        " 'attrs': {}} for p in paths], 'unresolved': [], 'findings': [],"
        " 'classificationSignals': []}\n"
        "raise SystemExit(serve('pyproj', '1.0.0', discover))\n",
    )
    result, mechanisms = run(
        [sys.executable, str(project / "scripts" / "run.py")],
        plugin_id="pyproj",
        policy=SandboxPolicy(view=(str(project),)),
    )
    assert [r["kind"] for r in result["resources"]] == ["from-the-package"]
    assert str(project) in mechanisms["view"].split(", ")
