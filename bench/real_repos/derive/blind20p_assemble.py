"""Assemble a truth file from runtime-derived items (blind20p): routes/tables JSON written by
runtime_routes.py / runtime_tables.py / django_runtime_routes.py, paths re-rooted under the
checkout, extra `files` added per item by a callable given in the spec. Never runs the packs.

Usage: blind20p_assemble.py SPEC.py  (SPEC defines META, PACKS = {pack: (kind, items)}, OUT)
"""

import json
import runpy
import sys

spec = runpy.run_path(sys.argv[1])
doc = dict(spec["META"])
doc["packs"] = {}
for pack in ("pack-http-routes", "pack-sqlalchemy", "pack-django", "pack-js-tables"):
    kind, items = spec["PACKS"].get(pack, ("route" if pack == "pack-http-routes" else "table", []))
    doc["packs"][pack] = {"kind": kind, "expected": sorted(items, key=lambda i: i["name"])}
with open(spec["OUT"], "w") as f:
    json.dump(doc, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(spec["OUT"], {p: len(v["expected"]) for p, v in doc["packs"].items()})
