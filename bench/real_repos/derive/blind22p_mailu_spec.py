"""blind22p: Mailu's truth from runtime items (runtime_routes_stubbed.py, runtime_tables.py)."""

import json

D = "/work/realrepos/derived22p/"
SUB = "core/admin/"
routes = []
for item in json.load(open(D + "mailu_routes.json")):
    f = SUB + item["file"]
    files = {f}
    path = item["name"].split(" ", 1)[1]
    if path == "/ping":
        pass
    elif path.startswith("/api"):
        files |= {SUB + "mailu/api/__init__.py", SUB + "mailu/configuration.py"}
        if path.startswith("/api/v1"):
            files.add(SUB + "mailu/api/v1/__init__.py")
    else:
        files.add(SUB + "mailu/__init__.py")
        if path.startswith("/admin"):
            files.add(SUB + "mailu/configuration.py")
    routes.append({"name": item["name"], "file": f, "line": item["line"], "files": sorted(files)})
for item in json.load(open(D + "mailu_setup_routes.json")):
    f = "setup/" + item["file"]
    routes.append(
        {"name": item["name"], "file": f, "line": item["line"], "files": sorted({f, "setup/main.py"})}
    )
tables = []
for src in ("mailu_tables_db.json", "mailu_tables_base.json"):
    for item in json.load(open(D + src)):
        t = {"name": item["name"], "file": SUB + item["file"], "line": item["line"]}
        if item.get("model"):
            t["model"] = item["model"]
        t["files"] = [t["file"]]
        tables.append(t)
assert len({t["name"] for t in tables}) == len(tables)
assert len({r["name"] for r in routes}) == len(routes)

ENV = "REDIS_ADDRESS=127.0.0.1:1 MEMORY_SESSIONS=true PYTHONPATH=$CHECKOUT/core/base/libs/socrate"
META = {
    "name": "Mailu",
    "repo": "https://github.com/Mailu/Mailu",
    "commit": "bbb1c206f9c8e438bb7f7193bdd8eea2ed09d7fd",
    "commit_date": "2026-07-26T05:44:18+00:00",
    "files": 546,
    "method": open(D + "mailu_method.txt").read().strip(),
    "derive": {
        "pack-http-routes": "cd $CHECKOUT/core/admin && " + ENV + " /work/truthenv/blind22p/mailu/bin/python bench/real_repos/derive/runtime_routes_stubbed.py flask 'mailu:create_app()' . ; cd $CHECKOUT/setup && /work/truthenv/blind22p/mailu/bin/python bench/real_repos/derive/runtime_routes_stubbed.py flask 'main:app' .  (assembled by derive/blind20p_assemble.py derive/blind22p_mailu_spec.py)",
        "pack-sqlalchemy": "cd $CHECKOUT/core/admin && " + ENV + " /work/truthenv/blind22p/mailu/bin/python bench/real_repos/derive/runtime_tables.py 'mailu.models:db' . --import mailu ; the same with 'mailu.models:Base.metadata' (union)",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-sqlalchemy": ("table", tables)}
OUT = "/work/wt/blind22p/bench/real_repos/truth/Mailu.json"
