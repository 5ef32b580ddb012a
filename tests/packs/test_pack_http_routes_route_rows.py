"""Route tables of rows given to the project's own helper (`js_facts._item_destructured`,
`Linker._per_row`): the helper loops over its parameter and takes each row apart in a
declaration of the loop's body (`var [method, url, handler] = conf`, `const { method, path } =
item`), its method a computed member (`router[method](url, …)`); each call of the helper binds
the parameter to its own table (imported or local), and each row is one route per (method,
path), however many middleware calls register it. A router the reader does not model, passed to
such a helper, is a finding at the call, never the routers other calls pass."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import findings_of, places_of, pre_filtered, write_files

_KOA = '{"dependencies": {"koa": "2", "koa-router": "7"}}'


def test_rows_destructured_by_place_in_the_helper_body_are_one_route_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`var [method, url, ctl] = conf` in a `forEach` callback over the helper's parameter,
    three middleware calls per row; an imported table and a local one, each under its
    router's `prefix()`; rows carrying a handler and an options object past the path."""
    write_files(tmp_path, {
        "package.json": _KOA,
        "shelf/index.js": "const Books = require('./books');\n"
                          "const shelfRows = [\n"
                          "  ['get', '/books', Books.list, { page: 'int' }],\n"
                          "  ['post', '/books', Books.add],\n"
                          "  ['del', '/books/:id', Books.drop, {}],\n"
                          "];\nmodule.exports = { shelfRows };\n",
        "shelf/books.js": "module.exports = { list() {}, add() {}, drop() {} };\n",
        "http/wire.js": "const Router = require('koa-router');\n"
                        "const { shelfRows } = require('../shelf');\n"
                        "const pingRows = [['get', '/ping'], ['head', '/ping']];\n"
                        "function attach(router, rows) {\n"
                        "  rows.forEach(function (conf) {\n"
                        "    var [method, url, ctl] = conf;\n"
                        "    router[method](url, parseBody);\n"
                        "    router[method](url, checkAuth);\n"
                        "    router[method](url, async (ctx) => { await ctl.call({}, ctx); });\n"
                        "  });\n}\n"
                        "const shelf = new Router();\nshelf.prefix('/shelf');\nattach(shelf, shelfRows);\n"
                        "const health = new Router();\nattach(health, pingRows);\n"
                        "function parseBody(ctx, next) { return next(); }\n"
                        "function checkAuth(ctx, next) { return next(); }\n"
                        "module.exports = { shelf, health };\n",
        "server.js": "const Koa = require('koa');\nconst { shelf, health } = require('./http/wire');\n"
                     "const app = new Koa();\napp.use(shelf.routes());\napp.use(health.routes());\n"
                     "app.listen(3000);\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    wire = "http/wire.js"
    assert places_of(document) == {
        "DELETE /shelf/books/{id}": (wire, 14),
        "GET /ping": (wire, 16),
        "GET /shelf/books": (wire, 14),
        "HEAD /ping": (wire, 16),
        "POST /shelf/books": (wire, 14),
    }
    assert findings_of(document) == []


def test_rows_and_records_destructured_in_for_of_and_arrow_bodies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`for (const row of rows) { const [, url, verb] = row; … }` (a hole before the path, the
    method third), `rows.forEach((item) => { let { method, path } = item; … })` over records,
    the prefix joined to the path: each call binds its own table."""
    write_files(tmp_path, {
        "package.json": _KOA,
        "tables.js": "exports.ROWS = [['x', '/alpha', 'put'], ['y', '/beta', 'patch']];\n"
                     "exports.RECORDS = [{ method: 'get', path: '/gamma' }];\n",
        "app.js": "const Koa = require('koa');\nconst Router = require('koa-router');\n"
                  "const { ROWS, RECORDS } = require('./tables');\n"
                  "const viaFor = (r, rows, base) => {\n"
                  "  for (const row of rows) {\n    const [, url, verb] = row;\n"
                  "    r[verb](base + url, async () => {});\n  }\n};\n"
                  "const viaEach = (r, rows) => {\n"
                  "  rows.forEach((item) => {\n    let { method, path } = item;\n"
                  "    r[method](path, async () => {});\n  });\n};\n"
                  "const api = new Router();\nviaFor(api, ROWS, '/v1');\nviaEach(api, RECORDS);\n"
                  "new Koa().use(api.routes()).listen(3000);\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {
        "GET /gamma": ("app.js", 18),
        "PATCH /v1/beta": ("app.js", 17),
        "PUT /v1/alpha": ("app.js", 17),
    }
    assert findings_of(document) == []


def test_a_short_row_and_an_unread_table_are_findings_at_the_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row with no element where the path is taken, and a table the scan does not show (a
    function's result): one finding at the registration, naming the helper's calls that give
    them; the readable rows still listed."""
    write_files(tmp_path, {
        "package.json": _KOA,
        "app.js": "const Koa = require('koa');\nconst Router = require('koa-router');\n"
                  "const rows = [['get', '/ok'], ['get']];\n"
                  "function attach(router, list) {\n"
                  "  list.forEach((conf) => {\n    const [method, url] = conf;\n"
                  "    router[method](url, async () => {});\n  });\n}\n"
                  "const api = new Router();\nattach(api, rows);\nattach(api, loadRows());\n"
                  "new Koa().use(api.routes()).listen(3000);\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {"GET /ok": ("app.js", 11)}
    assert findings_of(document) == [
        ("UNRESOLVED_ROUTE", [("app.js", 7), ("app.js", 11), ("app.js", 12)])
    ]


def test_a_router_passed_as_something_not_read_is_a_finding_not_another_router(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`let extra = null; if (…) { extra = new Router(); attach(extra, rows) }`: the router
    the call passes is not read, so the rows are not given to the routers the other calls
    pass; a finding at that call."""
    write_files(tmp_path, {
        "package.json": _KOA,
        "app.js": "const Koa = require('koa');\nconst Router = require('koa-router');\n"
                  "const rows = [['get', '/a']];\nconst more = [['get', '/b']];\n"
                  "function attach(router, list) {\n"
                  "  list.forEach((conf) => {\n    const [method, url] = conf;\n"
                  "    router[method](url, async () => {});\n  });\n}\n"
                  "const api = new Router();\nattach(api, rows);\n"
                  "let extra = null;\nif (process.argv.length > 9) {\n"
                  "  extra = new Router();\n  attach(extra, more);\n}\n"
                  "const app = new Koa();\napp.use(api.routes());\n"
                  "if (extra) app.use(extra.routes());\napp.listen(3000);\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {"GET /a": ("app.js", 12)}
    assert ("UNRESOLVED_ROUTER", [("app.js", 16)]) in findings_of(document)


def test_an_imported_table_the_module_pushes_rows_into_holds_them_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`const { coreRows } = require('./core')`, then `moreRows.forEach(c => coreRows.push(c))`
    (an arrow's body, a block, a `for...of`, a literal row): the helper's call after the pushes
    gives the imported rows and every pushed one. A list passed to a call before a push is
    not read: its rows are a finding, never a guess."""
    write_files(tmp_path, {
        "package.json": _KOA,
        "core.js": "const coreRows = [['get', '/core']];\nmodule.exports = { coreRows };\n",
        "more.js": "exports.moreRows = [['post', '/more'], ['put', '/more']];\n"
                   "exports.lastRows = [['get', '/last']];\n"
                   "exports.early = [['get', '/early']];\n",
        "app.js": "const Koa = require('koa');\nconst Router = require('koa-router');\n"
                  "const { coreRows } = require('./core');\n"
                  "const { moreRows, lastRows, early } = require('./more');\n"
                  "function attach(router, rows) {\n"
                  "  rows.forEach((conf) => {\n    const [method, url] = conf;\n"
                  "    router[method](url, async () => {});\n  });\n}\n"
                  "moreRows.forEach(conf => coreRows.push(conf));\n"
                  "lastRows.forEach((conf) => { coreRows.push(conf); });\n"
                  "for (const row of lastRows) coreRows.push(row);\n"
                  "coreRows.push(['patch', '/own']);\n"
                  "const api = new Router();\napi.prefix('/api');\nattach(api, coreRows);\n"
                  "const side = new Router();\nattach(side, early);\n"
                  "lastRows.forEach((conf) => early.push(conf));\n"
                  "new Koa().use(api.routes()).use(side.routes()).listen(3000);\n",
    })  # fmt: skip
    document = pre_filtered(tmp_path, monkeypatch)[0]
    assert places_of(document) == {
        "GET /api/core": ("app.js", 17),
        "GET /api/last": ("app.js", 17),
        "PATCH /api/own": ("app.js", 17),
        "POST /api/more": ("app.js", 17),
        "PUT /api/more": ("app.js", 17),
    }
    assert findings_of(document) == [("UNRESOLVED_ROUTE", [("app.js", 8), ("app.js", 19)])]
