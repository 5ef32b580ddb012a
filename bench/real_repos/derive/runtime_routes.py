"""Ground-truth routes from an application's own runtime introspection (never runs the packs).

Run it with an interpreter that has the application's dependencies installed, from inside the
checkout: it imports the application object, walks the framework's own route table and prints
one item per method and path, placed at the view function's first line (its first decorator).

Usage: runtime_routes.py flask|starlette MODULE:EXPRESSION CHECKOUT > items.json
  (`app.main:app`, `wsgi:create_app()`; the expression is evaluated in the module's namespace)

Flask: `app.url_map` (the HEAD Werkzeug adds beside GET and the OPTIONS Flask adds left out, a
HEAD or OPTIONS the view wrote kept; the `static` endpoint is not the application's own route).
Starlette/FastAPI: `app.routes` with mounts followed (Starlette's `Route` adds HEAD beside GET:
left out; FastAPI's `APIRoute` adds none; the documentation routes FastAPI itself adds,
`/openapi.json`, `/docs`, `/docs/oauth2-redirect` and `/redoc`, left out, while the same paths
declared by the application are its routes). Paths are written as the framework declares them
(`<int:id>`, `{id}`): bench/real_repos.py normalises both.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import sys
from typing import Any

FASTAPI_DOCS = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}


def _place(function: Any, checkout: str) -> tuple[str, int]:
    view_class = getattr(function, "view_class", None)  # `MethodView.as_view`, flask-restful
    function = inspect.unwrap(function)
    view_class = view_class or getattr(function, "view_class", None)
    if view_class is not None:
        try:
            path = os.path.relpath(inspect.getsourcefile(view_class) or "?", checkout)
            return path, inspect.getsourcelines(view_class)[1]
        except (TypeError, OSError):
            return "?", 0
    try:
        path = os.path.relpath(inspect.getsourcefile(function) or "?", checkout)
        line = function.__code__.co_firstlineno
    except (TypeError, AttributeError):
        return "?", 0
    return path, line


def _added_by_flask(rule: Any) -> set[str]:
    """The methods Werkzeug and Flask add to a rule themselves: HEAD beside GET, and OPTIONS
    unless the view wrote it (Flask then turns `provide_automatic_options` off)."""
    added = {"HEAD"} if "GET" in (rule.methods or ()) else set()
    if getattr(rule, "provide_automatic_options", True):
        added.add("OPTIONS")
    return added


def flask_items(app: Any, checkout: str) -> list[dict[str, Any]]:
    items = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.endswith(".static"):
            continue
        where, line = _place(app.view_functions[rule.endpoint], checkout)
        for method in sorted(set(rule.methods or ()) - _added_by_flask(rule)):
            items.append({"name": f"{method} {rule.rule}", "file": where, "line": line})
    return items


def _fastapi_own_docs(route: Any, path: str) -> bool:
    """The documentation routes FastAPI itself adds, not the same paths an app declares."""
    module = getattr(route.endpoint, "__module__", "") or ""
    return path in FASTAPI_DOCS and module.split(".")[0] == "fastapi"


def _is_api_route(route: Any) -> bool:
    # FastAPI >= 0.139 hands an included router's routes out as `_EffectiveRouteContext`s, no
    # `APIRoute` subclass: their methods are the declared ones too (no HEAD added beside GET)
    names = {kind.__name__ for kind in type(route).__mro__}
    return "APIRoute" in names or "_EffectiveRouteContext" in names


def starlette_items(routes: Any, prefix: str, checkout: str) -> list[dict[str, Any]]:
    items = []
    for route in routes:
        expand = getattr(route, "effective_route_contexts", None)
        if callable(expand):  # FastAPI 0.139 keeps an included router whole: expand it
            contexts = [*expand(), *route.effective_low_priority_routes()]
            # an APIRoute's context carries the prefixed path and endpoint; any other route
            # (a websocket, a mount) a prefixed copy of itself
            routes_in = [c if c.endpoint is not None else c.starlette_route for c in contexts]
            items += starlette_items([r for r in routes_in if r is not None], prefix, checkout)
            continue
        path = prefix + getattr(route, "path", "")
        if hasattr(route, "routes") and not hasattr(route, "endpoint"):  # a Mount
            items += starlette_items(route.routes, path, checkout)
            continue
        if not hasattr(route, "endpoint") or _fastapi_own_docs(route, path):
            continue
        where, line = _place(route.endpoint, checkout)
        methods = getattr(route, "methods", None) or {"WEBSOCKET"}
        added = {"HEAD"} if "GET" in methods and not _is_api_route(route) else set()
        for method in sorted(set(methods) - added):
            items.append({"name": f"{method} {path}", "file": where, "line": line})
    return items


def main() -> None:
    framework, target, checkout = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
    sys.path.insert(0, checkout)
    os.chdir(checkout)
    module_name, expression = target.split(":", 1)
    module = importlib.import_module(module_name)
    app = eval(expression, vars(module))  # the operator's own expression, on their checkout
    if framework == "flask":
        items = flask_items(app, checkout)
    else:
        items = starlette_items(app.routes, "", checkout)
    unique = {item["name"]: item for item in items}
    json.dump(sorted(unique.values(), key=lambda i: i["name"]), sys.stdout, indent=1)


if __name__ == "__main__":
    main()
