"""pack-http-routes on registration calls whose arguments are spread (`*args`, `**kwargs`):
`api.add_resource(*entry)` in a loop over a table of tuples imported from another module (items
of two and three elements: a view then its URLs), `app.add_url_rule(*rule)` over a module's
literal table, `router.add_api_route(*spec)` inside project wrappers (the table a module's own,
or passed by the caller), `**kwargs` from a literal dict. A spread the scan cannot bind (over a
call's result, over another module's attribute) is a finding at the call, and at each call of a
wrapper that reaches it: never dropped. The fixtures are written for this file; their routes
are what Flask 3 / flask-restful 0.3 / FastAPI 0.115 serve for them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import finding_places, placed, scanned_both_ways

DECORATORS_CALLED: dict[str, str] = {
    "w/__init__.py": "",
    "w/tbl.py": "def page():\n    return 1\n\nPAGES = [('/a', page), ('/b', page, ['POST'])]\n",
    "w/app.py": (
        "from flask import Blueprint, Flask\n"
        "from w.tbl import PAGES as LISTED, page\n"
        "\n"
        "app = Flask(__name__)\n"
        "bp = Blueprint('b', __name__, url_prefix='/bp')\n"
        "app.route('/direct', methods=['PUT'])(page)\n"
        "for rule, view, *_ in LISTED:\n"
        "    bp.route(rule)(view)\n"
        "for entry in LISTED:\n"
        "    bp.route(*entry[:1])(entry[1])\n"
        "app.register_blueprint(bp)\n"
    ),
}

RESTFUL_TABLE_IMPORTED: dict[str, str] = {
    "dash/__init__.py": "",
    "dash/views.py": (
        "from flask_restful import Resource\n"
        "class Alpha(Resource):\n    def get(self):\n        return 1\n"
        "class Beta(Resource):\n    def get(self, bid=None):\n        return 1\n    def delete(self, bid):\n        return 1\n"
        "class Gamma(Resource):\n    def post(self, name):\n        return 1\n"
    ),
    "dash/table.py": (
        "from dash.views import Alpha, Beta\nfrom dash import views as v\n\n"
        "ENDPOINTS = [\n    (Alpha, '/alpha'),\n    (\n        Beta,\n        '/beta/<int:bid>',\n        '/beta',\n    ),\n    (v.Gamma, '/gamma/<name>/'),\n]\n"
    ),
    "dash/app.py": (
        "from flask import Flask\nfrom flask_restful import Api as RestApi\n"
        "from dash.table import ENDPOINTS as TABLE\nfrom dash.views import Alpha\n\n"
        "def plain():\n    return 'x'\n\n"
        "RULES = (('/plain', 'plain', plain), ('/plain2', 'plain2', plain))\n\n"
        "def make(extra):\n    app = Flask(__name__)\n    api = RestApi(app, prefix='/v2')\n"
        "    for entry in TABLE:\n        api.add_resource(*entry)\n"
        "    for rule in RULES:\n        app.add_url_rule(*rule)\n"
        "    api.add_resource(*(Alpha, '/direct'))\n"
        "    api.add_resource(*extra)\n"
        "    return app\n"
    ),
}

WRAPPERS_OVER_TABLES: dict[str, str] = {
    "svc/__init__.py": "",
    "svc/handlers.py": "async def ping():\n    return 1\n\nasync def pong():\n    return 2\n",
    "svc/paths.py": (
        "from svc import handlers as h\n\n"
        "PAIRS = [('/ping', h.ping), ('/pong', h.pong)]\n"
        "KW = {'path': '/kw', 'endpoint': h.ping}\n"
    ),
    "svc/wiring.py": (
        "from svc.paths import PAIRS\nfrom svc import paths\n\n"
        "def wire(router, table):\n    for spec in table:\n        router.add_api_route(*spec)\n\n"
        "def wire_all(router):\n    for spec in PAIRS:\n        router.add_api_route(*spec)\n"
        "    router.add_api_route(**paths.KW)\n"
    ),
    "svc/main.py": (
        "from fastapi import FastAPI, APIRouter\nfrom svc.wiring import wire, wire_all\nfrom svc.paths import PAIRS\n\n"
        "app = FastAPI()\ninner = APIRouter(prefix='/in')\nwire(inner, PAIRS)\nwire_all(app)\n"
        "app.include_router(inner)\n"
        "def computed():\n    return []\n\n"
        "for spec in computed():\n    app.add_api_route(*spec)\n"
    ),
}


def test_a_spread_over_an_imported_table_of_resources_is_a_route_per_url() -> None:
    """Two- and three-element items (a view, then each URL), a module's literal table of
    `add_url_rule` arguments, a literal spread in place; a spread of a parameter is a finding."""
    assert placed(RESTFUL_TABLE_IMPORTED) == {
        "DELETE /v2/beta": "dash/app.py:15 flask",
        "DELETE /v2/beta/{bid}": "dash/app.py:15 flask",
        "GET /v2/alpha": "dash/app.py:15 flask",
        "GET /v2/beta": "dash/app.py:15 flask",
        "GET /v2/beta/{bid}": "dash/app.py:15 flask",
        "POST /v2/gamma/{name}/": "dash/app.py:15 flask",
        "GET /plain": "dash/app.py:17 flask",
        "GET /plain2": "dash/app.py:17 flask",
        "GET /v2/direct": "dash/app.py:18 flask",
    }
    assert finding_places(RESTFUL_TABLE_IMPORTED) == {"UNRESOLVED_ROUTE": ["dash/app.py:19"]}


def test_route_decorators_called_as_functions_are_routes() -> None:
    """`app.route(path)(view)`, also over a table imported from another module; a spread
    the scan cannot bind (a slice) is a finding at the call."""
    assert placed(DECORATORS_CALLED) == {"PUT /direct": "w/app.py:6 flask"} | {
        f"GET /bp{p}": "w/app.py:8 flask" for p in ("/a", "/b")
    }
    assert finding_places(DECORATORS_CALLED) == {"UNRESOLVED_ROUTE": ["w/app.py:10"]}


OPTIONS_PASSED_ON: dict[str, str] = {
    "site/__init__.py": "",
    "site/helpers.py": (
        "def wire_view(target, rules, view_func, *args, **kwargs):\n"
        "    for rule in rules:\n"
        "        target.add_url_rule(rule, view_func=view_func, *args, **kwargs)\n"
    ),
    "site/views.py": (
        "from flask import Blueprint\nfrom site.helpers import wire_view\n\n"
        "def show():\n    return 'x'\n\n"
        "pages = Blueprint('pages', __name__, url_prefix='/p')\n"
        "wire_view(pages, rules=['/one', '/two'], view_func=show)\n"
    ),
    "site/app.py": (
        "from flask import Flask\nfrom site.views import pages\n\n"
        "app = Flask(__name__)\napp.register_blueprint(pages)\n"
    ),
}


def test_arguments_spread_after_the_path_are_passed_on_as_before() -> None:
    """`add_url_rule(rule, view_func=v, *args, **kwargs)` in a wrapper: the path is written,
    so the route is read as it was (the spread options are not what is registered)."""
    assert set(placed(OPTIONS_PASSED_ON)) == {"GET /p/one", "GET /p/two"}


def test_spreads_inside_wrappers_bind_per_caller_and_unknown_ones_are_findings() -> None:
    assert placed(WRAPPERS_OVER_TABLES) == {
        "GET /in/ping": "svc/main.py:7 fastapi",
        "GET /in/pong": "svc/main.py:7 fastapi",
        "GET /ping": "svc/wiring.py:10 fastapi",
        "GET /pong": "svc/wiring.py:10 fastapi",
    }
    places = finding_places(WRAPPERS_OVER_TABLES)
    assert sorted(places["UNRESOLVED_ROUTE"]) == [
        "svc/main.py:14",  # `for spec in computed()`
        "svc/main.py:8",  # the wrapper's call that reaches `**paths.KW`
        "svc/wiring.py:11",
    ]


_CALLS = {  # registration API -> (router made, a literal spread's arguments, after the call)
    "add_resource": ("Api(app)", "(Res, '/r')", ""),
    "add_url_rule": ("app", "('/r', 'r', view)", ""),
    "add_api_route": ("FastAPI()", "('/r', view)", ""),
    "add_route": ("FastAPI()", "('/r', view)", ""),
    "route": ("app", "('/r',)", "(view)"),  # a route decorator called as a function
    "get": ("FastAPI()", "('/r',)", "(view)"),
}
_SHAPES = {  # how the spread is written -> (code before the call, the arguments)
    "literal": ("", "*{lit}"),
    "module-literal": ("SPEC = {lit}\n", "*SPEC"),
    "loop-literal": ("for spec in [{lit}]:\n    ", "*spec"),
    "loop-imported": ("from tbl import TABLE\nfor spec in TABLE:\n    ", "*spec"),
    "call-result": ("", "*made()"),
    "loop-call": ("for spec in made():\n    ", "*spec"),
    "name-unknown": ("from elsewhere import SPEC\n", "*SPEC"),
    "kwargs-unknown": ("from elsewhere import KW\n", "**KW"),
    "kwargs-call": ("", "**made()"),
    "view-then-star": ("from elsewhere import MORE\n", "view, *MORE"),
}


@pytest.mark.parametrize("shape", sorted(_SHAPES))
@pytest.mark.parametrize("api", sorted(_CALLS))
def test_every_spread_shape_is_a_route_or_a_finding_at_the_call(shape: str, api: str) -> None:
    """Never silent by construction: whatever a registration call's spread is, the document
    has a route of the call or a finding at its line."""
    router, literal, applied = _CALLS[api]
    before, args = _SHAPES[shape]
    head = (
        "from flask import Flask\nfrom flask_restful import Api, Resource\n"
        "from fastapi import FastAPI\n\n"
        "class Res(Resource):\n    def get(self):\n        return 1\n\n"
        "def view():\n    return 1\n\n"
        "def made():\n    return ()\n\n"
        f"app = Flask(__name__)\nrouter = {router}\n"
    )
    prefix = before.format(lit=literal)
    body = f"{prefix}router.{api}({args.format(lit=literal)}){applied}\n"
    source = head + body
    line = source.count("\n")
    files = {"main.py": source, "tbl.py": f"from main import Res, view\nTABLE = [{literal}]\n"}
    if shape == "view-then-star" and applied:  # `app.route(view, *MORE)`: path first there
        files["main.py"] = source.replace("router.route(view, ", "router.route(")
    routes = placed(files)
    findings = finding_places(files)
    at_call = [p for places in findings.values() for p in places if p == f"main.py:{line}"]
    assert any(where.startswith(f"main.py:{line} ") for where in routes.values()) or at_call


@pytest.mark.parametrize("files", [RESTFUL_TABLE_IMPORTED, WRAPPERS_OVER_TABLES, DECORATORS_CALLED])
def test_spread_tables_scan_the_same_with_and_without_the_pre_filter(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
