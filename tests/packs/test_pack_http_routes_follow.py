"""pack-http-routes follows the project's own code: wrappers, subclasses, helpers and
factories are evaluated with their arguments bound, and every registration it reaches ends as a
route or a finding (issue 34, items 1, 2 and 7). Each fixture is adversarial code written for
this file; each test fails if its construct goes silent."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes import extract, route_document
from packs.scan import JSONObject


def canonical_json(document: JSONObject) -> bytes:
    return json.dumps(document, sort_keys=True, separators=(",", ":")).encode()


def document(files: dict[str, str]) -> JSONObject:
    linked = route_document(
        [(path, extract(path, source)) for path, source in sorted(files.items())]
    )
    return {"resources": linked.resources, "findings": linked.findings}


def placed(files: dict[str, str]) -> dict[str, str]:
    """Route name -> `file:line` where it is listed."""
    doc = document(files)
    out: dict[str, str] = {}
    for resource in doc["resources"]:
        where = resource["location"]
        out[resource["name"]] = f"{where['path']}:{where['line']}"
    return out


def codes(files: dict[str, str]) -> dict[str, list[str]]:
    """Finding code -> the places it lists, `file:line`."""
    out: dict[str, list[str]] = {}
    for finding in document(files)["findings"]:
        out.setdefault(finding["code"], []).extend(
            f"{p['path']}:{p['line']}" for p in finding["locations"]
        )
    return out


# -- a. a subclass's method wraps the registration ------------------------------------------


A_FLASK_SUBCLASS_METHOD_WRAPPING_ADD_URL_RULE_GIVES_EACH_CALL_SITE: dict[str, str] = {
    "shop/web.py": (
        "from flask import Flask\n"
        "\n"
        "class ShopApp(Flask):\n"
        "    def page(self, rule, view, verb='GET'):\n"
        "        self.add_url_rule(rule, view_func=view, methods=[verb])\n"
        "\n"
        "    def pages(self, base, *views):\n"
        "        for view in views:\n"
        "            self.page(base + '/' + view.__name__, view)\n"
    ),
    "shop/main.py": (
        "from shop.web import ShopApp\n"
        "from shop import views\n"
        "\n"
        "application = ShopApp(__name__)\n"
        "application.page('/cart', views.cart)\n"
        "application.page('/cart/<int:item>', views.item, 'DELETE')\n"
        "application.page('/checkout', views.checkout, verb='POST')\n"
    ),
    "shop/views.py": "def cart(): ...\ndef item(item): ...\ndef checkout(): ...\n",
}


def test_a_flask_subclass_method_wrapping_add_url_rule_gives_each_call_site() -> None:
    files = A_FLASK_SUBCLASS_METHOD_WRAPPING_ADD_URL_RULE_GIVES_EACH_CALL_SITE
    assert placed(files) == {
        "GET /cart": "shop/main.py:5",
        "DELETE /cart/{item}": "shop/main.py:6",
        "POST /checkout": "shop/main.py:7",
    }


A_FLASK_RESTFUL_API_SUBCLASS_WRAPPING_ADD_RESOURCE: dict[str, str] = {
    "svc/api.py": (
        "from flask_restful import Api, Resource\n"
        "\n"
        "class VersionedApi(Api):\n"
        "    version = 'v2'\n"
        "\n"
        "    def expose(self, resource, *tail):\n"
        "        self.add_resource(resource, f'/{self.version}/{tail[0]}')\n"
        "\n"
        "    def plain(self, resource, url):\n"
        "        self.add_resource(resource, url)\n"
        "\n"
        "class Ping(Resource):\n"
        "    def get(self): ...\n"
        "\n"
        "class Orders(Resource):\n"
        "    def get(self): ...\n"
        "    def post(self): ...\n"
    ),
    "svc/app.py": (
        "from flask import Flask\n"
        "from svc.api import VersionedApi, Ping, Orders\n"
        "\n"
        "app = Flask(__name__)\n"
        "gateway = VersionedApi(app)\n"
        "gateway.plain(Ping, '/ping')\n"
        "gateway.plain(Orders, '/orders')\n"
        "gateway.plain(Orders, '/orders/<int:oid>')\n"
    ),
}


def test_a_flask_restful_api_subclass_wrapping_add_resource() -> None:
    files = A_FLASK_RESTFUL_API_SUBCLASS_WRAPPING_ADD_RESOURCE
    assert placed(files) == {
        "GET /ping": "svc/app.py:6",
        "GET /orders": "svc/app.py:7",
        "POST /orders": "svc/app.py:7",
        "GET /orders/{oid}": "svc/app.py:8",
        "POST /orders/{oid}": "svc/app.py:8",
    }


A_WRAPPER_CALLED_MANY_TIMES_FROM_ANOTHER_WRAPPER_KEEPS_EACH_USER_LINE: dict[str, str] = {
    "kit/reg.py": (
        "def expose(target, path, fn, methods=('GET',)):\n"
        "    target.add_url_rule(path, view_func=fn, methods=list(methods))\n"
        "\n"
        "def expose_get(target, path, fn):\n"
        "    expose(target, '/v1' + path, fn)\n"
    ),
    "kit/app.py": (
        "from flask import Flask\n"
        "from kit.reg import expose_get\n"
        "\n"
        "app = Flask(__name__)\n"
        "def a(): ...\n"
        "def b(): ...\n"
        "expose_get(app, '/alpha', a)\n"
        "expose_get(app, '/beta', b)\n"
    ),
}


def test_a_wrapper_called_many_times_from_another_wrapper_keeps_each_user_line() -> None:
    files = A_WRAPPER_CALLED_MANY_TIMES_FROM_ANOTHER_WRAPPER_KEEPS_EACH_USER_LINE
    assert placed(files) == {"GET /v1/alpha": "kit/app.py:7", "GET /v1/beta": "kit/app.py:8"}


# -- c. prefixes and paths through parameters, helpers, `.format` loops -------------------


C_BLUEPRINT_LIST_REGISTERED_BY_A_HELPER_WITH_A_VERSIONED_PREFIX: dict[str, str] = {
    "blog/settings.py": "VERSION = 'v3'\n",
    "blog/setup.py": (
        "from blog.settings import VERSION\n"
        "\n"
        "def configure_blueprints(app, blueprints):\n"
        "    for blueprint in blueprints:\n"
        "        app.register_blueprint(blueprint, url_prefix=f'/api/{VERSION}')\n"
    ),
    "blog/posts.py": (
        "from flask import Blueprint\n"
        "posts = Blueprint('posts', __name__)\n"
        "@posts.route('/posts')\n"
        "def index(): ...\n"
    ),
    "blog/users.py": (
        "from flask import Blueprint\n"
        "users = Blueprint('users', __name__)\n"
        "@users.route('/users/<name>')\n"
        "def show(name): ...\n"
    ),
    "blog/app.py": (
        "from flask import Flask\n"
        "from blog.setup import configure_blueprints\n"
        "from blog.posts import posts\n"
        "from blog.users import users\n"
        "\n"
        "BLUEPRINTS = [posts, users]\n"
        "app = Flask(__name__)\n"
        "configure_blueprints(app, BLUEPRINTS)\n"
    ),
}


def test_c_blueprint_list_registered_by_a_helper_with_a_versioned_prefix() -> None:
    files = C_BLUEPRINT_LIST_REGISTERED_BY_A_HELPER_WITH_A_VERSIONED_PREFIX
    assert placed(files) == {
        "GET /api/v3/posts": "blog/posts.py:3",
        "GET /api/v3/users/{name}": "blog/users.py:3",
    }
    assert "UNRESOLVED_PREFIX" not in codes(files)


C_A_PATH_HELPER_THAT_RETURNS_ITS_ARGUMENT_AND_A_FORMAT_LOOP: dict[str, str] = {
    "site/paths.py": (
        "ROOT = '/portal'\n"
        "def scoped(rule):\n"
        "    return ROOT + rule\n"
        "def same(rule):\n"
        "    return rule\n"
    ),
    "site/app.py": (
        "from flask import Flask\n"
        "from site.paths import scoped, same\n"
        "\n"
        "app = Flask(__name__)\n"
        "\n"
        "@app.route(scoped('/login'), methods=['POST'])\n"
        "def login(): ...\n"
        "\n"
        "@app.route(same('/logout'))\n"
        "def logout(): ...\n"
        "\n"
        "def listing(kind): ...\n"
        "for d in ['books', 'films']:\n"
        "    app.add_url_rule('/{}/<int:x>'.format(d), view_func=listing)\n"
        "    app.add_url_rule('/%s/top' % d, view_func=listing)\n"
    ),
}


def test_c_a_path_helper_that_returns_its_argument_and_a_format_loop() -> None:
    files = C_A_PATH_HELPER_THAT_RETURNS_ITS_ARGUMENT_AND_A_FORMAT_LOOP
    assert placed(files) == {
        "POST /portal/login": "site/app.py:6",
        "GET /logout": "site/app.py:9",
        "GET /books/{x}": "site/app.py:14",
        "GET /films/{x}": "site/app.py:14",
        "GET /books/top": "site/app.py:15",
        "GET /films/top": "site/app.py:15",
    }


# -- b. a home-made router class: stored routes, computed method ---------------------------


B_A_HOME_MADE_PYTHON_ROUTER_IS_NEVER_SILENT: dict[str, str] = {
    "tiny/router.py": (
        "class Table:\n"
        "    def __init__(self):\n"
        "        self.entries = []\n"
        "\n"
        "    def route(self, method, path, handler):\n"
        "        self.entries.append((method, path, handler))\n"
        "\n"
        "    def mount_onto(self, app):\n"
        "        for method, path, handler in self.entries:\n"
        "            app.add_url_rule(path, view_func=handler, methods=[method])\n"
    ),
    "tiny/app.py": (
        "from flask import Flask\n"
        "from tiny.router import Table\n"
        "\n"
        "def ping(): ...\n"
        "table = Table()\n"
        "table.route('GET', '/ping', ping)\n"
        "table.route('POST', '/things', ping)\n"
        "app = Flask(__name__)\n"
        "table.mount_onto(app)\n"
    ),
}


def test_b_a_home_made_python_router_is_never_silent() -> None:
    """Its routes live in a list its `route` method fills: each call of `route` is a route,
    with its method, under the app `mount_onto` is given, at the user's line."""
    files = B_A_HOME_MADE_PYTHON_ROUTER_IS_NEVER_SILENT
    assert placed(files) == {"GET /ping": "tiny/app.py:6", "POST /things": "tiny/app.py:7"}
    assert document(files)["findings"] == []


