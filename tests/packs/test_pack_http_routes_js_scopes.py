"""JavaScript names read as ECMAScript scopes them (`js_scopes`): each function's, block's or
method's own declaration of a name, a parameter over a module-level name; and a name declared
without a value and assigned later (`let app; app = express()`, `js_rebound`)."""

from __future__ import annotations

import pytest
from routes_harness import document, finding_places, names

_APP = "const express = require('express');\nconst app = express();\nconst h = (q, s) => s.end();\n"
_END = "app.listen(3000);\n"


def _one(body: str, name: str = "app.js") -> dict[str, str]:
    return {name: _APP + body + _END}


@pytest.mark.parametrize(
    ("body", "listed"),
    [
        (
            "function a() { const p = '/one'; app.get(p, h); }\n"
            "function b() { const p = '/two'; app.get(p, h); }\n",
            {"GET /one", "GET /two"},
        ),
        (
            "const p = '/top';\napp.get(p, h);\n"
            "function f() { const p = '/inner'; app.put(p, h); }\n",
            {"GET /top", "PUT /inner"},
        ),
        (
            "const p = '/outer';\n{ const p = '/block'; app.get(p, h); }\napp.post(p, h);\n",
            {"GET /block", "POST /outer"},
        ),
        (
            "function a(x) {\n  const p = '/fn';\n  if (x) { const p = '/blk'; app.get(p, h); }\n"
            "  app.delete(p, h);\n}\nfunction b() { const p = '/b'; app.head(p, h); }\n",
            {"GET /blk", "DELETE /fn", "HEAD /b"},
        ),
        (  # `var` is the function's, wherever in its body it is written
            "function a(x) {\n  if (x) { var p = '/hoisted'; }\n  app.get(p, h);\n}\n"
            "function b() { var p = '/other'; app.get(p, h); }\n",
            {"GET /hoisted", "GET /other"},
        ),
        (  # a closure reads the binding of the function around it
            "function a() { const p = '/ca'; const go = () => app.get(p, h); go(); }\n"
            "function b() { const p = '/cb'; [1].forEach(() => { app.get(p, h); }); }\n",
            {"GET /ca", "GET /cb"},
        ),
        (
            "class A { mount() { const p = '/ma'; app.get(p, h); } }\n"
            "class B { mount() { const p = '/mb'; app.patch(p, h); } }\n",
            {"GET /ma", "PATCH /mb"},
        ),
        (
            "function a() { const { p } = { p: '/d1' }; app.get(p, h); }\n"
            "function b() { const { q: p } = { q: '/d2' }; app.get(p, h); }\n",
            {"GET /d1", "GET /d2"},
        ),
        (
            "function a() { const o = { p: '/m1' }; app.get(o.p, h); }\n"
            "function b() { const o = { p: '/m2' }; app.get(o.p, h); }\n",
            {"GET /m1", "GET /m2"},
        ),
        (  # a parameter over the module's name: what its callers pass
            "const base = '/mod';\napp.get(base, h);\n"
            "function wire(r, base) { r.get(base + '/x', h); }\nwire(app, '/arg');\n",
            {"GET /mod", "GET /arg/x"},
        ),
    ],
    ids=[
        "two-functions",
        "module-and-function",
        "block",
        "nested-block",
        "hoisted-var",
        "closures",
        "class-methods",
        "destructured",
        "member",
        "parameter-path",
    ],
)
def test_each_declaration_of_a_name_is_read_in_its_own_scope(body: str, listed: set[str]) -> None:
    files = _one(body)
    assert names(files) == listed
    assert "DUPLICATE_ROUTE" not in finding_places(files)


def test_routers_made_in_two_factories_keep_their_own_routes_and_prefixes() -> None:
    files = _one(
        "function users() { const r = express.Router(); r.get('/list', h); return r; }\n"
        "function posts() { const r = express.Router(); r.post('/all', h); return r; }\n"
        "app.use('/users', users());\napp.use('/posts', posts());\n"
    )
    assert names(files) == {"GET /users/list", "POST /posts/all"}
    assert document(files)["findings"] == []


def test_a_parameter_named_as_a_module_router_is_what_its_callers_pass() -> None:
    files = _one(
        "const router = express.Router();\nrouter.get('/mod', h);\n"
        "function mount(router) { router.get('/inner', h); }\n"
        "const sub = express.Router();\nmount(sub);\n"
        "app.use('/r', router);\napp.use('/s', sub);\n"
    )
    assert names(files) == {"GET /r/mod", "GET /s/inner"}


