"""JavaScript/TypeScript registration constructs read since issue 34/36's later notes: a router
class reached through the project's aliases and re-exports, ... Each case holds the
pre-filtered document equal to parse-all's (`routes_harness.pre_filtered`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from routes_harness import pre_filtered, write_files


def _routes(document: dict[str, Any]) -> dict[str, str]:
    """Route name -> `file:line`, with ` ?` when its prefix is not known."""
    return {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}"
        + (" ?" if r["attrs"].get("prefixUnresolved") else "")
        for r in document["resources"]
    }


def _findings(document: dict[str, Any]) -> list[tuple[str, str, int]]:
    return sorted(
        (f["code"], loc["path"], loc["line"])
        for f in document.get("findings", [])
        for loc in f["locations"][:1]
    )


# ------------------------------------------------ a router class reached through aliases


def test_a_router_class_imported_under_an_alias_or_re_exported_makes_a_router(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`new` (or a capitalised call) of a name the file imports from the project, which leads
    through renamed imports, a barrel's `export { default as X } from`, a CommonJS object of
    `require`s and a module re-exporting a package, to a framework's app or router maker,
    makes that app or router (its `prefix` option read); a project class that leads to no
    framework stays what it was (its `get` is no route), and one the file never uses as a
    router is not followed (the pre-filter parses no file for it)."""
    write_files(tmp_path, {
        "srv/index.js": "const Web = require('./kit/web');\n"
                        "const { Branch: B, Cache } = require('./kit');\n"
                        "import { Tree as T } from './kit/tree';\n"
                        "const site = new Web();\n"
                        "const api = new B({ prefix: '/api' });\n"
                        "api.get('/items/:id', (ctx) => { ctx.body = 1; });\n"
                        "const leaf = new T();\n"
                        "leaf.post('/leaf', (ctx) => { ctx.body = 2; });\n"
                        "api.use('/nested', leaf.routes());\n"
                        "const cache = new Cache();\n"
                        "cache.get('/not-a-route', () => 0);\n"
                        "site.use(api.routes());\n"
                        "site.listen(3000);\n"
                        "const { Mailer } = require('./mail');\n"
                        "const mailer = new Mailer({ retries: 2 });\n",
        "srv/kit/index.js": "module.exports = { Branch: require('./router'), Cache: require('./cache') };\n",
        "srv/kit/router.js": "module.exports = require('@koa/router');\n",
        "srv/kit/web.js": "const Koa = require('koa');\nmodule.exports = Koa;\n",
        "srv/kit/cache.js": "class Cache { get(key, make) { return make(); } }\nmodule.exports = Cache;\n",
        "srv/kit/tree.ts": "export { default as Tree } from './base';\n",
        "srv/mail.js": "exports.Mailer = class Mailer { constructor(o) { this.o = o; } };\n",
        "srv/kit/base.ts": "import KoaRouter from 'koa-router';\nexport default KoaRouter;\n",
    })  # fmt: skip
    document, every, parsed = pre_filtered(tmp_path, monkeypatch)
    assert (every, parsed) == (8, 7)  # a name used as no router: its class's file not read
    assert _routes(document) == {
        "GET /api/items/{id}": "srv/index.js:6",
        "POST /api/nested/leaf": "srv/index.js:8",
    }
    assert _findings(document) == []


# ------------------------------------------------ Node's object of globals across files


