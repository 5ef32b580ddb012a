"""Place hapi's runtime routes (derive/hapi_runtime_routes.js output) at their route literal.

Usage: python3 blind21j_hapi_literals.py CHECKOUT RUNTIME.json LOADER ROUTEFILE...
Each literal `{ method: 'X', path: '/p' ... }` of a route file is matched by method and path to a
row of hapi's table (paths compared after hapi's own prefixing: none here); the row is placed at the
literal's `path:` line, its files naming the route file and LOADER (the server.route call).
A runtime row with no literal keeps the place the runtime gave; a literal that hapi does not serve
is printed on stderr.
"""

import json
import pathlib
import re
import sys

checkout, runtime, loader, *files = sys.argv[1:]
rows = json.load(open(runtime))
lit = {}
for f in files:
    text = pathlib.Path(checkout, f).read_text()
    for m in re.finditer(r"method:\s*'([A-Z]+)',\s*\n\s*path:\s*'([^']+)'", text):
        line = text.count("\n", 0, m.start(2)) + 1
        key = f"{m.group(1)} {m.group(2)}"
        lit.setdefault(key, (f, line))
out = []
served = set()
for r in rows:
    key = r["name"]
    served.add(key)
    if key in lit:
        f, line = lit[key]
        out.append({"name": key, "file": f, "line": line, "files": sorted({f, loader})})
    else:
        print("no literal:", key, file=sys.stderr)
        out.append({"name": key, "file": r["file"], "line": r["line"], "files": [r["file"]]})
for k in lit:
    if k not in served:
        print("literal not served:", k, lit[k], file=sys.stderr)
json.dump(sorted(out, key=lambda x: x["name"]), sys.stdout, indent=1)