# -- e. a factory's local `app` shadows the module-level one ------------------------------


E_A_FACTORY_LOCAL_APP_KEEPS_ITS_MOUNTS_AND_SUB_APPS_ARE_NOT_AT_THE_ROOT: dict[str, str] = {
    "svc/main.py": (
        "from fastapi import FastAPI, APIRouter\n"
        "from svc.items import router as items_router\n"
        "\n"
        "def create_app():\n"
        "    app = FastAPI()\n"
        "    app.include_router(items_router, prefix='/items')\n"
        "    admin = FastAPI()\n"
        "    @admin.get('/stats')\n"
        "    def stats(): ...\n"
        "    app.mount('/admin', admin)\n"
        "    return app\n"
        "\n"
        "app = create_app()\n"
    ),
    "svc/items.py": (
        "from fastapi import APIRouter\n"
        "router = APIRouter()\n"
        "@router.get('/{item_id}')\n"
        "def read(item_id: int): ...\n"
    ),
}


def test_e_a_factory_local_app_keeps_its_mounts_and_sub_apps_are_not_at_the_root() -> None:
    files = E_A_FACTORY_LOCAL_APP_KEEPS_ITS_MOUNTS_AND_SUB_APPS_ARE_NOT_AT_THE_ROOT
    assert set(placed(files)) == {"GET /items/{item_id}", "GET /admin/stats"}
    assert "UNRESOLVED_PREFIX" not in codes(files)


