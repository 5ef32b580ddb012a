"""Independent ground truth of Flask (+ flask-restx) routes for one checkout (never runs the packs).

Reads the given .py files with `ast`. Blueprints: module-level `X = Blueprint(..., url_prefix=)`,
their names resolved globally (each name must be unique across the files: checked); prefixes
added by `register_blueprint(X, url_prefix=)`. Routes: `@X.route(rule, methods=[...])` on a
function (default GET), or on a flask-restx `Resource` class when X is a `Namespace` (one route
per get/post/put/patch/delete method, full path = the Api's blueprint prefix + the
`add_namespace(ns, path)` path + rule). Paths are written in the packs' normal form: `<conv:x>`
becomes `{x}`. Usage: flask_truth.py ROOT FILE... > items.json
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

VERBS = ("get", "post", "put", "patch", "delete")


def norm(path: str) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([A-Za-z_]\w*)>", r"{\1}", path)


def join(a: str, b: str) -> str:
    if not a:
        return b or "/"
    if not b:
        return a
    return a.rstrip("/") + "/" + b.lstrip("/")


def kw(call: ast.Call, name: str, index: int | None = None):
    for k in call.keywords:
        if k.arg == name:
            return k.value
    if index is not None and index < len(call.args):
        return call.args[index]
    return None


def lit(node):
    return ast.literal_eval(node) if node is not None else None


def main() -> None:
    root, paths = sys.argv[1], sys.argv[2:]
    trees = {rel: ast.parse(Path(root, rel).read_text(encoding="utf-8")) for rel in paths}
    blueprints, namespaces, apis = {}, {}, {}
    for rel, tree in trees.items():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and isinstance(node.targets[0], ast.Name)
            ):
                name, call = node.targets[0].id, node.value
                f = ast.unparse(call.func).split(".")[-1]
                if f == "Blueprint":
                    assert name not in blueprints or name in ("blueprint",), (name, rel)
                    blueprints[name] = lit(kw(call, "url_prefix")) or ""
                elif f == "Namespace":
                    assert name not in namespaces, (name, rel)
                    namespaces[name] = None
                elif f == "Api":
                    apis[name] = ast.unparse(call.args[0]) if call.args else None
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "register_blueprint" and node.args:
                    bp = ast.unparse(node.args[0])
                    pre = lit(kw(node, "url_prefix"))
                    if bp in blueprints and pre is not None:
                        blueprints[bp] = pre
                if node.func.attr == "add_namespace":
                    api = ast.unparse(node.func.value)
                    ns = ast.unparse(node.args[0])
                    path = lit(kw(node, "path", 1)) or "/" + ns
                    namespaces[ns] = join(blueprints.get(apis.get(api), ""), path)
    items = []
    for rel, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for dec in node.decorator_list:
                if not (
                    isinstance(dec, ast.Call)
                    and isinstance(dec.func, ast.Attribute)
                    and dec.func.attr == "route"
                ):
                    continue
                owner = ast.unparse(dec.func.value)
                rule = lit(kw(dec, "rule", 0))
                if isinstance(node, ast.ClassDef):
                    assert owner in namespaces and namespaces[owner] is not None, (owner, rel)
                    verbs = [
                        m.name.upper()
                        for m in node.body
                        if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and m.name in VERBS
                    ]
                    full = join(namespaces[owner], rule)
                else:
                    assert owner in blueprints, (owner, rel, node.lineno)
                    verbs = [m.upper() for m in (lit(kw(dec, "methods")) or ["GET"])]
                    full = join(blueprints[owner], rule)
                for v in verbs:
                    items.append({"name": f"{v} {norm(full)}", "file": rel, "line": node.lineno})
    json.dump(sorted(items, key=lambda i: i["name"]), sys.stdout, indent=1)


main()
