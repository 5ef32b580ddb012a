"""blind24p: PeeringDB's routes and tables from Django's runtime (never runs the packs):
derive/django_runtime_routes.py (imported, unchanged; same options) with these additions:

- a DRF `@api_view` function is placed at the function itself (blind23m_django_places.py's rule);
  so is a view wrapped by a decorator that keeps no `__wrapped__` (the function it closes over);
- a DRF viewset answers only the methods of its `http_method_names` (ViewSet.dispatch answers
  any other with 405): peeringdb_server/rest.py's `model_view_set(..., methods=[...])` sets it
  (IXLan: get, put), so its other router actions are not routes;
- the URLconf of each route: `mainsite/urls.py` does `urlpatterns += peeringdb_server.urls
  .urlpatterns`, so a top-level pattern that is an element of that list is declared in
  src/peeringdb_server/urls.py (the script, reading only modules, names mainsite/urls.py);
  the routes below `include((peeringdb_server.rest.urls, ...))` are declared in rest.py (its
  urlpatterns + `router.urls`); `files` = the view's file, that URLconf, the files that prefix
  it (src/peeringdb_server/urls.py for rest.py's, mainsite/urls.py for both);
- a viewset made by rest.py's factory `model_view_set` (`type(model + "ViewSet", ...)`, no
  source of its own) is placed at its `XViewSet = model_view_set(` line; a view defined outside
  the checkout (a library's view routed by name) at the first non-import line of its URLconf
  naming it; the router's APIRootView at the `RestRouter(` line.

    cd CHECKOUT && python blind24p_peeringdb_routes.py ROOT SETTINGS [options] > out.json
"""

import contextlib
import inspect
import io
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import django_runtime_routes as drr

_plain_where = drr._where
_plain_methods = drr._methods


def _where(obj, root):
    if inspect.isclass(obj) and obj.__qualname__ == "WrappedAPIView":
        for verb in drr._VERBS:
            handler = vars(obj).get(verb)
            for cell in getattr(handler, "__closure__", None) or ():
                func = cell.cell_contents
                if inspect.isfunction(func):
                    found = _plain_where(func, root)
                    if found:
                        return found
    if inspect.isfunction(obj) and "<locals>" in obj.__qualname__:
        inner = _wrapped_view(obj, set())
        if inner is not None:
            found = _plain_where(inner, root)
            if found:
                return found
    return _plain_where(obj, root)


def _wrapped_view(func, seen):
    """The view a decorator without functools.wraps closed over (org_admin_required,
    enable_api_key_auth, enable_basic_auth: their inner `callback`/`wrapped`)."""
    seen.add(id(func))
    for cell in getattr(func, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:
            continue
        if not inspect.isfunction(inner) or id(inner) in seen:
            continue
        if "<locals>" not in inner.__qualname__:
            return inner
        found = _wrapped_view(inner, seen)
        if found is not None:
            return found
    return None


def _methods(callback):
    methods, owner = _plain_methods(callback)
    cls = getattr(callback, "cls", None)
    if getattr(callback, "actions", None) and cls is not None:
        allowed = {m.upper() for m in cls.http_method_names}
        methods = [m for m in methods if m in allowed]
    return methods, owner


drr._where = _where
drr._methods = _methods
root = Path(sys.argv[1]).resolve()
buffer = io.StringIO()
with contextlib.redirect_stdout(buffer):
    code = drr.main()
out = json.loads(buffer.getvalue())

import peeringdb_server.rest  # noqa: E402
import peeringdb_server.urls  # noqa: E402
from django.urls import URLResolver, get_resolver  # noqa: E402

MAIN, URLS, REST = (
    "mainsite/urls.py",
    "src/peeringdb_server/urls.py",
    "src/peeringdb_server/rest.py",
)
origin: dict[str, str] = {}  # path -> the file declaring its pattern
leaf: dict[str, str] = {}  # path -> its own pattern's text (the last of the chain)


def collect(patterns, parts, where):
    for item in patterns:
        chain = [*parts, item.pattern]
        if isinstance(item, URLResolver):
            module = item.urlconf_module
            here = where
            if module is peeringdb_server.rest.urls:
                here = REST
            elif hasattr(module, "__file__"):
                here = None  # a module URLconf: the script names it itself
            collect(item.url_patterns, chain, here)
            continue
        for path in drr._paths(chain):
            origin.setdefault(path, where)
            leaf.setdefault(path, str(item.pattern))


own = {id(p) for p in peeringdb_server.urls.urlpatterns}
for top in get_resolver().url_patterns:
    collect([top], [], URLS if id(top) in own else MAIN)

lines_of = {}


def first_line(rel, pattern):
    if rel not in lines_of:
        lines_of[rel] = (root / rel).read_text(encoding="utf-8").splitlines()
    wanted = re.compile(pattern)
    return next(
        (i for i, t in enumerate(lines_of[rel], 1) if wanted.search(t) and "import" not in t), None
    )


factory = {name for name, obj in vars(peeringdb_server.rest).items() if name.endswith("ViewSet")}
for item in out["routes"]:
    path = item["name"].split(" ", 1)[1]
    conf = origin.get(path)
    if conf is None:  # a module URLconf the script named itself
        continue
    prefixes = {MAIN} | ({URLS} if conf == REST else set())
    view_file = item["file"] if item["line"] != 1 else None
    if item["line"] == 1:
        view = item["view"]
        if conf == REST and view == "APIRootView":
            item["line"], item["file"] = first_line(REST, r"= RestRouter\("), REST
            item["placed"] = "router"
        elif conf == REST and view in factory and first_line(REST, rf"^{view} = model_view_set\("):
            item["line"] = first_line(REST, rf"^{view} = model_view_set\(")
            item["file"] = REST
            item["placed"] = "model_view_set factory call"
        else:
            spelled = leaf.get(path, "")
            hit = spelled and first_line(conf, r"[\"']" + re.escape(spelled) + r"[\"']")
            hit = hit or first_line(conf, rf"\b{re.escape(view)}\b")
            if hit:
                item["line"], item["file"] = hit, conf
                item["placed"] = "urlconf line naming the view"
    item["files"] = sorted({f for f in (item["file"], view_file, conf, *prefixes) if f})
print(json.dumps(out, indent=1))
sys.exit(code or 0)