# -- 2. never silent ------------------------------------------------------------------------


A_FINDING_INSIDE_A_WRAPPER_IS_REPORTED_AT_EACH_CALL_SITE: dict[str, str] = {
    "w/reg.py": (
        "import os\n"
        "def add(app, rule, view):\n"
        "    app.add_url_rule(os.environ['BASE'] + rule, view_func=view)\n"
    ),
    "w/app.py": (
        "from flask import Flask\n"
        "from w.reg import add\n"
        "app = Flask(__name__)\n"
        "def v(): ...\n"
        "add(app, '/a', v)\n"
        "add(app, '/b', v)\n"
    ),
}


def test_a_finding_inside_a_wrapper_is_reported_at_each_call_site() -> None:
    files = A_FINDING_INSIDE_A_WRAPPER_IS_REPORTED_AT_EACH_CALL_SITE
    assert placed(files) == {}
    places = codes(files)["UNRESOLVED_ROUTE"]
    assert {"w/reg.py:3", "w/app.py:5", "w/app.py:6"} <= set(places)


A_COMPUTED_MEMBER_REGISTRATION_IN_JAVASCRIPT_IS_A_ROUTE_OR_A_FINDING: dict[str, str] = {
    "srv/app.js": (
        "const express = require('express');\n"
        "const app = express();\n"
        "const verbs = ['get', 'post'];\n"
        "verbs.forEach((verb) => { app[verb]('/echo', (req, res) => res.end()); });\n"
        "function handle(method) { app[method]('/dyn', (req, res) => res.end()); }\n"
        "handle(process.env.VERB);\n"
    ),
}


def test_a_computed_member_registration_in_javascript_is_a_route_or_a_finding() -> None:
    files = A_COMPUTED_MEMBER_REGISTRATION_IN_JAVASCRIPT_IS_A_ROUTE_OR_A_FINDING
    assert placed(files) == {"GET /echo": "srv/app.js:4", "POST /echo": "srv/app.js:4"}
    assert "srv/app.js:5" in codes(files)["UNRESOLVED_ROUTE"]


