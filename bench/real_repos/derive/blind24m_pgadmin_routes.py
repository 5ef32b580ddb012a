"""Ground-truth routes of pgAdmin 4's Flask app from its own `url_map` (never runs the packs).

    cd CHECKOUT/web && CONFIG_DISTRO_FILE_PATH=<distro config> PGADMIN_SETUP_EMAIL=... \
        PGADMIN_SETUP_PASSWORD=... python blind24m_pgadmin_routes.py CHECKOUT > items.json

The app is `create_app()` of the `pgadmin` package, `config` imported first as pgAdmin4.py
does (server mode: config.py's default; the desktop mode serves a subset, checked). Every item is
flask_blueprint_files.py's (runtime_routes.py's `flask_items`: one per method and rule, Flask's
HEAD/OPTIONS and `static` left out, at the view function's first line or the view class's line;
`files` the view's file and its blueprint's module), with paths from the repository root (`web/`
prefixed) and three more kinds of file in `files`, those whose code gives the rule:
`pgadmin/browser/utils.py` for a view class derived from its `NodeView` (whose
`register_node_view` writes the node's rules from the class's `operations`), and the module of
the class in the blueprint's MRO that defines `node_path` (the browser node's URL prefix) when
the blueprint has one. Routes whose view lies outside the checkout (Flask-Security's own
`/login`, `/logout`, `/change`, `/reset`, `/verify` blueprint) are left out and listed on stderr.
Whatever the app prints while it is made (a setup note) goes to stderr.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flask_blueprint_files import blueprint_file
from runtime_routes import flask_items


def _file(obj: Any, web: str) -> str | None:
    try:
        path = inspect.getsourcefile(obj)
    except TypeError:
        return None
    if not path or not os.path.abspath(path).startswith(web + os.sep):
        return None
    return os.path.relpath(path, web)


def main() -> None:
    checkout = os.path.abspath(sys.argv[1])
    web = os.path.join(checkout, "web")
    sys.path.insert(0, web)
    os.chdir(web)
    with contextlib.redirect_stdout(sys.stderr):
        importlib.import_module("config")
        app = importlib.import_module("pgadmin").create_app()
    from pgadmin.browser.utils import NodeView

    rule_of = {}
    for rule in app.url_map.iter_rules():
        for method in rule.methods or ():
            rule_of[f"{method} {rule.rule}"] = rule
    items = {}
    for item in flask_items(app, web):
        rule = rule_of[item["name"]]
        if item["file"].startswith(".."):
            print(f"left out (a library's view): {item['name']} {item['file']}", file=sys.stderr)
            continue
        files = {item["file"]}
        registered = blueprint_file(app, rule.endpoint, web)
        if registered:
            files.add(registered)
        view = app.view_functions[rule.endpoint]
        view_class = getattr(view, "view_class", None)
        if isinstance(view_class, type) and issubclass(view_class, NodeView):
            files.add("pgadmin/browser/utils.py")
        name = rule.endpoint.rsplit(".", 1)[0] if "." in rule.endpoint else None
        blueprint = app.blueprints.get(name) if name else None
        if blueprint is not None:
            owner = next((k for k in type(blueprint).__mro__ if "node_path" in vars(k)), None)
            where = _file(owner, web) if owner is not None else None
            if where:
                files.add(where)
        item["file"] = "web/" + item["file"]
        item["files"] = sorted("web/" + f for f in files)
        items[item["name"]] = item
    json.dump(sorted(items.values(), key=lambda i: i["name"]), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