def test_typescript_factories_in_two_files_and_one_keep_their_routers_apart() -> None:
    files = {
        "src/routes.ts": (
            "import { Router } from 'express';\n"
            "export function users(): Router {\n"
            "  const r: Router = Router();\n  const p: string = '/me';\n"
            "  r.get(p, (q, s) => s.end());\n  return r;\n}\n"
            "export function posts(): Router {\n"
            "  const r: Router = Router();\n  const p: string = '/latest';\n"
            "  r.get(p, (q, s) => s.end());\n  return r;\n}\n"
        ),
        "src/app.ts": (
            "import express from 'express';\nimport { users, posts } from './routes';\n"
            "const app = express();\napp.use('/u', users());\napp.use('/p', posts());\n"
            "app.listen(1);\n"
        ),
    }
    assert names(files) == {"GET /u/me", "GET /p/latest"}


def test_commonjs_factories_exported_from_one_file_keep_their_routers_apart() -> None:
    files = {
        "routes.js": (
            "const { Router } = require('express');\n"
            "exports.users = function () { const r = Router(); r.get('/u', h); return r; };\n"
            "exports.posts = function () { const r = Router(); r.get('/p', h); return r; };\n"
            "function h(q, s) { s.end(); }\n"
        ),
        "app.js": (
            "const express = require('express');\nconst routes = require('./routes');\n"
            "const app = express();\napp.use('/a', routes.users());\n"
            "app.use('/b', routes.posts());\napp.listen(1);\n"
        ),
    }
    assert names(files) == {"GET /a/u", "GET /b/p"}


@pytest.mark.parametrize(
    ("files", "listed"),
    [
        (
            {
                "app.js": "const express = require('express');\nlet app;\napp = express();\n"
                "app.get('/hello', (q, s) => s.end());\napp.listen(1);\n"
            },
            {"GET /hello"},
        ),
        (
            {
                "app.js": "const express = require('express');\nconst { Router } = require('express');\n"
                "const app = express();\nlet router;\nrouter = Router();\n"
                "router.get('/x', (q, s) => s.end());\napp.use('/api', router);\napp.listen(1);\n"
            },
            {"GET /api/x"},
        ),
        (
            {
                "app.ts": "import express, { Express } from 'express';\nlet app: Express;\n"
                "app = express();\napp.post('/typed', (q, s) => s.end());\napp.listen(1);\n"
            },
            {"POST /typed"},
        ),
        (
            {
                "routes.mjs": "import { Router } from 'express';\nlet router;\nrouter = Router();\n"
                "router.get('/e', (q, s) => s.end());\nexport { router };\n",
                "app.mjs": "import express from 'express';\nimport { router } from './routes.mjs';\n"
                "const app = express();\napp.use('/api', router);\napp.listen(1);\n",
            },
            {"GET /api/e"},
        ),
    ],
    ids=["app", "router", "typescript", "esm-export"],
)
def test_a_name_declared_without_a_value_and_assigned_in_straight_line_code(
    files: dict[str, str], listed: set[str]
) -> None:
    assert names(files) == listed
    assert "UNRESOLVED_ROUTER" not in finding_places(files)


@pytest.mark.parametrize(
    "body",
    [
        "var app;\nif (process.env.X) app = express();\napp.get('/maybe', (q, s) => s.end());\n",
        "let app;\nfunction init() { app = express(); }\ninit();\n"
        "app.get('/later', (q, s) => s.end());\n",
    ],
    ids=["branch", "another-function"],
)
def test_a_name_assigned_out_of_straight_line_code_is_a_finding_at_the_route(body: str) -> None:
    files = {"app.js": "const express = require('express');\n" + body}
    assert names(files) == set()
    line = body.splitlines().index(next(x for x in body.splitlines() if "app.get" in x)) + 2
    assert f"app.js:{line}" in finding_places(files)["UNRESOLVED_ROUTER"]


def test_a_mount_on_a_name_assigned_in_a_branch_is_a_finding_at_the_mount() -> None:
    files = {
        "app.js": "const express = require('express');\nconst sub = express.Router();\n"
        "sub.get('/s', (q, s) => s.end());\nvar app;\nif (process.env.X) app = express();\n"
        "app.use('/api', sub);\n"
    }
    assert "app.js:6" in finding_places(files)["UNRESOLVED_ROUTER"]
