"""Assemble account-lookup-service's truth (never runs the packs): the union of the route tables
hapi_runtime_routes.js printed for the three servers (als_servers.js, ALS_SERVER=admin|api|
monitoring), each route literal of src/api/routes.js placed at its `path:` line (the method line
precedes it in every literal), the plugin routes at their register call; and the knex tables
js_orm_truth.js printed.
Usage: python3 als_truth.py CHECKOUT admin.json api.json monitoring.json tables.json > truth.json
"""

import json
import pathlib
import re
import sys

checkout = pathlib.Path(sys.argv[1])
served = {}
for f in sys.argv[2:5]:
    for item in json.loads(pathlib.Path(f).read_text()):
        served.setdefault(item["name"], item)
routes_js = (checkout / "src/api/routes.js").read_text().splitlines()
literal = {}
method = None
for i, line in enumerate(routes_js, 1):
    m = re.match(r"\s*method:\s*'(\w+)'", line)
    if m:
        method = m.group(1).upper()
    m = re.match(r"\s*path:\s*'([^']+)'", line)
    if m and method:
        literal.setdefault(f"{method} {m.group(1)}", i)
        method = None
plugin_at = {
    "GET /documentation": ("src/plugins.js", 53),
    "GET /swagger.json": ("src/plugins.js", 53),
    "GET /metrics": ("src/plugins.js", 62),
}
expected = []
for name in sorted(served):
    if name in literal:
        files = ["src/api/routes.js", "src/server.js"]
        if name == "GET /health":
            files += ["src/handlers/monitoring/plugins/health.js"]
        expected.append(
            {"name": name, "file": "src/api/routes.js", "line": literal[name], "files": files}
        )
    elif name in plugin_at:
        f, at = plugin_at[name]
        files = [f] + (["src/handlers/monitoring/index.js"] if name == "GET /metrics" else [])
        expected.append({"name": name, "file": f, "line": at, "files": files})
    else:
        raise SystemExit(f"unplaced {name}")
unserved = sorted(set(literal) - set(served))
if unserved:
    raise SystemExit(f"literal not served: {unserved}")
tables = json.loads(pathlib.Path(sys.argv[5]).read_text())
json.dump({"routes": expected, "tables": tables}, sys.stdout, indent=1)
