"""blind22p: mediacms's truth from django_runtime_routes.py's output (routes and tables)."""

import json

D = "/work/realrepos/derived22p/"
out = json.load(open(D + "mc.json"))
routes = [
    {k: r[k] for k in ("name", "file", "line", "files", "view") if k in r} for r in out["routes"]
]
# views the derive script could not inspect (Feed instances, an @api_view wrapper, library
# views) were put at line 1 of the URLconf; placed here by hand
FIX = {
    "ANY /rss/": ("files/feeds.py", 59, ["files/feeds.py", "files/urls.py"]),
    "ANY /rss/search": ("files/feeds.py", 100, ["files/feeds.py", "files/urls.py"]),
    "POST /api/v1/users/{username}/contact": ("users/views.py", 159, ["users/urls.py", "users/views.py"]),
    "GET /accounts/login": ("files/urls.py", 129, ["files/urls.py"]),
    "POST /accounts/login": ("files/urls.py", 129, ["files/urls.py"]),
    "PUT /accounts/login": ("files/urls.py", 129, ["files/urls.py"]),
    "GET /robots.txt": ("cms/urls.py", 21, ["cms/urls.py"]),
    "GET /swagger{format}": ("cms/urls.py", 31, ["cms/urls.py"]),
    "GET /swagger/": ("cms/urls.py", 32, ["cms/urls.py"]),
    "GET /docs/api/": ("cms/urls.py", 33, ["cms/urls.py"]),
}
for r in routes:
    if r["line"] == 1:
        r["file"], r["line"], r["files"] = FIX[r["name"]]
    if r["name"].split(" ", 1)[1].startswith("/lti/"):
        r["files"] = sorted(set(r["files"]) | {"cms/urls.py"})
assert all(r["line"] > 1 for r in routes)
tables = [
    {k: t[k] for k in ("name", "file", "line", "model", "files") if k in t} for t in out["tables"]
]
META = {
    "name": "mediacms",
    "repo": "https://github.com/mediacms-io/mediacms",
    "commit": "90b9fad55bc7e93827956b53822a4b520bf999b9",
    "commit_date": "2026-06-24T15:02:37+00:00",
    "files": 1700,
    "method": open(D + "mc_method.txt").read().strip(),
    "derive": {
        "pack-http-routes": "cd $CHECKOUT && /work/truthenv/blind22p/mc/bin/python bench/real_repos/derive/django_runtime_routes.py . blind22p_mediacms_settings --path . --path <worktree>/bench/real_repos/derive --env SECRET_KEY=<any> --env MEDIACMS_ROOT=$CHECKOUT  (assembled by derive/blind20p_assemble.py derive/blind22p_mediacms_spec.py)",
        "pack-django": "the same run: its tables",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-django": ("table", tables)}
OUT = "/work/wt/blind22p/bench/real_repos/truth/mediacms.json"
