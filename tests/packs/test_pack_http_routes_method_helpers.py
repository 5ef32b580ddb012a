"""pack-http-routes: the project's decorator helpers handed a router's METHOD
(`@guarded(router.get, "/x", scopes)`), which register the def with `verb(path, ...)(fn)` in
a closure: each decorator is a route on the method's router (`verb.__self__`), its verb the
method's name (`verb.__name__`), placed at the decorator, with the helper's `dependencies`.
FastAPI and Flask alike; the helper imported from another module, the method passed by
keyword, the view wrapped by `functools.wraps` first. Our own fixtures (no real code)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from routes_harness import document, located, scanned_both_ways

FASTAPI: dict[str, str] = {
    "svc/guard.py": (
        "import functools\n"
        "from fastapi import Security\n"
        "from fastapi.security import OAuth2PasswordBearer\n"
        "check = OAuth2PasswordBearer(tokenUrl='/token')\n"
        "\n"
        "def guarded(verb, path, scopes=None, **options):\n"
        "    def wrap(handler):\n"
        "        @functools.wraps(handler)\n"
        "        def inner(*a, **k):\n"
        "            return handler(*a, **k)\n"
        "        return verb(path, dependencies=[Security(check, scopes=scopes or [])],\n"
        "                    **options)(inner)\n"
        "    return wrap\n"
    ),
    "svc/parcels.py": (
        "from fastapi import APIRouter\n"
        "from svc.guard import guarded\n"
        "router = APIRouter(prefix='/parcels')\n"
        "@guarded(router.get, '/open', ['read'])\n"
        "def list_open():\n"
        "    pass\n"
        "@guarded(verb=router.post, path='/{pid}/close')\n"
        "def close(pid):\n"
        "    pass\n"
    ),
    "svc/main.py": (
        "from fastapi import FastAPI\n"
        "from svc import parcels\n"
        "app = FastAPI()\n"
        "app.include_router(parcels.router, prefix='/api')\n"
    ),
}

FLASK: dict[str, str] = {
    "depot/helpers.py": (
        "def logged(method, rule, **kw):\n"
        "    def deco(view):\n"
        "        return method(rule, **kw)(view)\n"
        "    return deco\n"
    ),
    "depot/views.py": (
        "from flask import Blueprint\n"
        "from depot import helpers\n"
        "crates = Blueprint('crates', __name__, url_prefix='/crates')\n"
        "@helpers.logged(crates.delete, '/<int:cid>')\n"
        "def drop(cid):\n"
        "    return ''\n"
        "@helpers.logged(crates.route, '/stack', methods=['PUT'])\n"
        "def stack():\n"
        "    return ''\n"
    ),
    "depot/app.py": (
        "from flask import Flask\n"
        "from depot.views import crates\n"
        "app = Flask(__name__)\n"
        "app.register_blueprint(crates)\n"
    ),
}


def test_a_helper_given_the_routers_method_is_a_route_at_each_decorator() -> None:
    assert located(FASTAPI) == {
        "GET /api/parcels/open": "svc/parcels.py:4",
        "POST /api/parcels/{pid}/close": "svc/parcels.py:7",
    }


def test_the_helpers_dependencies_are_the_routes_guards() -> None:
    signals = {s["resource"]: s["value"] for s in document(FASTAPI)["signals"]}
    assert signals["route:GET /api/parcels/open"] == "required"


def test_flask_methods_and_route_with_methods() -> None:
    assert located(FLASK) == {
        "DELETE /crates/{cid}": "depot/views.py:4",
        "PUT /crates/stack": "depot/views.py:7",
    }


def test_the_helper_module_is_read_through_the_prefilter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, FASTAPI, monkeypatch)
    assert documents[0] == documents[1]
    assert "/api/parcels/open" in documents[1]


def test_something_else_passed_is_no_route() -> None:
    files = dict(FASTAPI)
    files["svc/parcels.py"] += "@guarded(print, '/nowhere')\ndef other():\n    pass\n"
    assert "/nowhere" not in " ".join(located(files))


def test_the_handler_is_the_decorated_def() -> None:
    handlers = {str(r["name"]): r["attrs"]["handler"] for r in document(FASTAPI)["resources"]}
    assert handlers == {
        "GET /api/parcels/open": "list_open",
        "POST /api/parcels/{pid}/close": "close",
    }
