"""Adds `files` to formio/formio's route items (blind25j), read by hand from its source.

    python blind25j_formio_files.py ROUTES.json OUT.json

The items are those express_runtime_routes.js printed (name, file, line: the declaring call).
Besides the declaring file, a route's files are the file that mounts its declaring module on the
API router (src/resources/resources.js for the resourcejs resources; src/templates/index.js for
the template import/export routes) and, for the routes index.js declares with a handler from
elsewhere, that handler's file (the auth handlers, the access handler, the swagger builder).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

BY_FILE = {
    "src/resources/FormResource.js": ["src/resources/resources.js"],
    "src/resources/SubmissionResource.js": ["src/resources/resources.js"],
    "src/resources/RoleResource.js": ["src/resources/resources.js"],
    "src/resources/BulkSubmissionResource.js": ["src/resources/resources.js"],
    "src/templates/export.js": ["src/templates/index.js"],
    "src/templates/import.js": ["src/templates/index.js"],
}
BY_NAME = {
    "GET /token": ["src/authentication/index.js"],
    "GET /logout": ["src/authentication/index.js"],
    "GET /current": ["src/authentication/index.js"],
    "GET /access": ["src/middleware/accessHandler.js"],
    "GET /spec.json": ["src/util/swagger.js"],
    "GET /form/:formId/spec.json": ["src/util/swagger.js"],
}


def main(src: str, out: str) -> None:
    items = json.loads(Path(src).read_text())
    for item in items:
        extra = BY_FILE.get(item["file"], []) + BY_NAME.get(item["name"], [])
        item["files"] = sorted({item["file"], *extra})
    Path(out).write_text(json.dumps(items, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
