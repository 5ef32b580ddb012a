"""blind23m: stack-auth's Next.js routes: derive/next_routes.js (unchanged) run once per Next
project (each folder holding a next.config.*), so that a name served by two projects (GET /health:
apps/backend and apps/dashboard) keeps every declaring file in `files`; paths made relative to the
checkout.  python3 blind23m_next_assemble.py CHECKOUT TS_NODE_PATH SETTINGS_JSON > routes.json"""

import json
import os
import subprocess
import sys
from pathlib import Path

checkout, ts_path, settings = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
script = Path(__file__).with_name("next_routes.js")
roots = sorted(
    p.parent
    for p in checkout.rglob("next.config.*")
    if "node_modules" not in p.parts and p.name.split(".")[-1] in ("js", "mjs", "cjs", "ts")
)
by_name = {}
for root in roots:
    rel = root.relative_to(checkout).as_posix()
    own = {k: {".": v[rel]} for k, v in settings.items() if rel in v}
    out = subprocess.run(
        ["node", str(script), str(root), json.dumps(own)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "NODE_PATH": ts_path},
    ).stdout
    items = json.loads(out)
    # next_routes.js keeps one file per name within a project; list every file of the project
    for it in items:
        f = f"{rel}/{it['file']}"
        entry = by_name.setdefault(
            it["name"], {"name": it["name"], "file": f, "line": 1, "files": []}
        )
        if f not in entry["files"]:
            entry["files"].append(f)
print(json.dumps(sorted(by_name.values(), key=lambda x: x["name"]), indent=1))
