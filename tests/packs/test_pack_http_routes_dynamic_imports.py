"""Routers and plugins a JavaScript or TypeScript server loads with a dynamic `import()`
(`js_dynimport`): the module namespace the call resolves to is bound as a static import binds
one, so `.default`, named exports, destructuring, `await` and `.then(callback)` reach the
module's exports, whose routes are listed under the mount's prefix (never a second time
without it); a specifier the file does not spell is never guessed (a finding at the mount, the
module's routes flagged)."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, pre_filtered, write_files

_V1 = (
    "import { Router } from 'express';\n"
    "const r = Router();\n"
    "r.get('/items', (q, s) => s.end());\n"
    "export default r;\n"
)
_EXPRESS = "import express from 'express';\nconst app = express();\n"


def _routes(files: dict[str, str]) -> dict[str, bool]:
    """Route name -> whether it is listed with its prefix unresolved."""
    return {
        str(r["name"]): bool(r["attrs"].get("prefixUnresolved"))
        for r in document(files)["resources"]
    }


def _findings(files: dict[str, str]) -> list[tuple[str, list[str]]]:
    return [
        (str(f["code"]), [f"{p['path']}:{p['line']}" for p in f["locations"]])
        for f in document(files)["findings"]
    ]


# each server loads `routes/v1.js`'s default router and mounts it at `/api`
@pytest.mark.parametrize(
    "start",
    [
        pytest.param(
            "async function start() {\n"
            "  const v1 = (await import('./routes/v1.js')).default;\n"
            "  app.use('/api', v1);\n"
            "}\nstart();\n",
            id="awaited-default",
        ),
        pytest.param(
            "async function start() {\n"
            "  const routes = await import('./routes/v1.js');\n"
            "  app.use('/api', routes.default);\n"
            "}\nstart();\n",
            id="namespace-member",
        ),
        pytest.param(
            "const start = async () => {\n"
            "  const { default: router } = await import('./routes/v1.js');\n"
            "  app.use('/api', router);\n"
            "};\nstart();\n",
            id="destructured-default",
        ),
        pytest.param(
            "(async () => {\n  app.use('/api', (await import('./routes/v1.js')).default);\n})();\n",
            id="awaited-in-the-mount",
        ),
        pytest.param(
            "import('./routes/v1.js').then((m) => app.use('/api', m.default));\n",
            id="then-namespace",
        ),
        pytest.param(
            "import('./routes/v1.js').then(({ default: r }) => {\n  app.use('/api', r);\n});\n",
            id="then-destructured",
        ),
        pytest.param(
            "import('./routes/v1.js')\n"
            "  .then(function (loaded) { app.use('/api', loaded.default); })\n"
            "  .catch(() => {});\n",
            id="then-function-then-catch",
        ),
        pytest.param(
            "async function start() {\n"
            "  const r = await import('./routes/v1.js').then((m) => m.default);\n"
            "  app.use('/api', r);\n"
            "}\nstart();\n",
            id="then-value",
        ),
        pytest.param(
            "import path from 'node:path';\n"
            "async function start() {\n"
            "  const m = await import(path.join(__dirname, 'routes', 'v1.js'));\n"
            "  app.use('/api', m.default);\n"
            "}\nstart();\n",
            id="path-join-dirname",
        ),
        pytest.param(
            "const FOLDER = 'routes';\n"
            "async function start() {\n"
            "  const m = await import(`./${FOLDER}/v1.js`);\n"
            "  app.use('/api', m.default);\n"
            "}\nstart();\n",
            id="template-of-a-constant",
        ),
        pytest.param(
            "const FOLDER = 'routes';\n"
            "async function start() {\n"
            "  const m = await import(`./${FOLDER}\\u002f\\x761.js`);\n"
            "  app.use('/api', m.default);\n"
            "}\nstart();\n",
            id="template-with-escapes",
        ),
        pytest.param(
            "async function start() {\n"
            "  const m = await import(__dirname + '/routes/' + 'v1.js');\n"
            "  app.use('/api', m.default);\n"
            "}\nstart();\n",
            id="dirname-concatenated",
        ),
        pytest.param(
            "const m = await import(new URL('./routes/v1.js', import.meta.url));\n"
            "app.use('/api', m.default);\n",
            id="url-of-import-meta",
        ),
        pytest.param(
            "import { pathToFileURL } from 'node:url';\nimport { resolve } from 'node:path';\n"
            "const m = await import(pathToFileURL(resolve(import.meta.dirname, 'routes/v1.js')).href);\n"
            "app.use('/api', m.default);\n",
            id="file-url-of-a-resolved-path",
        ),
    ],
)
def test_a_router_loaded_by_import_is_mounted_under_its_prefix(start: str) -> None:
    files = {"server.js": _EXPRESS + start, "routes/v1.js": _V1}
    assert _routes(files) == {"GET /api/items": False}
    assert _findings(files) == []


# a router module extended later, by a function no one is seen awaiting: what it mounts is still
# mounted on that router (its routes under the app's and the router's prefixes, never unprefixed)
_EXTENDED = {
    "src/app.ts": (
        "import express from 'express';\nimport api from './api';\n"
        "const app = express();\napp.use('/svc', api);\nexport default app;\n"
    ),
    "src/api/index.ts": (
        "import { Router } from 'express';\nimport core from './core';\n"
        "const api = Router();\napi.use('/v2', core);\n"
        "let extended = false;\n"
        "export async function extend(): Promise<void> {\n"
        "  if (extended) return;\n"
        "  try {\n"
        "    const extras = (await import('../extras/routes')).default;\n"
        "    api.use('/v2', extras);\n"
        "    extended = true;\n"
        "  } catch (_) {\n"
        "    extended = false;\n"
        "  }\n"
        "}\n"
        "export default api;\n"
    ),
    "src/api/core.ts": (
        "import { Router } from 'express';\nconst core = Router();\n"
        "core.get('/status', (q, s) => s.end());\nexport default core;\n"
    ),
    "src/extras/routes/index.ts": (
        "import { Router } from 'express';\nimport reports from './reports';\n"
        "const extras = Router();\nextras.use('/reports', reports);\nexport default extras;\n"
    ),
    "src/extras/routes/reports.ts": (
        "import { Router } from 'express';\nconst reports = Router();\n"
        "reports.post('/', (q, s) => s.end());\n"
        "reports.delete<{ id: string }>('/:id', (q, s) => s.end());\n"
        "export default reports;\n"
    ),
}


def test_a_router_a_module_mounts_after_an_awaited_import_keeps_every_prefix() -> None:
    assert _routes(_EXTENDED) == {
        "GET /svc/v2/status": False,
        "POST /svc/v2/reports": False,
        "DELETE /svc/v2/reports/{id}": False,
    }
    assert _findings(_EXTENDED) == []


def test_the_pre_filter_reads_the_modules_an_import_call_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(tmp_path, _EXTENDED)
    found, _, _ = pre_filtered(tmp_path, monkeypatch)
    assert {r["name"] for r in found["resources"]} == {
        "GET /svc/v2/status",
        "POST /svc/v2/reports",
        "DELETE /svc/v2/reports/{id}",
    }


def test_a_path_joined_up_from_the_file_s_folder() -> None:
    files = {
        "src/server/main.js": _EXPRESS + "const path = require('path');\n"
        "(async () => {\n"
        "  const m = await import(path.join(__dirname, '..', 'routes', './v1.js'));\n"
        "  app.use('/api', m.default);\n"
        "})();\n",
        "src/routes/v1.js": _V1,
    }
    assert _routes(files) == {"GET /api/items": False}


def test_named_exports_of_a_namespace_destructured_renamed_and_as_members() -> None:
    files = {
        "server.js": _EXPRESS + "async function start() {\n"
        "  const { users, admin: staff } = await import('./routes/all.js');\n"
        "  const all = await import('./routes/all.js');\n"
        "  app.use('/u', users);\n  app.use('/a', staff);\n  app.use('/r', all.reports);\n"
        "}\nstart();\n",
        "routes/all.js": (
            "import { Router } from 'express';\n"
            "export const users = Router();\nusers.get('/me', h);\n"
            "export const admin = Router();\nadmin.post('/ban', h);\n"
            "export const reports = Router();\nreports.get('/daily', h);\n"
        ),
    }
    assert _routes(files) == {"GET /u/me": False, "POST /a/ban": False, "GET /r/daily": False}


def test_a_commonjs_module_s_exports_are_its_namespace_s_default() -> None:
    files = {
        "server.js": (
            "const express = require('express');\nconst app = express();\n"
            "(async () => {\n  const mod = await import('./routes/v1.cjs');\n"
            "  app.use('/api', mod.default);\n})();\n"
        ),
        "routes/v1.cjs": (
            "const r = require('express').Router();\nr.put('/items', h);\nmodule.exports = r;\n"
        ),
    }
    assert _routes(files) == {"PUT /api/items": False}


def test_routes_added_to_an_imported_router_in_its_then_callback() -> None:
    files = {
        "server.js": _EXPRESS + "import('./routes/v1.js').then(({ default: r }) => {\n"
        "  r.get('/extra', h);\n  app.use('/api', r);\n});\n",
        "routes/v1.js": _V1,
    }
    assert _routes(files) == {"GET /api/items": False, "GET /api/extra": False}


def test_each_then_callback_reads_its_own_module_under_a_shared_parameter_name() -> None:
    router = "import { Router } from 'express';\nconst r = Router();\nr.get('/{}', h);\nexport default r;\n"
    files = {
        "server.js": (
            "import express from 'express';\nimport m from './c.js';\nconst app = express();\n"
            "import('./a.js').then((m) => app.use('/a', m.default));\n"
            "import('./b.js').then((m) => { app.use('/b', m.default); });\n"
            "app.use('/c', m);\n"
        ),
        **{f"{n}.js": router.replace("{}", f"in-{n}") for n in "abc"},
    }
    assert _routes(files) == {"GET /a/in-a": False, "GET /b/in-b": False, "GET /c/in-c": False}


def test_a_loop_over_literal_names_imports_each_module() -> None:
    router = "import { Router } from 'express';\nconst r = Router();\nr.get('/{}', h);\nexport default r;\n"
    files = {
        "server.js": _EXPRESS + "async function start() {\n"
        "  for (const v of ['v1', 'v2']) {\n"
        "    const m = await import(`./routes/${v}.js`);\n"
        "    app.use(`/${v}`, m.default);\n"
        "  }\n"
        "}\nstart();\n",
        "routes/v1.js": router.replace("{}", "one"),
        "routes/v2.js": router.replace("{}", "two"),
    }
    assert _routes(files) == {"GET /v1/one": False, "GET /v2/two": False}


def test_a_function_a_namespace_exports_is_called_with_the_app() -> None:
    files = {
        "server.js": _EXPRESS + "import('./mount.js').then(({ default: mount }) => mount(app));\n"
        "async function more() {\n  const { attach } = await import('./attach.js');\n"
        "  attach(app);\n}\nmore();\n",
        "mount.js": "export default function mount(app) {\n  app.get('/health', h);\n}\n",
        "attach.js": "export function attach(app) {\n  app.post('/hooks', h);\n}\n",
    }
    assert _routes(files) == {"GET /health": False, "POST /hooks": False}


_PLUGIN = "export default async function (f) {\n  f.get('/list', h);\n}\n"


@pytest.mark.parametrize(
    "registered",
    [
        pytest.param("import('./plugins/users.js')", id="promise"),
        pytest.param("await import('./plugins/users.js')", id="namespace"),
        pytest.param("(await import('./plugins/users.js')).default", id="default"),
    ],
)
def test_fastify_registers_the_default_export_of_an_imported_module(registered: str) -> None:
    files = {
        "app.js": (
            "import Fastify from 'fastify';\nconst app = Fastify();\n"
            f"await app.register({registered}, {{ prefix: '/users' }});\n"
        ),
        "plugins/users.js": _PLUGIN,
    }
    assert _routes(files) == {"GET /users/list": False}
    assert _findings(files) == []


def test_a_koa_router_from_an_imported_module() -> None:
    files = {
        "app.js": (
            "const Koa = require('koa');\nconst app = new Koa();\n"
            "async function boot() {\n  const { default: api } = await import('./api.mjs');\n"
            "  app.use(api.routes());\n}\nboot();\n"
        ),
        "api.mjs": (
            "import Router from '@koa/router';\nconst api = new Router({ prefix: '/api' });\n"
            "api.get('/ping', h);\nexport default api;\n"
        ),
    }
    assert _routes(files) == {"GET /api/ping": False}


@pytest.mark.parametrize(
    ("start", "mount_line"),
    [
        pytest.param(
            "const m = await import(process.env.ROUTES);\napp.use('/api', m.default);\n",
            4,
            id="environment",
        ),
        pytest.param(
            "async function start(spec) {\n  const m = await import(spec);\n"
            "  app.use('/api', m.default);\n}\nstart('./routes/v1.js');\n",
            5,
            id="parameter",
        ),
        pytest.param(
            "const v = process.argv[2];\n"
            "import(`./routes/${v}.js`).then((m) => app.use('/api', m.default));\n",
            4,
            id="template-of-an-argument",
        ),
        pytest.param(
            "import path from 'node:path';\n"
            "const m = await import(path.resolve(__dirname, '/srv/routes/v1.js'));\n"
            "app.use('/api', m.default);\n",
            5,
            id="an-absolute-path",
        ),
        pytest.param(
            "import { where } from './where.js';\n"
            "const { default: r } = await import(where());\napp.use('/api', r);\n",
            5,
            id="a-call",
        ),
    ],
)
def test_an_import_of_a_module_not_known_is_flagged_never_guessed(
    start: str, mount_line: int
) -> None:
    files = {
        "server.js": _EXPRESS + start,
        "routes/v1.js": _V1,
        "where.js": "export const where = () => './routes/v1.js';\n",
    }
    assert _routes(files) == {"GET /items": True}  # listed, its prefix unknown
    findings = dict(_findings(files))
    assert findings["UNRESOLVED_ROUTER"] == [f"server.js:{mount_line}"]
    assert "routes/v1.js:3" in findings["UNRESOLVED_PREFIX"]


def test_the_framework_itself_loaded_by_import_makes_apps_and_routers() -> None:
    files = {
        "server.mjs": (
            "const express = (await import('express')).default;\n"
            "const { Router } = await import('express');\n"
            "const app = express();\nconst r = Router();\n"
            "r.get('/x', h);\napp.use('/api', r);\n"
        ),
    }
    assert _routes(files) == {"GET /api/x": False}
