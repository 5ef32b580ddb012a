"""The four sides of `gpp` and the arrows between them (issue 26): imports point only down.

`gpp.core` is the protocol, pure and stdlib-only; `gpp.plugin` (what a plugin process runs) is
stdlib-only too, so a plugin needs nothing but the folder; `gpp.host` and `gpp.client` build
on the core and never on each other or on the plugin side; the gateway (`app/`) builds on the
host, the client and the core; the bundled plugins on the plugin side and the core. The names
DESIGN.md fixes (`gpp`, `gpp.sdk`, `gpp.codes`, `gpp.jsonrpc`) are re-exports for users:
nothing inside imports them.

Each side's `__init__` draws its public/private line with `__all__`; the gateway (`app/`) and
the bench import `gpp.core`, `gpp.host` and `gpp.client` only through those names, so what is
not exported can change without breaking them.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

ALLOWED = {
    "gpp.core": {"gpp.core"},
    "gpp.plugin": {"gpp.core", "gpp.plugin"},
    "gpp.host": {"gpp.core", "gpp.host"},
    "gpp.client": {"gpp.core", "gpp.client"},
    "app": {"gpp.core", "gpp.host", "gpp.client", "app"},
    "plugins": {"gpp.core", "gpp.plugin", "plugins"},
}
FACADES = ("gpp.sdk", "gpp.codes", "gpp.jsonrpc")
SIDES = ("core", "plugin", "host", "client")


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module a file imports, absolute, wherever the import stands (a function-level
    import is an arrow too)."""
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]  # fmt: skip
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _layer(module: str) -> str | None:
    if module.startswith("gpp.gateway") or module == "app" or module.startswith("app."):
        return "app"
    if module == "plugins" or module.startswith(("plugins.", "packs", "pack_")):
        return "plugins"
    for side in SIDES:
        if module == f"gpp.{side}" or module.startswith(f"gpp.{side}."):
            return f"gpp.{side}"
    return None


def _sources() -> list[Path]:
    files = [p for side in SIDES for p in (REPO / "gpp" / side).rglob("*.py")]
    files += sorted((REPO / "app").rglob("*.py"))
    files += sorted((REPO / "plugins").glob("*.py")) + sorted((REPO / "plugins" / "packs").rglob("*.py"))  # fmt: skip
    return sorted(files)


def arrows_against_the_layers(files: list[Path]) -> list[str]:
    wrong: list[str] = []
    for path in files:
        where = _layer(_module_name(path))
        assert where is not None, path
        for target in sorted(_imports(path)):
            if target == "gpp.__version__":
                continue
            layer = _layer(target)
            if layer is None and target.startswith("gpp."):
                facade = next((f for f in FACADES if target.startswith(f)), target)
                wrong.append(f"{path.relative_to(REPO)} imports the facade {facade}")
            elif layer is not None and layer not in ALLOWED[where]:
                wrong.append(f"{path.relative_to(REPO)} ({where}) imports {target}")
    return wrong


def test_every_import_points_down() -> None:
    assert arrows_against_the_layers(_sources()) == []


def test_an_arrow_up_or_sideways_is_named() -> None:
    """The check can fail: a host module that reaches into the plugin side and the client."""
    bad = REPO / "gpp" / "host" / "_layers_probe.py"
    bad.write_text("from gpp.plugin import sdk\nimport gpp.client.http\nfrom gpp import codes\n")
    try:
        assert arrows_against_the_layers([bad]) == [
            "gpp/host/_layers_probe.py (gpp.host) imports gpp.client.http",
            "gpp/host/_layers_probe.py imports the facade gpp.codes",
            "gpp/host/_layers_probe.py (gpp.host) imports gpp.plugin.sdk",
        ]
    finally:
        bad.unlink()


