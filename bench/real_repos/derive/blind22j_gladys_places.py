"""Place Gladys's runtime routes (derive/express_runtime_routes.js output over
derive/blind22j_gladys_app.js) at the key that declares each: Gladys writes every route as a
`'method /path': { ... controller }` key of an object (server/api/routes.js's coreRoutes, or a
service's `controllers` object in server/services/*/api/*.js), registered by
server/api/setupRoutes.js's `router[method](path, ...)` loop, where the runtime frame points.

Usage: python3 blind22j_gladys_places.py CHECKOUT RUNTIME.json > routes.json
Each route is placed at its key's line (core routes first: api/routes.js, then the services'
files in path order); `files` names the key's file, server/api/routes.js (getRoutes) and server/api/setupRoutes.js. A runtime route
with no key, or a key the runtime does not serve, is printed on stderr.
"""

import json
import pathlib
import re
import sys

checkout = pathlib.Path(sys.argv[1])
rows = json.load(open(sys.argv[2]))
server = checkout / "server"
sources = [
    server / "api" / "routes.js",
    *sorted(
        p
        for p in (server / "services").rglob("*.js")
        if "node_modules" not in p.parts and "test" not in p.parts
    ),
]
keys = {}
for f in sources:
    text = f.read_text()
    for m in re.finditer(r"""^\s*['"](get|post|put|patch|delete) (/[^'"]*)['"]\s*:""", text, re.M):
        key = f"{m.group(1).upper()} {m.group(2)}"
        keys.setdefault(key, (str(f.relative_to(checkout)), text.count("\n", 0, m.start(1)) + 1))
out = []
for r in rows:
    name = r["name"]
    if name in keys:
        f, line = keys[name]
        out.append(
            {
                "name": name,
                "file": f,
                "line": line,
                "files": sorted({f, "server/api/routes.js", "server/api/setupRoutes.js"}),
            }
        )
    else:
        print("no key:", name, file=sys.stderr)
        out.append({"name": name, "file": r["file"], "line": r["line"], "files": [r["file"]]})
served = {r["name"] for r in rows}
for k in sorted(set(keys) - served):
    print("not served:", k, keys[k], file=sys.stderr)
json.dump(out, sys.stdout, indent=1)
print()
