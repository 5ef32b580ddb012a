"""Ground-truth routes of the three small apps, each read with its own few lines (never runs the packs).

Usage: small_routes.py microblog|fastapi|express CHECKOUT > items.json
"""

from __future__ import annotations

import ast
import glob
import json
import os
import re
import sys
from pathlib import Path


def microblog() -> list[dict]:
    # app/__init__.py: register_blueprint(auth_bp, url_prefix='/auth'), (api_bp, url_prefix='/api'), main_bp
    prefix = {"auth": "/auth", "api": "/api", "main": ""}
    items = []
    for f in sorted(glob.glob("app/*/*.py")):
        tree = ast.parse(Path(f).read_text(encoding="utf-8"))
        for n in ast.walk(tree):
            if not isinstance(n, ast.FunctionDef):
                continue
            for d in n.decorator_list:
                if isinstance(d, ast.Call) and ast.unparse(d.func) == "bp.route":
                    rule = d.args[0].value
                    given = [k for k in d.keywords if k.arg == "methods"]
                    methods = ast.literal_eval(given[0].value) if given else ["GET"]
                    pre = prefix[f.split("/")[1]]
                    path = pre.rstrip("/") + "/" + rule.lstrip("/") if pre else rule
                    path = re.sub(r"<(?:[^:<>]+:)?(\w+)>", r"{\1}", path)
                    items += [{"name": f"{m} {path}", "file": f, "line": n.lineno} for m in methods]
    return items


def fastapi() -> list[dict]:
    # app/main.py: app.include_router(api_router, prefix=settings.API_V1_STR) ("/api/v1" in
    # app/core/config.py); app/api/main.py includes every router of app/api/routes without a prefix
    items = []
    for f in sorted(glob.glob("backend/app/api/routes/*.py")):
        tree = ast.parse(Path(f).read_text(encoding="utf-8"))
        prefix = ""
        for n in tree.body:
            if (
                isinstance(n, ast.Assign)
                and isinstance(n.value, ast.Call)
                and ast.unparse(n.value.func) == "APIRouter"
            ):
                prefix = next((k.value.value for k in n.value.keywords if k.arg == "prefix"), "")
        for n in ast.walk(tree):
            if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for d in n.decorator_list:
                if (
                    isinstance(d, ast.Call)
                    and isinstance(d.func, ast.Attribute)
                    and ast.unparse(d.func.value) == "router"
                ):
                    path = d.args[0].value
                    name = f"{d.func.attr.upper()} /api/v1{prefix}{path}"
                    items.append({"name": name, "file": f, "line": n.lineno})
    return items


def express() -> list[dict]:
    # src/app/routes/routes.ts: export default Router().use('/api', api), api = Router().use(each
    # controller's router); src/main.ts: app.use(routes) and app.get('/')
    pattern = re.compile(r"\brouter\.(get|post|put|patch|delete|all)\(\s*['\"`]([^'\"`]+)['\"`]")
    items = []
    for f in sorted(glob.glob("src/app/routes/*/*.controller.ts")):
        source = Path(f).read_text(encoding="utf-8")
        for m in pattern.finditer(source):
            path = re.sub(r":(\w+)", r"{\1}", "/api" + m.group(2))
            line = source.count("\n", 0, m.start()) + 1
            items.append({"name": f"{m.group(1).upper()} {path}", "file": f, "line": line})
    items.append({"name": "GET /", "file": "src/main.ts", "line": 21})
    return items


if __name__ == "__main__":
    os.chdir(sys.argv[2])
    found = {"microblog": microblog, "fastapi": fastapi, "express": express}[sys.argv[1]]()
    json.dump(sorted(found, key=lambda i: i["name"]), sys.stdout, indent=1)
