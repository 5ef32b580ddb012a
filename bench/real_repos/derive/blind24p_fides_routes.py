"""blind24p: fides' routes from FastAPI's own `app.routes` (never runs the packs).

    cd CHECKOUT && PYTHONPATH=src FIDES__...=... python blind24p_fides_routes.py \
        fides.api.main:app . > items.json

runtime_routes.py's items (`starlette_items`, imported unchanged: one per declared method and
path, mounts followed, FastAPI's own docs routes left out), each with `files`: the endpoint's
file plus the file of every module-level APIRouter (an attribute of a loaded `fides` module, or
an element of a module-level list/tuple/dict of routers) that holds a route with the same
endpoint function (and the file of that router's class when the project defines it: fides'
APIRouter in src/fides/api/util/api_router.py, which registers each path twice, with and
without a trailing slash), i.e. the router that declares it and the routers that include it (each such
module gives a prefix or the include), plus src/fides/api/app_setup.py (create_fides_app's
include loop) or src/fides/api/main.py for a route declared on `app` itself.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtime_routes import _place, starlette_items


def _routers(value: Any) -> list[Any]:
    from fastapi import APIRouter

    if isinstance(value, APIRouter):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, APIRouter)]
    if isinstance(value, dict):
        return [v for v in value.values() if isinstance(v, APIRouter)]
    return []


def main() -> None:
    target, checkout = sys.argv[1], os.path.abspath(sys.argv[2])
    os.chdir(checkout)
    real_stdout, sys.stdout = sys.stdout, sys.stderr  # fides' loguru logs to stdout
    module_name, expression = target.split(":", 1)
    module = importlib.import_module(module_name)
    app = eval(expression, vars(module))
    items = starlette_items(app.routes, "", checkout)

    holders: dict[int, set[str]] = {}  # id(endpoint) -> files of module-level routers holding it
    for name, loaded in list(sys.modules.items()):
        if not (name == "fides" or name.startswith("fides.")):
            continue
        where = getattr(loaded, "__file__", None)
        if not where or not os.path.abspath(where).startswith(checkout + os.sep):
            continue
        rel = os.path.relpath(where, checkout)
        for value in list(vars(loaded).values()):
            for router in _routers(value):
                kind = sys.modules.get(type(router).__module__)
                kind_file = getattr(kind, "__file__", None) or ""
                own_kind = os.path.abspath(kind_file).startswith(checkout + os.sep)
                for route in router.routes:
                    endpoint = getattr(route, "endpoint", None)
                    if endpoint is not None:
                        holders.setdefault(id(endpoint), set()).add(rel)
                        if own_kind:  # fides' APIRouter: each path also with a trailing /
                            holders[id(endpoint)].add(os.path.relpath(kind_file, checkout))

    by_name: dict[str, Any] = {}

    def endpoints(routes: Any, prefix: str) -> None:
        for route in routes:
            path = prefix + getattr(route, "path", "")
            if hasattr(route, "routes") and not hasattr(route, "endpoint"):
                endpoints(route.routes, path)
                continue
            for method in getattr(route, "methods", None) or {"WEBSOCKET"}:
                by_name.setdefault(f"{method} {path}", route.endpoint)

    endpoints(app.routes, "")
    main_file = os.path.relpath(module.__file__, checkout)
    setup_file = "src/fides/api/app_setup.py"
    out = []
    seen: set[str] = set()
    for item in items:
        if item["name"] in seen:  # Starlette answers with the first route matching
            continue
        seen.add(item["name"])
        endpoint = by_name.get(item["name"])
        files = {item["file"]}
        held = holders.get(id(endpoint), set()) if endpoint is not None else set()
        files |= held
        files.add(setup_file if held else main_file)
        if item["file"] == "?" or item["file"].startswith(".."):
            print("left out (library endpoint):", item["name"], file=sys.stderr)
            continue
        if endpoint is not None and _place(endpoint, checkout) != (item["file"], item["line"]):
            print("placement differs:", item["name"], file=sys.stderr)
        out.append({**item, "files": sorted(files)})
    json.dump(out, real_stdout, indent=1)


if __name__ == "__main__":
    main()