def test_an_app_or_prefix_stored_on_global_in_one_file_is_read_in_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`global.X = v` / `globalThis.X = v` in one file is read in any other as `global.X`,
    `globalThis.X` or a free `X`: an app stored there serves the routes and mounts made on it
    elsewhere, a base path stored there (in a file that registers nothing, with an environment
    default) prefixes them; two files storing different values leave the prefix unknown; the
    object itself held under another name (`const g = global as …`) reads the same stores."""
    write_files(tmp_path, {
        "conf/base.js": "global.ROOT = process.env.ROOT || '/svc';\n",
        "srv/main.js": "require('../conf/base');\n"
                       "const express = require('express');\n"
                       "globalThis.web = express();\n"
                       "require('./feature');\n"
                       "web.listen(8080);\n",
        "srv/feature.js": "const { Router } = require('express');\n"
                          "const r = Router();\n"
                          "r.get('/list', (req, res) => res.json([]));\n"
                          "web.use(ROOT + '/feature', r);\n"
                          "global.web.delete(`${globalThis.ROOT}/gone/:id`, (q, s) => s.end());\n"
                          "const other = Router();\n"
                          "other.put('/x', (q, s) => s.end());\n"
                          "globalThis.web.use(global.SHIFT, other);\n",
        "srv/held.ts": "const g = global as typeof globalThis & { web: any };\n"
                       "g.web.patch('/held', (q: any, s: any) => s.end());\n"
                       "if (g.io) g.io.emit('done', 1);\n",
        "srv/a.js": "global.SHIFT = '/a';\n",
        "srv/b.js": "global.SHIFT = '/b';\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert _routes(document) == {
        "GET /svc/feature/list": "srv/feature.js:3",
        "DELETE /svc/gone/{id}": "srv/feature.js:5",
        "PATCH /held": "srv/held.ts:2",
        "PUT /x": "srv/feature.js:7 ?",
    }
    assert _findings(document) == [("UNRESOLVED_PREFIX", "srv/feature.js", 7)]


# ------------------------------------------------ callbacks given to array methods by name


def test_a_callback_given_by_name_runs_once_per_item(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`list.forEach(wire)` and `list.map(toEntry)` with the function declared elsewhere in the
    file (hoisted below its use, an arrow, a `function` expression) or imported: as the same
    call written inline, once per item (the index its second argument), also building a hapi
    route table from a list written there; an inline callback
    passing its item on to such a function the same; a list the file does not spell leaves
    what the function registers an `UNRESOLVED_ROUTE` where it is written."""
    write_files(tmp_path, {
        "api/server.js": "const express = require('express');\n"
                         "const one = require('./lib/one');\n"
                         "const app = express();\n"
                         "const SPEC = [{ verb: 'get', at: '/alpha' }, { verb: 'patch', at: '/beta/:id' }];\n"
                         "SPEC.forEach(wire);\n"
                         "const toEntry = function (name) { return { url: '/' + name }; };\n"
                         "['gamma', 'delta'].map(toEntry).forEach((e) => app.post(e.url, ok));\n"
                         "['/x1', '/x2'].forEach(one.mountOne);\n"
                         "// the same function given again through a member of the import\n"
                         "const { mountOne } = one;\n"
                         "['/x3'].forEach(mountOne);\n"
                         "[{ verb: 'put', at: '/eps' }].forEach((row) => wire(row, 0));\n"
                         "remote().forEach(wire);\n"
                         "app.use('/one', one.router);\n"
                         "function ok(req, res) { res.end(); }\n"
                         "function wire(row, i) {\n"
                         "  app[row.verb](row.at, ok);\n"
                         "}\n"
                         "module.exports = app;\n",
        "api/hapi.js": "const Hapi = require('@hapi/hapi');\n"
                       "const kit = require('./lib/kit');\n"
                       "const { asRoute } = kit;\n"
                       "const server = Hapi.server();\n"
                       "server.route(['h1', 'h2'].map(asRoute));\n"
                       "const LISTED = ['h3'].map(kit.asRoute);\n"
                       "server.route(LISTED);\n"
                       "function local(n) { return { method: 'DELETE', path: `/l/${n}`, handler: () => n }; }\n"
                       "server.route(['l1'].map(local));\n",
        "api/lib/kit.js": "exports.asRoute = (n) => ({ method: 'GET', path: '/h/' + n, handler: () => n });\n",
        "api/lib/one.js": "const router = require('express').Router();\n"
                          "exports.router = router;\n"
                          "exports.mountOne = (p) => router.get(p, (q, s) => s.end());\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert _routes(document) == {
        "GET /alpha": "api/server.js:5",
        "PATCH /beta/{id}": "api/server.js:5",
        "POST /gamma": "api/server.js:7",
        "POST /delta": "api/server.js:7",
        "GET /one/x1": "api/server.js:8",
        "GET /one/x2": "api/server.js:8",
        "GET /one/x3": "api/server.js:11",
        "PUT /eps": "api/server.js:12",
        "GET /h/h1": "api/hapi.js:5",
        "GET /h/h2": "api/hapi.js:5",
        "GET /h/h3": "api/hapi.js:7",
        "DELETE /l/l1": "api/hapi.js:9",
    }
    assert _findings(document) == [("UNRESOLVED_ROUTE", "api/server.js", 13)]


# ------------------------------------------------ compound tests around registrations


def test_compound_tests_on_configuration_defaults_decide_what_is_registered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`&&`, `||` and `!` over configuration values with visible defaults (an environment
    variable's `||`/`??` default, one with none being unset), in an `if`, a ternary statement
    or a short-circuit statement, are read as JavaScript evaluates them: a side the pack
    cannot tell leaves the test unknown unless the other settles it; a route its test's
    defaults do not run is not listed, with the finding saying why."""
    write_files(tmp_path, {
        "web/app.js": "const express = require('express');\n"
                      "const settings = require('./settings');\n"
                      "const app = express();\n"
                      "const ok = (req, res) => res.end();\n"
                      "if (settings.admin && settings.mode !== 'prod') { app.get('/admin', ok); }\n"
                      "if (settings.admin || settings.tier === 'basic') app.get('/basic', ok);\n"
                      "if (!settings.admin && !(settings.mode === 'dev')) app.get('/prod', ok);\n"
                      "if (settings.mode === 'dev' || settings.tier === 'full') app.get('/dev', ok);\n"
                      "if (probe() && settings.mode === 'dev') app.get('/probe-dev', ok);\n"
                      "if (probe() || settings.mode === 'dev') app.get('/probe-any', ok);\n"
                      "settings.mode === 'dev' ? app.get('/t-dev', ok) : app.get('/t-prod', ok);\n"
                      "settings.admin && app.get('/sc-admin', ok);\n"
                      "settings.admin || app.get('/sc-public', ok);\n"
                      "if (settings.mode !== 'prod') { } else if (settings.tier === 'basic' && !settings.admin) {\n"
                      "  app.get('/nested', ok);\n"
                      "}\n"
                      "module.exports = app;\n",
        "web/settings.js": "module.exports = {\n"
                           "  admin: process.env.ENABLE_ADMIN || '',\n"
                           "  mode: process.env.MODE ?? 'prod',\n"
                           "  tier: process.env.TIER || 'basic',\n"
                           "};\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert sorted(_routes(document)) == [
        "GET /basic",
        "GET /nested",
        "GET /probe-any",
        "GET /prod",
        "GET /sc-public",
        "GET /t-prod",
    ]
    off = sorted(
        (f["locations"][0]["line"], f["detail"] if "detail" in f else f["message"])
        for f in document["findings"]
    )
    assert [line for line, _ in off] == [5, 8, 9, 11, 12]
    assert "`if (settings.admin && settings.mode !== 'prod')`" in off[0][1]


# ------------------------------------------------ lists and routers built by reduce


def test_reduce_building_a_router_or_a_list_of_routes_is_read_per_item(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`list.reduce(cb, init)`: a callback that registers on its accumulator and gives it
    back (`return r`, or the registration itself, which Express's verbs return) registers on
    `init` once per item, the item its second parameter; one building a list from `[]` with
    `all.concat(v)` or `[...all, v]` gives that list (looped over in the file, or a hapi route
    table); one building an object is not read, its routes found with their prefix unknown."""
    write_files(tmp_path, {
        "svc/app.js": "const express = require('express');\n"
                      "const app = express();\n"
                      "const KINDS = [{ how: 'get', where: '/r1' }, { how: 'delete', where: '/r2/:id' }];\n"
                      "app.use('/k', KINDS.reduce((acc, { how, where }) => acc[how](where, (q, s) => s.end()), express.Router()));\n"
                      "const extra = ['m1', 'm2'].reduce(function (router, seg) {\n"
                      "  router.patch(`/${seg}`, (q, s) => s.end());\n"
                      "  return router;\n"
                      "}, express.Router());\n"
                      "app.use('/extra', extra);\n"
                      "const table = ['x', 'y'].reduce((all, w) => all.concat([{ verb: 'put', at: '/t/' + w }]), []);\n"
                      "for (const t of table) app[t.verb](t.at, (q, s) => s.end());\n"
                      "const byName = ['n1'].reduce((o, n) => { const r = express.Router(); r.get('/' + n, (q, s) => s.end()); o[n] = r; return o; }, {});\n"
                      "Object.keys(byName).forEach((k) => app.use('/' + k, byName[k]));\n"
                      "module.exports = app;\n",
        "svc/hapi.js": "const Hapi = require('@hapi/hapi');\n"
                       "const server = Hapi.server();\n"
                       "const ops = ['a', 'b'].reduce((all, w) => [...all, { method: 'POST', path: '/ops/' + w, handler: () => w }], []);\n"
                       "server.route(ops);\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert _routes(document) == {
        "GET /k/r1": "svc/app.js:4",
        "DELETE /k/r2/{id}": "svc/app.js:4",
        "PATCH /extra/m1": "svc/app.js:6",
        "PATCH /extra/m2": "svc/app.js:6",
        "PUT /t/x": "svc/app.js:11",
        "PUT /t/y": "svc/app.js:11",
        "GET /n1": "svc/app.js:12 ?",
        "POST /ops/a": "svc/hapi.js:4",
        "POST /ops/b": "svc/hapi.js:4",
    }
    assert _findings(document) == [
        ("UNRESOLVED_PREFIX", "svc/app.js", 12),
        ("UNRESOLVED_ROUTER", "svc/app.js", 13),
        ("UNRESOLVED_ROUTER", "svc/app.js", 13),
    ]


# ------------------------------------------------ bundlers' folder loaders


def test_vite_glob_and_webpack_context_load_the_routers_of_their_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`import.meta.glob(pattern, { eager: true })` (from the file's folder, `/…` from the
    root) looped over with `Object.values`/`Object.entries`, and `require.context(dir, deep,
    re)` whose `keys()` are looped over with each module `ctx(key)`, mount the routers of the
    files they match (a subfolder only when `deep`, the expression tested on `./path`); a
    lazy glob is an `UNRESOLVED_ROUTE` at the call, the routers it would load listed with
    their prefix unknown."""
    router = ("import { Router } from 'express';\nconst r = Router();\n"
              "r.get('/{name}', (q, s) => s.end());\nexport default r;\nexport const router = r;\n")  # fmt: skip
    write_files(tmp_path, {
        "web/src/server.ts": "import express from 'express';\n"
                             "const app = express();\n"
                             "const pages = import.meta.glob('./pages/*.ts', { eager: true });\n"
                             "for (const [file, page] of Object.entries(pages)) app.use('/p', page.default);\n"
                             "Object.values(import.meta.glob('/web/src/extra/**/*.ts', { eager: true }))\n"
                             "  .forEach((m) => app.use('/x', m.router));\n"
                             "const ctx = require.context('./legacy', false, /^\\.\\/[a-z]+\\.js$/);\n"
                             "ctx.keys().forEach((key) => { const mod = ctx(key); app.use('/old', mod.default); });\n"
                             "const later = import.meta.glob('./later/*.ts');\n"
                             "for (const p in later) later[p]().then((m) => app.use('/later', m.default));\n"
                             "export default app;\n",
        "web/src/pages/home.ts": router.replace("{name}", "home"),
        "web/src/pages/about.ts": router.replace("{name}", "about"),
        "web/src/pages/notes.md": "not a script\n",
        "web/src/extra/deep/one.ts": router.replace("{name}", "one"),
        "web/src/legacy/alpha.js": router.replace("{name}", "alpha"),
        "web/src/legacy/Beta.js": router.replace("{name}", "beta"),
        "web/src/legacy/sub/gamma.js": router.replace("{name}", "gamma"),
        "web/src/later/soon.ts": router.replace("{name}", "soon"),
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert _routes(document) == {
        "GET /p/about": "web/src/pages/about.ts:3",
        "GET /p/home": "web/src/pages/home.ts:3",
        "GET /x/one": "web/src/extra/deep/one.ts:3",
        "GET /old/alpha": "web/src/legacy/alpha.js:3",
        "GET /beta": "web/src/legacy/Beta.js:3 ?",
        "GET /gamma": "web/src/legacy/sub/gamma.js:3 ?",
        "GET /soon": "web/src/later/soon.ts:3 ?",
    }
    assert ("UNRESOLVED_ROUTE", "web/src/server.ts", 9) in _findings(document)


# ------------------------------------------------ the classes together, against Express itself


def test_the_constructs_together_read_as_express_serves_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An app stored on `globalThis` and a base on `global` in other files, a router maker
    reached through a CommonJS object of re-exports, `forEach`/`map` given callbacks by name, a
    reduce registering on its accumulator, and compound and ternary tests on defaults: the
    routes listed are those Express 4.18.2 itself serves for this code with no environment
    variable set (its router stack walked by `bench/real_repos/derive/express_runtime_routes.js`),
    and the two it does not register are findings."""
    write_files(tmp_path, {
        "app.js": "require('./conf');\n"
                  "const express = require('express');\n"
                  "const { Maker: M } = require('./kit');\n"
                  'const app = express();\n'
                  'globalThis.app = app;\n'
                  'const ok = (req, res) => res.end();\n'
                  "const settings = { admin: process.env.ENABLE_ADMIN || '', mode: process.env.MODE ?? 'prod' };\n"
                  'const api = M();\n'
                  "const SPEC = [{ verb: 'get', at: '/alpha' }, { verb: 'post', at: '/beta/:id' }];\n"
                  'SPEC.forEach(wire);\n'
                  'function wire(row) { api[row.verb](row.at, ok); }\n'
                  "const toEntry = (name) => ({ url: '/e/' + name });\n"
                  "['gamma', 'delta'].map(toEntry).forEach((e) => api.patch(e.url, ok));\n"
                  "const more = ['m1', 'm2'].reduce((r, seg) => r.put('/' + seg, ok), express.Router());\n"
                  "if (settings.admin && settings.mode !== 'prod') api.get('/admin', ok);\n"
                  "if (!settings.admin && settings.mode === 'prod') api.get('/prod', ok);\n"
                  "settings.mode === 'dev' ? api.get('/t-dev', ok) : api.get('/t-prod', ok);\n"
                  "settings.admin || api.get('/public', ok);\n"
                  'app.use(BASE, api);\n'
                  "app.use(global.BASE + '/more', more);\n"
                  "require('./late');\n"
                  'module.exports = app;\n',
        "conf.js": "global.BASE = process.env.BASE || '/svc';\n",
        "kit/index.js": "module.exports = { Maker: require('./maker') };\n",
        "kit/maker.js": "module.exports = require('express').Router;\n",
        "late.js": 'app.delete(`${BASE}/gone/:id`, (q, s) => s.end());\n',
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert sorted(_routes(document)) == [
        "DELETE /svc/gone/{id}",
        "GET /svc/alpha",
        "GET /svc/prod",
        "GET /svc/public",
        "GET /svc/t-prod",
        "PATCH /svc/e/delta",
        "PATCH /svc/e/gamma",
        "POST /svc/beta/{id}",
        "PUT /svc/more/m1",
        "PUT /svc/more/m2",
    ]
    assert _findings(document) == [
        ("UNRESOLVED_ROUTE", "app.js", 15),
        ("UNRESOLVED_ROUTE", "app.js", 17),
    ]
