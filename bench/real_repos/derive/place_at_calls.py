"""Place runtime-derived routes at the source calls that declare them (never runs the packs).

    python place_at_calls.py ITEMS.json SOURCE [--at 'GET /*=LINE' ...]

For an app whose routes the runtime enumerated from a build of its TypeScript (the build's lines
are not the source's), each route `VERB /path` is placed in SOURCE (a path relative to the
repository's checkout, read from the current directory) at the line of the `.verb(` call (`.all(`
for a route every method answers) whose path literal is `/path`, the literal on that line or on
one of the next two. A route no call spells (one a plugin library serves) is placed with `--at`
by hand; an item placed by neither is reported on stderr and keeps `file` `?`. Prints the items.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("items")
    parser.add_argument("source")
    parser.add_argument("--at", action="append", default=[])
    args = parser.parse_args()
    lines = Path(args.source).read_text(encoding="utf-8").splitlines()
    by_hand = dict(entry.rsplit("=", 1) for entry in args.at)
    placed = []
    for item in json.loads(Path(args.items).read_text(encoding="utf-8")):
        verb, path = item["name"].split(" ", 1)
        line = int(by_hand[item["name"]]) if item["name"] in by_hand else 0
        for number, text in enumerate(lines, start=1):
            if line:
                break
            call = re.search(r"\.(\w+)\(", text)
            if call is None or call.group(1) not in (verb.lower(), "all"):
                continue
            window = " ".join(lines[number - 1 : number + 2])
            literal = re.search(r"""\.\w+\(\s*['"`]([^'"`]*)['"`]""", window)
            if literal and literal.group(1) == path:
                line = number
        if not line:
            print(f"not placed: {item['name']}", file=sys.stderr)
            placed.append(item)
            continue
        placed.append(
            {"name": item["name"], "file": args.source, "line": line, "files": [args.source]}
        )
    print(json.dumps(placed, indent=1))


if __name__ == "__main__":
    main()
