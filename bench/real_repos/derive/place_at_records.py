"""Place runtime-derived routes at the table records that declare them (never runs the packs).

    python place_at_records.py ITEMS.json --base /api --key url --also api/routes.js FILE...

`ITEMS.json` is what a `derive/*_runtime_routes.js` script printed (each route at the call that
registered it: the loop over the table). A route made from a record of a table (`{ method:
'get', url: '/x', handler }`) is written at the record: each FILE is read line by line, and a
line spelling `KEY: '<path>'` with a `method: '<verb>'` within three lines of it is the record of
`<VERB> <base><path>` (a trailing slash dropped, as the router serves it). Each item found so is moved there, with `files` naming the record's file
and the `--also` files (the registering call's); an item with no record keeps its place. Prints
the items as JSON.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path


def records(files: list[Path], root: Path, key: str) -> dict[str, tuple[str, int]]:
    spelled = re.compile(rf"""\b{re.escape(key)}\s*:\s*['"`]([^'"`]*)['"`]""")
    method = re.compile(r"""\bmethod\s*:\s*['"`]([A-Za-z]+)['"`]""")
    found: dict[str, tuple[str, int]] = {}
    for file in files:
        lines = file.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            match = spelled.search(line)
            if match is None:
                continue
            window = lines[max(0, number - 3) : number + 4]
            verbs = [m.group(1) for text in window if (m := method.search(text))]
            if len(verbs) != 1:
                continue
            spelled_path = match.group(1)
            if len(spelled_path) > 1:  # served without its trailing slash (non-strict routing)
                spelled_path = spelled_path.rstrip("/")
            found.setdefault(
                f"{verbs[0].upper()} {spelled_path}",
                (str(file.resolve().relative_to(root)), number + 1),
            )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("items", type=Path)
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--root", type=Path, default=Path("."))
    parser.add_argument("--base", default="")
    parser.add_argument("--key", default="path")
    parser.add_argument("--also", action="append", default=[])
    args = parser.parse_args()
    places = records(args.files, args.root.resolve(), args.key)
    items = json.loads(args.items.read_text(encoding="utf-8"))
    for item in items:
        verb, _, path = item["name"].partition(" ")
        if not path.startswith(args.base):
            continue
        place = places.get(f"{verb} {path[len(args.base) :]}")
        if place is not None:
            item["file"], item["line"] = place
            item["files"] = [place[0], *args.also]
    print(json.dumps(items, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
