"""pack-http-routes: a router subclass of the project's that overrides the method every route
of the framework passes through (FastAPI: `get`/`post`/... -> `api_route` -> `add_api_route`;
Flask: `get`/... -> `route` -> `add_url_rule`) and hands the base's method other paths, or
more than one: each route of an instance is served at each path the override computes
(`py_overrides`); an override the scan does not evaluate is an `UNRESOLVED_ROUTE` at each
route, never silence. Our own fixtures (no real code)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from routes_harness import finding_places, located, scanned_both_ways

# both paths of each route (with and without the trailing slash); a direct `add_api_route`
# passes `add_api_route` only, which is not overridden here: one path
SLASHES = (
    "import fastapi\n"
    "class {name}(fastapi.APIRouter):\n"
    "    def api_route(self, path, *, include_in_schema=True, **kw):\n"
    "        if path.endswith('/') and len(path) > 1:\n"
    "            path = path[:-1]\n"
    "        first = super().api_route(path, include_in_schema=include_in_schema, **kw)\n"
    "        second = super().api_route(path + '/', include_in_schema=False, **kw)\n"
    "        def both(fn):\n"
    "            second(fn)\n"
    "            return first(fn)\n"
    "        return both\n"
)


def _fastapi(name: str) -> dict[str, str]:
    return {
        "web/routing.py": SLASHES.format(name=name),
        "web/bins.py": (
            f"from web.routing import {name}\n"
            f"bins = {name}(prefix='/bins')\n"
            "@bins.get('/{bid}/')\n"
            "def one(bid):\n"
            "    pass\n"
            "@bins.delete('/{bid}')\n"
            "def drop(bid):\n"
            "    pass\n"
            "def count():\n"
            "    pass\n"
            "bins.add_api_route('/count', count)\n"
        ),
        "web/app.py": (
            "from fastapi import FastAPI\n"
            "from web.bins import bins\n"
            "app = FastAPI()\n"
            "app.include_router(bins, prefix='/api')\n"
        ),
    }


BOTH = {
    "GET /api/bins/{bid}": "web/bins.py:3",
    "GET /api/bins/{bid}/": "web/bins.py:3",
    "DELETE /api/bins/{bid}": "web/bins.py:6",
    "DELETE /api/bins/{bid}/": "web/bins.py:6",
    "GET /api/bins/count": "web/bins.py:11",
}


@pytest.mark.parametrize("name", ["SlashRouter", "APIRouter"])
def test_an_api_route_override_serves_each_route_at_both_paths(name: str) -> None:
    assert located(_fastapi(name)) == BOTH


def test_the_override_is_read_through_the_prefilter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _fastapi("APIRouter"), monkeypatch)
    assert documents[0] == documents[1]
    assert "DELETE /api/bins/{bid}/" in documents[1]


FLASK: dict[str, str] = {
    "shop/section.py": (
        "from flask import Blueprint\n"
        "class Section(Blueprint):\n"
        "    def add_url_rule(self, rule, endpoint=None, view_func=None, **options):\n"
        "        super().add_url_rule(rule.lower(), endpoint, view_func, **options)\n"
        "        if not rule.startswith('/legacy'):\n"
        "            super().add_url_rule(f'/v1{rule}', None, view_func, **options)\n"
    ),
    "shop/views.py": (
        "from shop.section import Section\n"
        "carts = Section('carts', __name__, url_prefix='/carts')\n"
        "@carts.route('/Open', methods=['POST'])\n"
        "def open_cart():\n"
        "    return ''\n"
        "@carts.get('/legacy/all')\n"
        "def old():\n"
        "    return ''\n"
    ),
    "shop/app.py": (
        "from flask import Flask\n"
        "from shop.views import carts\n"
        "app = Flask(__name__)\n"
        "app.register_blueprint(carts)\n"
    ),
}


def test_a_flask_add_url_rule_override_rewrites_and_adds_paths() -> None:
    assert located(FLASK) == {
        "POST /carts/open": "shop/views.py:3",
        "POST /carts/v1/Open": "shop/views.py:3",
        "GET /carts/legacy/all": "shop/views.py:6",
    }


def test_an_override_not_evaluated_is_a_finding_at_each_route_listed_as_written() -> None:
    files = _fastapi("SlashRouter")
    files["web/routing.py"] = files["web/routing.py"].replace(
        "path = path[:-1]", "path = normalise(path)"
    )
    files["web/routing.py"] = files["web/routing.py"].replace(
        "if path.endswith('/') and len(path) > 1:", "if path:"
    )
    assert located(files) == {
        "GET /api/bins/{bid}/": "web/bins.py:3",
        "DELETE /api/bins/{bid}": "web/bins.py:6",
        "GET /api/bins/count": "web/bins.py:11",
    }
    assert {"web/bins.py:3", "web/bins.py:6"} <= set(finding_places(files)["UNRESOLVED_ROUTE"])


def test_an_override_handing_the_path_to_the_next_method_on_self_keeps_it() -> None:
    """Flask's `route` overridden to call `self.add_url_rule(rule, ...)` itself (to register
    classes too): the path goes on unchanged, as `super().route(...)` would give it."""
    files = {
        "site/app.py": (
            "import types\n"
            "from flask import Blueprint as Base, Flask\n\n\n"
            "class Blueprint(Base):\n"
            "    def route(self, rule, **options):\n"
            "        def wrapper(view):\n"
            "            endpoint = str(options.pop('endpoint', view.__name__))\n"
            "            if isinstance(view, types.FunctionType):\n"
            "                self.add_url_rule(rule, endpoint, view, **options)\n"
            "            else:\n"
            "                self.add_url_rule(rule, view_func=view.as_view(endpoint), **options)\n"
            "            return view\n"
            "        return wrapper\n\n\n"
            "bp = Blueprint('bp', __name__, url_prefix='/bp')\n\n\n"
            "@bp.route('/one', methods=['GET'])\n"
            "def one():\n    return ''\n\n\n"
            "app = Flask(__name__)\n"
            "app.register_blueprint(bp)\n"
        )
    }
    assert located(files) == {"GET /bp/one": "site/app.py:20"}
    assert "UNRESOLVED_ROUTE" not in finding_places(files)
