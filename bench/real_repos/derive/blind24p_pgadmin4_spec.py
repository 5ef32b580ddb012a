"""blind24p: pgadmin4's truth from runtime items (blind24p_pgadmin_routes.py, runtime_tables.py)."""

import json

D = "/work/realrepos/derived24p/"
routes = [
    {"name": i["name"], "file": i["file"], "line": i["line"], "files": i["files"]}
    for i in json.load(open(D + "pgadmin4_routes.json"))
]
# runtime_tables.py was pointed at pgAdmin4.py (pgadmin.model alone is a circular import): the
# db.Table("roles_users", ...) call it then did not see is in pgadmin/model/__init__.py
TABLE_FIX = {"roles_users": ("web/pgadmin/model/__init__.py", 110)}
tables = []
for item in json.load(open(D + "pgadmin4_tables.json")):
    f, line = TABLE_FIX.get(item["name"], (item["file"], item["line"]))
    t = {"name": item["name"], "file": f, "line": line}
    if item.get("model"):
        t["model"] = item["model"]
    t["files"] = [f]
    tables.append(t)
assert all(t["line"] > 0 for t in tables) and all(r["line"] > 0 for r in routes)
assert len({t["name"] for t in tables}) == len(tables)
assert len({r["name"] for r in routes}) == len(routes)

ENV = (
    "PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=/work/truthenv/blind24p/pgaconf "
    "PGADMIN_SETUP_EMAIL=truth@example.org PGADMIN_SETUP_PASSWORD=<any> "
    "HTTP_PROXY=127.0.0.1:9 HTTPS_PROXY=127.0.0.1:9"
)
PY = "/work/truthenv/blind24p/pgadmin4/bin/python"
META = {
    "name": "pgadmin4",
    "repo": "https://github.com/pgadmin-org/pgadmin4",
    "commit": "bc58657d3d3ab4209cdadea6d191b632cf1572cc",
    "commit_date": "2026-08-21T18:39:32+05:30",
    "files": 5516,
    "method": open(D + "pgadmin4_method.txt").read().strip(),
    "derive": {
        "pack-http-routes": f"cd $CHECKOUT && {ENV} {PY} bench/real_repos/derive/blind24p_pgadmin_routes.py web/pgAdmin4.py .  (assembled by derive/blind20p_assemble.py derive/blind24p_pgadmin4_spec.py)",
        "pack-sqlalchemy": f"cd $CHECKOUT && {ENV} {PY} bench/real_repos/derive/runtime_tables.py \"pgAdmin4:__import__('pgadmin.model', fromlist=['db']).db\" . --path web  (stdout's setup notes before the JSON cut)",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-sqlalchemy": ("table", tables)}
OUT = "/work/wt/blind24p/bench/real_repos/truth/pgadmin4.json"
