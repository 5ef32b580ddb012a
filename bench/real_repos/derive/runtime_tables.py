"""Ground-truth tables from an application's own SQLAlchemy metadata (never runs the packs).

Run it with an interpreter that has the application's dependencies installed: it imports the
module that defines the models (and every module `--import` names, so models split across
packages are all mapped), evaluates the expression that names the `MetaData` (or a
Flask-SQLAlchemy `db` / a declarative `Base`, whose `metadata` is taken), and prints one item
per table of `metadata.sorted_tables`, named as the database names it (`table.name`, without
its `schema`). Where it is declared: a `Table("name", ...)` call in an imported module's source
(an association table, an imperative mapping) is placed there; else the class that maps the
table (the mapper whose `local_table` it is and whose parent does not map it already); else the
first line of the target module holding `"name"`.

`--stub-missing` puts a last-resort finder at the end of `sys.meta_path`: a module that is not
installed and not in the checkout imports as a stub whose every attribute is a subclassable,
callable placeholder. It lets the model modules import without the application's whole
dependency tree (a web framework's settings, a task queue); the tables come from SQLAlchemy's
own metadata all the same. Every stubbed module is listed on stderr so the run can be checked.

Usage: runtime_tables.py MODULE:EXPRESSION CHECKOUT [--path SUB] [--import MOD ...]
       [--stub-missing] > items.json
       (`app.models:db`; `--import 'pkg.**'` imports every module below `pkg` but tests and
       migrations, `--import 'pkg.*.models'` every `models` module one level below `pkg`)
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import importlib
import importlib.abc
import importlib.machinery
import inspect
import json
import os
import pkgutil
import sys
import types
from typing import Any

SKIP_PARTS = {"tests", "test", "migrations", "alembic", "versions", "conftest"}


class _PlaceholderMeta(type):
    """A stubbed name is a class: it can be subclassed, called, indexed, read from."""

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _placeholder(name)

    def __getitem__(cls, key: Any) -> Any:
        return cls

    def __setitem__(cls, key: Any, value: Any) -> None:
        pass

    def __or__(cls, other: Any) -> Any:
        return cls

    __ror__ = __or__

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]  # used as a decorator: keep what it decorates
        return super().__call__()

    def __iter__(cls) -> Any:
        return iter(())


class _Placeholder(metaclass=_PlaceholderMeta):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __init_subclass__(cls, **kwargs: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _placeholder(name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return _placeholder("result")()

    def __iter__(self) -> Any:
        return iter(())

    def __getitem__(self, key: Any) -> Any:
        return _placeholder("item")()

    def __setitem__(self, key: Any, value: Any) -> None:
        pass

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


def _placeholder(name: str) -> Any:
    return _PlaceholderMeta(name, (_Placeholder,), {})


class _StubModule(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name in ("__all__", "__file__", "__wrapped__", "__path__"):
            raise AttributeError(name)
        if name.startswith("__"):
            return "0.0.0"  # a build's __version__, __build_date__, ...
        return _placeholder(name)


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, own: set[str], forced: set[str]) -> None:
        self.own = own
        self.forced = forced
        self.stubbed: list[str] = []

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        top = fullname.split(".")[0]
        if fullname in self.forced:
            self.stubbed.append(fullname)
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        if self.forced:
            return None  # the finder placed first answers only for the forced modules
        if top in sys.stdlib_module_names:
            return None  # a platform's own module (`_winapi`, `msvcrt`): code tests it is absent
        if top in self.own or not isinstance(sys.modules.get(top, _StubModule(top)), _StubModule):
            return None  # the checkout's own, or a missing name inside an installed package
        self.stubbed.append(fullname)
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec: Any) -> types.ModuleType:
        module = _StubModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def _modules(pattern: str, root: str) -> list[str]:
    if "*" not in pattern:
        return [pattern]
    top = pattern.split(".")[0]
    package = importlib.import_module(top)
    names = [top]
    for info in pkgutil.walk_packages(package.__path__, top + "."):
        if SKIP_PARTS & set(info.name.split(".")):
            continue
        names.append(info.name)
    if pattern.endswith(".**"):
        prefix = pattern[:-3]
        return [n for n in names if n == prefix or n.startswith(prefix + ".")]
    return [n for n in names if fnmatch.fnmatchcase(n, pattern) and "**" not in pattern]


def _table_calls(modules: list[types.ModuleType], root: str) -> dict[str, tuple[str, int]]:
    """`Table("name", ...)` calls in the imported modules' own files."""
    found: dict[str, tuple[str, int]] = {}
    for module in modules:
        path = getattr(module, "__file__", None)
        if not path or not os.path.abspath(path).startswith(root + os.sep):
            continue
        try:
            with open(path, encoding="utf-8") as handle:
                tree = ast.parse(handle.read())
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and _last_name(node.func) == "Table"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(node.args[0].value, (os.path.relpath(path, root), node.lineno))
    return found


