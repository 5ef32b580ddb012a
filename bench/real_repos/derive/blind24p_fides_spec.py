"""blind24p: fides' truth from runtime items (blind24p_fides_routes.py, next_routes.js,
runtime_tables.py)."""

import json

D = "/work/realrepos/derived24p/"
routes = [
    {"name": i["name"], "file": i["file"], "line": i["line"], "files": i["files"]}
    for i in json.load(open(D + "fides_routes.json"))
]
seen = {r["name"] for r in routes}
for i in json.load(open(D + "fides_next.json")):
    if i["file"].startswith("clients/sample-app/"):
        continue  # the demo shop is not the app
    if i["name"] in seen:  # one name for the two Next apps' /api/openapi.json: both files
        kept = next(r for r in routes if r["name"] == i["name"])
        kept["files"] = sorted({*kept["files"], i["file"]})
        continue
    seen.add(i["name"])
    routes.append({"name": i["name"], "file": i["file"], "line": i["line"], "files": [i["file"]]})
# next_routes.js keeps one item per name: privacy-center's pages/api/openapi.json.ts serves the
# same seven names as admin-ui's (its first), so it joins their files
for r in routes:
    if r["name"].endswith(" /api/openapi.json"):
        r["files"] = sorted({*r["files"], "clients/privacy-center/pages/api/openapi.json.ts"})
tables = [
    {
        "name": t["name"],
        "file": t["file"],
        "line": t["line"],
        "model": t["model"],
        "files": [t["file"]],
    }
    for t in json.load(open(D + "fides_tables.json"))
]
assert all(t["line"] > 0 for t in tables) and all(r["line"] > 0 for r in routes)
assert len({t["name"] for t in tables}) == len(tables)
assert len({r["name"] for r in routes}) == len(routes)

ENV = (
    "PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=src FIDES__CONFIG_PATH=/tmp/b24p_fides/none.toml "
    "FIDES__SECURITY__APP_ENCRYPTION_KEY=<32 chars> FIDES__DATABASE__SERVER=127.0.0.1 "
    "FIDES__DATABASE__PORT=9 FIDES__REDIS__HOST=127.0.0.1 FIDES__REDIS__PORT=9 "
    "FIDES__REDIS__ENABLED=false FIDES__USER__ANALYTICS_OPT_OUT=true HTTP_PROXY=127.0.0.1:9 HTTPS_PROXY=127.0.0.1:9"
)
PY = "/work/truthenv/blind24p/fides/bin/python"
META = {
    "name": "fides",
    "repo": "https://github.com/ethyca/fides",
    "commit": "96aa40cba74e44a369d637b056f08310132b65ba",
    "commit_date": "2026-05-01T15:44:43+00:00",
    "files": 6126,
    "method": open(D + "fides_method.txt").read().strip(),
    "derive": {
        "pack-http-routes (FastAPI)": f"cd $CHECKOUT && {ENV} {PY} bench/real_repos/derive/blind24p_fides_routes.py fides.api.main:app .",
        "pack-http-routes (Next.js)": "NODE_PATH=/work/truthenv/blind24p/ts/node_modules node bench/real_repos/derive/next_routes.js $CHECKOUT '{}'  (clients/sample-app dropped by derive/blind24p_fides_spec.py)",
        "pack-sqlalchemy": f"cd $CHECKOUT && {ENV} {PY} bench/real_repos/derive/runtime_tables.py 'fides.api.db.base:Base' . --path src --import fides.api.main --import 'fides.api.models.**'  (log lines before the JSON cut)",
        "assemble": "derive/blind20p_assemble.py derive/blind24p_fides_spec.py",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-sqlalchemy": ("table", tables)}
OUT = "/work/wt/blind24p/bench/real_repos/truth/fides.json"
