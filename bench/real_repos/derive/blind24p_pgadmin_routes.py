"""blind24p: pgAdmin 4's routes from Flask's own `app.url_map` (never runs the packs).

    cd CHECKOUT && PYTHONPATH=<dir holding a config_local.py> PGADMIN_SETUP_EMAIL=...
        PGADMIN_SETUP_PASSWORD=... python blind24p_pgadmin_routes.py web/pgAdmin4.py . > items.json

Imports the WSGI module (`pgAdmin4.py`: `app = create_app()`, which loads every PgAdminModule
blueprint the module loader finds) and takes runtime_routes.py's items (`flask_items`: one per
method and rule, Werkzeug's HEAD and Flask's automatic OPTIONS left out, `static` endpoints left
out), re-rooted at the repository (paths under `web/`). A rule whose view is defined outside the
checkout (Flask-Security-Too's own blueprint) is a library's route: left out, listed on stderr.

`files` of each item: the view's file; the file of the module that made the rule's blueprint
(`import_name`); the checkout files of the blueprint class's bases that give it its url_prefix
(`PgAdminModule.__init__`, `BrowserPluginModule`/`CollectionNodeModule`'s `node_path`); and for a
class view made by `NodeView.register_node_view` (pgadmin/browser/utils.py: one rule per entry of
the class's `operations`), the checkout files of the view class's bases that define
`register_node_view`, `generate_ops` or `get_node_urls`.
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import io
import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtime_routes import _added_by_flask, _place

PREFIX_ATTRS = ("__init__", "node_path", "url_prefix", "script_load")
NODE_ATTRS = ("register_node_view", "generate_ops", "get_node_urls")


def _file_of(obj: Any, checkout: str) -> str | None:
    try:
        path = inspect.getsourcefile(obj)
    except TypeError:
        return None
    if not path or not os.path.abspath(path).startswith(checkout + os.sep):
        return None
    return os.path.relpath(path, checkout)


def _mro_files(cls: type, attrs: tuple[str, ...], checkout: str) -> set[str]:
    found = set()
    for base in cls.__mro__:
        if any(a in vars(base) for a in attrs):
            where = _file_of(base, checkout)
            if where:
                found.add(where)
    return found


def main() -> None:
    module_path, checkout = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    sys.path.insert(0, os.path.dirname(module_path))
    os.chdir(os.path.dirname(module_path))
    spec = importlib.util.spec_from_file_location("pgAdmin4", module_path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["pgAdmin4"] = module
    with contextlib.redirect_stdout(io.StringIO()):  # its setup prints notes on stdout
        spec.loader.exec_module(module)
    app = module.app
    items = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.endswith(".static"):
            continue
        view = app.view_functions[rule.endpoint]
        where, line = _place(view, checkout)
        if where == "?" or where.startswith(".."):
            print("left out (library view):", rule.endpoint, rule.rule, file=sys.stderr)
            continue
        files = {where}
        name = rule.endpoint.rsplit(".", 1)[0] if "." in rule.endpoint else None
        blueprint = app.blueprints.get(name) if name else None
        if blueprint is not None:
            bp_module = sys.modules.get(blueprint.import_name)
            bp_file = getattr(bp_module, "__file__", None)
            if bp_file:
                files.add(os.path.relpath(bp_file, checkout))
            files |= _mro_files(type(blueprint), PREFIX_ATTRS, checkout)
            files.discard(None)
        view_class = getattr(view, "view_class", None)
        if view_class is not None:
            files |= _mro_files(view_class, NODE_ATTRS, checkout)
        for method in sorted(set(rule.methods or ()) - _added_by_flask(rule)):
            items.append(
                {
                    "name": f"{method} {rule.rule}",
                    "file": where,
                    "line": line,
                    "endpoint": rule.endpoint,
                    "files": sorted(files),
                }
            )
    unique = {item["name"]: item for item in items}
    if len(unique) != len(items):
        print("duplicate names:", len(items) - len(unique), file=sys.stderr)
    json.dump(sorted(unique.values(), key=lambda i: i["name"]), sys.stdout, indent=1)


if __name__ == "__main__":
    main()
