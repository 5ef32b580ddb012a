"""pack-http-routes on the Python constructs real applications register routes through (issue
34, branch pyroutes): an app made from the project's own subclass of the framework's app class
inside a factory, a module's own `init_app(app)` hook, a project's `Api` subclass whose method
wraps `add_resource` with a list of rules, blueprints imported by name in a loop, views kept in a
dict by a helper. Each fixture is adversarial code written for this file (names, nesting, files
and aliasing varied), never a repository's; each test fails if its construct goes silent."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import finding_places, placed, prefix_unresolved

# -- an app subclass made in a factory, routes registered by a module's `init_app` hook ------

AN_APP_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK: dict[str, str] = {
    "kiosk/__init__.py": "from .assemble import assemble\n",
    "kiosk/core.py": (
        "import flask\n"
        "\n"
        "class KioskApp(flask.Flask):\n"
        "    def __init__(self, *args, **kwargs):\n"
        "        kwargs.update({'static_url_path': '/assets'})\n"
        "        super(KioskApp, self).__init__(__name__, *args, **kwargs)\n"
    ),
    "kiosk/assemble.py": (
        "from kiosk.core import KioskApp\n"
        "\n"
        "def assemble(profile=None):\n"
        "    from . import (\n"
        "        pages,\n"
        "        metrics,\n"
        "    )\n"
        "    application = KioskApp()\n"
        "    metrics.init_app(application)\n"
        "    pages.init_app(application)\n"
        "    return application\n"
    ),
    "kiosk/metrics.py": "def init_app(app):\n    app.extensions['metrics'] = True\n",
    "kiosk/pages/__init__.py": (
        "from kiosk.pages.shared import screens\n"
        "\n"
        "@screens.route('/health', methods=['GET'])\n"
        "def health():\n"
        "    return 'ok'\n"
        "\n"
        "def init_app(app):\n"
        "    from kiosk.pages import menu  # its routes register on import\n"
        "    app.register_blueprint(screens, url_prefix='/kiosk')\n"
    ),
    "kiosk/pages/shared.py": (
        "from flask import Blueprint\n\nscreens = Blueprint('screens', __name__)\n"
    ),
    "kiosk/pages/menu.py": (
        "from kiosk.pages.shared import screens\n"
        "\n"
        "@screens.route('/menu/<int:item>', methods=['GET', 'POST'])\n"
        "def menu(item):\n"
        "    return ''\n"
    ),
}


def test_an_app_subclass_in_a_factory_with_a_module_hook() -> None:
    files = AN_APP_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK
    assert placed(files) == {
        "GET /kiosk/health": "kiosk/pages/__init__.py:3 flask",
        "GET /kiosk/menu/{item}": "kiosk/pages/menu.py:3 flask",
        "POST /kiosk/menu/{item}": "kiosk/pages/menu.py:3 flask",
    }
    assert prefix_unresolved(files) == []
    assert finding_places(files) == {}


A_FASTAPI_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK: dict[str, str] = {
    "relay/server.py": (
        "from fastapi import FastAPI as _Base\n"
        "\n"
        "class RelayService(_Base):\n"
        "    pass\n"
        "\n"
        "def build_service():\n"
        "    import relay.endpoints as endpoints\n"
        "    svc = RelayService(title='relay')\n"
        "    endpoints.init_app(svc)\n"
        "    return svc\n"
    ),
    "relay/endpoints.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "hops = APIRouter()\n"
        "\n"
        "@hops.get('/hops/{hop_id}')\n"
        "def hop(hop_id: int):\n"
        "    return {}\n"
        "\n"
        "def init_app(target):\n"
        "    target.include_router(hops, prefix='/v3')\n"
    ),
}


def test_a_fastapi_subclass_in_a_factory_with_a_module_hook() -> None:
    files = A_FASTAPI_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK
    assert placed(files) == {"GET /v3/hops/{hop_id}": "relay/endpoints.py:5 fastapi"}
    assert prefix_unresolved(files) == []
    assert finding_places(files) == {}


# -- an Api subclass's method returning `add_resource(resource, *rules)` ---------------------

AN_API_SUBCLASS_SPREADING_ITS_RULES_INTO_ADD_RESOURCE: dict[str, str] = {
    "ledger/restapi.py": (
        "from flask_restful import Api as RestfulApi, Resource\n"
        "\n"
        "class LedgerApi(RestfulApi):\n"
        "    def publish(self, handler, *rules, **extra):\n"
        "        return self.add_resource(handler, *rules, **extra)\n"
        "\n"
        "    def publish_one(self, handler, first, *more):\n"
        "        self.add_resource(handler, first, *more)\n"
        "\n"
        "ledger = LedgerApi()\n"
    ),
    "ledger/entries.py": (
        "from flask_restful import Resource\n"
        "from ledger.restapi import ledger\n"
        "\n"
        "class Entries(Resource):\n"
        "    def get(self): ...\n"
        "    def put(self): ...\n"
        "\n"
        "class Balance(Resource):\n"
        "    def get(self, acct): ...\n"
        "\n"
        "ledger.publish(Entries, '/entries', endpoint='entries')\n"
        "ledger.publish(Balance, '/balance/<acct>', '/b/<acct>', '/accounts/<acct>/balance')\n"
        "ledger.publish_one(Balance, '/v0/balance/<acct>')\n"
    ),
    "ledger/wsgi.py": (
        "import flask\n"
        "\n"
        "def create():\n"
        "    from ledger import entries  # registers on import\n"
        "    from ledger.restapi import ledger\n"
        "    server = flask.Flask('ledger')\n"
        "    ledger.init_app(server)\n"
        "    return server\n"
    ),
}


def test_an_api_subclass_spreading_its_rules_into_add_resource() -> None:
    files = AN_API_SUBCLASS_SPREADING_ITS_RULES_INTO_ADD_RESOURCE
    assert placed(files) == {
        "GET /entries": "ledger/entries.py:11 flask",
        "PUT /entries": "ledger/entries.py:11 flask",
        "GET /balance/{acct}": "ledger/entries.py:12 flask",
        "GET /b/{acct}": "ledger/entries.py:12 flask",
        "GET /accounts/{acct}/balance": "ledger/entries.py:12 flask",
        "GET /v0/balance/{acct}": "ledger/entries.py:13 flask",
    }
    assert finding_places(files) == {}


A_WRAPPER_REWRITING_ITS_RULES_IS_FLAGGED_AT_EACH_CALL: dict[str, str] = {
    "crm/api.py": (
        "from flask_restful import Api, Resource\n"
        "\n"
        "def localized(rule):\n"
        "    return '/<lang>' + rule\n"
        "\n"
        "class CrmApi(Api):\n"
        "    def attach(self, handler, *rules):\n"
        "        rules = [localized(r) for r in rules]\n"
        "        self.add_resource(handler, *rules)\n"
        "\n"
        "crm = CrmApi()\n"
        "\n"
        "class Leads(Resource):\n"
        "    def get(self): ...\n"
        "\n"
        "crm.attach(Leads, '/leads')\n"
        "crm.attach(Leads, '/prospects', '/p')\n"
    ),
    "crm/main.py": (
        "from flask import Flask\n"
        "from crm.api import crm\n"
        "\n"
        "app = Flask(__name__)\n"
        "crm.init_app(app)\n"
        "\n"
        "@app.route('/health')\n"
        "def health(): ...\n"
    ),
}


def test_a_wrapper_rewriting_its_rules_lists_each_rewritten_rule_at_each_call() -> None:
    """The rules are mapped through a comprehension over `*rules` (`py_branches`' class 2):
    one route per rule, rewritten by the helper, at the call that passes it."""
    files = A_WRAPPER_REWRITING_ITS_RULES_IS_FLAGGED_AT_EACH_CALL
    assert finding_places(files) == {}
    assert placed(files) == {
        "GET /health": "crm/main.py:7 flask",
        "GET /{lang}/leads": "crm/api.py:16 flask",
        "GET /{lang}/prospects": "crm/api.py:17 flask",
        "GET /{lang}/p": "crm/api.py:17 flask",
    }


# -- a path helper whose returns differ by a setting: one of them, never a guess -------------

A_PATH_HELPER_WITH_CONDITIONAL_RETURNS: dict[str, str] = {
    "portal/conf.py": (
        "import os\n"
        "\n"
        "TENANTED = os.environ.get('PORTAL_TENANTED', '') == 'yes'\n"
        "API_ROOT = '/api'\n"
    ),
    "portal/rules.py": (
        "from portal import conf\n"
        "\n"
        "def scoped(rule):\n"
        "    if conf.TENANTED:\n"
        "        return '/t/<tenant>{}'.format(rule)\n"
        "    return rule\n"
        "\n"
        "def rooted(rule):\n"
        "    if not rule:\n"
        "        return None\n"
        "    return conf.API_ROOT + rule\n"
    ),
    "portal/views.py": (
        "from flask import Flask\n"
        "from portal.rules import scoped, rooted\n"
        "\n"
        "site = Flask(__name__)\n"
        "\n"
        "@site.route(scoped('/signin'), methods=['GET', 'POST'])\n"
        "def signin(): ...\n"
        "\n"
        "@site.route(rooted('/status'))\n"
        "def status(): ...\n"
    ),
}


def test_a_path_helper_with_conditional_returns_takes_the_branch_the_default_picks() -> None:
    """`scoped` returns one of two paths, which one decided by a setting whose default the
    code shows (`os.environ.get(..., '') == 'yes'`: false): the branch it picks, marked as
    the configuration's default; `rooted`'s `return None` guard is no path, so its one path
    is the route's."""
    files = A_PATH_HELPER_WITH_CONDITIONAL_RETURNS
    assert placed(files) == {
        "GET /api/status": "portal/views.py:9 flask",
        "GET /signin": "portal/views.py:6 flask",
        "POST /signin": "portal/views.py:6 flask",
    }
    assert finding_places(files) == {}


# -- (path, view) tables wired by a helper; views cached, wrapped, inherited -----------------

A_ROUTE_TABLE_WIRED_BY_A_HELPER_WITH_CACHED_CLASS_VIEWS: dict[str, str] = {
    "forge/plumbing.py": (
        "def hook_up(target, table, wrappers=()):\n"
        "    made = {}\n"
        "    for rule, view_cls in table:\n"
        "        handler = made.get(view_cls)\n"
        "        if handler is None:\n"
        "            handler = view_cls.as_view(view_cls.__name__.lower())\n"
        "            for wrap in wrappers:\n"
        "                handler = wrap(handler)\n"
        "            made[view_cls] = handler\n"
        "        target.add_url_rule(rule, view_func=handler)\n"
        "    return target\n"
    ),
    "forge/base.py": (
        "from flask.views import MethodView\n"
        "\n"
        "class CollectionView(MethodView):\n"
        "    def get(self): ...\n"
        "    def post(self): ...\n"
        "\n"
        "class ItemView(MethodView):\n"
        "    def get(self, key): ...\n"
        "    def patch(self, key): ...\n"
        "    def delete(self, key): ...\n"
    ),
    "forge/parts/anvils.py": (
        "from forge.base import CollectionView, ItemView\n"
        "\n"
        "class Anvils(CollectionView):\n"
        "    model = 'anvil'\n"
        "\n"
        "class Anvil(ItemView):\n"
        "    def get(self, key):  # its own, the others inherited\n"
        "        return key\n"
        "\n"
        "class Melt(ItemView.__base__):\n"
        "    def put(self, key): ...\n"
    ),
    "forge/parts/__init__.py": (
        "from flask import Blueprint\n"
        "from forge.plumbing import hook_up\n"
        "from forge.parts.anvils import Anvils, Anvil, Melt\n"
        "\n"
        "RULES = [\n"
        "    ('/anvils', Anvils),\n"
        "    ('/anvils/<int:key>', Anvil),\n"
        "    ('/a/<int:key>', Anvil),\n"
        "    ('/anvils/<int:key>/melt', Melt),\n"
        "]\n"
        "parts = Blueprint('parts', __name__)\n"
        "wired = hook_up(parts, RULES)\n"
    ),
    "forge/server.py": (
        "import importlib\n"
        "from flask import Flask\n"
        "\n"
        "SECTIONS = ['parts']\n"
        "\n"
        "def build():\n"
        "    srv = Flask(__name__)\n"
        "    for section in SECTIONS:\n"
        "        mod = importlib.import_module(f'forge.{section}')\n"
        "        srv.register_blueprint(mod.parts, url_prefix='/forge')\n"
        "    return srv\n"
    ),
}


def test_a_route_table_wired_by_a_helper_with_cached_class_views() -> None:
    """Each `(rule, view)` of a module-level table passed to a helper that loops over it: one
    route per method the view class serves (its own and its project base class's), at the
    helper's call; the blueprint reached through `importlib.import_module` in a literal loop.
    `Melt`'s base is computed (`ItemView.__base__`): its own `put` only, still a route."""
    files = A_ROUTE_TABLE_WIRED_BY_A_HELPER_WITH_CACHED_CLASS_VIEWS
    where = "forge/parts/__init__.py:12 flask"
    assert placed(files) == {
        "GET /forge/anvils": where,
        "POST /forge/anvils": where,
        "GET /forge/anvils/{key}": where,
        "PATCH /forge/anvils/{key}": where,
        "DELETE /forge/anvils/{key}": where,
        "GET /forge/a/{key}": where,
        "PATCH /forge/a/{key}": where,
        "DELETE /forge/a/{key}": where,
        "PUT /forge/anvils/{key}/melt": where,
    }
    assert prefix_unresolved(files) == []
    assert finding_places(files) == {}


# -- WebSocket endpoints are routes too, named as the framework lists them ------------------

WEBSOCKET_ENDPOINTS_ON_ROUTERS: dict[str, str] = {
    "tickers/streams.py": (
        "from fastapi import APIRouter, WebSocket\n"
        "\n"
        "quotes = APIRouter(prefix='/quotes')\n"
        "\n"
        "@quotes.websocket('/{symbol}/stream')\n"
        "async def stream(sock: WebSocket, symbol: str):\n"
        "    await sock.accept()\n"
        "\n"
        "@quotes.get('/{symbol}')\n"
        "def last(symbol: str): ...\n"
    ),
    "tickers/main.py": (
        "from fastapi import FastAPI\n"
        "from tickers.streams import quotes\n"
        "\n"
        "api = FastAPI()\n"
        "api.include_router(quotes, prefix='/v1')\n"
    ),
    "board/app.py": (
        "from starlette.applications import Starlette\n"
        "\n"
        "board = Starlette()\n"
        "\n"
        "@board.websocket_route('/pins')\n"
        "async def pins(ws): ...\n"
    ),
}


def test_websocket_endpoints_on_routers_are_listed() -> None:
    """`@router.websocket(path)` (FastAPI) and `@app.websocket_route(path)` (Starlette) were
    silent: each is `WEBSOCKET /path`, the method name Starlette's route table gives them."""
    assert placed(WEBSOCKET_ENDPOINTS_ON_ROUTERS) == {
        "WEBSOCKET /v1/quotes/{symbol}/stream": "tickers/streams.py:5 fastapi",
        "GET /v1/quotes/{symbol}": "tickers/streams.py:9 fastapi",
        "WEBSOCKET /pins": "board/app.py:5 starlette",
    }


# -- a route decorator chosen by name: `getattr(router, verb)(path)` ------------------------

COMPUTED_MEMBER_ROUTE_DECORATORS: dict[str, str] = {
    "inventory/http.py": (
        "import os\n"
        "from fastapi import APIRouter\n"
        "\n"
        "stock = APIRouter(prefix='/stock')\n"
        "\n"
        "def count(): ...\n"
        "\n"
        "for verb in ('get', 'head'):\n"
        "    getattr(stock, verb)('/count')(count)\n"
        "\n"
        "def expose(target, verb, rule, fn):\n"
        "    getattr(target, verb)(rule)(fn)\n"
        "\n"
        "expose(stock, 'delete', '/count/{sku}', count)\n"
        "\n"
        "@getattr(stock, 'patch')('/count/{sku}')\n"
        "def adjust(sku: str): ...\n"
        "\n"
        "getattr(stock, os.environ['STOCK_VERB'])('/mystery')(count)\n"
        "getattr(stock, 'include_router')  # not a route\n"
    ),
    "inventory/main.py": (
        "from fastapi import FastAPI\n"
        "from inventory.http import stock\n"
        "\n"
        "app = FastAPI()\n"
        "app.include_router(stock)\n"
    ),
}


def test_computed_member_route_decorators_are_routes_or_findings() -> None:
    files = COMPUTED_MEMBER_ROUTE_DECORATORS
    assert placed(files) == {
        "GET /stock/count": "inventory/http.py:9 fastapi",
        "HEAD /stock/count": "inventory/http.py:9 fastapi",
        "DELETE /stock/count/{sku}": "inventory/http.py:14 fastapi",
        "PATCH /stock/count/{sku}": "inventory/http.py:16 fastapi",
    }
    assert finding_places(files) == {"UNRESOLVED_ROUTE": ["inventory/http.py:19"]}


FIXTURES = [
    COMPUTED_MEMBER_ROUTE_DECORATORS,
    WEBSOCKET_ENDPOINTS_ON_ROUTERS,
    A_ROUTE_TABLE_WIRED_BY_A_HELPER_WITH_CACHED_CLASS_VIEWS,
    AN_API_SUBCLASS_SPREADING_ITS_RULES_INTO_ADD_RESOURCE,
    A_WRAPPER_REWRITING_ITS_RULES_IS_FLAGGED_AT_EACH_CALL,
    A_PATH_HELPER_WITH_CONDITIONAL_RETURNS,
    AN_APP_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK,
    A_FASTAPI_SUBCLASS_IN_A_FACTORY_WITH_A_MODULE_HOOK,
]


def test_the_prefilter_parses_every_file_these_constructs_need(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each fixture as a repository: the pre-filtered scan equals parsing every file."""
    from routes_harness import scanned_both_ways

    for number, files in enumerate(FIXTURES):
        documents, _ = scanned_both_ways(tmp_path / str(number), files, monkeypatch)
        assert documents[0] == documents[1], files
        assert json.loads(documents[0])["resources"], files


def test_methods_given_as_the_standard_librarys_http_method_members_are_verbs() -> None:
    """`methods=[HTTPMethod.GET, ...]` (`http.HTTPMethod`, a StrEnum: Flask upper-cases its
    values, the members' names) are the verbs; a class of the project's own that happens to
    be called `HTTPMethod` is not the standard library's, and stays a finding."""
    files = {
        "web/views.py": (
            "import http\n"
            "from http import HTTPMethod as Verb\n"
            "from flask import Blueprint\n"
            "from .own import HTTPMethod\n"
            "pages = Blueprint('pages', __name__, url_prefix='/pages')\n"
            "@pages.route('/<int:pk>', methods=[Verb.GET, Verb.PATCH])\n"
            "def one(pk): ...\n"
            "def drop(pk): ...\n"
            "pages.add_url_rule('/<int:pk>/drop', view_func=drop,\n"
            "                   methods=(http.HTTPMethod.DELETE,))\n"
            "@pages.route('/odd', methods=[HTTPMethod.GET])\n"
            "def odd(): ...\n"
        ),
        "web/own.py": "class HTTPMethod:\n    GET = 'POST'\n",
    }
    routes = placed(files)
    assert {name for name in routes if not name.endswith("/odd")} == {
        "GET /pages/{pk}",
        "PATCH /pages/{pk}",
        "DELETE /pages/{pk}/drop",
    }
    assert not any(name.endswith("/odd") and not name.startswith("ANY") for name in routes)
    assert "web/views.py:11" in finding_places(files).get("UNRESOLVED_ROUTE", [])