def _last_name(func: ast.expr) -> str | None:
    """`db.Table` and `Table` both read `Table` (no `ast.unparse`: Python 3.8 runs this too)."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _mappers(found: Any) -> list[Any]:
    try:
        from sqlalchemy.orm import mapperlib
    except ImportError:
        return []
    registries = getattr(mapperlib, "_mapper_registries", None)
    if registries is not None:  # SQLAlchemy 1.4+
        return [m for reg in list(registries) for m in getattr(reg, "mappers", ())]
    return list(getattr(mapperlib, "_mapper_registry", {}))  # 1.3


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("target")
    parser.add_argument("checkout")
    parser.add_argument("--path", default="", help="the import root below the checkout (src)")
    parser.add_argument("--import", dest="imports", action="append", default=[])
    parser.add_argument("--stub-missing", action="store_true")
    parser.add_argument("--stub", action="append", default=[], help="a module a build generates")
    args = parser.parse_args()
    checkout = os.path.abspath(args.checkout)
    root = os.path.join(checkout, args.path) if args.path else checkout
    sys.path.insert(0, root)
    os.chdir(checkout)
    finder = None
    own = {
        name[: -len(".py")] if name.endswith(".py") else name  # Python 3.8: no removesuffix
        for name in os.listdir(root)
        if name.endswith(".py") or os.path.isdir(os.path.join(root, name))
    }
    if args.stub_missing:
        finder = _StubFinder(own, set())
        sys.meta_path.append(finder)
    if args.stub:
        sys.meta_path.insert(0, _StubFinder(own, set(args.stub)))
    module_name, expression = args.target.split(":", 1)
    imported = [importlib.import_module(module_name)]
    for pattern in args.imports:
        for name in _modules(pattern, root):
            imported.append(importlib.import_module(name))
    module = imported[0]
    found = eval(expression, vars(module))  # the operator's own expression, on their checkout
    metadata = getattr(found, "metadata", found)
    calls = _table_calls(imported, checkout)
    classes: dict[str, Any] = {}
    for mapper in _mappers(found):
        table = getattr(mapper, "local_table", None)
        parent = getattr(mapper, "inherits", None)
        if table is None or (parent is not None and parent.local_table is table):
            continue
        classes.setdefault(table.name, mapper.class_)
    items = []
    for table in metadata.sorted_tables:
        name = table.name
        owner = classes.get(name)
        item: dict[str, Any]
        if name in calls:
            where, line = calls[name]
            item = {"name": name, "file": where, "line": line}
        elif owner is not None:
            where = os.path.relpath(inspect.getsourcefile(owner) or "?", checkout)
            try:
                line = inspect.getsourcelines(owner)[1]
            except OSError:  # a class a library generates at runtime (a versioning table)
                line = 0
            item = {"name": name, "file": where, "line": line}
            if line == 0 or where.startswith(".."):  # placed where the library is configured
                where = os.path.relpath(inspect.getsourcefile(module) or "?", checkout)
                item = {"name": name, "file": where, "line": 0, "generated": True}
        else:
            where = os.path.relpath(inspect.getsourcefile(module) or "?", checkout)
            source = inspect.getsource(module).splitlines()
            line = next(
                (i + 1 for i, t in enumerate(source) if f"'{name}'" in t or f'"{name}"' in t), 0
            )
            item = {"name": name, "file": where, "line": line}
        if owner is not None:
            item["model"] = owner.__name__
        items.append(item)
    items.sort(key=lambda i: i["name"])
    if finder is not None:
        print("stubbed: " + " ".join(sorted(set(finder.stubbed))), file=sys.stderr)
    json.dump(items, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
