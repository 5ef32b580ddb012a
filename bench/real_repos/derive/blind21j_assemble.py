"""Write a truth file from its parts (blind21j). Usage:
python3 blind21j_assemble.py OUT NAME URL COMMIT DATE FILES METHOD.txt DERIVE.json ROUTES.json TABLES.json"""

import json
import sys

out, name, url, commit, date, files, method, derive, routes, tables = sys.argv[1:]
doc = {
    "name": name,
    "repo": url,
    "commit": commit,
    "commit_date": date,
    "files": int(files),
    "method": open(method).read().strip(),
    "derive": json.load(open(derive)),
    "packs": {
        "pack-http-routes": {"kind": "route", "expected": json.load(open(routes))},
        "pack-sqlalchemy": {"kind": "table", "expected": []},
        "pack-django": {"kind": "table", "expected": []},
        "pack-js-tables": {"kind": "table", "expected": json.load(open(tables))},
    },
}
for p in doc["packs"].values():
    names = [e["name"] for e in p["expected"]]
    assert len(names) == len(set(names)), "duplicate names"
json.dump(doc, open(out, "w"), indent=1, ensure_ascii=False)
open(out, "a").write("\n")
print(out, {k: len(v["expected"]) for k, v in doc["packs"].items()})
