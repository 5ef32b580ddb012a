"""blind23p: keep's truth from runtime items (runtime_routes_stubbed.py starlette, runtime_tables.py)
plus Next.js route handlers of keep-ui (next_routes.js) and the CLI's callback app (by hand)."""

import json
import re

D = "/work/realrepos/derived23p/"
C = "/work/realrepos/keep/"
routes = []
for item in json.load(open(D + "keep_routes.clean.json")):
    f = item["file"]
    files = {f, "keep/api/api.py"}  # include_router(..., prefix=...) / @app.get / on_start(app)
    if "identitymanager" in f:
        files.add("keep/identitymanager/identitymanagerfactory.py")
    routes.append({"name": item["name"], "file": f, "line": item["line"], "files": sorted(files)})
# Next.js App Router route handlers (next_routes.js put them at line 1): at the export
for item in json.load(open(D + "keep_next.json")):
    method = item["name"].split(" ", 1)[0]
    line = None
    for n, text in enumerate(open(C + item["file"], encoding="utf-8"), 1):
        if re.match(r"export (async function|const) " + method + r"\b", text):
            line = n
            break
    assert line, item
    routes.append(
        {"name": item["name"], "file": item["file"], "line": line, "files": [item["file"]]}
    )
# keep/cli/cli.py's `keep auth login`: a local FastAPI app with @app.get("/callback") (read by hand)
routes.append(
    {"name": "GET /callback", "file": "keep/cli/cli.py", "line": 1511, "files": ["keep/cli/cli.py"]}
)
tables = []
for item in json.load(open(D + "keep_tables.clean.json")):
    t = {"name": item["name"], "file": item["file"], "line": item["line"]}
    if item.get("model"):
        t["model"] = item["model"]
    t["files"] = [t["file"]]
    tables.append(t)
assert all(t["line"] > 0 for t in tables)
assert len({t["name"] for t in tables}) == len(tables)
assert len({r["name"] for r in routes}) == len(routes)

ENV = "PYTHONDONTWRITEBYTECODE=1 DATABASE_CONNECTION_STRING=sqlite:////tmp/blind23p-keep/keep.db HTTP_PROXY=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9"
META = {
    "name": "keep",
    "repo": "https://github.com/keephq/keep",
    "commit": "af93f550b6498089d5e93b6dd426fc2a49498464",
    "commit_date": "2026-08-08T11:50:29+03:00",
    "files": 2733,
    "method": open(D + "keep_method.txt").read().strip(),
    "derive": {
        "pack-http-routes": "cd $CHECKOUT && "
        + ENV
        + " /work/truthenv/blind23p/keep/bin/python bench/real_repos/derive/runtime_routes_stubbed.py starlette 'keep.api.api:get_app()' .  (JSON log lines before the array dropped)  +  NODE_PATH=<typescript> node bench/real_repos/derive/next_routes.js $CHECKOUT '{}'  +  GET /callback of keep/cli/cli.py by hand  (assembled by derive/blind20p_assemble.py derive/blind23p_keep_spec.py)",
        "pack-sqlalchemy": "cd $CHECKOUT && "
        + ENV
        + " /work/truthenv/blind23p/keep/bin/python bench/real_repos/derive/runtime_tables.py 'sqlmodel:SQLModel.metadata' . --import keep.api.api --import keep.api.models.db.<each of the 23 modules>",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-sqlalchemy": ("table", tables)}
OUT = "/work/wt/blind23p/bench/real_repos/truth/keep.json"
