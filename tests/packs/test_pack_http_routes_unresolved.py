"""`pack-http-routes` is never silent: each construct it recognises but cannot resolve gives a
finding at its place, and the `auth` signal is judged from evidence, in three values.

tests/fixtures/unresolved/routes/ holds one small file per construct not resolved; its first
line says what it must produce: `expect: CODE LINE [ROUTE_LINE...]` (the finding's own line,
then the lines of the routes it concerns, which for `UNRESOLVED_PREFIX` must also carry
`attrs.prefixUnresolved`). A construct that goes silent fails its case.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes import extract, route_document
from packs.scan import JSONObject

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "unresolved" / "routes"
_EXPECT = re.compile(r"expect: (UNRESOLVED_[A-Z]+) (\d+)((?: \d+)*)")


def document(files: dict[str, str]) -> JSONObject:
    linked = route_document(
        [(path, extract(path, source)) for path, source in sorted(files.items())]
    )
    return {"resources": linked.resources, "findings": linked.findings, "signals": linked.signals}


def auth(files: dict[str, str]) -> dict[str, str]:
    """Route name -> auth signal value."""
    return {s["resource"].removeprefix("route:"): s["value"] for s in document(files)["signals"]}


CASES = sorted(p.name for p in CORPUS.iterdir())


@pytest.mark.parametrize("name", CASES)
def test_each_unresolved_construct_gives_its_finding_at_its_place(name: str) -> None:
    source = (CORPUS / name).read_text("utf-8")
    match = _EXPECT.search(source.splitlines()[0])
    assert match is not None, "the case's first line says what it expects"
    code, line = match.group(1), int(match.group(2))
    route_lines = [int(n) for n in match.group(3).split()]
    doc = document({name: source})
    [finding] = [f for f in doc["findings"] if f["code"] == code]
    assert {loc["path"] for loc in finding["locations"]} == {name}
    assert [loc["line"] for loc in finding["locations"]] == sorted({line, *route_lines})
    assert finding["detail"]
    for resource in doc["resources"]:
        at_route = resource["location"]["line"] in route_lines
        assert resource["attrs"].get("prefixUnresolved", False) is (
            at_route and code == "UNRESOLVED_PREFIX"
        )
    if code != "UNRESOLVED_PREFIX":  # an unlisted route or router: nothing named in its place
        assert all(r["location"]["line"] != line for r in doc["resources"])


def test_the_corpus_covers_every_code_in_both_languages() -> None:
    seen = set()
    for name in CASES:
        first = (CORPUS / name).read_text("utf-8").splitlines()[0]
        match = _EXPECT.search(first)
        assert match is not None, name
        seen.add((match.group(1), name.endswith(".py")))
    codes = {"UNRESOLVED_PREFIX", "UNRESOLVED_ROUTE", "UNRESOLVED_ROUTER"}
    assert seen == {(code, python) for code in codes for python in (True, False)}


def test_resolved_routes_give_no_unresolved_finding() -> None:
    doc = document(
        {
            "main.py": (
                "from fastapi import FastAPI, APIRouter\napp = FastAPI()\n"
                "r = APIRouter(prefix='/r')\n@r.get('/x')\ndef x(): ...\n"
                "app.include_router(r, prefix='/api')\n"
            )
        }
    )
    assert doc["findings"] == [] and [r["name"] for r in doc["resources"]] == ["GET /api/r/x"]


def test_one_prefix_finding_lists_every_route_under_it_once() -> None:
    doc = document(
        {
            "main.py": (
                "import os\nfrom fastapi import FastAPI, APIRouter\napp = FastAPI()\n"
                "r = APIRouter()\n@r.get('/a')\ndef a(): ...\n@r.post('/b')\ndef b(): ...\n"
                "app.include_router(r, prefix=os.environ['P'])\n"
            )
        }
    )
    [finding] = doc["findings"]
    assert finding["code"] == "UNRESOLVED_PREFIX"
    assert [loc["line"] for loc in finding["locations"]] == [5, 7, 9]
    assert "os.environ" in finding["detail"] or "computed" in finding["detail"]


# -- auth from evidence ------------------------------------------------------------------

EXPRESS = "const express = require('express');\nconst app = express();\n"


def test_express_a_name_alone_never_makes_required() -> None:
    found = auth(
        {
            "app.js": EXPRESS
            + "const rateLimit = require('express-rate-limit');\n"
            + "const loginLimiter = rateLimit({ windowMs: 60000, max: 5 });\n"
            + "app.post('/api/auth/login', loginLimiter, (req, res) => res.end());\n"
            + "app.get('/login', (req, res) => res.end());\n"
        }
    )
    assert found == {"POST /api/auth/login": "none", "GET /login": "none"}


def test_express_library_guards_wrapped_guards_and_401_middleware() -> None:
    found = auth(
        {
            "auth.js": (
                "const passport = require('passport');\n"
                "const { expressjwt } = require('express-jwt');\n"
                "module.exports = {\n"
                "  jwt: passport.authenticate('jwt', { session: false }),\n"
                "  token: expressjwt({ secret: 's', algorithms: ['HS256'] }),\n"
                "  admin: (req, res, next) => (req.user.admin ? next() : res.sendStatus(403)),\n"
                "  log: (req, res, next) => next(),\n"
                "};\n"
            ),
            "app.js": EXPRESS
            + "const asyncHandler = require('express-async-handler');\n"
            + "const auth = require('./auth');\nconst mystery = require('mystery-middleware');\n"
            + "app.get('/a', asyncHandler(auth.jwt), (req, res) => res.end());\n"
            + "app.get('/b', auth.token, (req, res) => res.end());\n"
            + "app.get('/c', auth.admin, (req, res) => res.end());\n"
            + "app.get('/d', auth.log, (req, res) => res.end());\n"
            + "app.get('/e', mystery(), (req, res) => res.end());\n"
            + "app.get('/f', (req, res) => res.end());\n",
        }
    )
    assert found == {
        "GET /a": "required",
        "GET /b": "required",
        "GET /c": "required",
        "GET /d": "none",
        "GET /e": "unknown",
        "GET /f": "none",
    }


def test_flask_decorators_are_followed_to_their_definition_or_import() -> None:
    found = auth(
        {
            "guards.py": (
                "from functools import wraps\nfrom flask import abort, g\n"
                "def admins_only(f):\n    @wraps(f)\n    def inner(*a, **k):\n"
                "        if not g.user.admin:\n            abort(403)\n"
                "        return f(*a, **k)\n    return inner\n"
                "def timed(f):\n    return f\n"
                "def auth_logged(f):\n    return f\n"
            ),
            "app.py": (
                "from flask import Flask\nfrom flask_login import login_required\n"
                "from flask_jwt_extended import jwt_required\n"
                "from guards import admins_only, timed, auth_logged\n"
                "from somewhere_unscanned import cached\n"
                "app = Flask(__name__)\n"
                "@app.route('/a')\n@login_required\ndef a(): ...\n"
                "@app.route('/b')\n@jwt_required()\ndef b(): ...\n"
                "@app.route('/c')\n@admins_only\ndef c(): ...\n"
                "@app.route('/d')\n@timed\ndef d(): ...\n"
                "@app.route('/e')\n@auth_logged\ndef e(): ...\n"
                "@app.route('/f')\n@cached\ndef f(): ...\n"
            ),
        }
    )
    assert found == {
        "GET /a": "required",
        "GET /b": "required",
        "GET /c": "required",
        "GET /d": "none",
        "GET /e": "none",
        "GET /f": "unknown",
    }


def test_fastapi_unknown_dependency_and_unmounted_router_are_unknown() -> None:
    found = auth(
        {
            "main.py": (
                "from fastapi import FastAPI, APIRouter, Depends\n"
                "from vendor_lib import check\napp = FastAPI()\n"
                "@app.get('/a', dependencies=[Depends(check)])\ndef a(): ...\n"
                "orphan = APIRouter()\n@orphan.get('/b')\ndef b(): ...\n"
            )
        }
    )
    assert found == {"GET /a": "unknown", "GET /b": "unknown"}


def test_flask_before_request_hooks_by_their_body() -> None:
    found = auth(
        {
            "app.py": (
                "from flask import Flask, abort, g, session\napp = Flask(__name__)\n"
                "admin = Flask('admin')\nstaff = Flask('staff')\n"
                "@app.before_request\ndef load():\n    session.get('x')\n"
                "@admin.before_request\ndef banned():\n    if session.get('banned'):\n"
                "        abort(403)\n"
                "@staff.before_request\ndef login_wall():\n    if g.user is None:\n"
                "        abort(401)\n"
                "@app.route('/p')\ndef p(): ...\n@admin.route('/q')\ndef q(): ...\n"
                "@staff.route('/r')\ndef r(): ...\n"
            )
        }
    )
    # a hook before every route answering 403 to some requests (banned users) lets anonymous
    # callers through: `unknown`; one turning away anonymous callers guards: `required`
    assert found == {"GET /p": "none", "GET /q": "unknown", "GET /r": "required"}


# -- patterns real code uses ------------------------------------------------------------


def test_flask_restx_namespaces_resources_api_prefix_and_blueprint() -> None:
    doc = document(
        {
            "api.py": (
                "from flask import Blueprint, Flask\n"
                "from flask_restx import Api, Namespace, Resource\n"
                "from flask_jwt_extended import jwt_required\n"
                "bp = Blueprint('api', __name__, url_prefix='/api')\n"
                "api = Api(bp, prefix='/v1')\n"
                "users = Namespace('users')\n"
                "items = Namespace('items', path='/things')\n"
                "@users.route('/<int:id>')\nclass User(Resource):\n"
                "    @users.doc('get a user')\n    def get(self, id): ...\n"
                "    @jwt_required()\n    def delete(self, id): ...\n"
                "@items.route('/')\nclass Items(Resource):\n"
                "    method_decorators = [jwt_required()]\n    def post(self): ...\n"
                "class Health(Resource):\n    def get(self): ...\n"
                "api.add_namespace(users)\napi.add_namespace(items, '/v2/items')\n"
                "api.add_resource(Health, '/health', '/ping')\n"
                "todos = api.namespace('todos')\n"
                "@todos.route('')\nclass Todos(Resource):\n    def get(self): ...\n"
                "app = Flask(__name__)\napp.register_blueprint(bp)\n"
            )
        }
    )
    found = {s["resource"].removeprefix("route:"): s["value"] for s in doc["signals"]}
    assert found == {
        "GET /api/v1/users/{id}": "none",
        "DELETE /api/v1/users/{id}": "required",
        "POST /api/v1/v2/items/": "required",
        "GET /api/v1/health": "none",
        "GET /api/v1/ping": "none",
        "GET /api/v1/todos": "none",
    }
    assert doc["findings"] == []


def test_flask_restful_api_on_the_app_with_init_app() -> None:
    found = auth(
        {
            "app.py": (
                "from flask import Flask\nfrom flask_restful import Api, Resource\n"
                "from flask_sqlalchemy import SQLAlchemy\n"
                "db = SQLAlchemy()\napi = Api(prefix='/api')\n"
                "class Todo(Resource):\n    def get(self, todo_id): ...\n"
                "    def put(self, todo_id): ...\n"
                "api.add_resource(Todo, '/todos/<todo_id>')\n"
                "app = Flask(__name__)\ndb.init_app(app)\napi.init_app(app)\n"
            )
        }
    )
    assert found == {"GET /api/todos/{todo_id}": "none", "PUT /api/todos/{todo_id}": "none"}


def test_python_routes_registered_in_loops_over_literals() -> None:
    doc = document(
        {
            "app.py": (
                "from flask import Flask\napp = Flask(__name__)\n"
                "PAGES = ('/about', '/terms')\n"
                "for rule in ['/a', '/b']:\n    app.add_url_rule(rule, view_func=show)\n"
                "for rule, view in {'/c': c_view, '/d': d_view}.items():\n"
                "    app.add_url_rule(rule, view_func=view, methods=['POST'])\n"
                "for page in PAGES:\n    app.add_url_rule(page, view_func=show)\n"
                "for nothing in []:\n    app.add_url_rule(nothing, view_func=show)\n"
                "for i, (path, verb) in enumerate([('/e', 'PUT')]):\n"
                "    app.add_url_rule(path, view_func=show, methods=[verb])\n"
            )
        }
    )
    names = [r["name"] for r in doc["resources"]]
    assert names == ["GET /a", "GET /b", "POST /c", "POST /d", "GET /about", "GET /terms"]
    # `enumerate(...)` is not a literal: its route is a finding, not a guess
    [finding] = doc["findings"]
    assert finding["code"] == "UNRESOLVED_ROUTE" and finding["locations"][0]["line"] == 13


def test_express_chained_mounts_literal_loops_and_an_app_on_this() -> None:
    doc = document(
        {
            "routes/users.js": (
                "const { Router } = require('express');\nconst r = Router();\n"
                "r.get('/', (req, res) => res.end());\nmodule.exports = r;\n"
            ),
            "routes/posts.ts": (
                "import { Router } from 'express';\n"
                "export default Router().get('/', (req, res) => res.end());\n"
            ),
            "routes/index.ts": (
                "import { Router } from 'express';\nimport users from './users';\n"
                "import posts from './posts';\n"
                "const api = Router();\n"
                "const routes = [{ path: '/users', route: users }, { path: '/posts', route: posts }];\n"
                "routes.forEach((r) => api.use(r.path, r.route));\n"
                "for (const { path, route } of [{ path: '/v2/users', route: users }]) {\n"
                "  api.use(path, route);\n}\n"
                "['/a', '/b'].forEach((p) => api.get(p, (req, res) => res.end()));\n"
                "export default Router().use('/api', api);\n"
            ),
            "server.js": (
                "const express = require('express');\nconst routes = require('./routes').default;\n"
                "class Server {\n  constructor() {\n    this.app = express();\n"
                "    this.app.use(routes);\n    this.app.get('/health', (q, s) => s.end());\n"
                "  }\n}\nmodule.exports = Server;\n"
            ),
        }
    )
    assert [r["name"] for r in doc["resources"]] == [
        "GET /api/a",
        "GET /api/b",
        "GET /api/posts",
        "GET /api/users",
        "GET /api/v2/users",
        "GET /health",
    ]
    assert doc["findings"] == []


def test_fastapi_router_subclasses_used_like_apirouter() -> None:
    doc = document(
        {
            "routing.py": (
                "from fastapi import APIRouter, Depends\nfrom fastapi.security import HTTPBearer\n"
                "bearer = HTTPBearer()\n"
                "class UserAPIRouter(APIRouter):\n    def __init__(self, **kwargs):\n"
                "        super().__init__(prefix='/users', dependencies=[Depends(bearer)], **kwargs)\n"
                "class AdminRouter(UserAPIRouter):\n    pass\n"
                "class PlainRouter(APIRouter):\n    pass\n"
                "class NotARouter:\n    pass\n"
            ),
            "main.py": (
                "from fastapi import FastAPI\n"
                "from routing import UserAPIRouter, AdminRouter, PlainRouter, NotARouter\n"
                "users = UserAPIRouter(tags=['users'])\nadmin = AdminRouter(prefix='/admin')\n"
                "plain = PlainRouter(prefix='/plain')\nother = NotARouter()\n"
                "@users.get('/me')\ndef me(): ...\n@admin.get('/x')\ndef x(): ...\n"
                "@plain.get('/p')\ndef p(): ...\n@other.get('/never')\ndef never(): ...\n"
                "app = FastAPI()\n"
                "app.include_router(users)\napp.include_router(admin)\napp.include_router(plain)\n"
            ),
        }
    )
    found = {s["resource"].removeprefix("route:"): s["value"] for s in doc["signals"]}
    assert found == {
        "GET /users/me": "required",
        "GET /admin/x": "required",
        "GET /plain/p": "none",
    }
    assert doc["findings"] == []


def test_a_settings_factory_choosing_a_class_agrees_or_is_unresolved() -> None:
    def app(prod_prefix: str) -> dict[str, str]:
        return {
            "config.py": (
                "import os\nfrom pydantic_settings import BaseSettings\n"
                "class Settings(BaseSettings):\n    API_PREFIX: str = '/api'\n"
                "class DevSettings(Settings):\n    DEBUG: bool = True\n"
                f"class ProdSettings(Settings):\n    API_PREFIX: str = {prod_prefix!r}\n"
                "environments = {'dev': DevSettings, 'prod': ProdSettings}\n"
                "def get_settings():\n    return environments[os.environ['ENV']]()\n"
            ),
            "main.py": (
                "from fastapi import FastAPI, APIRouter\nfrom config import get_settings\n"
                "app = FastAPI()\nr = APIRouter()\n@r.get('/ping')\ndef ping(): ...\n"
                "app.include_router(r, prefix=get_settings().API_PREFIX)\n"
            ),
        }

    agreed = document(app("/api"))
    assert [r["name"] for r in agreed["resources"]] == ["GET /api/ping"]
    assert agreed["findings"] == []
    differ = document(app("/v2"))
    [resource] = differ["resources"]
    assert resource["name"] == "GET /ping" and resource["attrs"]["prefixUnresolved"] is True
    [finding] = differ["findings"]
    assert finding["code"] == "UNRESOLVED_PREFIX"
    assert finding["locations"] == [{"path": "main.py", "line": 5}, {"path": "main.py", "line": 7}]


def test_add_url_rule_through_a_helper_taking_a_list_of_rules() -> None:
    doc = document(
        {
            "views.py": (
                "def register_view(bp, routes, view_func, methods=None):\n"
                "    for rule in routes:\n"
                "        bp.add_url_rule(rule, view_func=view_func, methods=['GET'])\n"
                "def register_one(bp, rule, view_func):\n"
                "    bp.add_url_rule(rule, view_func=view_func)\n"
            ),
            "app.py": (
                "import os\nfrom flask import Flask, Blueprint\n"
                "from views import register_view, register_one\n"
                "home = Blueprint('home', __name__, url_prefix='/home')\n"
                "docs = Blueprint('docs', __name__, url_prefix='/docs')\n"
                "register_view(home, routes=['/a', '/b'], view_func=show)\n"
                "register_view(docs, ['/c'], show)\n"
                "register_one(docs, '/d', show)\n"
                "register_one(home, os.environ['X'], show)\n"
                "app = Flask(__name__)\n"
                "app.register_blueprint(home)\napp.register_blueprint(docs)\n"
            ),
        }
    )
    names = sorted(r["name"] for r in doc["resources"])
    assert names == ["GET /docs/c", "GET /docs/d", "GET /home/a", "GET /home/b"]
    [finding] = doc["findings"]  # the path os.environ gives is not known
    assert finding["code"] == "UNRESOLVED_ROUTE"  # at the helper and at the call that reaches it
    assert finding["locations"] == [{"path": "app.py", "line": 9}, {"path": "views.py", "line": 5}]


def test_a_guard_made_optional_where_it_is_written_is_no_guard() -> None:
    found = auth(
        {
            "auth.ts": (
                "import { expressjwt as jwt } from 'express-jwt';\n"
                "const auth = {\n  required: jwt({ secret: 's', algorithms: ['HS256'] }),\n"
                "  optional: jwt({ secret: 's', credentialsRequired: false }),\n};\n"
                "export default auth;\n"
            ),
            "app.ts": (
                "import express from 'express';\nimport auth from './auth';\n"
                "const app = express();\n"
                "app.get('/a', auth.required, (req, res) => res.end());\n"
                "app.get('/b', auth.optional, (req, res) => res.end());\n"
            ),
            "api.py": (
                "from fastapi import FastAPI, Depends\nfrom fastapi.security import HTTPBearer\n"
                "from flask_jwt_extended import jwt_required\n"
                "maybe = HTTPBearer(auto_error=False)\nsure = HTTPBearer()\napi = FastAPI()\n"
                "@api.get('/c', dependencies=[Depends(maybe)])\ndef c(): ...\n"
                "@api.get('/d', dependencies=[Depends(sure)])\ndef d(): ...\n"
            ),
            "web.py": (
                "from flask import Flask\nfrom flask_jwt_extended import jwt_required\n"
                "web = Flask(__name__)\n"
                "@web.route('/e')\n@jwt_required(optional=True)\ndef e(): ...\n"
                "@web.route('/f')\n@jwt_required()\ndef f(): ...\n"
            ),
        }
    )
    assert found == {
        "GET /a": "required",
        "GET /b": "none",
        "GET /c": "none",
        "GET /d": "required",
        "GET /e": "none",
        "GET /f": "required",
    }


def test_an_annotation_from_an_unseen_module_of_the_repository_is_unknown() -> None:
    """`app/api/deps.py` is part of the repository (its package is scanned) but not among the
    files: its `CurrentUser` may be a dependency alias. A library's class (`uuid.UUID`) and a
    builtin (`int`) are not."""
    found = auth(
        {
            "app/__init__.py": "",
            "app/api/routes.py": (
                "import uuid\nfrom fastapi import FastAPI\nfrom app.api.deps import CurrentUser\n"
                "app = FastAPI()\n"
                "@app.get('/a')\ndef a(user: CurrentUser): ...\n"
                "@app.get('/b')\ndef b(x: int, y: uuid.UUID): ...\n"
            ),
        }
    )
    assert found == {"GET /a": "unknown", "GET /b": "none"}


def test_express_an_app_reached_through_a_property() -> None:
    doc = document(
        {
            "server.js": "const express = require('express');\nmodule.exports.app = express();\n",
            "routes.js": (
                "const server = require('./server');\nconst app = server.app;\n"
                "app.get('/x', (q, s) => s.end());\n"
            ),
            "cls.ts": (
                "import express from 'express';\n"
                "export class S {\n  app: any;\n  constructor() {\n    this.app = express();\n"
                "    this.app.get('/z', (q, s) => s.end());\n  }\n}\n"
                "const s = new S();\nconst app2 = s.app;\napp2.get('/y', (q, s) => s.end());\n"
            ),
        }
    )
    assert sorted(r["name"] for r in doc["resources"]) == ["GET /x", "GET /y", "GET /z"]
    assert doc["findings"] == []


def test_callable_class_dependencies_and_static_mounts() -> None:
    doc = document(
        {
            "main.py": (
                "from fastapi import FastAPI, Depends, HTTPException\n"
                "from fastapi.staticfiles import StaticFiles\n"
                "class RoleChecker:\n    def __init__(self, roles):\n        self.roles = roles\n"
                "    def __call__(self, user=None):\n"
                "        if user not in self.roles:\n            raise HTTPException(403)\n"
                "class Pagination:\n    def __init__(self, page: int = 1):\n        self.page = page\n"
                "app = FastAPI()\napp.mount('/static', StaticFiles(directory='static'))\n"
                "@app.get('/a', dependencies=[Depends(RoleChecker(['admin']))])\ndef a(): ...\n"
                "@app.get('/b')\ndef b(p: Pagination = Depends()): ...\n"
            )
        }
    )
    found = {s["resource"].removeprefix("route:"): s["value"] for s in doc["signals"]}
    assert found == {"GET /a": "required", "GET /b": "none"}
    assert doc["findings"] == []  # StaticFiles serves files, not routes: no UNRESOLVED_ROUTER


def test_an_app_made_from_a_flask_subclass_mounts_its_blueprints() -> None:
    doc = document(
        {
            "core.py": "from flask import Flask\nclass SiteFlask(Flask):\n    pass\n",
            "app.py": (
                "from flask import Blueprint\nfrom core import SiteFlask\n"
                "views = Blueprint('views', __name__)\n@views.route('/')\ndef index(): ...\n"
                "def create_app():\n    app = SiteFlask(__name__)\n"
                "    app.register_blueprint(views, url_prefix='/site')\n    return app\n"
            ),
        }
    )
    assert [r["name"] for r in doc["resources"]] == ["GET /site/"]
    assert doc["findings"] == [] and doc["signals"][0]["value"] == "none"
