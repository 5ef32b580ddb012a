"""Ground-truth routes of udata (opendatateam/udata) from Flask's own `url_map` (never runs the packs).

    cd CHECKOUT && UDATA_SETTINGS=<cfg with API_TOKEN_SECRET> python udata_routes.py . > items.json

Builds `udata.wsgi:app` (`standalone(create_app())`, the production WSGI entry), then walks
`app.url_map` with runtime_routes.py's `flask_items` (HEAD/OPTIONS Flask adds and `static` left
out; each rule at its view's first decorator line). Before the import, every
`Blueprint.add_url_rule` call is recorded with the first stack frame in the checkout, so that a rule
whose view function is a library's but which the application registers itself on its own blueprint
(udata/auth/views.py: `bp.route(app.config["SECURITY_LOGIN_URL"], ...)(login)` with Flask-Security's
`login` view) is kept and placed at that `bp.route(` call. Rules a library registers on a blueprint
of its own (flask-restx's `/swagger.json` and documentation root, flask_storage's file route) are
left out and listed on stderr.

`files`: the view's file; for a class-based view (flask-restx `Resource`, `MethodView`) the files
defining each HTTP method it dispatches to (a base class in another module); the file that made
the rule's blueprint (`Blueprint(name, import_name)`: import_name's file: udata/api/__init__.py for
`/api/1` and `/api/2`, which also imports every API module); the file of the registering call (`bp.route`/`add_url_rule`) and of the `register_blueprint` call.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runtime_routes import flask_items

checkout = os.path.abspath(sys.argv[1])
sys.path.insert(0, checkout)
os.chdir(checkout)

import flask.sansio.blueprints as sbp  # noqa: E402

registered_at: dict[tuple[str, str], tuple[str, int]] = {}
_orig = sbp.Blueprint.add_url_rule


def _in_checkout() -> tuple[str, int] | None:
    """The call that registers: the first frame outside Flask itself and outside udata/app.py's
    class-decorating `Blueprint.route` wrapper; None when that frame is a library's (flask-restx
    registering its own documentation views, flask_storage its file view)."""
    for frame in reversed(traceback.extract_stack()[:-2]):
        f = frame.filename
        if "/site-packages/flask/" in f or os.path.abspath(f) == os.path.join(
            checkout, "udata/app.py"
        ):
            continue
        if (
            f.startswith("<")
            or "/site-packages/" in f
            or not os.path.abspath(f).startswith(checkout + os.sep)
        ):
            return None
        return os.path.relpath(os.path.abspath(f), checkout), frame.lineno
    return None


def add_url_rule(self, rule, endpoint=None, view_func=None, **options):
    name = endpoint or (view_func.__name__ if view_func is not None else None)
    where = _in_checkout()
    if where and name:
        registered_at.setdefault((self.name, name), where)
    return _orig(self, rule, endpoint, view_func, **options)


sbp.Blueprint.add_url_rule = add_url_rule

import flask.sansio.app as sapp  # noqa: E402

bp_registered_at: dict[str, tuple[str, int]] = {}
_orig_register = sapp.App.register_blueprint


def register_blueprint(self, blueprint, **options):
    where = _in_checkout()
    if where:
        bp_registered_at.setdefault(blueprint.name, where)
    return _orig_register(self, blueprint, **options)


sapp.App.register_blueprint = register_blueprint

module = importlib.import_module("udata.wsgi")
app = module.app


def rel(path: str | None) -> str | None:
    if not path:
        return None
    r = os.path.relpath(os.path.abspath(path), checkout)
    return None if r.startswith("..") else r


def method_files(view, method: str) -> list[str]:
    cls = getattr(view, "view_class", None)
    if cls is None:
        return []
    fn = getattr(cls, method.lower(), None)
    if fn is None:
        return []
    try:
        return [f for f in [rel(inspect.getsourcefile(inspect.unwrap(fn)))] if f]
    except TypeError:
        return []


rules = {}
for rule in app.url_map.iter_rules():
    for m in rule.methods or ():
        rules[f"{m} {rule.rule}"] = rule
items = []
for item in flask_items(app, checkout):
    rule = rules[item["name"]]
    bp_name, _, ep = rule.endpoint.rpartition(".")
    bp = app.blueprints.get(bp_name)
    bp_file = rel(getattr(sys.modules.get(bp.import_name), "__file__", None)) if bp else None
    reg = registered_at.get((bp_name, ep))
    if item["file"].startswith(("..", "?")):
        if reg is None:
            print(f"library route left out: {item['name']} ({item['file']})", file=sys.stderr)
            continue
        item["file"], item["line"] = reg
        print(f"library view registered by the app kept: {item['name']} at {reg}", file=sys.stderr)
    files = [item["file"]]
    view = app.view_functions[rule.endpoint]
    for f in [
        *method_files(view, item["name"].split(" ", 1)[0]),
        bp_file,
        reg and reg[0],
        bp_name in bp_registered_at and bp_registered_at[bp_name][0],
    ]:
        if f and f not in files:
            files.append(f)
    item["files"] = files
    items.append(item)
unique = {i["name"]: i for i in items}
json.dump(sorted(unique.values(), key=lambda i: i["name"]), sys.stdout, indent=1)
