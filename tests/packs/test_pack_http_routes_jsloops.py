"""Routes registered in loops over tables the file spells (`packs.routes.js_loops`): `for...in`,
`Object.keys/values/entries` (with `for...of` or `forEach`), `T[k]` and `T[k].field` lookups,
spread tables, loop-body locals, nested loops, and the project's helpers called in them with the
router as a parameter; what cannot be bound is a finding at the call, and the unrolling is
bounded. Each repository is scanned parsing every file and through the pre-filter: the two
documents must be equal."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import findings_of, places_of, pre_filtered, write_files

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "repos"


# ------------------------------------------------------------------ Express, CommonJS, helpers


def test_express_routes_from_object_tables_keys_values_and_entries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`for (var s in ACTIONS) ACTIONS[s].forEach(step => bindAction(api, '/v1', …,
    SECTIONS[s].root + step.at, step.verb))` with the helper in another file calling
    `target[verb](root + subPath, …)`; `Object.keys` in a `for...of`, `Object.entries` of a
    spread-merged table, `Object.values` of records: each route with its real path and method,
    at the call in the loop. Keys computed at runtime (`Object.keys(loadPlugins())`) are a
    finding at that call."""
    document = pre_filtered(FIXTURES / "js-loops-express", monkeypatch)[0]
    api = "src/routes/api.js"
    assert places_of(document) == {
        "DELETE /ledger/v1/journals/entries/{entryId}": (api, 31),
        "GET /ledger/livez": (api, 37),
        "GET /ledger/readyz": (api, 37),
        "GET /ledger/reports/daily": (api, 51),
        "GET /ledger/reports/{year}": (api, 51),
        "GET /ledger/v1/accounts/all": (api, 31),
        "POST /ledger/hooks/github": (api, 44),
        "POST /ledger/hooks/stripe": (api, 44),
        "POST /ledger/v1/accounts/open": (api, 31),
        "PUT /ledger/hooks/legacy": (api, 44),
        "PUT /ledger/v1/journals/entries": (api, 31),
    }
    assert findings_of(document) == [("UNRESOLVED_ROUTE", [(api, 55)])]


# ------------------------------------------------------------- Koa, TypeScript ESM, a wrapper


def test_koa_wrapper_in_nested_loops_over_tables_with_a_shadowed_parameter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`Object.entries(ENDPOINTS).forEach(([group, list]) => { for (const item of list) {
    const { prefix, ctrl } = SCOPES[group]; wire(portal, '/api', ctrl, item.act, prefix +
    item.url, item.verb) } })`: the inner loop iterates what the outer binds, the destructured
    local is read per iteration, koa-router's `del` is DELETE, and the helper's `path`
    parameter is what its callers pass although the file imports Node's `path`."""
    document = pre_filtered(FIXTURES / "js-loops-koa", monkeypatch)[0]
    portal = "src/http/portal.ts"
    assert places_of(document) == {
        "DELETE /api/patients/{pid}": (portal, 27),
        "GET /admin/audit": (portal, 33),
        "GET /admin/export": (portal, 33),
        "GET /api/patients/{pid}": (portal, 27),
        "PATCH /api/visits/{vid}": (portal, 27),
        "POST /api/visits": (portal, 27),
    }
    assert findings_of(document) == []


# ----------------------------------------------------------------- Fastify, route options


def test_fastify_route_options_built_in_loops_over_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`instance.route({ method: view.method, url, handler })` for each `[url, view]` of
    `Object.entries(T)`, and `{ method: BULK[job], url: `/bulk/${job}` }` for each key: the
    method is read per iteration, under the plugin's register prefix."""
    document = pre_filtered(FIXTURES / "js-loops-fastify", monkeypatch)[0]
    stock = "src/stock.mjs"
    assert places_of(document) == {
        "GET /stock/bulk/export": (stock, 13),
        "GET /stock/skus": (stock, 10),
        "POST /stock/bulk/import": (stock, 13),
        "PUT /stock/skus/{sku}": (stock, 10),
    }
    assert findings_of(document) == []


# ------------------------------------------------------------------------ smaller constructs