AN_UNCOVERED_FRAMEWORK_IS_NAMED: dict[str, str] = {
    "web/api.js": "const restify = require('restify');\nrestify.createServer().listen(3000);\n",
    "web/server.js": (
        "const Koa = require('koa');\nconst app = new Koa();\napp.use(async (ctx) => {});\n"
    ),
}


def test_an_uncovered_framework_is_named() -> None:
    files = AN_UNCOVERED_FRAMEWORK_IS_NAMED
    found = document(files)
    assert found["resources"] == []
    details = " ".join(f["detail"] for f in found["findings"] if f["code"] == "UNREAD_FRAMEWORK")
    assert "Restify" in details and "Koa" in details


A_KNOWN_FRAMEWORK_WITH_NOTHING_READ_IS_NOT_AN_EMPTY_DOCUMENT: dict[str, str] = {
    "odd/app.py": (
        "from flask import Flask\n"
        "app = Flask(__name__)\n"
        "handlers = {}\n"
        "def register(name, fn):\n"
        "    handlers[name] = fn\n"
        "for name, fn in handlers.items():\n"
        "    app.add_url_rule(name, view_func=fn)\n"
    ),
}


def test_a_known_framework_with_nothing_read_is_not_an_empty_document() -> None:
    files = A_KNOWN_FRAMEWORK_WITH_NOTHING_READ_IS_NOT_AN_EMPTY_DOCUMENT
    found = document(files)
    assert found["resources"] == []
    assert found["findings"], "a Flask app with no route read must say so"


# -- d. a plugin hook ------------------------------------------------------------------------


D_ROUTES_REGISTERED_IN_AN_EXPORTED_PLUGIN_HOOK: dict[str, str] = {
    "plugin/index.js": (
        "exports.createServer = (hookName, { app }) => {\n"
        "  app.get('/plugin/status', (req, res) => res.json({}));\n"
        "};\n"
        "exports.other = function (hook, ctx) {\n"
        "  ctx.app.post('/plugin/save', (req, res) => res.end());\n"
        "};\n"
    ),
}


def test_d_routes_registered_in_an_exported_plugin_hook() -> None:
    """The loader calls each hook with its application: the routes are at the root, their
    auth `unknown` (the host's middleware is not visible)."""
    files = D_ROUTES_REGISTERED_IN_AN_EXPORTED_PLUGIN_HOOK
    assert placed(files) == {
        "GET /plugin/status": "plugin/index.js:2",
        "POST /plugin/save": "plugin/index.js:5",
    }
    doc = route_document([(p, extract(p, t)) for p, t in sorted(files.items())])
    assert {s["value"] for s in doc.signals} == {"unknown"}


# -- 7. exactness --------------------------------------------------------------------------


FLASK_CONVERTERS_TELL_ROUTES_APART_FOR_DUPLICATES: dict[str, str] = {
    "c/app.py": (
        "from flask import Flask\n"
        "app = Flask(__name__)\n"
        "@app.route('/u/<int:id>')\n"
        "def by_id(id): ...\n"
        "@app.route('/u/<string:name>')\n"
        "def by_name(name): ...\n"
        "@app.route('/v/<name>')\n"
        "def v1(name): ...\n"
        "@app.route('/v/<string:other>')\n"
        "def v2(other): ...\n"
    ),
}


def test_flask_converters_tell_routes_apart_for_duplicates() -> None:
    files = FLASK_CONVERTERS_TELL_ROUTES_APART_FOR_DUPLICATES
    duplicates = [f for f in document(files)["findings"] if f["code"] == "DUPLICATE_ROUTE"]
    assert [sorted(p["line"] for p in f["locations"]) for f in duplicates] == [[7, 9]]


EXPRESS_STAR_IS_NAMED_AS_A_ROOTED_WILDCARD: dict[str, str] = {
    "s/app.js": (
        "const express = require('express');\n"
        "const app = express();\n"
        "const api = express.Router();\n"
        "api.get('*', (req, res) => res.end());\n"
        "app.use('/api', api);\n"
        "app.get('*', (req, res) => res.end());\n"
    ),
}


def test_express_star_is_named_as_a_rooted_wildcard() -> None:
    files = EXPRESS_STAR_IS_NAMED_AS_A_ROOTED_WILDCARD
    assert set(placed(files)) == {"GET /*", "GET /api/*"}


A_EXPRESS_ROUTER_WRAPPERS: dict[str, str] = {
    "lib/kit.js": (
        "const express = require('express');\n"
        "class ApiRouter {\n"
        "  constructor() { this.router = express.Router(); }\n"
        "  add(verb, path, handler) { this.router[verb](path, handler); }\n"
        "  get(path, handler) { this.add('get', path, handler); }\n"
        "}\n"
        "function register(router, path, handler) { router.post(path, handler); }\n"
        "module.exports = { ApiRouter, register };\n"
    ),
    "app.js": (
        "const express = require('express');\n"
        "const { ApiRouter, register } = require('./lib/kit');\n"
        "const app = express();\n"
        "const users = new ApiRouter();\n"
        "const list = (req, res) => res.end();\n"
        "users.get('/users', list);\n"
        "users.add('delete', '/users/:id', list);\n"
        "register(app, '/login', list);\n"
        "app.use('/api', users.router);\n"
    ),
}


