"""blind21p: romm's truth from runtime items (runtime_routes_stubbed.py, runtime_tables.py)."""
import json

D = "/work/realrepos/derived21p/"
CO = "/work/realrepos/romm/"
SUB = "backend/"
routes = []
for item in json.load(open(D + "romm_routes.json")):
    f = SUB + item["file"]
    lines = open(CO + f).read().splitlines()
    files = {f, SUB + "main.py", SUB + "utils/router.py"}  # prefix /api; alternate trailing-slash path
    if lines[item["line"] - 1].lstrip().startswith("@protected_route"):
        files.add(SUB + "decorators/auth.py")  # protected_route(router.get, path, ...) registers it
    if f.startswith(SUB + "endpoints/roms/") and not f.endswith("__init__.py"):
        files.add(SUB + "endpoints/roms/__init__.py")  # router.include_router(sub_router)
    routes.append({"name": item["name"], "file": f, "line": item["line"], "files": sorted(files)})
tables = []
for item in json.load(open(D + "romm_tables.json")):
    t = {"name": item["name"], "file": SUB + item["file"], "line": item["line"]}
    if item.get("model"):
        t["model"] = item["model"]
    t["files"] = [t["file"]]
    tables.append(t)

META = {
    "name": "romm",
    "repo": "https://github.com/rommapp/romm",
    "commit": "57badfd62664c8db211294761489f61470c74ce6",
    "commit_date": "2026-08-22T12:04:22-04:00",
    "files": 2763,
    "method": open(D + "romm_method.txt").read().strip(),
    "derive": {
        "pack-http-routes": "cd $CHECKOUT/backend && ROMM_AUTH_SECRET_KEY=<32 hex> ROMM_DB_DRIVER=postgresql DB_USER=u DB_PASSWD=p DB_HOST=127.0.0.1 ROMM_BASE_PATH=<empty temp dir> /work/truthenv/blind21p/romm/bin/python bench/real_repos/derive/runtime_routes_stubbed.py starlette 'main:app' . --stub opentelemetry  (a log line on stdout removed; assembled by derive/blind20p_assemble.py derive/blind21p_romm_spec.py)",
        "pack-sqlalchemy": "cd $CHECKOUT/backend && <same env> /work/truthenv/blind21p/romm/bin/python bench/real_repos/derive/runtime_tables.py 'models.base:BaseModel' . --import 'models.*' --import main --stub opentelemetry",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-sqlalchemy": ("table", tables)}
OUT = "/work/wt/blind21p/bench/real_repos/truth/romm.json"
