"""blind25p: dstack's truth from runtime items (runtime_routes.py on the server app and on the
gateway app, runtime_tables.py), paths re-rooted from src/ to the repository root."""

import json

D = "/work/realrepos/derived25p/"
P = "src/"
SERVER_APP = P + "dstack/_internal/server/app.py"
GATEWAY_APP = P + "dstack/_internal/proxy/gateway/app.py"
routes: dict[str, dict] = {}
for raw, app_file in (
    ("dstack_gateway_raw.json", GATEWAY_APP),
    ("dstack_routes_raw.json", SERVER_APP),
):
    for i in json.load(open(D + raw)):
        if i["file"].startswith(".."):  # FastAPI's own docs UI (docs_url="/api/docs")
            assert i["name"] == "GET /api/docs", i
            continue
        item = {"name": i["name"], "file": P + i["file"], "line": i["line"]}
        files = {item["file"], app_file}
        if i["name"] in routes:  # GET /: both apps declare it; one name, the files of both
            routes[i["name"]]["files"] = sorted({*routes[i["name"]]["files"], *files})
            continue
        item["files"] = sorted(files)
        routes[i["name"]] = item
tables = [
    {
        "name": t["name"],
        "file": P + t["file"],
        "line": t["line"],
        "model": t["model"],
        "files": [P + t["file"]],
    }
    for t in json.load(open(D + "dstack_tables.json"))
]
routes_list = list(routes.values())
assert all(t["line"] > 1 for t in tables) and all(r["line"] > 1 for r in routes_list)
assert len({t["name"] for t in tables}) == len(tables)

ENV = (
    "PYTHONDONTWRITEBYTECODE=1 HOME=/tmp/b25p/dstack_home DSTACK_SERVER_DIR=/tmp/b25p/dstack_home/server "
    "HTTP_PROXY=127.0.0.1:9 HTTPS_PROXY=127.0.0.1:9"
)
PY = "/work/truthenv/blind25p/dstack/bin/python"
META = {
    "name": "dstack",
    "repo": "https://github.com/dstackai/dstack",
    "commit": "511c318c8a7672fb2a925041bfc2d7301a26272e",
    "commit_date": "2026-08-21T13:11:00+00:00",
    "files": 2078,
    "method": open(D + "dstack_method.txt").read().strip(),
    "derive": {
        "pack-http-routes (server)": f"cd $CHECKOUT/src && {ENV} {PY} bench/real_repos/derive/runtime_routes.py starlette dstack._internal.server.main:app .",
        "pack-http-routes (gateway)": f"cd $CHECKOUT/src && {ENV} {PY} bench/real_repos/derive/runtime_routes.py starlette dstack._internal.proxy.gateway.main:app .",
        "pack-sqlalchemy": f"cd $CHECKOUT/src && {ENV} {PY} bench/real_repos/derive/runtime_tables.py 'dstack._internal.server.models:BaseModel' . --import dstack._internal.server.main",
        "assemble": "derive/blind20p_assemble.py derive/blind25p_dstack_spec.py",
    },
}
PACKS = {"pack-http-routes": ("route", routes_list), "pack-sqlalchemy": ("table", tables)}
OUT = "/work/wt/blind25p/bench/real_repos/truth/dstack.json"
