"""blind25p: iris-web's Flask routes from `app.url_map` (runtime_routes.py's flask_items, unchanged),
never runs the packs.

    cd CHECKOUT/source && ENV... python blind25p_iris_routes.py > items.json

`app/__init__.py` ends with `from app import views`, which registers every blueprint and then
calls `app.post_init.run_post_init()` (it connects to PostgreSQL, creates the database and
seeds it). That one module is replaced by a stand-in whose `run_post_init` does nothing, before
`app` is imported; nothing else is stubbed. The engine is created lazily by Flask-SQLAlchemy
and never connects; Celery's broker is never contacted.

Each item: runtime_routes.py's place (the view function's first decorator line, or a view
class); `files` = the view's file, the file of the module that made the rule's blueprint (its
`import_name`), and every file that registers that blueprint on the app (app/views.py, or
app/blueprints/case/case_routes.py for the case sub-blueprints). A view whose class lives in a
library (graphql-server's GraphQLView) is placed at the blueprint module's `add_url_rule` line.
"""

from __future__ import annotations

import collections
import collections.abc
import json
import os
import re
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from runtime_routes import flask_items  # noqa: E402


def registering_files(checkout: str) -> dict[str, list[str]]:
    """Blueprint variable name -> files that call `app.register_blueprint(<name>)`."""
    found: dict[str, list[str]] = {}
    for folder, _, names in os.walk(os.path.join(checkout, "app")):
        for name in names:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            text = open(path, encoding="utf-8").read()
            for var in re.findall(r"^app\.register_blueprint\((\w+)\)", text, re.M):
                found.setdefault(var, []).append(os.path.relpath(path, checkout))
    return found


def main() -> None:
    # sqlalchemy-imageattach 1.1.0 (pinned) imports `collections.Iterator`, gone in Python 3.10:
    # the abstract classes are put back on `collections` (the project's Docker image runs 3.9)
    for name in collections.abc.__all__:
        if not hasattr(collections, name):
            setattr(collections, name, getattr(collections.abc, name))
    checkout = os.path.abspath(".")
    sys.path.insert(0, checkout)
    stand_in = types.ModuleType("app.post_init")
    stand_in.run_post_init = lambda development=False: None  # type: ignore[attr-defined]
    sys.modules["app.post_init"] = stand_in
    import app as package

    flask_app = package.app
    registered = registering_files(checkout)
    items = []
    for item in flask_items(flask_app, checkout):
        method, rule = item["name"].split(" ", 1)
        endpoint = next(
            r.endpoint
            for r in flask_app.url_map.iter_rules()
            if r.rule == rule and method in (r.methods or ())
        )
        files = set()
        blueprint_name = endpoint.rsplit(".", 1)[0] if "." in endpoint else None
        blueprint = flask_app.blueprints.get(blueprint_name) if blueprint_name else None
        if blueprint is not None:
            module = sys.modules[blueprint.import_name]
            bp_file = os.path.relpath(module.__file__, checkout)
            files.add(bp_file)
            for var, value in vars(module).items():
                if value is blueprint:
                    files.update(registered.get(var, []))
            if item["file"].startswith(".."):  # a library's view class, routed here by name
                tail = rule.rsplit("/", 1)[-1]
                lines = open(module.__file__, encoding="utf-8").read().splitlines()
                item["file"] = bp_file
                item["line"] = next(
                    n
                    for n, text in enumerate(lines, 1)
                    if "add_url_rule" in text and f"/{tail}" in text
                )
        files.add(item["file"])
        item["files"] = sorted(files)
        items.append(item)
    json.dump(sorted(items, key=lambda i: i["name"]), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
