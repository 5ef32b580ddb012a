"""Flask routes from `app.url_map` (runtime_routes.py's items), each also placed at its blueprint's
module: a ground truth for an app whose blueprints are made and registered inside a function of
their own module (a plugin hook, a `register(app)`), never runs the packs.

    cd CHECKOUT && python flask_blueprint_files.py MODULE:EXPRESSION . > items.json

Every item is runtime_routes.py's (`flask_items`: one per method and rule, HEAD/OPTIONS and
`static` left out, at the view function's first line) with `files` = the view's file and the file
of the module that made the rule's blueprint (`Blueprint(name, import_name)`: `import_name`'s
file; the rule is registered there). A view that `inspect` cannot place (a `functools.partial`
over a shared view) is placed at that blueprint file's first line spelling the rule's literal (its longest tail, the
prefix being the blueprint's).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtime_routes import flask_items


def blueprint_file(app: Any, endpoint: str, checkout: str) -> str | None:
    name = endpoint.rsplit(".", 1)[0] if "." in endpoint else None
    blueprint = app.blueprints.get(name) if name else None
    if blueprint is None:
        return None
    module = sys.modules.get(blueprint.import_name)
    where = getattr(module, "__file__", None)
    return os.path.relpath(where, checkout) if where else None


def main() -> None:
    target, checkout = sys.argv[1], os.path.abspath(sys.argv[2])
    sys.path.insert(0, checkout)
    os.chdir(checkout)
    module_name, expression = target.split(":", 1)
    module = importlib.import_module(module_name)
    app = eval(expression, vars(module))  # the operator's own expression, on their checkout
    rule_of = {}
    for rule in app.url_map.iter_rules():
        for method in rule.methods or ():
            rule_of[f"{method} {rule.rule}"] = rule
    items = []
    for item in flask_items(app, checkout):
        rule = rule_of[item["name"]]
        registered = blueprint_file(app, rule.endpoint, checkout)
        files = [item["file"]] if item["file"] != "?" else []
        if registered and registered not in files:
            files.append(registered)
        if item["file"] == "?" and registered:
            with open(os.path.join(checkout, registered), encoding="utf-8") as source:
                lines = source.read().splitlines()
            # the rule as its module spells it: without the blueprint's prefix
            parts = rule.rule.split("/")
            tails = ["/".join(["", *parts[i:]]) for i in range(1, len(parts))]
            spelled = [
                n for tail in tails for n, text in enumerate(lines, 1) if f'"{tail}"' in text
            ]
            item["file"], item["line"] = registered, (spelled[0] if spelled else 1)
        item["files"] = files or [item["file"]]
        items.append(item)
    unique = {item["name"]: item for item in items}
    json.dump(sorted(unique.values(), key=lambda i: i["name"]), sys.stdout, indent=1)


if __name__ == "__main__":
    main()
