"""Setuptools entry points: the plugin groups a distribution of the repository provides, and
the places the app loads a group from whatever distributions are installed.

A folder with a `setup.py`, `pyproject.toml` or `setup.cfg` of its own is a distribution;
one that is no part of the app's (its folder does not hold the loader) whose entry points
name a group the app loads (`pm.load_setuptools_entrypoints("group")`, pluggy's;
`importlib.metadata.entry_points(group=...)`, `.select(group=...)`, `["group"]`,
`.get("group")`; `pkg_resources.iter_entry_points("group")`) reaches the app only once it is
installed: the linker lists none of its routes and says so at the loader (`linker`).
Declarations read: `setup(name=..., entry_points={"group": ["n = module:attr", ...]})` (a dict
literal; its values a list, a tuple or a string of lines; or the whole INI-style string),
`[project.entry-points."group"]` and `[tool.poetry.plugins."group"]` of `pyproject.toml`,
`[options.entry_points]` of `setup.cfg`. Scripts (`console_scripts`, `gui_scripts`) are no
plugins.
"""

from __future__ import annotations

import ast
import configparser
import tomllib
from collections.abc import Callable, Iterator

from .pyparse import parse_python

DISTRIBUTION_FILES = frozenset({"setup.py", "pyproject.toml", "setup.cfg"})
SCRIPT_GROUPS = frozenset({"console_scripts", "gui_scripts"})
# what a Python file must spell to declare entry points or load them (the pre-filter's seeds)
WORDS = (b"entry_points", b"load_setuptools_entrypoints", b"iter_entry_points")
_TEXT_WORDS = tuple(w.decode() for w in WORDS)
_LOADERS = frozenset({"load_setuptools_entrypoints", "iter_entry_points"})

EntryPoints = tuple[tuple[str, tuple[str, ...]], ...]  # (group, its "name = target" lines)
Loads = tuple[tuple[str, int], ...]  # (group, line) of each loader call with a literal group


def is_distribution_file(path: str) -> bool:
    return path.rpartition("/")[2] in DISTRIBUTION_FILES


def spells_entry_points(source: str) -> bool:
    return any(word in source for word in _TEXT_WORDS)


def python_entry_points(source: str, path: str) -> tuple[str, EntryPoints, Loads]:
    """A Python file's distribution name and entry points (a `setup(...)` call), and its
    loader calls."""
    tree = parse_python(source, path)
    name, groups = "", dict[str, tuple[str, ...]]()
    loads: list[tuple[str, int]] = []
    # `from importlib.metadata import entry_points as discovered`: called by its local name
    aliases = {
        alias.asname: alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname and alias.name in {"entry_points", *_LOADERS}
    }

    def last(node: ast.expr) -> str:
        name = _last(node)
        return aliases.get(name, name) if isinstance(node, ast.Name) else name

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call | ast.Subscript):
            continue
        if isinstance(node, ast.Subscript):  # `entry_points()["group"]`
            if _is_entry_points_call(node.value, last) and (group := _text(node.slice)):
                loads.append((group, node.lineno))
            continue
        callee = last(node.func)
        if callee == "setup":
            for keyword in node.keywords:
                if keyword.arg == "name" and (text := _text(keyword.value)):
                    name = text
                elif keyword.arg == "entry_points":
                    groups.update(_setup_entry_points(keyword.value))
        elif (group := _loaded_group(node, callee, last)) is not None:
            loads.append((group, node.lineno))
    return name, _plugins(groups), tuple(loads)


def _loaded_group(call: ast.Call, callee: str, last: Callable[[ast.expr], str]) -> str | None:
    group = next((k.value for k in call.keywords if k.arg == "group"), None)
    if callee in _LOADERS:
        return _text(call.args[0] if call.args else group)
    if callee == "entry_points":
        return _text(group)
    if (
        callee in {"select", "get"}
        and isinstance(call.func, ast.Attribute)
        and _is_entry_points_call(call.func.value, last)
    ):
        return _text(group if callee == "select" else call.args[0] if call.args else None)
    return None


def _is_entry_points_call(node: ast.expr, last: Callable[[ast.expr], str]) -> bool:
    return isinstance(node, ast.Call) and last(node.func) == "entry_points"


def _setup_entry_points(node: ast.expr) -> Iterator[tuple[str, tuple[str, ...]]]:
    if (text := _text(node)) is not None:
        yield from _ini_groups(text)
        return
    if not isinstance(node, ast.Dict):
        return
    for key, value in zip(node.keys, node.values, strict=True):
        group = _text(key)
        if group is None:
            continue
        if isinstance(value, ast.List | ast.Tuple):
            lines = tuple(t for e in value.elts if (t := _text(e)))
        elif (text := _text(value)) is not None:
            lines = tuple(line.strip() for line in text.splitlines() if line.strip())
        else:
            lines = ("?",)  # computed: a group all the same
        yield group, lines


def toml_entry_points(source: str) -> tuple[str, EntryPoints]:
    try:
        data = tomllib.loads(source)
    except (tomllib.TOMLDecodeError, ValueError):
        return "", ()
    project = data.get("project")
    poetry = data.get("tool", {}).get("poetry") if isinstance(data.get("tool"), dict) else None
    name = ""
    groups: dict[str, tuple[str, ...]] = {}
    for table, key in ((project, "entry-points"), (poetry, "plugins")):
        if not isinstance(table, dict):
            continue
        if isinstance(table.get("name"), str):
            name = name or table["name"]
        declared = table.get(key)
        if isinstance(declared, dict):
            for group, entries in declared.items():
                if isinstance(entries, dict):
                    groups[group] = tuple(f"{k} = {v}" for k, v in entries.items())
    return name, _plugins(groups)


def cfg_entry_points(source: str) -> tuple[str, EntryPoints]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(source)
    except configparser.Error:
        return "", ()
    name = parser.get("metadata", "name", fallback="")
    groups: dict[str, tuple[str, ...]] = {}
    if parser.has_section("options.entry_points"):
        for group, value in parser.items("options.entry_points", raw=True):
            groups[group] = tuple(line.strip() for line in value.splitlines() if line.strip())
    return name, _plugins(groups)


def _ini_groups(text: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """`entry_points=\"\"\"[group]\\nname = target\"\"\"`: setuptools' INI form."""
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    try:
        parser.read_string(text)
    except configparser.Error:
        return
    for group in parser.sections():
        yield group, tuple(f"{k} = {v}" for k, v in parser.items(group, raw=True))


def _plugins(groups: dict[str, tuple[str, ...]]) -> EntryPoints:
    return tuple(sorted((g, lines) for g, lines in groups.items() if g not in SCRIPT_GROUPS))


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _last(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
