"""Ground-truth routes of a Flask application whose views are Flask-Classful `FlaskView`s, from
Flask's own `url_map` (never runs the packs).

    flask_classful_routes.py MODULE:EXPRESSION CHECKOUT [--env K=V]... > items.json

Run it with the interpreter of a private environment holding the application's dependencies.
It imports MODULE, evaluates EXPRESSION in its namespace (the application object, e.g.
`create_app(...)`), and walks `app.url_map` as `runtime_routes.flask_items` does (the HEAD
Werkzeug adds beside GET and the OPTIONS Flask adds left out; the `static` endpoints left out;
a route whose view is defined outside the checkout, an extension's own blueprint, left out and
listed on stderr).

Placement. Flask-Classful registers a proxy function per (class, method); the proxy carries the
view instance (`class_`) and wraps the method (`__wrapped__`):
- a method written in the registered class's own body: the method's first line (its first
  decorator);
- a method the class inherits (a generic `index`/`get`/`post` of a base class or mixin in another
  module or class): the registered class's `class` line, since that is where the route comes to
  exist; `files` then also holds the file of the inherited method.
Any other view (a plain function, `MethodView`) is placed by `runtime_routes._place`.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import runtime_routes


def _rel(path: str | None, checkout: str) -> str:
    return os.path.relpath(path or "?", checkout)


def _classful_place(view: Any, checkout: str) -> tuple[str, int, list[str], str] | None:
    instance = getattr(view, "class_", None)
    if instance is None or not hasattr(view, "__wrapped__"):
        return None
    cls = instance if isinstance(instance, type) else type(instance)
    method = inspect.unwrap(view)
    code = getattr(method, "__code__", None)
    class_file = _rel(inspect.getsourcefile(cls), checkout)
    class_line = inspect.getsourcelines(cls)[1]
    if code is None:
        return class_file, class_line, [class_file], cls.__name__
    method_file = _rel(code.co_filename, checkout)
    owner = method.__qualname__.split(".")[0]
    if owner == cls.__name__ and method_file == class_file:
        return class_file, code.co_firstlineno, [class_file], f"{cls.__name__}.{method.__name__}"
    files = sorted({class_file, method_file} - {"?"})
    files = [f for f in files if not f.startswith("..")] or [class_file]
    return class_file, class_line, files, f"{cls.__name__}({method.__qualname__})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("target")
    parser.add_argument("checkout")
    parser.add_argument("--env", action="append", default=[], help="K=V set before import")
    args = parser.parse_args()
    for pair in args.env:
        key, _, value = pair.partition("=")
        os.environ[key] = value
    checkout = os.path.abspath(args.checkout)
    sys.path.insert(0, checkout)
    os.chdir(checkout)
    module_name, expression = args.target.split(":", 1)
    module = importlib.import_module(module_name)
    app = eval(expression, vars(module))  # the operator's own expression, on their checkout
    items: dict[str, dict[str, Any]] = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.endswith(".static"):
            continue
        view = app.view_functions[rule.endpoint]
        placed = _classful_place(view, checkout)
        if placed is None:
            where, line = runtime_routes._place(view, checkout)
            files, label = [where], getattr(inspect.unwrap(view), "__qualname__", "?")
        else:
            where, line, files, label = placed
        methods = sorted(set(rule.methods or ()) - runtime_routes._added_by_flask(rule))
        for method in methods:
            name = f"{method} {rule.rule}"
            if where.startswith(("..", "?")):
                print(f"library route left out: {name} ({where})", file=sys.stderr)
                continue
            if name in items:
                print(f"duplicate rule: {name} ({rule.endpoint})", file=sys.stderr)
                continue
            items[name] = {"name": name, "file": where, "line": line, "files": files,
                           "view": label, "endpoint": rule.endpoint}  # fmt: skip
    json.dump(sorted(items.values(), key=lambda i: i["name"]), sys.stdout, indent=1)


if __name__ == "__main__":
    main()
