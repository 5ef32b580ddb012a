"""pack-http-routes (Python): a project function that makes a router in its own body (FastAPI's
`APIRouter(prefix=f"{API}/{kind}")`, Flask's `Blueprint(kind, __name__, url_prefix="/" +
kind)`), declares routes on it (paths literal or from its parameters) and returns it, makes one
router per CALL: the body's routes with that call's arguments bound (prefix, paths, methods),
served where that call's result is mounted. The call may bind a module-level name (mounted
directly, or through a list looped over), be mounted as written, be made by another factory
that composes several (`outer.include_router(make_get(kind=kind))`, returned), be returned by a
function passing its parameters on (`return make(kind)`), or be written in a function called
with the arguments (`def setup(app, kind): app.include_router(make(kind))`). An argument not
known leaves that router's prefix unresolved (a finding); a factory no call reaches keeps its
routes flagged; a factory that calls itself is cut with a finding at the call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, finding_places, scanned_both_ways

COMPOSED: dict[str, str] = {
    "app/factory.py": (
        "from fastapi import APIRouter\n"
        "API = '/api/v1'\n"
        "\n"
        "def make_get(model, model_type: str) -> APIRouter:\n"
        "    router = APIRouter(prefix=f'{API}/{model_type}', tags=[model])\n"
        "    @router.get('/{key}')\n"
        "    async def get(key: str):\n"
        "        return key\n"
        "    return router\n"
        "\n"
        "def make_list(model, model_type: str) -> APIRouter:\n"
        "    router = APIRouter(prefix=f'{API}/{model_type}')\n"
        "    @router.get(path='/')\n"
        "    async def ls():\n"
        "        return []\n"
        "    @router.post('/' + model_type + '-bulk')\n"
        "    async def bulk():\n"
        "        return []\n"
        "    return router\n"
        "\n"
        "def make_all(model, model_type: str) -> APIRouter:\n"
        "    outer = APIRouter()\n"
        "    got = make_get(model=model, model_type=model_type)\n"
        "    outer.include_router(got)\n"
        "    outer.include_router(make_list(model, model_type))\n"
        "    return outer\n"
    ),
    "app/generic.py": (
        "from .factory import make_all, make_get\n"
        "A_ROUTER = make_all(model='A', model_type='alpha')\n"
        "B_ROUTER = make_all(model='B', model_type='beta')\n"
        "C_ROUTER = make_get('C', 'gamma')\n"
    ),
    "app/main.py": (
        "from fastapi import FastAPI, APIRouter\n"
        "from .generic import A_ROUTER, B_ROUTER, C_ROUTER\n"
        "app = FastAPI()\n"
        "ROOT = APIRouter()\n"
        "for r in [A_ROUTER, B_ROUTER]:\n"
        "    ROOT.include_router(r)\n"
        "app.include_router(ROOT)\n"
        "app.include_router(C_ROUTER, prefix='/c')\n"
    ),
}


def _listed(files: dict[str, str]) -> dict[str, tuple[str, bool]]:
    """Route name -> (`file:line`, whether its prefix is unresolved)."""
    return {
        str(r["name"]): (
            f"{r['location']['path']}:{r['location']['line']}",
            bool(r["attrs"].get("prefixUnresolved")),
        )
        for r in document(files)["resources"]
    }


def test_each_call_of_a_composing_factory_is_a_router_of_its_own() -> None:
    assert _listed(COMPOSED) == {
        "GET /api/v1/alpha/{key}": ("app/factory.py:6", False),
        "GET /api/v1/beta/{key}": ("app/factory.py:6", False),
        "GET /c/api/v1/gamma/{key}": ("app/factory.py:6", False),
        "GET /api/v1/alpha/": ("app/factory.py:13", False),
        "GET /api/v1/beta/": ("app/factory.py:13", False),
        # a path from the parameters: placed where the outermost call is written
        "POST /api/v1/alpha/alpha-bulk": ("app/generic.py:2", False),
        "POST /api/v1/beta/beta-bulk": ("app/generic.py:3", False),
    }
    assert document(COMPOSED)["findings"] == []


def test_the_body_s_own_router_is_never_listed_at_the_root() -> None:
    found = _listed(COMPOSED)
    assert "GET /{key}" not in found and "GET /" not in found
    assert not any(unresolved for _, unresolved in found.values())


FLASK: dict[str, str] = {
    "shop/blueprints.py": (
        "from flask import Blueprint\n"
        "\n"
        "def kind_blueprint(kind):\n"
        "    bp = Blueprint(kind, __name__, url_prefix='/' + kind)\n"
        "\n"
        "    @bp.route('/<int:item_id>', methods=['GET', 'DELETE'])\n"
        "    def one(item_id):\n"
        "        return str(item_id)\n"
        "\n"
        "    @bp.route('/' + kind + '-count')\n"
        "    def count():\n"
        "        return '0'\n"
        "\n"
        "    return bp\n"
    ),
    "shop/app.py": (
        "from flask import Flask\n"
        "from shop.blueprints import kind_blueprint\n"
        "\n"
        "POSTS = kind_blueprint('posts')\n"
        "app = Flask(__name__)\n"
        "app.register_blueprint(kind_blueprint('users'))\n"
        "app.register_blueprint(POSTS)\n"
    ),
}


def test_a_blueprint_factory_serves_each_call_under_that_call_s_prefix() -> None:
    assert _listed(FLASK) == {
        "GET /users/{item_id}": ("shop/blueprints.py:6", False),
        "DELETE /users/{item_id}": ("shop/blueprints.py:6", False),
        "GET /posts/{item_id}": ("shop/blueprints.py:6", False),
        "DELETE /posts/{item_id}": ("shop/blueprints.py:6", False),
        "GET /users/users-count": ("shop/app.py:6", False),
        "GET /posts/posts-count": ("shop/app.py:4", False),
    }


VERBS: dict[str, str] = {
    "shop/blueprints.py": (
        "from flask import Blueprint\n"
        "\n"
        "def kind_blueprint(kind, verb='GET'):\n"
        "    bp = Blueprint(kind, __name__, url_prefix='/' + kind)\n"
        "\n"
        "    @bp.route('/<int:item_id>', methods=[verb])\n"
        "    def one(item_id):\n"
        "        return str(item_id)\n"
        "\n"
        "    return bp\n"
    ),
    "shop/app.py": (
        "from flask import Flask\n"
        "from shop.blueprints import kind_blueprint\n"
        "\n"
        "POSTS = kind_blueprint('posts', verb='PUT')\n"
        "app = Flask(__name__)\n"
        "app.register_blueprint(kind_blueprint('users'))\n"
        "app.register_blueprint(POSTS)\n"
        "app.register_blueprint(kind_blueprint('odd', verb=app.config['VERB']))\n"
    ),
}


def test_a_blueprint_factory_s_methods_are_each_call_s_arguments() -> None:
    found = _listed(VERBS)
    assert found == {
        "PUT /posts/{item_id}": ("shop/app.py:4", False),
        "GET /users/{item_id}": ("shop/app.py:6", False),  # the parameter's default
    }
    # the verb of the third call is not known: a finding at the route and the call
    assert finding_places(VERBS)["UNRESOLVED_ROUTE"] == ["shop/app.py:8", "shop/blueprints.py:6"]


THROUGH: dict[str, str] = {
    "api/factory.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "def leaf(kind, verb):\n"
        "    router = APIRouter(prefix='/' + kind)\n"
        "    router.add_api_route('/' + kind + '-info', info, methods=[verb])\n"
        "    return router\n"
        "\n"
        "def info():\n"
        "    return 'x'\n"
        "\n"
        "def passthrough(kind):\n"
        "    return leaf(kind, 'PUT')\n"
        "\n"
        "def setup(app, kind):\n"
        "    app.include_router(leaf(kind, 'PATCH'))\n"
    ),
    "api/main.py": (
        "from fastapi import FastAPI\n"
        "from api.factory import passthrough, setup\n"
        "\n"
        "app = FastAPI()\n"
        "setup(app, 'set')\n"
        "app.include_router(passthrough('pass'))\n"
    ),
}


def test_a_factory_reached_through_other_functions_binds_each_chain_of_calls() -> None:
    found = _listed(THROUGH)
    assert found == {
        "PATCH /set/set-info": ("api/factory.py:15", False),
        "PUT /pass/pass-info": ("api/main.py:6", False),
    }


NOT_KNOWN: dict[str, str] = {
    "svc/factory.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "def make(name):\n"
        "    router = APIRouter(prefix='/' + name)\n"
        "\n"
        "    @router.get('/ping')\n"
        "    def ping():\n"
        "        return 'ok'\n"
        "\n"
        "    return router\n"
        "\n"
        "def never(name):\n"
        "    router = APIRouter(prefix='/' + name)\n"
        "\n"
        "    @router.get('/' + name + '/lost')\n"
        "    def lost():\n"
        "        return 'x'\n"
        "\n"
        "    return router\n"
    ),
    "svc/main.py": (
        "import os\n"
        "from fastapi import FastAPI\n"
        "from svc.factory import make\n"
        "\n"
        "app = FastAPI()\n"
        "app.include_router(make(os.environ['SECRET_NAME']))\n"
        "app.include_router(make('known'))\n"
    ),
}


def test_an_argument_not_known_or_no_call_is_a_finding_never_a_guess() -> None:
    # the handler listed with its known prefix; the call passing the environment's name makes
    # a router whose prefix is not known: a finding at the router (not a second, short name)
    assert _listed(NOT_KNOWN) == {"GET /known/ping": ("svc/factory.py:6", False)}
    places = finding_places(NOT_KNOWN)
    assert places["UNRESOLVED_PREFIX"] == ["svc/factory.py:4", "svc/factory.py:6"]
    assert places["UNRESOLVED_ROUTE"] == ["svc/factory.py:15"]  # `never`: called by none
    alone = {
        **NOT_KNOWN,
        "svc/main.py": NOT_KNOWN["svc/main.py"].replace("app.include_router(make('known'))\n", ""),
    }
    assert _listed(alone) == {"GET /ping": ("svc/factory.py:6", True)}


SHARED: dict[str, str] = {
    "crud/make.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "SHARED = APIRouter(prefix='/shared')\n"
        "\n"
        "@SHARED.get('/one')\n"
        "def one():\n"
        "    return 1\n"
        "\n"
        "def shared_router(kind):\n"
        "    return SHARED\n"
    ),
    "crud/main.py": (
        "from fastapi import FastAPI\n"
        "from crud.make import shared_router\n"
        "\n"
        "app = FastAPI()\n"
        "app.include_router(shared_router('x'))\n"
        "app.include_router(shared_router('y'))\n"
    ),
}


def test_a_router_made_outside_the_function_stays_one_router() -> None:
    assert _listed(SHARED) == {"GET /shared/one": ("crud/make.py:5", False)}


RECURSIVE: dict[str, str] = {
    "deep/factory.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "def deep(prefix):\n"
        "    router = APIRouter(prefix=prefix)\n"
        "\n"
        "    @router.get('/here')\n"
        "    def here():\n"
        "        return 'x'\n"
        "\n"
        "    router.include_router(deep(prefix + '/again'))\n"
        "    return router\n"
    ),
    "deep/main.py": (
        "from fastapi import FastAPI\n"
        "from deep.factory import deep\n"
        "\n"
        "app = FastAPI()\n"
        "app.include_router(deep('/d'))\n"
    ),
}


def test_a_factory_calling_itself_is_cut_with_a_finding_at_the_call() -> None:
    assert _listed(RECURSIVE) == {"GET /d/here": ("deep/factory.py:6", False)}
    assert finding_places(RECURSIVE)["UNRESOLVED_ROUTE"] == ["deep/factory.py:10"]


def test_many_calls_of_a_composing_factory_cost_one_router_each() -> None:
    calls = "".join(
        f"R{i} = make_all(model='M', model_type='k{i}')\napp.include_router(R{i})\n"
        for i in range(300)
    )
    files = {
        "app/factory.py": COMPOSED["app/factory.py"],
        "app/main.py": "from fastapi import FastAPI\nfrom .factory import make_all\n"
        "app = FastAPI()\n" + calls,
    }
    found = _listed(files)
    assert len(found) == 300 * 3
    assert found["POST /api/v1/k299/k299-bulk"] == ("app/main.py:602", False)


def test_the_prefilter_parses_every_file_the_factories_need(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        **COMPOSED,
        **FLASK,
        **THROUGH,
        "verbs/app.py": VERBS["shop/app.py"].replace("shop.", "verbs."),
        "verbs/blueprints.py": VERBS["shop/blueprints.py"],
    }
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    listed = {r["name"] for r in json.loads(documents[0])["resources"]}
    assert {"GET /api/v1/alpha/{key}", "GET /users/users-count", "PUT /pass/pass-info"} <= listed