@pytest.mark.parametrize("side", ["core", "plugin"])
def test_the_core_and_the_plugin_side_load_nothing_but_the_standard_library(side: str) -> None:
    """Imported for real in a clean interpreter (`-I -S`: no site-packages, no PYTHONPATH):
    every module then loaded is the standard library's or the side's own (or the core's)."""
    allowed = ("gpp.core",) if side == "core" else ("gpp.core", "gpp.plugin")
    check = (
        "import sys, pkgutil, importlib\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        f"import gpp.{side} as side\n"
        "for info in pkgutil.iter_modules(side.__path__, side.__name__ + '.'):\n"
        "    importlib.import_module(info.name)\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", check], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.split()
    foreign = [
        name
        for name in loaded
        if name.split(".")[0] not in sys.stdlib_module_names
        and name not in ("gpp", "__main__")
        and not name.startswith(allowed)
        and name not in sys.builtin_module_names
    ]
    assert foreign == []
    assert f"gpp.{side}.{'connection' if side == 'core' else 'sdk'}" in loaded


PUBLIC_ONLY = ("gpp.core", "gpp.host", "gpp.client")
"""The sides the gateway and the bench may reach only through their `__all__`."""


def reaches_past_the_public_surface(files: list[Path]) -> list[str]:
    """Every import of a side's module or of a name its `__all__` does not export."""
    public = {side: set(importlib.import_module(side).__all__) for side in PUBLIC_ONLY}
    wrong: list[str] = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_bytes())):
            targets: list[tuple[str, str | None]]
            if isinstance(node, ast.Import):
                targets = [(alias.name, None) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                targets = [(node.module, alias.name) for alias in node.names]
            else:
                continue
            for module, name in targets:
                side = next((s for s in PUBLIC_ONLY if module.startswith(s)), None)
                if side is None:
                    continue
                if module != side or name is None:
                    wrong.append(f"{path.relative_to(REPO)} imports {module}")
                elif name not in public[side]:
                    wrong.append(f"{path.relative_to(REPO)} imports {side}.{name}, not exported")
    return sorted(wrong)


def test_the_gateway_the_bench_and_the_plugins_import_only_the_public_surface() -> None:
    """`app`, `bench` and the bundled plugins (the packs included; not `plugins/sdk`, the
    compatibility package that re-exports the SDK, nor the example repositories they scan)."""
    plugins = [
        path
        for path in sorted((REPO / "plugins").rglob("*.py"))
        if not path.is_relative_to(REPO / "plugins" / "sdk")
        and not path.is_relative_to(REPO / "plugins" / "examples")
    ]
    files = sorted((REPO / "app").rglob("*.py")) + sorted((REPO / "bench").rglob("*.py"))
    assert reaches_past_the_public_surface([*files, *plugins]) == []


def test_reaching_past_the_public_surface_is_named() -> None:
    """The check can fail: a module path, an internal name, and an internal of the host."""
    bad = REPO / "app" / "_public_probe.py"
    bad.write_text(
        "from gpp.core.schema import PATH\n"
        "from gpp.core import loads_fast\n"
        "import gpp.host.uids\n"
        "from gpp.client import Result\n"
    )
    try:
        assert reaches_past_the_public_surface([bad]) == [
            "app/_public_probe.py imports gpp.core.loads_fast, not exported",
            "app/_public_probe.py imports gpp.core.schema",
            "app/_public_probe.py imports gpp.host.uids",
        ]
    finally:
        bad.unlink()


@pytest.mark.parametrize("side", ["gpp.core", "gpp.host", "gpp.client", "gpp.plugin"])
def test_each_side_exports_what_it_names_and_no_internal(side: str) -> None:
    """`__all__` names only what the package really holds, and nothing with a leading underscore;
    a cache the schema keeps for itself (`_ValidPathCache`) is not on the surface."""
    package = importlib.import_module(side)
    exported = package.__all__
    assert exported == sorted(set(exported), key=exported.index)  # no name twice
    assert [name for name in exported if not hasattr(package, name)] == []
    assert [name for name in exported if name.startswith("_")] == []
    assert "ValidPathCache" not in dir(importlib.import_module("gpp.core.schema"))
