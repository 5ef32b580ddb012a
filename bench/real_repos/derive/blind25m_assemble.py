"""Assemble blind25m's truth files from the runtime outputs (no pack involved).

    python blind25m_assemble.py HEADER.json nodebb ROUTES.json CHECKOUT > truth.json
    python blind25m_assemble.py HEADER.json django DJANGO.json > truth.json
    python blind25m_assemble.py HEADER.json nautobot DJANGO.json > truth.json

HEADER.json holds the truth's name, repo, commit, commit_date, files, method and derive. The
packs' items are the runtime outputs as they are, with these changes only:
- nodebb: express_runtime_routes.js's items (blind25m_nodebb_app.js's app) less the three
  `router.all()` guards of src/routes/index.js whose only handlers are middleware calling
  `next()` (prepareAPI, the admin privilege checks: paths `(/+api|/+api/*?)`,
  `(/+api/admin|/+api/admin/*?)`, `(/+admin|/+admin/*?)`), plus the routes of the web installer's
  Express app (install/web.js, `./nodebb setup`'s second server), listed by hand from its
  `app.get`/`app.post` lines (a name the forum's app also serves keeps the forum's place).
- django: blind25m_django_routes.py's routes and tables (pack-django).
- nautobot: as django, plus GET and POST /graphql/, the one pattern whose view yields no method
  there (its NO-METHOD line): CustomGraphQLView's first `dispatch` is Django's
  LoginRequiredMixin's, which calls graphene-django's GraphQLView.dispatch, serving GET and POST
  only (405 otherwise); placed at the view class, as the other class views are.
The packs a repository does not use expect `[]` (checked by grep, said in `method`).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

PACKS = ("pack-http-routes", "pack-sqlalchemy", "pack-django", "pack-js-tables")
GUARDS = {"ALL /(/+api|/+api/*?)", "ALL /(/+api/admin|/+api/admin/*?)", "ALL /(/+admin|/+admin/*?)"}
INSTALLER = "install/web.js"


def _load(path: str) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def nodebb(out: str, checkout: str) -> dict[str, list[dict[str, Any]]]:
    routes = {item["name"]: item for item in _load(out) if item["name"] not in GUARDS}
    text = (Path(checkout) / INSTALLER).read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(text, 1):
        found = re.match(r"\s*app\.(get|post|put|delete|patch)\('([^']+)'", line)
        if found:
            name = f"{found.group(1).upper()} {found.group(2)}"
            routes.setdefault(name, {"name": name, "file": INSTALLER, "line": number})
            routes[name].setdefault("files", [routes[name]["file"]])
    return {"pack-http-routes": sorted(routes.values(), key=lambda i: i["name"])}


def django(out: str) -> dict[str, list[dict[str, Any]]]:
    data = _load(out)
    return {"pack-http-routes": data["routes"], "pack-django": data["tables"]}


GRAPHQL = {
    "file": "nautobot/core/views/__init__.py",
    "line": 539,
    "files": ["nautobot/core/urls.py", "nautobot/core/views/__init__.py"],
    "view": "CustomGraphQLView",
}


def nautobot(out: str) -> dict[str, list[dict[str, Any]]]:
    found = django(out)
    routes = {item["name"]: item for item in found["pack-http-routes"]}
    for method in ("GET", "POST"):
        routes.setdefault(f"{method} /graphql/", {"name": f"{method} /graphql/", **GRAPHQL})
    found["pack-http-routes"] = sorted(routes.values(), key=lambda i: i["name"])
    return found


def main() -> None:
    header, kind, args = _load(sys.argv[1]), sys.argv[2], sys.argv[3:]
    found = {"nodebb": nodebb, "django": django, "nautobot": nautobot}[kind](*args)
    packs = {}
    for pack in PACKS:
        kind_name = "table" if pack != "pack-http-routes" else "route"
        packs[pack] = {"kind": kind_name, "expected": found.get(pack, [])}
    json.dump({**header, "packs": packs}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
