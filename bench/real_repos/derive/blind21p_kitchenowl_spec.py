"""blind21p: kitchenowl's truth from runtime items (runtime_routes_stubbed.py, runtime_tables.py)."""
import json

D = "/work/realrepos/derived21p/"
SUB = "backend/"
routes = []
for item in json.load(open(D + "ko_routes.json")):
    f = SUB + item["file"]
    files = [f]
    if f != SUB + "app/config.py":  # blueprints get their prefixes in app/api/register_controller.py
        files.append(SUB + "app/api/register_controller.py")
    routes.append({"name": item["name"], "file": f, "line": item["line"], "files": sorted(set(files))})
tables = []
for item in json.load(open(D + "ko_tables.json")):
    t = {"name": item["name"], "file": SUB + item["file"], "line": item["line"]}
    if item.get("model"):
        t["model"] = item["model"]
    t["files"] = [t["file"]]
    tables.append(t)

METHOD = open(D + "ko_method.txt").read().strip()
META = {
    "name": "kitchenowl",
    "repo": "https://github.com/TomBursch/kitchenowl",
    "commit": "8677319da3e195c705be2c8ea8a064c23b788662",
    "commit_date": "2026-06-04T21:16:03+02:00",
    "files": 1339,
    "method": METHOD,
    "derive": {
        "pack-http-routes": "cd $CHECKOUT/backend && STORAGE_PATH=<empty temp dir> /work/truthenv/blind21p/kitchenowl/bin/python bench/real_repos/derive/runtime_routes_stubbed.py flask 'app:app' . --stub blurhash --stub dbscan1d --stub dbscan1d.core --stub ingredient_parser --stub ingredient_parser.dataclasses --stub litellm --stub mlxtend --stub mlxtend.frequent_patterns --stub mlxtend.preprocessing --stub numpy --stub pandas --stub sqlite_icu  (assembled by derive/blind20p_assemble.py derive/blind21p_kitchenowl_spec.py)",
        "pack-sqlalchemy": "cd $CHECKOUT/backend && STORAGE_PATH=<empty temp dir> /work/truthenv/blind21p/kitchenowl/bin/python bench/real_repos/derive/runtime_tables.py 'app:db' . --import 'app.models.*' <the same --stub list>",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-sqlalchemy": ("table", tables)}
OUT = "/work/wt/blind21p/bench/real_repos/truth/kitchenowl.json"