def test_a_table_local_to_the_function_and_an_entry_read_by_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table declared in the function the loop is in (not at the top level), a `[key,
    value]` entry read as `e[0]`/`e[1]`, and a `var` for-in variable."""
    write_files(tmp_path, {
        "package.json": '{"dependencies": {"express": "4"}}',
        "index.js": "const express = require('express');\n"
                    "function build() {\n"
                    "  const app = express();\n"
                    "  const PAGES = { about: '/about', terms: '/terms' };\n"
                    "  for (const e of Object.entries(PAGES)) app.get(e[1], (q, r) => r.end(e[0]));\n"
                    "  const VERBS = { a: 'put', b: 'patch' };\n"
                    "  for (var k in VERBS) app[VERBS[k]]('/items/' + k, (q, r) => r.end());\n"
                    "  return app;\n}\nbuild().listen(3000);\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {
        "GET /about": ("index.js", 5),
        "GET /terms": ("index.js", 5),
        "PATCH /items/b": ("index.js", 7),
        "PUT /items/a": ("index.js", 7),
    }
    assert findings_of(document) == []


def test_tables_imported_from_other_modules_are_unrolled_by_the_linker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loops over the keys, values or entries of an object another module exports (CommonJS
    `module.exports = {...}`, ESM `export const`), with `T[k]`, `T[k].field` and `v.field`
    lookups, also passed to a helper taking the router: one route per key, at the call in the
    loop. An imported name that is no object the files show (a function's result) and a
    second imported loop nested in the first stay findings at their calls."""
    write_files(tmp_path, {
        "package.json": '{"type": "module", "dependencies": {"express": "4"}}',
        "verbs.cjs": "module.exports = { users: 'get', orders: 'post' };\n",
        "areas.js": "export const AREAS = {\n  shop: { root: '/shop/' },\n  blog: { root: '/blog/' },\n};\n"
                    "export const RECORDS = { a: { method: 'put', path: '/a' } };\n"
                    "export const load = () => ({ x: 1 });\n",
        "wire.js": "export function wire(target, base, leaf) {\n  target.patch(base + leaf, (q, r) => r.end());\n}\n",
        "app.js": "import express from 'express';\nimport VERBS from './verbs.cjs';\n"
                  "import { AREAS, RECORDS, load } from './areas.js';\nimport { wire } from './wire.js';\n"
                  "const app = express();\n"
                  "Object.keys(VERBS).forEach((name) => app[VERBS[name]]('/' + name, h));\n"
                  "for (const area in AREAS) app.get(AREAS[area].root + 'feed', h);\n"
                  "Object.entries(AREAS).forEach(([area, spec]) => wire(app, spec.root, area));\n"
                  "for (const rec of Object.values(RECORDS)) app[rec.method](rec.path, h);\n"
                  "for (const k in load) app.get('/l/' + k, h);\n"
                  "for (const a in AREAS) for (const v in VERBS) app.get(`/${a}/${v}`, h);\n"
                  "app.listen(3000);\nfunction h(q, r) { r.end(); }\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {
        "GET /blog/feed": ("app.js", 7),
        "GET /shop/feed": ("app.js", 7),
        "GET /users": ("app.js", 6),
        "PATCH /blog/blog": ("app.js", 8),
        "PATCH /shop/shop": ("app.js", 8),
        "POST /orders": ("app.js", 6),
        "PUT /a": ("app.js", 9),
    }
    assert findings_of(document) == [
        ("UNRESOLVED_ROUTE", [("app.js", 10)]),
        ("UNRESOLVED_ROUTE", [("app.js", 11)]),  # `/blog/…`, its inner key not known
        ("UNRESOLVED_ROUTE", [("app.js", 11)]),  # `/shop/…`
    ]


def test_lists_of_route_records_imported_from_other_modules_are_unrolled_by_the_linker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`RECORDS.forEach(r => app[r.method](r.path, h))`, `for (const { verb, url } of
    RECORDS)` (destructured in the loop or in its body) over a list of route records another
    module exports, also into a helper, and a method changed in case in the loop's body: one
    route per record, at the call in the loop. A list whose items are not route records is a
    finding at the call."""
    write_files(tmp_path, {
        "package.json": '{"dependencies": {"koa": "2", "koa-router": "12"}}',
        "records.js": "module.exports = [\n  { method: 'get', path: '/teams', handler: 1 },\n"
                      "  { method: 'del', path: '/teams/:tid', handler: 2 },\n];\n",
        "names.js": "module.exports = ['alpha', 'beta'];\n",
        "routes.js": "const Router = require('koa-router');\nconst RECORDS = require('./records');\n"
                     "const NAMES = require('./names');\nconst { mount } = require('./mount');\n"
                     "const router = new Router({ prefix: '/api' });\n"
                     "RECORDS.forEach((r) => router[r.method](r.path, async () => {}));\n"
                     "for (const rec of RECORDS) {\n  const { method, path } = rec;\n"
                     "  mount(router, '/v2', path, method);\n}\n"
                     "NAMES.forEach((n) => router.get('/n/' + n, async () => {}));\n"
                     "for (const rec of RECORDS) {\n  const verb = rec.method.toLowerCase();\n"
                     "  router[verb]('/v3' + rec.path, async () => {});\n}\n"
                     "module.exports = router;\n",
        "mount.js": "exports.mount = (r, base, path, verb) => r[verb](base + path, async () => {});\n",
        "app.js": "const Koa = require('koa');\nconst router = require('./routes');\n"
                  "new Koa().use(router.routes()).listen(3000);\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {
        "DELETE /api/teams/{tid}": ("routes.js", 6),
        "DELETE /api/v2/teams/{tid}": ("routes.js", 9),
        "DELETE /api/v3/teams/{tid}": ("routes.js", 14),
        "GET /api/teams": ("routes.js", 6),
        "GET /api/v2/teams": ("routes.js", 9),
        "GET /api/v3/teams": ("routes.js", 14),
    }
    assert findings_of(document) == [("UNRESOLVED_ROUTE", [("routes.js", 11)])]


def test_route_lists_assembled_from_other_lists_are_flattened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list of route records made of others: `[...a, ...local, { method, path }]`,
    `[].concat(b, C)`, a module exporting `Object.values({ x: { method, url, handler } })`;
    a loop over it is one route per record. `app[T[k].toLowerCase()].call(app, path, h)`: the
    method's case changed as the file spells it, `this` passed first."""
    write_files(tmp_path, {
        "package.json": '{"dependencies": {"express": "4"}}',
        "a.js": "module.exports = [{ method: 'get', path: '/a1' }];\n",
        "b.js": "module.exports = Object.values({\n  x: { method: 'post', url: '/b1', handler() {} },\n"
                "  y: { method: 'put', url: '/b2' },\n});\n",
        "c.mjs": "export const C = [{ method: 'delete', url: '/c1' }];\n",
        "all.js": "const a = require('./a');\n"
                  "const local = [{ method: 'patch', path: '/l1' }];\n"
                  "module.exports = [...a, ...local, { method: 'head', path: '/own' }];\n",
        "more.js": "const b = require('./b');\nconst { C } = require('./c.mjs');\n"
                   "module.exports = [].concat(b, C);\n",
        "app.js": "const express = require('express');\nconst ALL = require('./all');\n"
                  "const MORE = require('./more');\nconst app = express();\n"
                  "ALL.forEach((r) => app[r.method](r.path, h));\n"
                  "for (const { method, url } of MORE) app[method.toUpperCase()]('/m' + url, h);\n"
                  "const T = { x: 'GET', y: 'Post' };\n"
                  "for (const k in T) app[T[k].toLowerCase()].call(app, '/t/' + k, h);\n"
                  "app.listen(3000);\nfunction h(q, r) { r.end(); }\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {
        "DELETE /m/c1": ("app.js", 6),
        "GET /a1": ("app.js", 5),
        "GET /t/x": ("app.js", 8),
        "HEAD /own": ("app.js", 5),
        "PATCH /l1": ("app.js", 5),
        "POST /m/b1": ("app.js", 6),
        "POST /t/y": ("app.js", 8),
        "PUT /m/b2": ("app.js", 6),
    }
    assert findings_of(document) == []


def test_koa_router_register_with_a_methods_list_in_a_loop_and_a_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """koa-router's `register(path, methods, middleware)`: a literal list of methods, one a
    loop over a table gives (`[VERBS[k]]`), one a helper's callers pass (`[method]`); methods
    computed out of sight are a finding at the call."""
    write_files(tmp_path, {
        "package.json": '{"dependencies": {"koa": "2", "@koa/router": "12"}}',
        "server.js": "const Koa = require('koa');\nconst Router = require('@koa/router');\n"
                     "const { expose } = require('./expose');\n"
                     "const api = new Router({ prefix: '/api' });\n"
                     "api.register('/one', ['GET', 'POST'], [guard, handle]);\n"
                     "const VERBS = { fetch: 'get', store: 'put' };\n"
                     "for (const k in VERBS) api.register('/' + k, [VERBS[k]], handle);\n"
                     "expose(api, '/v', '/x', 'patch');\n"
                     "api.register('/odd', methodsFrom(), handle);\n"
                     "new Koa().use(api.routes()).listen(3000);\n"
                     "function guard(ctx, next) { return next(); }\nfunction handle(ctx) {}\n",
        "expose.js": "exports.expose = (r, base, path, method) => {\n"
                     "  r.register(base + path, [method], async (ctx) => {});\n};\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {
        "GET /api/fetch": ("server.js", 7),
        "GET /api/one": ("server.js", 5),
        "PATCH /api/v/x": ("server.js", 8),
        "POST /api/one": ("server.js", 5),
        "PUT /api/store": ("server.js", 7),
    }
    assert findings_of(document) == [("UNRESOLVED_ROUTE", [("server.js", 9)])]


# ------------------------------------------------------------------------------ the budget


def _big_table(keys: int) -> str:
    return "const BIG = {\n" + "".join(f"  k{n}: '/r{n}',\n" for n in range(keys)) + "};\n"


def test_a_5000_key_table_and_nested_loops_past_the_budget_arefindings_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A loop over a 5,000-key object, and two nested loops over 40 keys each (1,600
    iterations), are past the per-call budget: each call is one finding at its line, no route
    is guessed; nested loops of 30 × 30 within it give their 900 routes."""
    write_files(tmp_path, {
        "package.json": '{"dependencies": {"express": "4"}}',
        "app.js": "const express = require('express');\n"
                  + _big_table(5000)
                  + "const FORTY = {" + ", ".join(f"f{n}: 'f{n}'" for n in range(40)) + "};\n"
                  + "const THIRTY = {" + ", ".join(f"t{n}: 't{n}'" for n in range(30)) + "};\n"
                  + "const app = express();\n"
                  + "for (const k in BIG) app.get(BIG[k], h);\n"
                  + "for (const a in FORTY) for (const b in FORTY) app.post(`/${a}/${b}`, h);\n"
                  + "Object.keys(THIRTY).forEach((a) => {\n"
                  + "  Object.values(THIRTY).forEach((b) => app.put('/' + a + '/' + b, h));\n"
                  + "});\nfunction h(q, r) { r.end(); }\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    names = [r["name"] for r in document["resources"]]
    assert len(names) == 900
    assert all(name.startswith("PUT /t") for name in names)
    assert "PUT /t29/t0" in names
    assert findings_of(document) == [
        ("UNRESOLVED_ROUTE", [("app.js", 5007)]),
        ("UNRESOLVED_ROUTE", [("app.js", 5008)]),
    ]


@pytest.mark.parametrize("keys", [1, 7, 64, 1024])
def test_every_key_of_a_table_within_the_budget_is_a_route(keys: int) -> None:
    """A loop over an n-key table gives its n routes, up to the per-call budget (1,024)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from routes_harness import names

    files = {
        "package.json": '{"dependencies": {"express": "4"}}',
        "app.js": "const express = require('express');\n"
        + _big_table(keys)
        + "const app = express();\n"
        + "Object.entries(BIG).forEach(([name, path]) => app.get(path, h));\n"
        + "function h(q, r) { r.end(); }\n",
    }
    assert names(files) == {f"GET /r{n}" for n in range(keys)}
