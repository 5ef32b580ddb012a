"""Independent ground truth of SQLAlchemy / Flask-SQLAlchemy / SQLModel tables (never runs the packs).

Reads the listed .py files with `ast`. A class is a model when a base chain (by class name within
the files) reaches one of ROOTS (`db.Model`, `SQLModel` with `table=True`, a declarative Base).
Table: a literal `__tablename__`; else Flask-SQLAlchemy's implicit snake_case name or SQLModel's
`ClassName.lower()`. Flask-SQLAlchemy inheritance: a subclass of a model without a primary-key
column of its own is single-table inheritance (no table), `__tablename__` or not. `db.Table(
"name", ...)` / `Table("name", metadata, ...)` module-level calls are tables too.
Usage: sqlalchemy_truth.py ROOT FILE... > items.json
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

ROOTS = {"db.Model", "Model", "Base", "SQLModel", "DeclarativeBase"}


def snake(name: str) -> str:  # Flask-SQLAlchemy 3's camel_to_snake_case
    name = re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name)
    return name.lower().lstrip("_")


def main() -> None:
    root, paths = sys.argv[1], sys.argv[2:]
    classes = {}
    items = []
    for rel in paths:
        tree = ast.parse(Path(root, rel).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func) in ("db.Table", "Table", "sa.Table")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                items.append(
                    {"name": node.args[0].value, "file": rel, "line": node.lineno, "model": None}
                )
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            tablename, has_pk = None, False
            for item in node.body:
                if isinstance(item, (ast.Assign, ast.AnnAssign)):
                    tgt = item.targets[0] if isinstance(item, ast.Assign) else item.target
                    if (
                        isinstance(tgt, ast.Name)
                        and tgt.id == "__tablename__"
                        and isinstance(item.value, ast.Constant)
                    ):
                        tablename = item.value.value
                    if item.value is not None and "primary_key=True" in ast.unparse(item.value):
                        has_pk = True
            table_kw = any(
                k.arg == "table" and ast.unparse(k.value) == "True" for k in node.keywords
            )
            classes[node.name] = dict(
                name=node.name,
                file=rel,
                line=node.lineno,
                tablename=tablename,
                has_pk=has_pk,
                table_kw=table_kw,
                bases=[ast.unparse(b) for b in node.bases],
            )

    def chain(c, depth=0):
        """(root reached or None, reached through another model class)"""
        for b in c["bases"]:
            if b in ROOTS:
                return b, False
            if b in classes and depth < 20 and chain(classes[b], depth + 1)[0]:
                return chain(classes[b], depth + 1)[0], True
        return None, False

    for c in classes.values():
        model, inherited = chain(c)
        if not model:
            continue
        if c["table_kw"]:
            items.append(
                {
                    "name": c["tablename"] or c["name"].lower(),
                    "file": c["file"],
                    "line": c["line"],
                    "model": c["name"],
                }
            )
            continue
        if model == "SQLModel":
            continue  # without table=True a SQLModel class is a schema, not a table
        if inherited and not c["has_pk"]:
            continue  # single-table inheritance
        items.append(
            {
                "name": c["tablename"] or snake(c["name"]),
                "file": c["file"],
                "line": c["line"],
                "model": c["name"],
            }
        )
    json.dump(sorted(items, key=lambda i: i["name"]), sys.stdout, indent=1)


main()
