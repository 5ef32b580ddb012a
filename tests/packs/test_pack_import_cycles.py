"""The pack modules import one another without a cycle when they load: a cycle works only in
the order Python happens to load its modules (the first import of the other end finds a
module half run), so a new entry point or a reordered import breaks it far from the change.
Imports a module makes at load count (its top level, `try` and `if` blocks); those under
`if TYPE_CHECKING:` and inside functions do not (they run once everything is loaded)."""

from __future__ import annotations

import ast
from pathlib import Path

PLUGINS = Path(__file__).resolve().parents[2] / "plugins"


def _modules(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((root / "packs").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _load_time(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The imports a module body runs as it loads."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and not _type_checking(node):
            found += _load_time(node.body) + _load_time(node.orelse)
        elif isinstance(node, ast.Try):
            found += _load_time(node.body) + _load_time(node.orelse) + _load_time(node.finalbody)
            for handler in node.handlers:
                found += _load_time(handler.body)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the pack modules it imports as it loads (`from . import x` is module `x`)."""
    modules = _modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in _load_time(ast.parse(path.read_bytes()).body):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
                continue
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                target = f"{base}.{alias.name}"
                edges.add(target if target in modules else base)
        graph[name] = {e for e in edges if e in modules and e != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_pack_modules_import_one_another_without_a_cycle() -> None:
    assert cycles(import_graph(PLUGINS)) == []


def test_a_cycle_is_named_and_imports_for_type_checking_or_in_functions_are_not_one(
    tmp_path: Path,
) -> None:
    routes = tmp_path / "packs" / "routes"
    routes.mkdir(parents=True)
    (tmp_path / "packs" / "__init__.py").write_text("")
    (routes / "__init__.py").write_text("")
    (routes / "reader.py").write_text("from . import helpers\n")
    (routes / "helpers.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "try:\n    from .reader import read\nexcept ImportError:\n    pass\n"
    )
    (routes / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .late import x\n"
    )
    (routes / "late.py").write_text("def f():\n    from .typed import y\n")
    assert cycles(import_graph(tmp_path)) == [["packs.routes.helpers", "packs.routes.reader"]]
