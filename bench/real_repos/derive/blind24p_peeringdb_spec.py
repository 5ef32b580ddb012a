"""blind24p: peeringdb's truth from blind24p_peeringdb_routes.py's runtime items."""

import json

D = "/work/realrepos/derived24p/"
out = json.load(open(D + "peeringdb_out.json"))
routes = [
    {"name": i["name"], "file": i["file"], "line": i["line"], "files": i["files"]}
    for i in out["routes"]
]
tables = [
    {
        "name": t["name"],
        "file": t["file"],
        "line": t["line"],
        "model": t["model"],
        "files": [t["file"]],
    }
    for t in out["tables"]
]
assert all(t["line"] > 1 for t in tables) and all(r["line"] > 1 for r in routes)
assert len({t["name"] for t in tables}) == len(tables)
assert len({r["name"] for r in routes}) == len(routes)

ENV = open("/work/truthenv/blind24p/pdb-env.txt").read().strip()
META = {
    "name": "peeringdb",
    "repo": "https://github.com/peeringdb/peeringdb",
    "commit": "3b79bdd13d5e90dbc8a473b5d9bb32f5b7eb0443",
    "commit_date": "2026-08-18T19:10:01-05:00",
    "files": 1178,
    "method": open(D + "peeringdb_method.txt").read().strip(),
    "derive": {
        "pack-http-routes + pack-django": "cd $CHECKOUT_COPY_WITH_etc/VERSION && HTTP_PROXY=127.0.0.1:9 HTTPS_PROXY=127.0.0.1:9 "
        "/work/truthenv/blind24p/peeringdb/bin/python bench/real_repos/derive/blind24p_peeringdb_routes.py . mainsite.settings --path . --path src "
        + ENV
        + "  (assembled by derive/blind20p_assemble.py derive/blind24p_peeringdb_spec.py)",
    },
}
PACKS = {"pack-http-routes": ("route", routes), "pack-django": ("table", tables)}
OUT = "/work/wt/blind24p/bench/real_repos/truth/peeringdb.json"
