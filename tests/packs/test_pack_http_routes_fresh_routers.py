"""pack-http-routes: a project function that makes a new router each time it is called
(`const makeRouter = () => new Router()`, `() => express.Router()`, `def make_bp(name): return
Blueprint(name, __name__)`) makes one router per call, as a constructor does: each `x =
makeRouter()` is its own router, listed under the prefixes where THAT router is mounted (one
mounted in another is no cycle), with what the function's own body registers on every one of
them. A function returning a router made outside its body returns that one router at every
call. The factory reached through a re-export, another name, an object's method or a class's
static method is the same function."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import (  # noqa: E402
    document,
    finding_places,
    names,
    prefix_unresolved,
    scanned_both_ways,
)

# where the factories are written, how a module imports the one it calls, and the call
KOA_FACTORIES: dict[str, tuple[str, str, str]] = {
    "generic-arrow": (
        "import Router from '@koa/router';\n"
        "import { DefaultState } from 'koa';\n"
        "type Who = { uid: string };\n"
        "type Lang = { lang: string };\n"
        "export const makeGuarded = () =>\n"
        "  new Router<DefaultState, Who & Lang>();\n",
        "import { makeGuarded } from '../shared/factories';\n",
        "makeGuarded()",
    ),
    "function-declaration": (
        "import Router from '@koa/router';\n"
        "export function makeGuarded() {\n"
        "  const fresh = new Router();\n"
        "  return fresh;\n"
        "}\n",
        "import { makeGuarded as make } from '../shared/factories';\n",
        "make()",
    ),
    "object-method": (
        "import Router from '@koa/router';\n"
        "export const kit = {\n"
        "  guarded: () => new Router(),\n"
        "};\n",
        "import { kit } from '../shared/factories';\n",
        "kit.guarded()",
    ),
    "static-method": (
        "import Router from '@koa/router';\n"
        "export class Kit {\n"
        "  static guarded() {\n"
        "    return new Router();\n"
        "  }\n"
        "}\n",
        "import { Kit } from '../shared/factories';\n",
        "Kit.guarded()",
    ),
}


def koa_tree(factory: str, imported: str, call: str) -> dict[str, str]:
    """Two modules each making a router with the factory; one mounted inside the other."""
    return {
        "svc/shared/factories.ts": factory,
        "svc/shared/index.ts": "export * from './factories';\n",
        "svc/api/members.ts": (
            f"{imported}const members = {call};\n"
            "members.get('/', (ctx) => {});\n"
            "members.del('/:id', (ctx) => {});\n"
            "export default members;\n"
        ),
        "svc/api/main.ts": (
            f"{imported}import Koa from 'koa';\n"
            "import members from './members';\n"
            f"const gate = {call};\n"
            "gate.use('/members', members.routes());\n"
            "gate.get('/ping', (ctx) => {});\n"
            "const web = new Koa();\n"
            "web.use(gate.routes());\n"
            "export const serve = web.callback();\n"
        ),
    }


@pytest.mark.parametrize("shape", sorted(KOA_FACTORIES))
def test_each_call_of_a_koa_router_factory_is_its_own_router(shape: str) -> None:
    files = koa_tree(*KOA_FACTORIES[shape])
    assert names(files) == {"GET /members", "DELETE /members/{id}", "GET /ping"}
    assert not prefix_unresolved(files)
    assert "UNRESOLVED_ROUTE" not in finding_places(files)  # no "mount closes a cycle"


def test_a_factory_re_exported_from_an_index_under_another_name() -> None:
    files = koa_tree(
        KOA_FACTORIES["generic-arrow"][0],
        "import { makeGuarded as make } from '../shared';\n",
        "make()",
    )
    files["svc/shared/index.ts"] = "export { makeGuarded } from './factories';\n"
    assert names(files) == {"GET /members", "DELETE /members/{id}", "GET /ping"}


EXPRESS: dict[str, str] = {
    "lib/routing.js": (
        "const express = require('express');\n"
        "const newRouter = () => express.Router();\n"
        "module.exports = { newRouter };\n"
    ),
    "routes/users.js": (
        "const { newRouter } = require('../lib/routing');\n"
        "const users = newRouter();\n"
        "users.get('/me', (req, res) => res.end());\n"
        "module.exports = users;\n"
    ),
    "routes/orders.js": (
        "const routing = require('../lib/routing');\n"
        "const orders = routing.newRouter();\n"
        "orders.post('/', (req, res) => res.end());\n"
        "module.exports = orders;\n"
    ),
    "server.js": (
        "const express = require('express');\n"
        "const { newRouter } = require('./lib/routing');\n"
        "const app = express();\n"
        "const v1 = newRouter();\n"
        "const v2 = newRouter();\n"
        "v1.use('/users', require('./routes/users'));\n"
        "v2.use('/orders', require('./routes/orders'));\n"
        "v2.get('/status', (req, res) => res.end());\n"
        "app.use('/v1', v1);\n"
        "app.use('/v2', v2);\n"
        "app.listen(8080);\n"
    ),
}


def test_each_call_of_an_express_router_factory_is_its_own_router() -> None:
    assert names(EXPRESS) == {"GET /v1/users/me", "POST /v2/orders", "GET /v2/status"}
    assert not prefix_unresolved(EXPRESS)
    assert "UNRESOLVED_ROUTE" not in finding_places(EXPRESS)


# the factory registers routes of its own on the router it makes: every router it makes has them
OWN_ROUTES: dict[str, str] = {
    "src/base.js": (
        "const Router = require('@koa/router');\n"
        "module.exports = function withHealth() {\n"
        "  const made = new Router();\n"
        "  made.get('/health', (ctx) => {});\n"
        "  return made;\n"
        "};\n"
    ),
    "src/index.js": (
        "const Koa = require('koa');\n"
        "const withHealth = require('./base');\n"
        "const left = withHealth();\n"
        "const right = withHealth();\n"
        "left.get('/west', (ctx) => {});\n"
        "right.get('/east', (ctx) => {});\n"
        "const outer = new Koa();\n"
        "const root = new (require('@koa/router'))();\n"
        "root.use('/l', left.routes());\n"
        "root.use('/r', right.routes());\n"
        "outer.use(root.routes());\n"
    ),
}


def test_what_the_factory_registers_belongs_to_every_router_it_makes() -> None:
    assert names(OWN_ROUTES) == {"GET /l/health", "GET /r/health", "GET /l/west", "GET /r/east"}
    assert not prefix_unresolved(OWN_ROUTES)


# a function returning a router its body does not make returns that one router every time
SINGLETON: dict[str, str] = {
    "app/shared.js": (
        "const express = require('express');\n"
        "const only = express.Router();\n"
        "exports.theRouter = () => only;\n"
    ),
    "app/a.js": (
        "const { theRouter } = require('./shared');\n"
        "const mine = theRouter();\n"
        "mine.get('/one', (req, res) => res.end());\n"
    ),
    "app/main.js": (
        "const express = require('express');\n"
        "const { theRouter } = require('./shared');\n"
        "require('./a');\n"
        "const app = express();\n"
        "const same = theRouter();\n"
        "same.get('/two', (req, res) => res.end());\n"
        "app.use('/p', same);\n"
        "app.listen(1);\n"
    ),
}


def test_a_function_returning_a_router_made_outside_it_returns_the_same_router() -> None:
    assert names(SINGLETON) == {"GET /p/one", "GET /p/two"}


def test_a_factory_s_router_no_call_of_it_mounts_stays_flagged() -> None:
    files = dict(EXPRESS)
    files["routes/loose.js"] = (
        "const { newRouter } = require('../lib/routing');\n"
        "const loose = newRouter();\n"
        "loose.get('/stray', (req, res) => res.end());\n"
    )
    assert "GET /stray" in names(files)
    assert prefix_unresolved(files) == ["GET /stray"]


def test_a_router_from_a_function_the_scan_cannot_read_stays_a_finding() -> None:
    files = {
        "srv/app.js": (
            "const express = require('express');\n"
            "const { makeRouter } = require('router-kit');\n"
            "const app = express();\n"
            "const kit = makeRouter();\n"
            "kit.get('/x', (req, res) => res.end());\n"
            "app.use('/k', kit);\n"
            "app.listen(1);\n"
        ),
    }
    assert "GET /k/x" not in names(files)
    assert any(p.startswith("srv/app.js:") for ps in finding_places(files).values() for p in ps)


PYTHON: dict[str, dict[str, str]] = {
    "flask": {
        "web/kit.py": (
            "from flask import Blueprint\n\n\n"
            "def section(name):\n"
            "    return Blueprint(name, __name__)\n"
        ),
        "web/people.py": (
            "from web.kit import section\n\n"
            "people = section('people')\n\n\n"
            "@people.route('/me')\n"
            "def me():\n"
            "    return ''\n"
        ),
        "web/books.py": (
            "from web import kit\n\n"
            "books = kit.section('books')\n\n\n"
            "@books.route('/all')\n"
            "def every():\n"
            "    return ''\n"
        ),
        "web/__init__.py": (
            "from flask import Flask\n"
            "from web.people import people\n"
            "from web.books import books\n\n"
            "app = Flask(__name__)\n"
            "app.register_blueprint(people, url_prefix='/people')\n"
            "app.register_blueprint(books, url_prefix='/books')\n"
        ),
    },
    "fastapi": {
        "web/kit.py": (
            "from fastapi import APIRouter\n\n\n"
            "def section(name):\n"
            "    made = APIRouter(tags=[name])\n"
            "    return made\n"
        ),
        "web/people.py": (
            "from web.kit import section\n\n"
            "people = section('people')\n\n\n"
            "@people.get('/me')\n"
            "def me():\n"
            "    return ''\n"
        ),
        "web/books.py": (
            "from web import kit\n\n"
            "books = kit.section('books')\n\n\n"
            "@books.get('/all')\n"
            "def every():\n"
            "    return ''\n"
        ),
        "web/__init__.py": (
            "from fastapi import FastAPI\n"
            "from web.people import people\n"
            "from web.books import books\n\n"
            "app = FastAPI()\n"
            "app.include_router(people, prefix='/people')\n"
            "app.include_router(books, prefix='/books')\n"
        ),
    },
}


@pytest.mark.parametrize("framework", sorted(PYTHON))
def test_each_call_of_a_python_router_factory_is_its_own_router(framework: str) -> None:
    assert names(PYTHON[framework]) == {"GET /people/me", "GET /books/all"}


# an app factory called by several entry points: one app, its routes listed once
APP_FACTORY: dict[str, str] = {
    "site/__init__.py": (
        "from flask import Flask, Blueprint\n\n"
        "pages = Blueprint('pages', __name__)\n\n\n"
        "@pages.route('/about')\n"
        "def about():\n"
        "    return ''\n\n\n"
        "def build_app():\n"
        "    made = Flask(__name__)\n"
        "    made.register_blueprint(pages, url_prefix='/p')\n"
        "    return made\n"
    ),
    "wsgi.py": (
        "from site import build_app\n\n"
        "app = build_app()\n\n\n"
        "@app.route('/health')\n"
        "def health():\n"
        "    return ''\n"
    ),
    "manage.py": (
        "from site import build_app\n\n"
        "app = build_app()\n"
        "app.add_url_rule('/ready', view_func=lambda: '')\n"
    ),
    "tests/conftest.py": "from site import build_app\n\nclient = build_app().test_client()\n",
}


def test_an_app_factory_called_in_several_places_is_one_app() -> None:
    found = document(APP_FACTORY)
    listed = sorted(str(r["name"]) for r in found["resources"])
    assert listed == ["GET /health", "GET /p/about", "GET /ready"]
    assert not found["findings"]


# the factory's router takes its prefix from the call's argument: each call's own
PREFIXED: dict[str, str] = {
    "a/r.js": (
        "const Router = require('@koa/router');\n"
        "exports.scoped = (at) => new Router({ prefix: at });\n"
    ),
    "a/x.js": (
        "const { scoped } = require('./r');\n"
        "const x = scoped('/xx');\n"
        "x.get('/one', (c) => {});\n"
        "module.exports = x;\n"
    ),
    "a/y.js": (
        "const { scoped } = require('./r');\n"
        "const y = scoped('/yy');\n"
        "y.get('/two', (c) => {});\n"
        "module.exports = y;\n"
    ),
    "a/app.js": (
        "const Koa = require('koa');\n"
        "const app = new Koa();\n"
        "app.use(require('./x').routes());\n"
        "app.use(require('./y').routes());\n"
    ),
}


def test_a_factory_s_router_prefix_is_what_each_call_passes() -> None:
    assert names(PREFIXED) == {"GET /xx/one", "GET /yy/two"}
    assert not prefix_unresolved(PREFIXED)


@pytest.mark.parametrize(
    "files",
    [koa_tree(*KOA_FACTORIES["object-method"]), EXPRESS, OWN_ROUTES, PYTHON["flask"], PREFIXED],
    ids=["koa", "express", "own-routes", "flask", "prefixed"],
)
def test_pre_filtered_equals_parse_all(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert any(
        p in documents[1] for p in ("/members/", "/v2/status", "/l/health", "/people/me", "/xx/one")
    )


# a route chained on a bare call of the factory: on that call's router only
CHAINED: dict[str, str] = {
    "src/make.js": (
        "const express = require('express');\nexports.fresh = () => express.Router();\n"
    ),
    "src/tags.js": (
        "const { fresh } = require('./make');\n"
        "module.exports = fresh().get('/tags', (req, res) => res.end());\n"
    ),
    "src/app.js": (
        "const express = require('express');\n"
        "const { fresh } = require('./make');\n"
        "const app = express();\n"
        "const api = fresh();\n"
        "api.get('/ping', (req, res) => res.end());\n"
        "api.use('/t', require('./tags'));\n"
        "app.use('/api', api);\n"
        "app.listen(1);\n"
    ),
}


def test_a_route_chained_on_a_bare_factory_call_is_on_that_router_only() -> None:
    assert names(CHAINED) == {"GET /api/ping", "GET /api/t/tags"}
    assert not prefix_unresolved(CHAINED)
