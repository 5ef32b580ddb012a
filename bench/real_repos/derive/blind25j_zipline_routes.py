"""Routes of diced/zipline v3 (blind25j) from its two routers, never from the packs.

    python blind25j_zipline_routes.py CHECKOUT NEXT_ROUTES.json OUT.json

1. Next.js API routes: the files next_routes.js found under src/pages/api (its paths kept). Every
   one is `export default withZipline(handler, {methods: [...]})` (src/lib/middleware/
   withZipline.ts): the wrapper answers the listed methods and 405 for the rest; without the
   option it answers GET; OPTIONS it adds itself (an automatic method: not listed). So each file
   gives one route per method of its literal `methods` list (GET when absent); line = the
   `export default withZipline(` line; files = the page and withZipline.ts.
2. Fastify routes (src/server/index.ts, src/server/plugins/all.ts), listed by hand because the
   server cannot start here (it needs a generated Prisma client, a built Next app and a database):
   the config-built paths with the defaults of src/lib/config/validateConfig.ts (urls.route
   `/go`, uploader.route `/u`); the `fastify.next(path, {method: 'ALL'})` catch-alls of the app's
   own next plugin (src/server/plugins/next.ts) as ANY.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

WRAPPER = "src/lib/middleware/withZipline.ts"
INDEX = "src/server/index.ts"
FASTIFY = [
    ("GET /favicon.ico", INDEX, 103, [INDEX]),
    ("GET /robots.txt", INDEX, 111, [INDEX]),
    (
        "GET /go/:id",
        INDEX,
        161,
        [INDEX, "src/server/routes/urls.ts", "src/lib/config/validateConfig.ts"],
    ),
    (
        "GET /u/:id",
        INDEX,
        167,
        [INDEX, "src/server/routes/uploads.ts", "src/lib/config/validateConfig.ts"],
    ),
    ("GET /r/:id", INDEX, 175, [INDEX, "src/server/routes/raw.ts"]),
    ("GET /", INDEX, 176, [INDEX]),
    (
        "ANY /*",
        "src/server/plugins/all.ts",
        16,
        ["src/server/plugins/all.ts", "src/server/plugins/next.ts", INDEX],
    ),
    (
        "ANY /api/*",
        "src/server/plugins/all.ts",
        17,
        ["src/server/plugins/all.ts", "src/server/plugins/next.ts", INDEX],
    ),
]


def api_routes(checkout: Path, next_items: list[dict]) -> list[dict]:
    paths: dict[str, str] = {}
    for item in next_items:
        paths[item["file"]] = item["name"].split(" ", 1)[1]
    out = []
    for file, path in sorted(paths.items()):
        text = (checkout / file).read_text()
        start = text.index("export default withZipline(")
        line = text.count("\n", 0, start) + 1
        found = re.search(r"methods:\s*\[([^\]]*)\]", text[start:])
        methods = re.findall(r"'(\w+)'", found.group(1)) if found else ["GET"]
        for method in methods:
            if method == "OPTIONS":
                continue
            out.append(
                {"name": f"{method} {path}", "file": file, "line": line, "files": [file, WRAPPER]}
            )
    return out


def main(checkout: str, next_routes: str, out: str) -> None:
    root = Path(checkout)
    items = api_routes(root, json.loads(Path(next_routes).read_text()))
    for name, file, line, files in FASTIFY:
        items.append({"name": name, "file": file, "line": line, "files": files})
    for item in items:
        for f in item["files"]:
            assert (root / f).is_file(), f
    Path(out).write_text(json.dumps(items, indent=1) + "\n")
    print(len(items), "routes")


if __name__ == "__main__":
    main(*sys.argv[1:4])
