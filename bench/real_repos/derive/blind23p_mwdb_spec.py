"""blind23p: mwdb-core's truth from runtime items (runtime_routes_stubbed.py, runtime_tables.py)."""

import json

D = "/work/realrepos/derived23p/"
routes = []
for item in json.load(open(D + "mwdb_routes.json")):
    f = item["file"]
    if f == "mwdb/core/static.py":  # static_blueprint, registered by app.py (serve_web)
        files = {f, "mwdb/app.py"}
    else:  # Resource class, registered by api.add_resource in app.py on Service's /api blueprint
        files = {f, "mwdb/app.py", "mwdb/core/service.py"}
    routes.append({"name": item["name"], "file": f, "line": item["line"], "files": sorted(files)})
# db.Table(...) association tables the script placed at the model package's __all__ entry
TABLE_FIX = {
    "favorites": ("mwdb/model/object.py", 46),
    "relation": ("mwdb/model/object.py", 26),
    "karton_object": ("mwdb/model/karton.py", 12),
}
tables = []
for item in json.load(open(D + "mwdb_tables.json")):
    f, line = TABLE_FIX.get(item["name"], (item["file"], item["line"]))
    t = {"name": item["name"], "file": f, "line": line}
    if item.get("model"):
        t["model"] = item["model"]
    t["files"] = [f]
    tables.append(t)
assert all(t["line"] > 0 for t in tables)
assert len({t["name"] for t in tables}) == len(tables)
assert len({r["name"] for r in routes}) == len(routes)

ENV = "PYTHONDONTWRITEBYTECODE=1 MWDB_POSTGRES_URI=postgresql://mwdb:mwdb@127.0.0.1:1/mwdb MWDB_SECRET_KEY=<any> MWDB_ENABLE_SSDEEP=0"
META = {
    "name": "mwdb-core",
    "repo": "https://github.com/CERT-Polska/mwdb-core",
    "commit": "88f0ea5ff2a3bff245d7e0a4f7d235cdffc0c537",
    "commit_date": "2026-08-05T16:16:59+02:00",
    "files": 659,
    "method": open(D + "mwdb_method.txt").read().strip(),
    "derive": {
        "pack-http-routes": "cd $CHECKOUT && "
        + ENV
        + " /work/truthenv/blind23p/mwdb/bin/python bench/real_repos/derive/runtime_routes_stubbed.py flask 'mwdb.app:app' .  (assembled by derive/blind20p_assemble.py derive/blind23p_mwdb_spec.py)",
        "pack-sqlalchemy": "cd $CHECKOUT && "
        + ENV
        + " /work/truthenv/blind23p/mwdb/bin/python bench/real_repos/derive/runtime_tables.py 'mwdb.model:db' . --import mwdb.app",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-sqlalchemy": ("table", tables)}
OUT = "/work/wt/blind23p/bench/real_repos/truth/mwdb-core.json"
