"""Add the registering / prefix-giving files to changedetection.io's route items (never runs the packs).

    python blind26_changedetection_files.py items.json > routes.json

Input: flask_blueprint_files.py's items (view file + the file that made the blueprint). Every
blueprint and every flask-restful Resource of the app is registered in
changedetectionio/flask_app.py (`app.register_blueprint(..., url_prefix=...)`,
`watch_api.add_resource(...)`), so that file is added to every item. Child blueprints get the
file of the parent that registers them (`ui_blueprint.register_blueprint(...)` in
blueprint/ui/__init__.py, restore in blueprint/backups/__init__.py, llm and notifications with
their url_prefix in blueprint/settings/__init__.py).
"""

import json
import sys

APP = "changedetectionio/flask_app.py"
PARENTS = {
    "changedetectionio/blueprint/ui/": "changedetectionio/blueprint/ui/__init__.py",
    "changedetectionio/blueprint/backups/restore.py": "changedetectionio/blueprint/backups/__init__.py",
    "changedetectionio/blueprint/settings/llm.py": "changedetectionio/blueprint/settings/__init__.py",
    "changedetectionio/blueprint/settings/notifications/": (
        "changedetectionio/blueprint/settings/__init__.py"
    ),
}


def main() -> None:
    items = json.load(open(sys.argv[1], encoding="utf-8"))
    for item in items:
        files = list(item["files"])
        for prefix, parent in PARENTS.items():
            if item["file"].startswith(prefix) and parent not in files:
                files.append(parent)
        if APP not in files:
            files.append(APP)
        item["files"] = files
    json.dump(items, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
