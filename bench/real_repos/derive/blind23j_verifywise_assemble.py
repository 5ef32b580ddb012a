"""Assemble verifywise's truth lists from the runtime outputs (blind23j).

Usage: python3 blind23j_verifywise_assemble.py EXPRESS.json MODELS.json FASTAPI.json SQLA.json > packs.json
EXPRESS: derive/blind23j_express5_routes.js on Servers/ (paths relative to Servers/);
MODELS: derive/blind23j_verifywise_models.js (Servers/database/db.ts's sequelize.models);
FASTAPI: derive/runtime_routes_stubbed.py starlette app:app on EvalServer/src;
SQLA: derive/runtime_tables.py database.db:Base on EvalServer/src.
"""

import json
import sys

express, models, fastapi, sqla = (json.load(open(p)) for p in sys.argv[1:5])
routes = {}
for r in express:
    f = "Servers/" + r["file"]
    routes[r["name"]] = {
        "name": r["name"],
        "file": f,
        "line": r["line"],
        "files": sorted({f, "Servers/index.ts"}),
    }
for r in fastapi:
    f = "EvalServer/src/" + r["file"]
    assert r["name"] not in routes, r
    routes[r["name"]] = {
        "name": r["name"],
        "file": f,
        "line": r["line"],
        "files": sorted({f, "EvalServer/src/app.py"}),
    }
tables = {}
for m in models:
    (hit,) = m["hits"]
    f = "Servers/" + hit["file"]
    if m["name"] in tables:
        tables[m["name"]]["files"] = sorted(set(tables[m["name"]]["files"]) | {f})
    else:
        tables[m["name"]] = {"name": m["name"], "file": f, "line": hit["line"], "files": [f]}
sa = [
    {
        "name": t["name"],
        "file": "EvalServer/src/" + t["file"],
        "line": t["line"],
        "files": ["EvalServer/src/" + t["file"]],
    }
    for t in sqla
]


def key(x):
    return x["name"]


json.dump(
    {
        "routes": sorted(routes.values(), key=key),
        "js_tables": sorted(tables.values(), key=key),
        "sqla_tables": sorted(sa, key=key),
    },
    sys.stdout,
    indent=1,
)