def test_a_express_router_wrappers_give_each_call_site() -> None:
    assert placed(A_EXPRESS_ROUTER_WRAPPERS) == {
        "GET /api/users": "app.js:6",
        "DELETE /api/users/{id}": "app.js:7",
        "POST /login": "app.js:8",
    }


B_A_HOME_MADE_EXPRESS_ROUTER: dict[str, str] = {
    "lib/table.js": (
        "class Table {\n"
        "  constructor() { this.entries = []; }\n"
        "  route(method, path, handler) { this.entries.push({ method, path, handler }); }\n"
        "  mountOnto(app) {\n"
        "    for (const r of this.entries) { app[r.method](r.path, r.handler); }\n"
        "  }\n"
        "}\n"
        "module.exports = Table;\n"
    ),
    "server.js": (
        "const express = require('express');\n"
        "const Table = require('./lib/table');\n"
        "const app = express();\n"
        "const table = new Table();\n"
        "table.route('get', '/health', (req, res) => res.end());\n"
        "table.route('post', '/items', (req, res) => res.end());\n"
        "table.mountOnto(app);\n"
    ),
}


def test_b_a_home_made_express_router_is_followed() -> None:
    """`route()` pushes objects that `mountOnto(app)` registers with a computed method, in a
    `for...of` or a destructuring `forEach`: each `route()` call is a route at its line."""
    files = B_A_HOME_MADE_EXPRESS_ROUTER
    assert placed(files) == {"GET /health": "server.js:5", "POST /items": "server.js:6"}
    assert codes(files) == {}
    loop = "for (const r of this.entries) { app[r.method](r.path, r.handler); }"
    each = "this.entries.forEach(({ method, path, handler }) => app[method](path, handler));"
    destructured = {**files, "lib/table.js": files["lib/table.js"].replace(loop, each)}
    assert placed(destructured) == placed(files)


D_A_PLUGGY_HOOK_REGISTERING_BLUEPRINTS: dict[str, str] = {
    "shop/hooks.py": (
        "import pluggy\n"
        "hookimpl = pluggy.HookimplMarker('shop')\n"
        "manager = pluggy.PluginManager('shop')\n"
    ),
    "shop/plugins/catalog.py": (
        "from flask import Blueprint\n"
        "from shop.hooks import hookimpl\n"
        "catalog = Blueprint('catalog', __name__)\n"
        "@catalog.route('/items')\n"
        "def items(): ...\n"
        "@hookimpl\n"
        "def shop_load_blueprints(app):\n"
        "    app.register_blueprint(catalog, url_prefix='/catalog')\n"
    ),
    "shop/app.py": (
        "from flask import Flask\n"
        "from shop.hooks import manager\n"
        "def create_app():\n"
        "    app = Flask(__name__)\n"
        "    manager.hook.shop_load_blueprints(app=app)\n"
        "    return app\n"
    ),
}


def test_d_a_pluggy_hook_registering_blueprints_is_called_with_the_app() -> None:
    assert placed(D_A_PLUGGY_HOOK_REGISTERING_BLUEPRINTS) == {
        "GET /catalog/items": "shop/plugins/catalog.py:4"
    }
    assert document(D_A_PLUGGY_HOOK_REGISTERING_BLUEPRINTS)["findings"] == []


def test_d_a_pluggy_hook_reached_through_a_function_of_the_factory() -> None:
    """The hook call passes on a parameter (`configure(app)` → `pm.hook.x(app=app)`) to
    each of two implementations, each mounting a blueprint of its own."""
    files = {
        **D_A_PLUGGY_HOOK_REGISTERING_BLUEPRINTS,
        "shop/plugins/catalog.py": (
            "from flask import Blueprint\n"
            "def shop_load_blueprints(app):\n"
            "    catalog = Blueprint('catalog', __name__)\n"
            "    catalog.add_url_rule('/items', view_func=print)\n"
            "    app.register_blueprint(catalog, url_prefix='/catalog')\n"
        ),
        "shop/plugins/zeta.py": (
            "from flask import Blueprint\n"
            "\n"
            "def shop_load_blueprints(app):\n"
            "    zeta = Blueprint('zeta', __name__)\n"
            "    zeta.add_url_rule('/z', view_func=print)\n"
            "    app.register_blueprint(zeta, url_prefix='/zeta')\n"
        ),
        "shop/app.py": (
            "from flask import Flask\n"
            "from shop.hooks import manager\n"
            "def create_app():\n"
            "    app = Flask(__name__)\n"
            "    configure(app)\n"
            "    return app\n"
            "def configure(app):\n"
            "    manager.hook.shop_load_blueprints(app=app)\n"
        ),
    }
    assert placed(files) == {
        "GET /catalog/items": "shop/plugins/catalog.py:4",
        "GET /zeta/z": "shop/plugins/zeta.py:5",
    }
    assert document(files)["findings"] == []


