"""Assemble blind22m's truth files from the runtime outputs (no pack involved).

    python blind22m_assemble.py django OUT.json PREFIX URLCONF  > items  (routes + tables)
    python blind22m_assemble.py place FILE.json                          (prints a check)

django: derive/django_runtime_routes.py's output (run inside a sub-folder PREFIX of the
checkout) re-rooted at the checkout; a route whose view is a library's (placed by the script at
line 1 of the URLconf holding the pattern) is placed at its own path( call in URLCONF, found by
the view's class name.
"""

import json
import re
import sys
from pathlib import Path


def django(out: str, prefix: str, urlconf: str, checkout: str) -> dict:
    data = json.loads(Path(out).read_text())
    text = (Path(checkout) / prefix / urlconf).read_text().splitlines()
    routes = []
    for r in data["routes"]:
        r = dict(r)
        if r["file"] == urlconf and r["line"] == 1:
            for i, line in enumerate(text, 1):
                if re.search(rf"\b{re.escape(r['view'])}\.as_view\(", line):
                    # the path( call opening the pattern: this line or the nearest above it
                    j = i
                    while j > 1 and "path(" not in text[j - 1]:
                        j -= 1
                    r["line"] = j
                    break
        r["file"] = f"{prefix}/{r['file']}"
        r["files"] = [f"{prefix}/{f}" for f in r.get("files", [r["file"]])]
        routes.append(r)
    tables = []
    for t in data["tables"]:
        t = dict(t)
        t["file"] = f"{prefix}/{t['file']}"
        t["files"] = [f"{prefix}/{f}" for f in t.get("files", [t["file"]])]
        tables.append(t)
    return {
        "routes": routes,
        "tables": tables,
        "skipped": data["skipped"],
        "django": data["django"],
    }


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "django":
        json.dump(django(*sys.argv[2:6]), sys.stdout, indent=1)
