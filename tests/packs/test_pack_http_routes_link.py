"""Route analysis rules one at a time, on small inline sources (no filesystem, no process)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes import extract, route_document
from packs.scan import JSONObject, ParseFailure


def document(files: dict[str, str]) -> JSONObject:
    linked = route_document(
        [(path, extract(path, source)) for path, source in sorted(files.items())]
    )
    return {
        "resources": linked.resources,
        "findings": linked.findings,
        "signals": linked.signals,
    }


def routes(files: dict[str, str]) -> dict[str, str]:
    """Route name -> auth signal value."""
    doc = document(files)
    return {s["resource"].removeprefix("route:"): s["value"] for s in doc["signals"]}


def test_prefix_from_a_settings_factory_a_constant_and_an_fstring() -> None:
    found = routes(
        {
            "conf.py": (
                "class Settings(BaseSettings):\n    api_prefix: str = Field(default='/api')\n\n"
                "def get_settings():\n    return Settings()\n\nVERSION = 'v3'\n"
            ),
            "main.py": (
                "from fastapi import FastAPI, APIRouter\nfrom conf import get_settings, VERSION\n"
                "app = FastAPI()\nr = APIRouter(prefix=f'/{VERSION}')\n"
                "@r.get('/ping')\ndef ping(): ...\n"
                "app.include_router(r, prefix=get_settings().api_prefix)\n"
            ),
        }
    )
    assert found == {"GET /api/v3/ping": "none"}


def test_an_invisible_prefix_is_left_out_and_marked() -> None:
    doc = document(
        {
            "main.py": (
                "import os\nfrom fastapi import APIRouter\n"
                "r = APIRouter(prefix=os.environ['PREFIX'])\n@r.get('/x')\ndef x(): ...\n"
            )
        }
    )
    [resource] = doc["resources"]
    assert resource["name"] == "GET /x" and resource["attrs"]["prefixUnresolved"] is True


def test_calls_on_things_that_are_not_routers_are_not_routes() -> None:
    found = routes(
        {
            "client.py": "import requests\nrequests.get('/users')\n@cache.get('/k')\ndef f(): ...\n",
            "front.js": "import axios from 'axios';\naxios.get('/api/users', { params: {} });\n",
            "server.js": (
                "const express = require('express');\nconst app = express();\n"
                "const env = app.get('env');\napp.get('/real', (req, res) => res.end());\n"
            ),
        }
    )
    assert found == {"GET /real": "none"}


# A guard by evidence: the middleware's own definition answers 401.
REQUIRE_AUTH = "const requireAuth = (req, res, next) => req.user ? next() : res.sendStatus(401);\n"


def test_express_middleware_guards_only_what_is_declared_after_it() -> None:
    found = routes(
        {
            "app.js": (
                "const express = require('express');\nconst app = express();\n"
                + REQUIRE_AUTH
                + "app.get('/public', show);\napp.use(requireAuth);\napp.get('/private', show);\n"
            )
        }
    )
    assert found == {"GET /public": "none", "GET /private": "required"}


def test_a_router_mounted_twice_is_served_at_both_prefixes() -> None:
    doc = document(
        {
            "main.py": (
                "from fastapi import FastAPI, APIRouter\napp = FastAPI()\nr = APIRouter()\n"
                "@r.get('/items')\ndef items(): ...\n"
                "app.include_router(r, prefix='/v1')\napp.include_router(r, prefix='/v2')\n"
                "app.include_router(r, prefix='/v2')\n"
            )
        }
    )
    assert [r["name"] for r in doc["resources"]] == ["GET /v1/items", "GET /v2/items"]
    assert doc["findings"] == []  # one handler reached twice under one name is one route


def test_mount_cycles_end() -> None:
    found = routes(
        {
            "app.js": (
                "const { Router } = require('express');\nconst a = Router();\nconst b = Router();\n"
                "const app = require('express')();\napp.use('/a', a);\n"
                "a.use('/b', b);\nb.use('/a', a);\nb.get('/x', h);\n"
            )
        }
    )
    assert found == {"GET /a/b/x": "none"}


def test_commonjs_object_exports_destructured_requires_and_esm_reexports() -> None:
    found = routes(
        {
            "routes/users.js": (
                "const express = require('express');\nconst usersRouter = express.Router();\n"
                "usersRouter.get('/', list);\nmodule.exports = { usersRouter };\n"
            ),
            "routes/teams.ts": (
                "import { Router } from 'express';\nconst teams = Router();\n"
                "teams.get('/:id', show);\nexport default teams;\n"
            ),
            "routes/index.ts": (
                "export { default as teams } from './teams.js';\nexport * from './more';\n"
            ),
            "routes/more.ts": "import { Router } from 'express';\nexport const more = Router();\n"
            "more.post('/', create);\n",
            "app.mjs": (
                "import express from 'express';\nimport { teams, more } from './routes/index';\n"
                "import { createRequire } from 'module';\nconst app = express();\n"
                "const { usersRouter } = require('./routes/users');\n"
                "app.use('/users', usersRouter);\napp.use('/teams', teams);\napp.use('/more', more);\n"
            ),
        }
    )
    assert found == {
        "GET /users": "none",
        "GET /teams/{id}": "none",
        "POST /more": "none",
    }


def test_relative_imports_and_flask_prefix_override() -> None:
    found = routes(
        {
            "pkg/__init__.py": "",
            "pkg/core/__init__.py": "",
            "pkg/core/config.py": "PREFIX = '/v1'\n",
            "pkg/web/__init__.py": "",
            "pkg/web/views.py": (
                "from flask import Blueprint\nfrom ..core.config import PREFIX\n"
                "bp = Blueprint('b', __name__, url_prefix='/ignored')\n"
                "inner = Blueprint('i', __name__, url_prefix='/inner')\n"
                "@inner.route('/leaf')\ndef leaf(): ...\n"
                "bp.register_blueprint(inner)\n"
                "@bp.route('/<int:id>', methods=['GET', 'post'])\ndef show(id): ...\n"
            ),
            "pkg/app.py": (
                "from flask import Flask\nfrom .web.views import bp, PREFIX\napp = Flask(__name__)\n"
                "app.register_blueprint(bp, url_prefix=PREFIX)\n"
            ),
        }
    )
    assert found == {"GET /v1/{id}": "none", "POST /v1/{id}": "none", "GET /v1/inner/leaf": "none"}


def test_auth_on_router_include_route_decorator_and_parameter() -> None:
    """Each guard is identified by evidence: a security scheme reached through a dependency,
    a dependency or factory raising 403, `Security(...)`. `admin_auth` says auth by its name
    only, so the `/admin` include adds nothing."""
    found = routes(
        {
            "deps.py": (
                "from typing import Annotated\nfrom fastapi import Depends, HTTPException\n"
                "from fastapi.security import OAuth2PasswordBearer\n"
                "oauth2 = OAuth2PasswordBearer(tokenUrl='token')\n"
                "def current_user(token: str = Depends(oauth2)): ...\n"
                "def get_db():\n    yield None\n"
                "def verify_token(x_token: str):\n"
                "    if x_token != 'secret':\n        raise HTTPException(status_code=403)\n"
                "def require_permission(name):\n"
                "    def check():\n        raise HTTPException(status_code=403)\n"
                "    return check\n"
                "def admin_auth():\n    return None\n"
                "User = Annotated[dict, Depends(current_user)]\n"
                "Db = Annotated[dict, Depends(get_db)]\n"
            ),
            "main.py": (
                "from fastapi import FastAPI, APIRouter, Depends, Security\n"
                "from deps import User, Db, verify_token, require_permission, admin_auth\n"
                "app = FastAPI()\n"
                "guarded = APIRouter(dependencies=[Depends(verify_token)])\n"
                "@guarded.get('/a')\ndef a(): ...\n"
                "plain = APIRouter()\n"
                "@plain.get('/b')\ndef b(db: Db): ...\n"
                "@plain.get('/c')\ndef c(user: User): ...\n"
                "@plain.get('/d')\ndef d(u=Security(get_current_user, scopes=['me'])): ...\n"
                "@plain.get('/e', dependencies=[Depends(require_permission('x'))])\ndef e(): ...\n"
                "app.include_router(guarded)\napp.include_router(plain)\n"
                "app.include_router(plain, prefix='/admin', dependencies=[Depends(admin_auth)])\n"
            ),
        }
    )
    assert found == {
        "GET /a": "required",
        "GET /b": "none",
        "GET /c": "required",
        "GET /d": "required",
        "GET /e": "required",
        "GET /admin/b": "none",
        "GET /admin/c": "required",
        "GET /admin/d": "required",
        "GET /admin/e": "required",
    }


def test_starlette_route_without_methods_is_get_and_mount_prefixes_join() -> None:
    found = routes(
        {
            "app.py": (
                "from starlette.applications import Starlette\n"
                "from starlette.routing import Mount, Route\n"
                "async def home(request): ...\n"
                "inner = [Route('/', home), Route('/x', home, methods=['post'])]\n"
                "app = Starlette(routes=[Route('/', home), Mount('/sub/', routes=[*inner])])\n"
            )
        }
    )
    assert found == {"GET /": "none", "GET /sub/": "none", "POST /sub/x": "none"}


def test_express_middleware_on_a_mount_path_guards_only_that_path() -> None:
    found = routes(
        {
            "app.js": (
                "const express = require('express');\nconst app = express();\n"
                + REQUIRE_AUTH
                + "const admin = express.Router();\nadmin.get('/stats', stats);\n"
                "app.use('/admin', requireAuth);\napp.use('/admin', admin);\n"
                "app.get('/admin/users', users);\napp.get('/administrators', list);\n"
            )
        }
    )
    assert found == {
        "GET /admin/stats": "required",
        "GET /admin/users": "required",
        "GET /administrators": "none",
    }


EXPRESS_APP = "const express = require('express');\nconst app = express();\n"


def test_express_all_is_one_route_named_all_as_express_keeps_it() -> None:
    doc = document({"app.js": EXPRESS_APP + "app.all('/x/:id', h);\napp.get('env');\n"})
    assert [r["name"] for r in doc["resources"]] == ["ALL /x/{id}"]
    assert {r["location"]["line"] for r in doc["resources"]} == {3}


def test_express_all_in_a_route_chain_is_its_own_route_beside_the_get() -> None:
    doc = document(
        {
            "app.js": EXPRESS_APP
            + REQUIRE_AUTH
            + "app.route('/y')\n  .get(show)\n  .all(requireAuth, reject);\n"
        }
    )
    found = {(r["name"], r["location"]["line"]) for r in doc["resources"]}
    assert found == {("GET /y", 5), ("ALL /y", 6)}
    assert doc["findings"] == []
    auth = {(s["resource"], s["source"]["line"]): s["value"] for s in doc["signals"]}
    assert auth[("route:GET /y", 5)] == "none" and auth[("route:ALL /y", 6)] == "required"


def test_typescript_export_equals_and_import_equals_require() -> None:
    found = routes(
        {
            "routes.ts": (
                "import express = require('express');\nconst router = express.Router();\n"
                "router.get('/a', h);\nexport = router;\n"
            ),
            "guard.ts": (
                "function checkJwt(req, res, next) { req.user ? next() : res.status(401).end(); }\n"
                "export = checkJwt;\n"
            ),
            "main.ts": (
                "import express from 'express';\nimport routes = require('./routes');\n"
                "import checkJwt = require('./guard');\nconst app = express();\n"
                "app.use('/api', routes);\nconst legacy = require('./routes');\n"
                "app.use('/old', checkJwt, legacy);\n"
            ),
        }
    )
    assert found == {"GET /api/a": "none", "GET /old/a": "required"}


def test_tsx_and_jsx_files_are_read_with_their_grammars() -> None:
    found = routes(
        {
            "pages.tsx": (
                "import { Router } from 'express';\nexport const pages = Router();\n"
                "const Title = ({ text }: { text: string }) => <h1>{text}</h1>;\n"
                "pages.get('/:slug', (req, res) => res.send(<Title text={req.params.slug} />));\n"
            ),
            "legacy.jsx": (
                "const { Router } = require('express');\nconst r = Router();\n"
                "r.post('/contact', (req, res) => res.send(<p className=\"ok\">sent</p>));\n"
                "module.exports = r;\n"
            ),
            "app.js": EXPRESS_APP + "app.use('/p', require('./pages').pages);\n"
            "app.use('/l', require('./legacy.jsx'));\n",
        }
    )
    assert found == {"GET /p/{slug}": "none", "POST /l/contact": "none"}


@pytest.mark.parametrize("path", ["bad.tsx", "bad.jsx", "bad.ts"])
def test_a_broken_tsx_or_jsx_file_is_a_parse_error(path: str) -> None:
    with pytest.raises(ParseFailure) as failure:
        extract(path, "const a = 1;\nconst b = <div>{</div>;\n")
    assert failure.value.line == 2


def test_a_router_passed_to_a_function_gets_what_the_function_declares_on_it() -> None:
    found = routes(
        {
            "app/setup.py": (
                "from fastapi import APIRouter\nitems = APIRouter(prefix='/items')\n"
                "@items.get('/')\ndef list_items(): ...\n"
                "def register(app, *, auth_required=False):\n"
                "    app.include_router(items, prefix='/v1')\n"
                "    @app.get('/ping')\n    def ping(): ...\n"
                "def forward(target):\n    register(target)\n"
            ),
            "app/main.py": (
                "from fastapi import FastAPI\nfrom .setup import register, forward\n"
                "public = FastAPI()\ninternal = FastAPI()\n"
                "register(public)\nforward(app=None)\nforward(internal)\n"
            ),
        }
    )
    # two apps reach register (one through forward): each serves its routes, named once
    assert found == {"GET /v1/items/": "none", "GET /ping": "none"}


def test_an_express_app_passed_to_a_function_gets_what_the_function_declares_on_it() -> None:
    found = routes(
        {
            "web/health.js": (
                "module.exports = (app) => { app.get('/health', (req, res) => res.end()); };\n"
            ),
            "web/users.mjs": (
                "import { Router } from 'express';\n"
                "export function mountUsers(r = Router(), verbose) {\n"
                "  r.get('/:id', (req, res) => res.end());\n}\n"
            ),
            "web/forward.ts": (
                "import { Router } from 'express';\nimport passport from 'passport';\n"
                "const requireAuth = passport.authenticate('jwt', { session: false });\n"
                "export default function forward(target: Router, label?: string): void {\n"
                "  target.post('/forwarded', requireAuth, (req, res) => res.end());\n}\n"
            ),
            "web/server.js": (
                "const express = require('express');\n"
                "const { mountUsers } = require('./users.mjs');\n"
                "const forward = require('./forward').default;\n"
                "const app = express();\nconst users = express.Router();\n"
                "require('./health')(app);\nmountUsers(users, true);\nforward(app, 'x');\n"
                "app.use('/users', users);\n"
                "function notARouter(app) { app.get('/never', (req, res) => res.end()); }\n"
            ),
        }
    )
    # notARouter is never called: its `app` reads as the module's app, as a Python parameter
    # no scanned call passes does (a name the module binds is read so without looking further)
    assert found == {
        "GET /health": "none",
        "GET /users/{id}": "none",
        "POST /forwarded": "required",
        "GET /never": "none",
    }


def test_flask_blueprints_registered_by_a_helper_of_the_app_factory() -> None:
    doc = document(
        {
            "shop/__init__.py": (
                "from flask import Flask\nfrom .views import register_blueprints\n"
                "def create_app():\n    app = Flask(__name__)\n"
                "    register_blueprints(app)\n    return app\n"
            ),
            "shop/views.py": (
                "from flask import Blueprint\nbp = Blueprint('b', __name__, url_prefix='/b')\n"
                "@bp.route('/x')\ndef x(): ...\n"
                "def register_blueprints(flask_app):\n"
                "    flask_app.register_blueprint(bp, url_prefix='/shop')\n"
            ),
        }
    )
    assert [(r["name"], r["attrs"]["framework"]) for r in doc["resources"]] == [
        ("GET /shop/x", "flask")
    ]


def test_a_parameter_no_scanned_call_passes_is_read_as_the_global_name() -> None:
    found = routes(
        {
            "main.py": (
                "from fastapi import FastAPI, APIRouter\napp = FastAPI()\nr = APIRouter()\n"
                "@r.get('/r')\ndef h(): ...\n"
                "def setup(app):\n    app.include_router(r, prefix='/x')\n"
            )
        }
    )
    assert found == {"GET /x/r": "none"}


def test_a_head_written_beside_get_is_the_one_werkzeug_and_starlette_add() -> None:
    """Flask and Starlette serve HEAD for every GET rule, so `methods=["GET", "HEAD"]` is the
    same route as `["GET"]`; a HEAD without GET, an explicit OPTIONS and FastAPI's `APIRoute`
    (which adds no HEAD) keep what is written."""
    found = routes(
        {
            "web.py": (
                "from flask import Flask\napp = Flask(__name__)\n"
                "@app.route('/both', methods=['GET', 'HEAD'])\ndef both(): ...\n"
                "@app.route('/head', methods=['POST', 'head'])\ndef head(): ...\n"
                "@app.route('/opts', methods=['OPTIONS', 'GET'])\ndef opts(): ...\n"
            ),
            "star.py": (
                "from starlette.applications import Starlette\n"
                "from starlette.routing import Route\n"
                "async def h(request): ...\n"
                "app = Starlette(routes=[Route('/s', h, methods=['GET', 'HEAD'])])\n"
            ),
            "api.py": (
                "from fastapi import FastAPI\napi = FastAPI()\n"
                "@api.api_route('/f', methods=['GET', 'HEAD'])\ndef f(): ...\n"
            ),
        }
    )
    assert set(found) == {
        "GET /both", "HEAD /head", "POST /head", "GET /opts", "OPTIONS /opts",
        "GET /s", "GET /f", "HEAD /f",
    }  # fmt: skip
