"""blind25p: iris-web's truth from runtime items (blind25p_iris_routes.py, blind25p_iris_tables.py),
paths re-rooted from source/ to the repository root."""

import json

D = "/work/realrepos/derived25p/"
P = "source/"
routes = [
    {
        "name": i["name"],
        "file": P + i["file"],
        "line": i["line"],
        "files": sorted(P + f for f in i["files"]),
    }
    for i in json.load(open(D + "iris_routes.json"))
]
tables = []
for t in json.load(open(D + "iris_tables.json")):
    item = {"name": t["name"], "file": P + t["file"], "line": t["line"], "files": [P + t["file"]]}
    if "model" in t:
        item["model"] = t["model"]
    tables.append(item)
assert all(t["line"] > 1 for t in tables) and all(r["line"] > 1 for r in routes)
assert len({t["name"] for t in tables}) == len(tables)
assert len({r["name"] for r in routes}) == len(routes)

ENV = (
    "PYTHONDONTWRITEBYTECODE=1 HTTP_PROXY=127.0.0.1:9 HTTPS_PROXY=127.0.0.1:9 POSTGRES_USER=iris "
    "POSTGRES_PASSWORD=x POSTGRES_ADMIN_USER=iris POSTGRES_ADMIN_PASSWORD=x POSTGRES_SERVER=127.0.0.1 "
    "POSTGRES_PORT=9 CELERY_BROKER=amqp://127.0.0.1:9 IRIS_SECRET_KEY=<any> IRIS_SECURITY_PASSWORD_SALT=<any>"
)
PY = "/work/truthenv/blind25p/iris-web/bin/python"
META = {
    "name": "iris-web",
    "repo": "https://github.com/dfir-iris/iris-web",
    "commit": "e6aa4ba3de745c20df3fdd77e1c7369333bd1c7a",
    "commit_date": "2025-02-10T14:33:03+00:00",
    "files": 1144,
    "method": open(D + "iris_method.txt").read().strip(),
    "derive": {
        "pack-http-routes": f"cd $CHECKOUT/source && {ENV} {PY} bench/real_repos/derive/blind25p_iris_routes.py",
        "pack-sqlalchemy": f"cd $CHECKOUT/source && {ENV} {PY} bench/real_repos/derive/blind25p_iris_tables.py 'app:db' . --import app.views --import 'app.models.**'",
        "assemble": "derive/blind20p_assemble.py derive/blind25p_iris_spec.py",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-sqlalchemy": ("table", tables)}
OUT = "/work/wt/blind25p/bench/real_repos/truth/iris-web.json"