UNKNOWN_PREFIXES_DO_NOT_COLLIDE: dict[str, str] = {
    "two/views.py": (
        "import os\n"
        "from flask import Blueprint\n"
        "first = Blueprint('first', __name__)\n"
        "second = Blueprint('second', __name__)\n"
        "@first.route('/')\n"
        "def a(): ...\n"
        "@second.route('/')\n"
        "def b(): ...\n"
        "@second.route('/')\n"
        "def c(): ...\n"
    ),
}


def test_routes_missing_different_unknown_prefixes_are_no_duplicate() -> None:
    """`first` and `second` are mounted by nothing the files show: their `/` routes are not
    known to collide; two on `second` are."""
    duplicates = [
        sorted(p["line"] for p in f["locations"])
        for f in document(UNKNOWN_PREFIXES_DO_NOT_COLLIDE)["findings"]
        if f["code"] == "DUPLICATE_ROUTE"
    ]
    assert duplicates == [[7, 9]]


PARAMETER_NOTHING_PASSES: dict[str, str] = {
    "routes/mod.js": (
        "module.exports = function (app) {\n"
        "  app.get('/x', (req, res) => res.end());\n"
        "};\n"
        "exports.load = async (api) => api.get('/users', { params: {} });\n"
    ),
    "views.py": 'def register(app):\n    @app.get("/y")\n    def y(): ...\n',
}


def test_routes_on_a_parameter_nothing_passes_are_listed_with_their_prefix_unknown() -> None:
    """Not silent: the routes are listed without the prefix, an `UNRESOLVED_PREFIX` at the
    function; an HTTP client's `api.get('/users', {...})` is no route."""
    files = PARAMETER_NOTHING_PASSES
    assert placed(files) == {"GET /x": "routes/mod.js:2", "GET /y": "views.py:2"}
    assert sorted(codes(files)["UNRESOLVED_PREFIX"]) == [
        "routes/mod.js:1",
        "routes/mod.js:2",
        "views.py:1",
        "views.py:2",
    ]


A_FASTAPI_ROUTER_SUBCLASS_METHOD: dict[str, str] = {
    "api/routing.py": (
        "from fastapi import APIRouter\n"
        "\n"
        "class VersionedRouter(APIRouter):\n"
        "    def versioned(self, path, endpoint, *, verbs=('GET',)):\n"
        "        self.add_api_route(f'/v1{path}', endpoint, methods=list(verbs))\n"
    ),
    "api/main.py": (
        "from fastapi import FastAPI\n"
        "from api.routing import VersionedRouter\n"
        "\n"
        "def list_items(): ...\n"
        "items = VersionedRouter(prefix='/items')\n"
        "items.versioned('/', list_items)\n"
        "items.versioned('/{item_id}', list_items, verbs=('PUT', 'DELETE'))\n"
        "app = FastAPI()\n"
        "app.include_router(items)\n"
    ),
}


def test_a_fastapi_router_subclass_method_with_keyword_only_verbs() -> None:
    assert placed(A_FASTAPI_ROUTER_SUBCLASS_METHOD) == {
        "GET /items/v1/": "api/main.py:6",
        "PUT /items/v1/{item_id}": "api/main.py:7",
        "DELETE /items/v1/{item_id}": "api/main.py:7",
    }
    assert codes(A_FASTAPI_ROUTER_SUBCLASS_METHOD) == {}


C_SETTINGS_CHOSEN_THROUGH_LOCALS_OF_A_FACTORY: dict[str, str] = {
    "conf/settings.py": (
        "from functools import lru_cache\n"
        "from pydantic_settings import BaseSettings\n"
        "\n"
        "class Base(BaseSettings):\n"
        "    mode: str = 'dev'\n"
        "\n"
        "class Common(Base):\n"
        "    api_root: str = '/gateway'\n"
        "\n"
        "class Dev(Common):\n"
        "    verbose: bool = True\n"
        "\n"
        "class Prod(Common):\n"
        "    verbose: bool = False\n"
        "\n"
        "MODES: dict[str, type[Common]] = {'dev': Dev, 'prod': Prod}\n"
        "\n"
        "@lru_cache\n"
        "def current() -> Common:\n"
        "    mode = Base().mode\n"
        "    chosen = MODES[mode]\n"
        "    return chosen()\n"
    ),
    "web/main.py": (
        "from fastapi import APIRouter, FastAPI\n"
        "from conf.settings import current\n"
        "\n"
        "router = APIRouter()\n"
        "@router.get('/status')\n"
        "def status(): ...\n"
        "\n"
        "def build() -> FastAPI:\n"
        "    conf = current()\n"
        "    application = FastAPI()\n"
        "    application.include_router(router, prefix=conf.api_root)\n"
        "    return application\n"
        "\n"
        "app = build()\n"
    ),
}


