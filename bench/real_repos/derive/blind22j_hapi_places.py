"""Place water-abstraction-service's runtime routes (derive/hapi_runtime_routes.js output, every
row at index.js's single `server.route(routes)`) at the source that declares each (blind22j).

Usage: python3 blind22j_hapi_places.py CHECKOUT RUNTIME.json > routes.json
Two ways the service declares a route:
- a route object `{ method: 'GET', path: <literal> ... }` in src/**/routes.js or src/**/*.js:
  `path:` a quoted literal, a template literal, a `'a' + version + 'b'` concatenation or a file
  constant (`path: BASE_PATH`): file constants are replaced by their literal, any other name
  or `${...}` read as any text without a slash (`version`, imported from config); its
  method is the quoted `method:` within the 6 lines around it. The row is placed at the `path:`
  line; files: the declaring file, src/modules/routes.js (when under src/modules), src/routes/water.js
  and index.js (the loader).
- a `new HAPIRestAPI({ ... endpoint: '/x' })` of @envage/hapi-pg-rest-api, whose getRoutes() makes
  the CRUD routes under the endpoint at runtime (src/controllers/*.js): a row under that endpoint
  and with no literal is placed at the `new HAPIRestAPI(` line.
A row with neither, or a literal no row matches, is printed on stderr.
SHADOWED: a literal whose route object is replaced by a later one of the same key:
src/modules/billing/routes.js spreads routes/batches.js then routes/two-part-tariff-review.js,
both exporting `postApproveReviewBatch` (POST .../{batchId}/approve-review); the later one
is the route hapi gets (object spread), so batches.js's is not used.
"""

import json
import pathlib
import re
import sys

SHADOWED = {("src/modules/billing/routes/batches.js", "postApproveReviewBatch")}

checkout = pathlib.Path(sys.argv[1])
rows = json.load(open(sys.argv[2]))
src = checkout / "src"
lits = []  # (method, regex, file, line)
apis = []  # (endpoint, file, line)
for f in sorted(src.rglob("*.js")):
    text = f.read_text()
    rel = str(f.relative_to(checkout))
    lines = text.split("\n")
    consts = dict(re.findall(r"""const\s+([A-Za-z_][A-Za-z0-9_]*)\s*=\s*['`]([^'`]*)['`]""", text))

    def resolve(raw, depth=0, consts=consts):
        # a file constant inside a template is its literal; any other `${...}` any text but a slash
        if depth < 4:
            raw = re.sub(
                r"\$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}",
                lambda c: (
                    resolve(consts[c.group(1)], depth + 1, consts)
                    if c.group(1) in consts
                    else c.group(0)
                ),
                raw,
            )
        return raw

    for m in re.finditer(r"""\bpath:\s*([^\n]*?),?\s*$""", text, re.M):
        line = text.count("\n", 0, m.start()) + 1
        expr = m.group(1).strip().rstrip(",")
        # 'a' + ident + 'b', `a${x}b`, 'a', IDENT: each part a literal or a file constant
        raw = ""
        for tok in re.findall(r"""'[^']*'|`[^`]*`|[A-Za-z_][A-Za-z0-9_]*|\+""", expr):
            if tok == "+":
                continue
            if tok[0] in "'`":
                raw += tok[1:-1]
            else:
                raw += "${" + tok + "}"
        if (
            not raw
            or not expr
            or expr[0] not in "'`" + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"
        ):
            continue
        raw = resolve(raw)
        if not raw.startswith("/") and not raw.startswith("${"):
            continue
        parts = re.split(r"\$\{[^}]*\}", raw)
        pattern = "^" + "[^/]*".join(re.escape(p) for p in parts) + "$"
        best = None
        for k in range(max(0, line - 7), min(len(lines), line + 6)):
            mm = re.search(r"""\bmethod:\s*'([A-Za-z]+)'""", lines[k])
            if mm and (best is None or abs(k + 1 - line) < abs(best[1] - line)):
                best = (mm.group(1).upper(), k + 1)
        if best is None:
            continue
        owner = re.findall(
            r"^(?:const|let)\s+(\w+)\s*=\s*\{", "\n".join(lines[max(0, line - 8) : line]), re.M
        )
        if owner and (rel, owner[-1]) in SHADOWED:
            continue
        lits.append((best[0], re.compile(pattern), rel, line, "${" not in raw))
    for m in re.finditer(r"new\s+HAPIRestAPI\(\s*\{", text):
        e = re.search(r"""endpoint:\s*'([^']+)'""", text[m.end() :])
        if e:
            apis.append((e.group(1), rel, text.count("\n", 0, m.start()) + 1))


def files_for(rel):
    f = {rel, "index.js", "src/routes/water.js"}
    if rel.startswith("src/modules/"):
        f.add("src/modules/routes.js")
    return sorted(f)


out = []
used = set()
for r in rows:
    method, p = r["name"].split(" ", 1)
    # an exact literal first, then a pattern; the API server's files before the background one's
    hit = sorted(
        (lit for lit in lits if lit[0] == method and lit[1].match(p)),
        key=lambda lit: (not lit[4], lit[2] == "src/routes/background.js"),
    )
    if hit:
        _, _, rel, line, _ = hit[0]
        used.add((rel, line))
        out.append({"name": r["name"], "file": rel, "line": line, "files": files_for(rel)})
        continue
    api = [a for a in apis if p == a[0] or p.startswith(a[0] + "/")]
    if api:
        _, rel, line = max(api, key=lambda a: len(a[0]))
        out.append({"name": r["name"], "file": rel, "line": line, "files": files_for(rel)})
        continue
    print("no declaration:", r["name"], file=sys.stderr)
    out.append({"name": r["name"], "file": r["file"], "line": r["line"], "files": [r["file"]]})
for _, rx, rel, line, _ in lits:
    if (rel, line) not in used:
        print("literal not matched:", rel, line, rx.pattern, file=sys.stderr)
json.dump(sorted(out, key=lambda x: x["name"]), sys.stdout, indent=1)
print()
