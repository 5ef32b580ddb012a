"""Ground-truth tables from an application's own SQLAlchemy metadata (never runs the packs).

Run it with an interpreter that has the application's dependencies installed: it imports the
module that defines the models, evaluates the expression that names the `MetaData` (or a
Flask-SQLAlchemy `db`, whose `metadata` is taken), and prints one item per table, placed at the
mapped class's line where a class maps it (a `Table(...)` has no class: its module is searched
for `"name"` and the first line holding it is taken).

Usage: runtime_tables.py MODULE:EXPRESSION CHECKOUT > items.json   (`app.models:db`)
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import sys
from typing import Any


def main() -> None:
    target, checkout = sys.argv[1], os.path.abspath(sys.argv[2])
    sys.path.insert(0, checkout)
    os.chdir(checkout)
    module_name, expression = target.split(":", 1)
    module = importlib.import_module(module_name)
    found = eval(expression, vars(module))  # the operator's own expression, on their checkout
    metadata = getattr(found, "metadata", found)
    classes: dict[str, Any] = {}
    registry = getattr(getattr(found, "Model", None), "registry", None)
    for mapper in getattr(registry, "mappers", ()):
        table = getattr(mapper, "local_table", None)
        if table is not None:
            classes.setdefault(table.name, mapper.class_)
    items = []
    for name in sorted(metadata.tables):
        owner = classes.get(name)
        if owner is not None:
            where = os.path.relpath(inspect.getsourcefile(owner) or "?", checkout)
            line = inspect.getsourcelines(owner)[1]
            items.append({"name": name, "file": where, "line": line, "model": owner.__name__})
        else:
            where = os.path.relpath(inspect.getsourcefile(module) or "?", checkout)
            source = inspect.getsource(module).splitlines()
            line = next(
                (i + 1 for i, t in enumerate(source) if f"'{name}'" in t or f'"{name}"' in t), 0
            )
            items.append({"name": name, "file": where, "line": line})
    json.dump(items, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