def test_c_a_settings_default_reached_through_a_factory_s_locals() -> None:
    """`chosen = MODES[mode]; return chosen()` over an annotated dict of settings classes,
    read back through `conf = current()` in the app factory: every option agrees."""
    files = C_SETTINGS_CHOSEN_THROUGH_LOCALS_OF_A_FACTORY
    assert placed(files) == {"GET /gateway/status": "web/main.py:5"}
    assert codes(files) == {}


FIXTURES = [
    C_SETTINGS_CHOSEN_THROUGH_LOCALS_OF_A_FACTORY,
    A_FASTAPI_ROUTER_SUBCLASS_METHOD,
    PARAMETER_NOTHING_PASSES,
    D_A_PLUGGY_HOOK_REGISTERING_BLUEPRINTS,
    UNKNOWN_PREFIXES_DO_NOT_COLLIDE,
    B_A_HOME_MADE_EXPRESS_ROUTER,
    A_EXPRESS_ROUTER_WRAPPERS,
    A_FLASK_SUBCLASS_METHOD_WRAPPING_ADD_URL_RULE_GIVES_EACH_CALL_SITE,
    A_FLASK_RESTFUL_API_SUBCLASS_WRAPPING_ADD_RESOURCE,
    A_WRAPPER_CALLED_MANY_TIMES_FROM_ANOTHER_WRAPPER_KEEPS_EACH_USER_LINE,
    C_BLUEPRINT_LIST_REGISTERED_BY_A_HELPER_WITH_A_VERSIONED_PREFIX,
    C_A_PATH_HELPER_THAT_RETURNS_ITS_ARGUMENT_AND_A_FORMAT_LOOP,
    B_A_HOME_MADE_PYTHON_ROUTER_IS_NEVER_SILENT,
    E_A_FACTORY_LOCAL_APP_KEEPS_ITS_MOUNTS_AND_SUB_APPS_ARE_NOT_AT_THE_ROOT,
    A_FINDING_INSIDE_A_WRAPPER_IS_REPORTED_AT_EACH_CALL_SITE,
    A_COMPUTED_MEMBER_REGISTRATION_IN_JAVASCRIPT_IS_A_ROUTE_OR_A_FINDING,
    AN_UNCOVERED_FRAMEWORK_IS_NAMED,
    A_KNOWN_FRAMEWORK_WITH_NOTHING_READ_IS_NOT_AN_EMPTY_DOCUMENT,
    D_ROUTES_REGISTERED_IN_AN_EXPORTED_PLUGIN_HOOK,
    FLASK_CONVERTERS_TELL_ROUTES_APART_FOR_DUPLICATES,
    EXPRESS_STAR_IS_NAMED_AS_A_ROOTED_WILDCARD,
]


