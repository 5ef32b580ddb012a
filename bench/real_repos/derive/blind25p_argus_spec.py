"""blind25p: Argus' truth from runtime items (blind25p_django_chain.py)."""

import json

D = "/work/realrepos/derived25p/"
doc = json.load(open(D + "argus_raw.json"))
HTMX = "src/argus/htmx/urls.py"
SETTINGS_FILES = {"src/argus/htmx/appconfig.py", "src/argus/site/utils.py"}
routes = []
for i in doc["routes"]:
    files = set(i["files"])
    if HTMX in files:  # included through APP_SETTINGS by get_urlpatterns()
        files |= SETTINGS_FILES
    routes.append({"name": i["name"], "file": i["file"], "line": i["line"], "files": sorted(files)})
tables = [
    {
        "name": t["name"],
        "file": t["file"],
        "line": t["line"],
        "model": t["model"],
        "files": t["files"],
    }
    for t in doc["tables"]
]
assert all(t["line"] > 1 for t in tables) and all(r["line"] > 1 for r in routes)
assert len({t["name"] for t in tables}) == len(tables)
assert len({r["name"] for r in routes}) == len(routes)

ENV = (
    "--env ARGUS_FRONTEND_URL=http://127.0.0.1:9 --env SECRET_KEY=blind25p-not-secret "
    "--env STATIC_ROOT=/tmp/b25p/argus_static --env EMAIL_HOST=127.0.0.1 --env EMAIL_PORT=9 "
    "--env DEFAULT_FROM_EMAIL=argus@localhost"
)
PY = "/work/truthenv/blind25p/argus/bin/python"
META = {
    "name": "Argus",
    "repo": "https://github.com/Uninett/Argus",
    "commit": "ca9d38eab76b695b0797362f2250083af4f539c7",
    "commit_date": "2026-08-21T13:07:36+02:00",
    "files": 825,
    "method": open(D + "argus_method.txt").read().strip(),
    "derive": {
        "pack-http-routes + pack-django": f"cd $CHECKOUT && PYTHONDONTWRITEBYTECODE=1 HTTP_PROXY=127.0.0.1:9 HTTPS_PROXY=127.0.0.1:9 {PY} bench/real_repos/derive/blind25p_django_chain.py . argus.site.settings.prod --path src {ENV}",
        "assemble": "derive/blind20p_assemble.py derive/blind25p_argus_spec.py",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-django": ("table", tables)}
OUT = "/work/wt/blind25p/bench/real_repos/truth/Argus.json"
