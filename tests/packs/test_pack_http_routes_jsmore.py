"""JavaScript/TypeScript classes an outside evaluation found (issues 34 and 36): a hand-written
module with a long string is not a minified bundle; each case holds the pre-filtered document to
parse-all's."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from routes_harness import pre_filtered, write_files


def _unresolved(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(u["path"], u["reason"], u["detail"]) for u in document["unresolved"]]


# ------------------------------------------------------------ long strings are not minified

_PROSE = " ".join(f"Paragraph {n}: it's a note, see https://example.test/{n}." for n in range(60))


def test_a_long_string_in_hand_written_code_is_read_and_a_bundle_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line of 1,000+ characters near the top is a bundle only when it is code: an embedded
    document in a template literal (quotes, `//` and `;` inside), a data URI in a string, a long
    licence comment leave the module read; a bundle's line is skipped even when it opens on a
    long string, and a file whose long line starts after the first 4 KB is read."""
    write_files(tmp_path, {
        "server/app.js": "const express = require('express');\nconst app = express();\n"
                         "const notes = require('./notes');\nconst logo = require('./logo');\n"
                         "app.use('/notes', notes);\napp.use('/logo', logo);\n"
                         "module.exports = app;\n",
        "server/notes.ts": "import { Router } from 'express';\n"
                           f"const WELCOME = `# Welcome\n\n{_PROSE}\n\n## End; {{done}}\n`;\n"
                           "const router = Router();\n"
                           "router.get('/welcome', (req, res) => res.send(WELCOME));\n"
                           "export = router;\n",
        "server/logo.js": f"/* {_PROSE} */\n"
                          f"const PNG = 'data:image/png;base64,{'iVBORw0KGgo' * 300}';\n"
                          "const router = require('express').Router();\n"
                          "router.get('/png', (req, res) => res.send(PNG));\n"
                          "module.exports = router;\n",
        "public/vendor.js": f"var s=\"{'x' * 300}\";" + "a.get('/hidden',h);b(c,d);" * 80 + "\n",
        "server/late.js": "// padding\n" * 400 + "var q = [" + "1," * 800 + "];\n"
                          "require('./app').get('/late', (req, res) => res.end());\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert [r["name"] for r in document["resources"]] == [
        "GET /late",
        "GET /logo/png",
        "GET /notes/welcome",
    ]
    assert _unresolved(document) == [
        ("public/vendor.js", "unsupported", "generated code is not read (a minified bundle)"),
    ]


# ------------------------------------------- an instance passed on through functions of the app


def _findings(document: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [
        (f["code"], f["locations"][0]["path"], f["locations"][0]["line"])
        for f in document.get("findings", [])
    ]


def test_a_server_passed_on_through_intermediate_functions_reaches_the_routes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`wire(server)` passes its parameter on to each feature's registration function, one of
    them through a namespace import and one more function deep: every route is served by the
    app made in main, with no `UNRESOLVED_PREFIX`; a registration function nothing calls keeps
    its finding, and an Express router made by a function given the app through a passer is
    mounted under its prefix."""
    write_files(tmp_path, {
        "package.json": '{"name": "svc", "dependencies": {"fastify": "5", "express": "4"}}',
        "src/main.ts": "import fastify from 'fastify';\nimport wire from './wire';\n"
                       "const instance = fastify();\nwire(instance);\ninstance.listen({});\n",
        "src/wire.ts": "import type { FastifyInstance } from 'fastify';\n"
                       "import * as features from './features';\n"
                       "import { billingRoutes } from './billing/routes';\n"
                       "function inner(f: FastifyInstance, unused: number) {\n"
                       "  features.accountRoutes(f);\n}\n"
                       "export default function wire(server: FastifyInstance) {\n"
                       "  inner(server, 1);\n  billingRoutes(server);\n}\n",
        "src/features.ts": "export function accountRoutes(app: any) {\n"
                           "  app.get('/v2/accounts/:id', async () => ({}));\n}\n"
                           "export function orphanRoutes(app: any) {\n"
                           "  app.delete('/v2/orphans', async () => ({}));\n}\n",
        "src/billing/routes.ts": "export const billingRoutes = (api) => {\n"
                                 "  api.post('/v2/invoices', async () => ({}));\n};\n",
        "web/index.js": "const express = require('express');\nconst setup = require('./setup');\n"
                        "const app = express();\nsetup(app);\n",
        "web/setup.js": "const { mountShop } = require('./shop');\n"
                        "module.exports = function setup(application) {\n"
                        "  mountShop(application);\n};\n",
        "web/shop.js": "const express = require('express');\n"
                       "exports.mountShop = (target) => {\n  const r = express.Router();\n"
                       "  r.get('/cart', (req, res) => res.end());\n  target.use('/shop', r);\n};\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert {
        r["name"]: r["attrs"].get("prefixUnresolved", False) for r in document["resources"]
    } == {
        "DELETE /v2/orphans": True,
        "GET /shop/cart": False,
        "GET /v2/accounts/{id}": False,
        "POST /v2/invoices": False,
    }
    assert _findings(document) == [("UNRESOLVED_PREFIX", "src/features.ts", 4)]


# ----------------------------------- workspace packages whose entry point is unbuilt output


def test_a_workspace_package_built_to_an_absent_folder_is_read_from_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workspace packages whose `main`/`exports` name a `dist/`/`build/` the repository does not
    hold are read from their source: `source`, else `types` as the `.ts` beside the
    declarations, else `src/index`; a router and a prefix constant imported by package name
    are then read. A package whose source cannot be found is still a finding at the mount."""
    write_files(tmp_path, {
        "package.json": '{"name": "mono", "private": true, "workspaces": ["packages/*", "apps/*"]}',
        "apps/api/package.json": '{"name": "api", "dependencies": {"express": "4"}}',
        "apps/api/server.ts": "import express from 'express';\n"
                              "import { PREFIXES } from '@acme/constants';\n"
                              "import usersRouter from '@acme/users';\n"
                              "import { auditRouter } from '@acme/audit';\n"
                              "import ghost from '@acme/ghost';\n"
                              "const app = express();\n"
                              "app.use(PREFIXES.users, usersRouter);\n"
                              "app.use('/audit', auditRouter);\n"
                              "app.use('/ghost', ghost);\n",
        "packages/constants/package.json": '{"name": "@acme/constants", "main": "dist/index.js",'
                                           ' "exports": {".": {"import": "./dist/index.mjs",'
                                           ' "require": "./dist/index.cjs"}}}',
        "packages/constants/src/index.ts": "export const PREFIXES = { users: '/api/people' };\n",
        "packages/users/package.json": '{"name": "@acme/users", "main": "build/main.js",'
                                       ' "source": "lib/entry.ts", "types": "build/main.d.ts"}',
        "packages/users/lib/entry.ts": "import { Router } from 'express';\n"
                                       "const r = Router();\nr.get('/:id', (q, s) => s.end());\n"
                                       "export default r;\n",
        "packages/audit/package.json": '{"name": "@acme/audit", "main": "out/index.js",'
                                       ' "typings": "routes.d.ts"}',
        "packages/audit/routes.ts": "import express from 'express';\n"
                                    "export const auditRouter = express.Router();\n"
                                    "auditRouter.post('/events', (q, s) => s.end());\n",
        "packages/ghost/package.json": '{"name": "@acme/ghost", "main": "dist/index.js"}',
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert {r["name"]: r["location"]["path"] for r in document["resources"]} == {
        "GET /api/people/{id}": "packages/users/lib/entry.ts",
        "POST /audit/events": "packages/audit/routes.ts",
    }
    assert [(f["code"], f["locations"][0]["path"], f["locations"][0]["line"])
            for f in document.get("findings", [])] == [
        ("UNRESOLVED_ROUTER", "apps/api/server.ts", 9)
    ]  # fmt: skip


# ------------------------------------------- a wrapper joining its parameters into the path


def test_a_wrapper_joining_its_parameters_into_a_path_gives_each_call_its_route(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A helper of the project's that registers `base + path` (or a template of them) with a
    computed verb on the router it is given: each call site is a route with its joined path,
    placed at the call; a call passing a path not known is a finding at that call."""
    write_files(tmp_path, {
        "package.json": '{"name": "k", "dependencies": {"koa": "2", "@koa/router": "12"}}',
        "src/app.js": "const Koa = require('koa');\nconst api = require('./api');\n"
                      "const app = new Koa();\napp.use(api.routes());\n",
        "src/util/register.js": "exports.bind = function (r, base, path, verb, fn) {\n"
                                "  r[verb](base + path, fn);\n};\n"
                                "exports.bindTpl = (r, scope, rest) => {\n"
                                "  r.patch(`/${scope}/v1${rest}`, async (ctx) => {});\n};\n",
        "src/api.js": "const Router = require('@koa/router');\n"
                      "const reg = require('./util/register');\n"
                      "const api = new Router();\nconst ROOT = '/api';\n"
                      "reg.bind(api, ROOT, '/users', 'get', async (ctx) => {});\n"
                      "reg.bind(api, '/admin', '/flags/:flag', 'delete', async (ctx) => {});\n"
                      "reg.bindTpl(api, 'teams', '/members');\n"
                      "reg.bind(api, ROOT, process.env.EXTRA, 'get', async (ctx) => {});\n"
                      "module.exports = api;\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert {r["name"]: r["location"]["line"] for r in document["resources"]} == {
        "DELETE /admin/flags/{flag}": 6,
        "GET /api/users": 5,
        "PATCH /teams/v1/members": 7,
    }
    assert [(f["code"], [(p["path"], p["line"]) for p in f["locations"]])
            for f in document.get("findings", [])] == [
        ("UNRESOLVED_ROUTE", [("src/api.js", 8), ("src/util/register.js", 2)]),
    ]  # fmt: skip


# ------------------------------------ a wrapper called from a loop over a table of records


def test_a_wrapper_called_in_a_loop_over_records_gives_one_route_per_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ENDPOINTS.forEach(e => expose(router, '/svc', e.url, e.verb))` and a `for...of` over
    destructured records: each record is one call of the wrapper, its route at the loop's
    call; a loop over an object's keys (`for...in`) is unrolled as well; one over keys the file
    does not spell (`process.env`) is a finding at the call, never silence."""
    write_files(tmp_path, {
        "package.json": '{"name": "k", "dependencies": {"koa": "2", "koa-router": "7"}}',
        "lib/app.ts": "import Koa from 'koa';\nimport router from './server';\n"
                      "new Koa().use(router.routes());\n",
        "lib/expose.ts": "export function expose(rt: any, root: string, url: string, verb: string) {\n"
                         "  rt[verb](`${root}${url}`, async () => {});\n}\n",
        "lib/server.ts": "import Router from 'koa-router';\nimport { expose } from './expose';\n"
                         "const router = new Router();\n"
                         "const ENDPOINTS = [\n  { url: '/health', verb: 'get' },\n"
                         "  { url: '/jobs/:id', verb: 'put' },\n];\n"
                         "ENDPOINTS.forEach((e) => {\n  expose(router, '/svc', e.url, e.verb);\n});\n"
                         "const MORE = [['/ping', 'head']];\n"
                         "for (const [url, verb] of MORE) expose(router, '', url, verb);\n"
                         "const BY_AREA = { a: [{ url: '/x', verb: 'get' }] };\n"
                         "for (const area in BY_AREA) {\n"
                         "  BY_AREA[area].forEach((e) => expose(router, '/' + area, e.url, e.verb));\n"
                         "}\nfor (const k in process.env) expose(router, '/' + k, '', 'get');\n"
                         "export default router;\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert {r["name"]: r["location"]["line"] for r in document["resources"]} == {
        "GET /a/x": 15,
        "GET /svc/health": 9,
        "HEAD /ping": 12,
        "PUT /svc/jobs/{id}": 9,
    }
    assert [(f["code"], [(p["path"], p["line"]) for p in f["locations"]])
            for f in document.get("findings", [])] == [
        ("UNRESOLVED_ROUTE", [("lib/expose.ts", 2), ("lib/server.ts", 17)]),
    ]  # fmt: skip


# ------------------------------------------ a wrapper looping over the records it is given


def test_a_wrapper_looping_over_a_table_of_records_it_is_given_lists_each_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`createAction(router, base, routes)` that registers `router[r.method](base + r.path,
    …)` for each record (a `for...of`, or `forEach` with destructured fields), called with a
    literal table, a table imported from another file, and a table the files do not show:
    each record is a route placed at the call; the unknown table is a finding at its call."""
    write_files(tmp_path, {
        "package.json": '{"name": "k", "dependencies": {"express": "4"}}',
        "app.js": "const express = require('express');\nconst { mount, mountAll } = "
                  "require('./kit/mount');\nconst TABLE = require('./tables/orders');\n"
                  "const app = express();\nconst api = express.Router();\n"
                  "mount(api, '/v3', [\n  { method: 'get', path: '/carts' },\n"
                  "  { method: 'patch', path: '/carts/:cid' },\n]);\n"
                  "mountAll(api, '/v3/orders', TABLE);\n"
                  "mount(api, '/v3', loadTable());\n"
                  "app.use('/api', api);\n",
        "kit/mount.js": "function mount(router, base, routes) {\n"
                        "  for (const r of routes) {\n"
                        "    router[r.method](base + r.path, (req, res) => res.end());\n  }\n}\n"
                        "const mountAll = (target, root, records) => {\n"
                        "  records.forEach(({ url, method }) => {\n"
                        "    target[method](`${root}${url}`, (req, res) => res.end());\n  });\n};\n"
                        "module.exports = { mount, mountAll };\n",
        "tables/orders.js": "module.exports = [\n  { method: 'post', url: '' },\n"
                            "  { method: 'delete', url: '/:oid' },\n];\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert {r["name"]: (r["location"]["path"], r["location"]["line"])
            for r in document["resources"]} == {
        "DELETE /api/v3/orders/{oid}": ("app.js", 10),
        "GET /api/v3/carts": ("app.js", 6),
        "PATCH /api/v3/carts/{cid}": ("app.js", 6),
        "POST /api/v3/orders": ("app.js", 10),
    }  # fmt: skip
    assert [(f["code"], [(p["path"], p["line"]) for p in f["locations"]])
            for f in document.get("findings", [])] == [
        ("UNRESOLVED_ROUTE", [("app.js", 11), ("kit/mount.js", 3)]),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "minified"),
    [
        (b"!function(e){" + b"var a=e.b(c,d);" * 90 + b"}(window);\n", True),
        (b"const LOGO = 'data:image/svg+xml;base64," + b"PHN2Zz4" * 400 + b"';\n", False),
        (b'export const P = "M0 0L' + b" 10 20" * 400 + b'Z";\nf(P);\n', False),
        (b"const doc = `\n" + b"line, with; code-ish {text} " * 60 + b"\n`;\n", False),
        (b"// " + b"words " * 300 + b"\nmodule.exports = 1;\n", False),
        (b"/* start\n" + b"* " * 900 + b"\n*/ var x;\n", False),
        (b"var s = 'q" + b"x" * 900 + b"';" + b"g(h,i);" * 150 + b"\n", True),
        (b"// pad\n" * 600 + b"a();" * 400 + b"\n", False),  # the long line starts past 4 KB
    ],
)
def test_a_minified_bundle_is_told_by_code_on_a_long_line(text: bytes, minified: bool) -> None:
    """A long line is a bundle's when 1,000 of its characters are code; a string, template
    literal or comment that long is not."""
    from packs.scan_read import minified as is_minified

    assert is_minified(text) is minified


def test_routes_a_plugin_hook_registers_through_a_wrapper_are_listed_where_the_plugin_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrapper handed to a hook (`hooks.emit('routes', addRoute)`) that plugins call with
    records the files reach only through the hook: each listener's call of its parameter is a
    call of the wrapper (`linker._hooked`), listed where the plugin writes it."""
    write_files(tmp_path, {
        "package.json": '{"name": "k", "dependencies": {"koa": "2", "koa-router": "7"}}',
        "core/app.js": "const Koa = require('koa');\nconst router = require('./router');\n"
                       "new Koa().use(router.routes());\n",
        "core/hooks.js": "const all = {};\nexports.on = (n, f) => { (all[n] = all[n] || []).push(f); };\n"
                         "exports.emit = (n, ...a) => (all[n] || []).forEach((f) => f(...a));\n",
        "core/router.js": "const Router = require('koa-router');\nconst hooks = require('./hooks');\n"
                          "const router = new Router();\nrouter.get('/api/ping', async () => {});\n"
                          "function addRoute(cfg) {\n"
                          "  router[cfg.method]('/api/plugin/' + cfg.path, async () => {});\n}\n"
                          "hooks.emit('routes', addRoute);\nmodule.exports = router;\n",
        "plugins/status/index.js": "require('../../core/hooks').on('routes', (add) => {\n"
                                   "  add({ method: 'get', path: 'status' });\n});\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    placed = {r["name"]: r["location"] for r in document["resources"]}
    assert placed == {
        "GET /api/ping": {"path": "core/router.js", "line": 4},
        "GET /api/plugin/status": {"path": "plugins/status/index.js", "line": 2},
    }
    assert _findings(document) == []
