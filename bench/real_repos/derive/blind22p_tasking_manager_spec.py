"""blind22p: tasking-manager's truth from runtime items (runtime_routes_stubbed.py, runtime_tables.py)."""

import json

D = "/work/realrepos/derived22p/"
routes = []
for item in json.load(open(D + "tm_routes.json")):
    f = item["file"]
    files = {f}
    if f != "backend/main.py":
        files.add("backend/routes.py")  # v2 = APIRouter(prefix="/api/v2") + include_router
    routes.append({"name": item["name"], "file": f, "line": item["line"], "files": sorted(files)})
tables = []
for item in json.load(open(D + "tm_tables.json")):
    t = {"name": item["name"], "file": item["file"], "line": item["line"]}
    if item.get("model"):
        t["model"] = item["model"]
    t["files"] = [t["file"]]
    tables.append(t)

ENV = open(D + "tm_env.txt").read().strip()
META = {
    "name": "tasking-manager",
    "repo": "https://github.com/hotosm/tasking-manager",
    "commit": "5a4da86619d91f7578b762b6ede7f9d1b7c30c00",
    "commit_date": "2026-05-06T14:08:46+05:30",
    "files": 1569,
    "method": open(D + "tm_method.txt").read().strip(),
    "derive": {
        "pack-http-routes": "cd $CHECKOUT && /work/truthenv/blind22p/tm/bin/python bench/real_repos/derive/runtime_routes_stubbed.py starlette 'backend.main:api' . "
        + ENV
        + "  (assembled by derive/blind20p_assemble.py derive/blind22p_tasking_manager_spec.py)",
        "pack-sqlalchemy": "cd $CHECKOUT && <the same variables exported> /work/truthenv/blind22p/tm/bin/python bench/real_repos/derive/runtime_tables.py 'backend.db:Base' . --import 'backend.models.**' --import backend.main",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-sqlalchemy": ("table", tables)}
OUT = "/work/wt/blind22p/bench/real_repos/truth/tasking-manager.json"
