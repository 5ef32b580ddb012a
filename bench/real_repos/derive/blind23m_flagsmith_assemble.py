"""blind23m: flagsmith's truth lists from the three runtime outputs (never runs the packs).

    python blind23m_flagsmith_assemble.py DJANGO.json EXPRESS.json MCP.json > lists.json

DJANGO.json: derive/blind23m_django_places.py run in api/ (paths made relative to the checkout:
`api/` prefixed); the two routes of flagsmith-common's core URLconf that app/urls.py splices in
(`*core_urlpatterns`: /health/liveness/ and /version/, declared in the installed library, no
source in the checkout) left out, as the library URLconfs the script skips. EXPRESS.json:
derive/express_runtime_routes.js over frontend/api/index.js; frontend/api/dev-routes.js (the
rspack dev server's copy of two of its routes) added to those two names' `files`. MCP.json:
derive/blind23m_flagsmith_mcp_routes.py. A name two of them serve keeps the first's file and
line and every file in `files`."""

import json
import sys

django, express, mcp = (json.load(open(p)) for p in sys.argv[1:4])
LIBRARY = {"ANY /health/liveness/", "ANY /version/"}
routes = {}


def add(item):
    entry = routes.setdefault(item["name"], {**item, "files": []})
    for f in item.get("files") or [item["file"]]:
        if f not in entry["files"]:
            entry["files"].append(f)


for item in django["routes"]:
    if item["name"] in LIBRARY:
        continue
    add({**item, "file": "api/" + item["file"], "files": ["api/" + f for f in item["files"]]})
for item in express:
    files = [item["file"]]
    if item["name"] in ("GET /config/project-overrides", "GET /health"):
        files.append("frontend/api/dev-routes.js")
    add({**item, "files": files})
for item in mcp:
    add(item)
tables = [
    {**t, "file": "api/" + t["file"], "files": ["api/" + f for f in t.get("files", [t["file"]])]}
    for t in django["tables"]
]
print(
    json.dumps(
        {"routes": sorted(routes.values(), key=lambda x: x["name"]), "tables": tables}, indent=1
    )
)
