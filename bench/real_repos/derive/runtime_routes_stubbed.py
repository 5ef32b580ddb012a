"""Ground-truth routes from the framework's runtime for an application whose full dependency set
cannot be installed here (never runs the packs).

    runtime_routes_stubbed.py flask|starlette MODULE:EXPRESSION CHECKOUT [--stub-missing] \
        [--env K=V]... [--stub MODULE]... > items.json

`runtime_routes.py`'s walk of Flask's `url_map` or Starlette's `app.routes`, after
`runtime_tables.py`'s last-resort finder is put on `sys.meta_path` (`--stub-missing`: a module
neither installed nor in the checkout imports as a stub; every stubbed module is listed on
stderr). A stub can neither add nor remove a route unless the application computes its routes
from that module, which the truth's `method` must then say. Routes whose view is defined outside
the checkout (an extension's own blueprint: Flask-Sitemap's `/sitemap.xml`, flask-restx's
`/swagger.json` and docs) are left out and listed on stderr, as `django_runtime_routes.py`
leaves out a library's URLconf.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import runtime_routes
import runtime_tables


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("framework", choices=("flask", "starlette"))
    parser.add_argument("target")
    parser.add_argument("checkout")
    parser.add_argument("--stub-missing", action="store_true")
    parser.add_argument("--env", action="append", default=[], help="K=V set before import")
    parser.add_argument("--stub", action="append", default=[], help="a module to stand in for")
    args = parser.parse_args()
    for pair in args.env:
        key, _, value = pair.partition("=")
        os.environ[key] = value
    checkout = os.path.abspath(args.checkout)
    sys.path.insert(0, checkout)
    os.chdir(checkout)
    finder = None
    own = {
        name.removesuffix(".py")
        for name in os.listdir(checkout)
        if name.endswith(".py") or os.path.isdir(os.path.join(checkout, name))
    }
    if args.stub:  # an installed module whose import needs what the checkout lacks (a data file)
        sys.meta_path.insert(0, runtime_tables._StubFinder(own, set(args.stub)))
    if args.stub_missing:
        finder = runtime_tables._StubFinder(own, set())
        sys.meta_path.append(finder)
    module_name, expression = args.target.split(":", 1)
    module = importlib.import_module(module_name)
    app = eval(expression, vars(module))  # the operator's own expression, on their checkout
    if args.framework == "flask":
        items = runtime_routes.flask_items(app, checkout)
    else:
        items = runtime_routes.starlette_items(app.routes, "", checkout)
    own_items = [item for item in items if not item["file"].startswith(("..", "?"))]
    for item in items:
        if item not in own_items:
            print(f"library route left out: {item['name']} ({item['file']})", file=sys.stderr)
    if finder is not None:
        print("stubbed: " + " ".join(sorted(set(finder.stubbed))), file=sys.stderr)
    unique = {item["name"]: item for item in own_items}
    json.dump(sorted(unique.values(), key=lambda i: i["name"]), sys.stdout, indent=1)


if __name__ == "__main__":
    main()
