"""Writes one truth file of blind round 24 (blind24j) from the items the derive scripts printed.

    python blind24j_assemble.py SPEC.json OUT.json

SPEC: {"name", "repo", "checkout", "commit", "commit_date", "method", "derive": {...},
       "routes": [items files], "tables": [items files], "table_kind": "table"|"collection",
       "drop_routes": [names left out, each said in method]}
An items file is a JSON list of {"name", "file", "line", "files"?}; a `kind` on an item is kept.
Every pack key is written; a pack with no items file expects []. `files` defaults to [file].
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

PACKS = ("pack-http-routes", "pack-sqlalchemy", "pack-django", "pack-js-tables")


def load_items(paths: list[str], drop: set[str]) -> list[dict[str, Any]]:
    items: dict[str, dict[str, Any]] = {}
    for p in paths:
        for item in json.loads(Path(p).read_text()):
            if item["name"] in drop:
                continue
            entry = {
                "name": item["name"],
                "file": item["file"],
                "line": int(item["line"]),
                "files": sorted(set(item.get("files") or [item["file"]])),
            }
            if "kind" in item:
                entry["kind"] = item["kind"]
            items.setdefault(item.get("kind", "") + ":" + item["name"], entry)
    return sorted(items.values(), key=lambda i: (i.get("kind", ""), i["name"]))


def main(spec_path: str, out_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    checkout = Path(spec["checkout"])
    count = sum(1 for f in checkout.rglob("*") if f.is_file() or f.is_symlink())
    routes = load_items(spec.get("routes", []), set(spec.get("drop_routes", [])))
    tables = load_items(spec.get("tables", []), set())
    for item in routes + tables:
        for f in item["files"]:
            if not (checkout / f).exists():
                raise SystemExit(f"{item['name']}: {f} is not in the checkout")
    packs = {key: {"kind": "table", "expected": []} for key in PACKS}
    packs["pack-http-routes"] = {"kind": "route", "expected": routes}
    packs["pack-js-tables"] = {"kind": spec.get("table_kind", "table"), "expected": tables}
    truth = {
        "name": spec["name"],
        "repo": spec["repo"],
        "commit": spec["commit"],
        "commit_date": spec["commit_date"],
        "files": count,
        "method": spec["method"],
        "derive": spec["derive"],
        "packs": packs,
    }
    Path(out_path).write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
    print(out_path, "routes", len(routes), "tables", len(tables), "files", count)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
