"""blind23p: vulnerablecode's truth from django_runtime_routes.py's output (routes and tables)."""

import json

D = "/work/realrepos/derived23p/"
out = json.load(open(D + "vc.json"))
routes = [
    {k: r[k] for k in ("name", "file", "line", "files", "view") if k in r} for r in out["routes"]
]
# views the script could not inspect (TemplateView / drf-spectacular instances, the router's
# API root) were put at line 1 of the URLconf; placed by hand at their path() call / router
U = "vulnerablecode/urls.py"
FIX = {
    "GET /api/v3/": (U, 55, [U]),
    "GET /robots.txt": (U, 68, [U]),
    "GET /api/schema/": (U, 152, [U]),
    "GET /api/docs/": (U, 157, [U]),
    "GET /tos/": (U, 167, [U]),
}
for r in routes:
    if r["line"] == 1:
        r["file"], r["line"], r["files"] = FIX[r["name"]]
assert all(r["line"] > 1 for r in routes)
tables = [
    {k: t[k] for k in ("name", "file", "line", "model", "files") if k in t} for t in out["tables"]
]
assert len({t["name"] for t in tables}) == len(tables)
assert len({r["name"] for r in routes}) == len(routes)
META = {
    "name": "vulnerablecode",
    "repo": "https://github.com/aboutcode-org/vulnerablecode",
    "commit": "adc81cba42f330bcae079d846997df635ce956fc",
    "commit_date": "2026-08-21T20:56:33+05:30",
    "files": 1084,
    "method": open(D + "vc_method.txt").read().strip(),
    "derive": {
        "pack-http-routes": "cd $CHECKOUT && /work/truthenv/blind23p/vc/bin/python bench/real_repos/derive/django_runtime_routes.py . vulnerablecode.settings --path . --env SECRET_KEY=<any> --env ALTCHA_HMAC_KEY=<any>  (assembled by derive/blind20p_assemble.py derive/blind23p_vulnerablecode_spec.py)",
        "pack-django": "the same run: its tables",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-django": ("table", tables)}
OUT = "/work/wt/blind23p/bench/real_repos/truth/vulnerablecode.json"
