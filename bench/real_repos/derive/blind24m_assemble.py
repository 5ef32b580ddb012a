"""Assemble blind24m's truth files from the runtime outputs (no pack involved).

    python blind24m_assemble.py HEADER.json unleash ROUTES.json [ROUTES.json ...] > truth.json
    python blind24m_assemble.py HEADER.json taiga DJANGO.json CHECKOUT > truth.json
    python blind24m_assemble.py HEADER.json baserow DJANGO.json CHECKOUT > truth.json

HEADER.json holds the truth's name, repo, commit, commit_date, files, method and derive. The
packs' items are the runtime outputs as they are, with these changes only:
- unleash: the union of blind24m_unleash_routes.js's runs (the default configuration and the
  `demo` authentication type: one route more), by name.
- taiga: blind24m_taiga_routes.py's routes and tables; a route whose view is a library's
  (Django's sitemap views, which django_runtime_routes.py places at line 1 of the URLconf) is
  placed at the `re_path(` call in that URLconf whose pattern spells its path's last segment.
- baserow: blind24m_baserow_routes.py's routes and tables (the settings module's warnings, printed
  on stdout before the JSON, skipped); a route whose view is a library's (drf-spectacular's
  `SpectacularRedocView`, placed by the script at line 1 of the URLconf) is placed at the `path(`
  call that opens the pattern whose view is `ClassName.as_view(` in that URLconf.
The packs a repository does not use expect `[]` (checked by grep, said in `method`).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

PACKS = ("pack-http-routes", "pack-sqlalchemy", "pack-django", "pack-js-tables")


def _load(path: str) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def unleash(*runs: str) -> dict[str, list[dict[str, Any]]]:
    merged: dict[str, dict[str, Any]] = {}
    for run in runs:
        for item in _load(run):
            merged.setdefault(item["name"], item)
    return {"pack-http-routes": sorted(merged.values(), key=lambda i: i["name"])}


def taiga(out: str, checkout: str) -> dict[str, list[dict[str, Any]]]:
    data = _load(out)
    routes = []
    for route in data["routes"]:
        route = dict(route)
        if route["line"] == 1 and route["file"].endswith("urls.py"):
            text = (Path(checkout) / route["file"]).read_text(encoding="utf-8").splitlines()
            last = route["name"].split(" ", 1)[1].rstrip("/").rsplit("/", 1)[-1]
            stem = re.sub(r"\{[^}]+\}", "", last).split(".")[0]
            for number, line in enumerate(text, 1):
                if "re_path(" in line and re.search(rf"\^.*{re.escape(stem)}", line):
                    route["line"] = number
                    break
        routes.append(route)
    return {"pack-http-routes": routes, "pack-django": data["tables"]}


def baserow(out: str, checkout: str) -> dict[str, list[dict[str, Any]]]:
    text = Path(out).read_text(encoding="utf-8")
    data = json.loads(text[text.index("{") if text.startswith("{") else text.index("\n{") + 1 :])
    routes = []
    for route in data["routes"]:
        route = dict(route)
        if route["line"] == 1 and route["file"].endswith("urls.py"):
            lines = (Path(checkout) / route["file"]).read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines, 1):
                if re.search(rf"\b{re.escape(route['view'])}\.as_view\(", line):
                    while number > 1 and "path(" not in lines[number - 1]:
                        number -= 1
                    route["line"] = number
                    break
        routes.append(route)
    return {"pack-http-routes": routes, "pack-django": data["tables"]}


def main() -> None:
    header, kind, args = _load(sys.argv[1]), sys.argv[2], sys.argv[3:]
    found = {"unleash": unleash, "taiga": taiga, "baserow": baserow}[kind](*args)
    truth = dict(header)
    truth["packs"] = {
        pack: {"kind": "table" if pack != "pack-http-routes" else "route",
               "expected": found.get(pack, [])}
        for pack in PACKS
    }  # fmt: skip
    json.dump(truth, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