def test_the_prefilter_parses_every_file_these_constructs_need(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each fixture above, as a repository: parsing only what the pre-filter admits and what
    the linker asks for gives the document of parsing every file (a wrapper's call sites are
    in files with no route word)."""
    from pack_http_routes import make_scanner

    for number, files in enumerate(FIXTURES):
        root = tmp_path / str(number)
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, "utf-8")
        monkeypatch.chdir(root)
        documents = []
        for parse_all in (True, False):
            scanner = make_scanner(parse_all=parse_all)
            scanner.workers = 1
            documents.append(canonical_json(scanner.discover(["."])))
        assert documents[0] == documents[1], files
        assert b'"findings":[],"resources":[]' not in documents[0], files


@pytest.mark.parametrize(
    ("source", "named"),
    [
        ("from aiohttp import web\napp = web.Application()\n", "aiohttp"),
        ("import tornado.web\n", "Tornado"),
        ("import falcon\napp = falcon.App()\n", "Falcon"),
        ("from aiohttp import ClientSession\n", None),  # a client, not a server
        ("import tornado.ioloop\n", None),
        ("from fastmcp import FastMCP\nmcp = FastMCP('x')\nmcp.run(transport='http')\n", "FastMCP"),
        ("from mcp.server.fastmcp import FastMCP\n", "FastMCP"),
        ("from fastmcp.server.dependencies import get_http_headers\n", None),  # a helper
        ("from fastmcp import Client\n", None),  # its client (DocsGPT's mcp_tool.py)
        ("from fastmcp import (\n    Context,\n    FastMCP,\n)\n", "FastMCP"),
        ("import fastmcp\nmcp = fastmcp.FastMCP('x')\n", "FastMCP"),
    ],
)
def test_a_python_server_framework_it_does_not_read_is_named_a_client_is_not(
    source: str, named: str | None
) -> None:
    found = document({"svc/main.py": source})
    details = [f["detail"] for f in found["findings"] if f["code"] == "UNREAD_FRAMEWORK"]
    if named is None:
        assert details == []
    else:
        assert len(details) == 1 and named in details[0], details


CONTROLLER_DECORATOR_LIBRARIES: dict[str, str] = {
    "api/src/app.ts": (
        "import Fastify from 'fastify';\nimport { bootstrap } from 'fastify-decorators';\n"
        "const app = Fastify();\napp.register(bootstrap, { directory: __dirname });\n"
    ),
    "api/src/controllers/orders.ts": (
        "import { Controller, GET } from 'fastify-decorators';\n"
        "@Controller({ route: '/orders' })\nexport default class Orders {\n"
        "  @GET({ url: '/' })\n  async list() { return []; }\n}\n"
    ),
    "web/users.ts": (
        "import { JsonController, Get } from 'routing-controllers';\n"
        "@JsonController('/users')\nexport class Users {\n  @Get('/')\n  all() { return []; }\n}\n"
    ),
    "svc/health.ts": (
        "import { Controller, Get } from '@tsed/common';\n"
        "@Controller('/health')\nexport class Health {\n  @Get('/')\n  ok() { return 1; }\n}\n"
    ),
}


def test_controller_decorator_libraries_no_bootstrap_serves_are_named_at_the_controllers() -> None:
    """These libraries are read (`test_pack_http_routes_decorators`): a controller no bootstrap
    the scan shows serves (no bootstrap at all; a file the bootstrap's mask, the library's
    `*.controller.*`/`*.handler.*`, does not match) is listed with a finding at its class, so
    none of its routes is missed in silence."""
    found = document(CONTROLLER_DECORATOR_LIBRARIES)
    assert {str(r["name"]) for r in found["resources"]} == {
        "GET /orders", "GET /users", "GET /health",
    }  # fmt: skip
    assert all(r["attrs"].get("prefixUnresolved") for r in found["resources"])
    flagged = {
        f"{where['path']}:{where['line']}"
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_PREFIX"
        for where in f["locations"]
    }
    assert {"api/src/controllers/orders.ts:2", "web/users.ts:2", "svc/health.ts:2"} <= flagged


# -- a function that only an unmounted function calls, passing its own parameter -------------

A_ROUTE_FUNCTION_CALLED_ONLY_BY_AN_UNMOUNTED_ONE: dict[str, str] = {
    "server.js": (
        "const express = require('express');\n"
        "const path = require('path');\n"
        "const settings = require('./settings');\n"
        "const web = express();\n"
        "settings.routeFiles.forEach((file) => require(path.resolve(file))(web));\n"
        "web.listen(8080);\n"
    ),
    "settings.js": "module.exports = { routeFiles: require('./find')(['parts/*.js']) };\n",
    "find.js": "module.exports = (patterns) => patterns;\n",
    "parts/admin.js": (
        "const inner = require('./members/inner.js');\n"
        "module.exports = function (app) {\n"
        "  inner(app);\n"
        "  app.get('/admin/panel', (q, s) => s.end());\n"
        "};\n"
    ),
    "parts/members/inner.js": (
        "module.exports = function (router) {\n"
        "  require('./deeper')(router);\n"
        "  router.route('/members/me').get((q, s) => s.end()).put((q, s) => s.end());\n"
        "};\n"
    ),
    "parts/members/deeper.js": (
        "module.exports = (srv) => {\n  srv.delete('/members/tokens', (q, s) => s.end());\n};\n"
    ),
}


def test_a_route_function_called_only_by_an_unmounted_one_is_listed_with_its_callers_prefix_unknown() -> (
    None
):
    """`require('./x.js')(app)` inside a route file that nothing the scanned files show mounts
    (a loader over computed paths): the called function's routes are its caller's, served under
    the same unknown prefix (a finding), never dropped."""
    files = A_ROUTE_FUNCTION_CALLED_ONLY_BY_AN_UNMOUNTED_ONE
    assert placed(files) == {
        "GET /admin/panel": "parts/admin.js:4",
        "GET /members/me": "parts/members/inner.js:3",
        "PUT /members/me": "parts/members/inner.js:3",
        "DELETE /members/tokens": "parts/members/deeper.js:2",
    }
    prefixes = codes(files)["UNRESOLVED_PREFIX"]
    assert {"parts/members/inner.js:3", "parts/members/deeper.js:2"} <= set(prefixes)
