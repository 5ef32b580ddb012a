"""Routers a project loads from a folder at run time (`packs/routes/js_dirload.py`):
`require-directory` with a `visit` callback, `require-all` with a `resolve` callback,
`fs.readdirSync(dir).filter(...).forEach(...)` (nested one level too, inside a helper of the
project's given the app), each module's export mounted or called as the callback does.

The fixture's truth is the runtime's own: Express 4's `app._router.stack` after
`express/server.js` is required (require-directory 2.1.1), and koa-router 7.4's `router.stack`
of each router in `app.middleware` after `koa/main.js` is required (require-all 3.0.0), both
run from the fixture's root as the working directory. koa-router serves `GET /books/` for
the prefix `/books` and the path `/`, which the pack names `GET /books` as everywhere."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, fixture_files, scanned_both_ways

FIXTURE = "js-dirloaders"
SERVED = {
    "DELETE /api/v2/orders/{orderId}": "express/handlers/orders.js:4",
    "GET /api/v2/users": "express/handlers/users.js:4",
    "POST /api/v2/users/{userId}/block": "express/handlers/users.js:5",
    "GET /admin/stats": "express/admin/stats.js:4",
    "GET /invoices": "plugins/billing/invoices.js:2",
    "POST /invoices/{id}/pay": "plugins/billing/invoices.js:3",
    "PUT /reports/{month}": "plugins/reports/monthly.js:2",
    "GET /books": "koa/routes/books.routes.js:4",
    "DELETE /books/{isbn}": "koa/routes/books.routes.js:5",
    "PATCH /v1/items/{itemId}": "koa/routes/v1/items.routes.js:4",
}
# what the loaders' filters leave out: listed, flagged, never served under a guessed prefix
SKIPPED = {
    "GET /draft": "express/handlers/_draft.js",  # `!name.startsWith('_')`
    "GET /hidden": "express/admin/deep/hidden.js",  # `recurse: false`
    "GET /billing-index": "plugins/billing/index.js",  # `file !== 'index.js'`
    "GET /loose": "plugins/loose.js",  # a file where the outer filter wants folders
    "GET /helpers/x": "koa/routes/helpers.js",  # require-all's `filter`
}
_ROUTER = (
    "const express = require('express');\nconst r = express.Router();\n"
    "r.get('/one', (q, s) => s.end());\nmodule.exports = r;\n"
)


def _files() -> dict[str, str]:
    return fixture_files(FIXTURE, "*.js")


def test_routers_loaded_from_folders_are_served_as_the_runtime_mounts_them() -> None:
    found = document(_files())
    placed = {
        r["name"]: f"{r['location']['path']}:{r['location']['line']}"
        for r in found["resources"]
        if not r["attrs"].get("prefixUnresolved")
    }
    assert placed == SERVED
    frameworks = {r["name"]: r["attrs"]["framework"] for r in found["resources"]}
    assert frameworks["PATCH /v1/items/{itemId}"] == "koa"
    assert frameworks["GET /invoices"] == "express"


def test_modules_a_loader_leaves_out_are_flagged_never_served() -> None:
    found = document(_files())
    flagged = {
        r["name"]: r["location"]["path"]
        for r in found["resources"]
        if r["attrs"].get("prefixUnresolved")
    }
    assert flagged == SKIPPED
    places = {
        location["path"]
        for finding in found["findings"]
        if finding["code"] == "UNRESOLVED_PREFIX"
        for location in finding["locations"]
    }
    assert set(SKIPPED.values()) <= places
    assert not [f for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTER"]


@pytest.mark.parametrize(
    ("loader", "line", "named"),
    [
        (
            "const requireDirectory = require('require-directory');\n"
            "requireDirectory(module, process.env.API_DIR, { visit: (m) => app.use(m) });\n",
            4,
            "`process.env.API_DIR`",
        ),
        (
            "const fs = require('fs');\nconst { isRoute } = require('./names');\n"
            "const dir = require('path').join(__dirname, 'routes');\n"
            "fs.readdirSync(dir).filter(isRoute).forEach((f) => app.use(require(dir + '/' + f)));\n",
            6,
            "`dir`",
        ),
        (
            "const requireAll = require('require-all');\n"
            "requireAll({ dirname: settings.routes, resolve: (m) => app.use('/v', m) });\n",
            4,
            "`settings.routes`",
        ),
    ],
)
def test_a_folder_or_filter_out_of_sight_is_a_finding_at_the_loader_naming_it(
    loader: str, line: int, named: str
) -> None:
    app = "const express = require('express');\nconst app = express();\n" + loader
    found = document({"app.js": app, "routes/a.js": _ROUTER})
    unresolved = [
        (f["locations"][0]["line"], f["detail"])
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_ROUTE" and f["locations"][0]["path"] == "app.js"
    ]
    assert [at for at, _ in unresolved] == [line], found["findings"]
    assert named in unresolved[0][1] and "folder loader" in unresolved[0][1]
    assert [r["attrs"].get("prefixUnresolved") for r in found["resources"]] == [True]


@pytest.mark.parametrize(
    ("chain", "served"),
    [
        (".filter((f) => f.indexOf('.') !== 0)", {"a.js", "b.route.js", "c.ts"}),
        (".filter((f) => path.extname(f) === '.js')", {"a.js", "b.route.js", ".hidden.js"}),
        (".filter(function (f) { return ~f.search(/\\.route\\.js$/); })", {"b.route.js"}),
        (
            ".filter((f) => /^[ab]/.test(f)).filter((f) => !f.endsWith('.ts'))",
            {"a.js", "b.route.js"},
        ),
        (
            ".filter((f) => f !== 'a.js' && (f.endsWith('.js') || f.includes('c')))",
            {"b.route.js", "c.ts", ".hidden.js"},
        ),
        (".filter((f) => f.indexOf('route') > -1 || f === 'c.ts')", {"b.route.js", "c.ts"}),
    ],
)
def test_a_listing_is_filtered_as_the_code_filters_it(chain: str, served: set[str]) -> None:
    """Each module the filters keep is mounted under `/x` (default export), at its own route's
    line; each one they drop is a router nothing mounts (flagged)."""
    app = (
        "const express = require('express');\nconst fs = require('fs');\n"
        "const path = require('path');\nconst app = express();\n"
        f"fs.readdirSync(path.join(__dirname, 'routes')){chain}\n"
        "  .forEach((f) => app.use('/x', require(`./routes/${f}`)));\n"
    )
    files = {"app.js": app}
    for name in ("a.js", "b.route.js", "c.ts", ".hidden.js"):
        files[f"routes/{name}"] = _ROUTER.replace("/one", f"/{name.split('.')[0] or 'dot'}")
    found = document(files)
    mounted = {
        r["location"]["path"].removeprefix("routes/")
        for r in found["resources"]
        if not r["attrs"].get("prefixUnresolved")
    }
    assert mounted == served
    assert all(
        r["name"].startswith("GET /x/")
        for r in found["resources"]
        if not r["attrs"].get("prefixUnresolved")
    )


def test_require_directory_resolves_from_its_file_and_reads_its_options() -> None:
    """A relative folder is the calling module's (`./api` beside `src/boot.js`); `exclude`
    is tested on the whole path, `extensions` replace the default ones; the calling file is
    never loaded; a named export (`m.router.routes()`) is the one mounted, by a `visit`
    written as a method of the options."""
    boot = (
        "const Koa = require('koa');\nconst requireDirectory = require('require-directory');\n"
        "const app = new Koa();\n"
        "requireDirectory(module, './api', { exclude: /legacy/, extensions: ['js', 'ts'],\n"
        "  visit(m) { if (m.router) app.use(m.router.routes()); } });\n"
    )
    router = (
        "const Router = require('@koa/router');\nconst router = new Router({ prefix: '/P' });\n"
        "router.get('/', (ctx) => {});\nmodule.exports = { router };\n"
    )
    files = {
        "src/boot.js": boot,
        "src/api/users.js": router.replace("/P", "/users"),
        "src/api/nested/teams.ts": router.replace("/P", "/teams"),
        "src/api/legacy/old.js": router.replace("/P", "/old"),
    }
    found = document(files)
    mounted = sorted(
        r["name"] for r in found["resources"] if not r["attrs"].get("prefixUnresolved")
    )
    assert mounted == ["GET /teams", "GET /users"]
    assert [r["name"] for r in found["resources"] if r["attrs"].get("prefixUnresolved")] == [
        "GET /old"
    ]


def test_the_pre_filtered_scan_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, fixture_files(FIXTURE, "*.*"), monkeypatch)
    assert documents[1] == documents[0]
    assert all(f'"{name}"' in documents[0] for name in SERVED)


def test_paths_a_glob_lists_are_required_as_its_pattern_matches_them() -> None:
    """`glob.sync(pattern)` from the working directory (`**/` any depth), `globSync` of a
    pattern under `__dirname` (one level: `admin/sub/two.js` is not listed), then a filter on
    the paths: each module mounted (`app.use('/api', require(...))`) or called with the app."""
    app = (
        "const express = require('express');\nconst glob = require('glob');\n"
        "const { globSync } = require('glob');\nconst path = require('path');\n"
        "const app = express();\n"
        "glob.sync('src/routes/**/*.route.js').forEach((file) => app.use('/api', "
        "require(path.resolve(file))));\n"
        "globSync(path.join(__dirname, 'admin/*.js')).filter((p) => !p.includes('skip'))"
        ".map((p) => require(p)(app));\n"
    )
    plugin = "module.exports = (app) => { app.get('/P', (q, s) => s.end()); };\n"
    files = {
        "src/app.js": app,
        "src/routes/a.route.js": _ROUTER.replace("/one", "/a"),
        "src/routes/deep/b.route.js": _ROUTER.replace("/one", "/b"),
        "src/routes/c.js": _ROUTER.replace("/one", "/c"),
        "src/admin/one.js": plugin.replace("/P", "/one"),
        "src/admin/skip.js": plugin.replace("/P", "/skipped"),
        "src/admin/sub/two.js": plugin.replace("/P", "/two"),
    }
    found = document(files)
    listed = {r["name"]: bool(r["attrs"].get("prefixUnresolved")) for r in found["resources"]}
    assert listed == {
        "GET /api/a": False,
        "GET /api/b": False,
        "GET /one": False,
        "GET /c": True,
        "GET /skipped": True,
        "GET /two": True,
    }


def test_early_returns_in_the_callback_filter_the_listing_and_a_default_export_is_mounted() -> None:
    """TypeScript: a function exported by default, given the app by its caller, lists its
    own folder; `if (f === 'index.ts') return;` and a block returning on a prefix skip those
    entries; `require(...).default` held in a local is the router mounted (a `.use` chained
    after it changes nothing)."""
    index = (
        "import Koa from 'koa'\nimport fs from 'fs'\nimport Router from '@koa/router'\n\n"
        "export default (app: Koa) => {\n  fs.readdirSync(__dirname).forEach((file) => {\n"
        "    if (file === 'index.ts') return;\n    if (file.startsWith('wip')) { return }\n"
        "    const mod = require(`./${file}`).default;\n"
        "    if (mod instanceof Router && mod.routes) {\n"
        "      app.use(mod.routes()).use(mod.allowedMethods())\n    }\n  })\n}\n"
    )
    router = (
        "import Router from '@koa/router'\nconst r = new Router({ prefix: '/P' })\n"
        "r.get('/', async (ctx) => {})\nexport default r\n"
    )
    files = {
        "src/main.ts": "import Koa from 'koa'\nimport routes from './router'\n"
        "const app = new Koa()\nroutes(app)\n",
        "src/router/index.ts": index,
        "src/router/pets.ts": router.replace("/P", "/pets"),
        "src/router/wip-cats.ts": router.replace("/P", "/cats"),
    }
    found = document(files)
    listed = {r["name"]: bool(r["attrs"].get("prefixUnresolved")) for r in found["resources"]}
    assert listed == {"GET /pets": False, "GET /cats": True}


def test_a_helper_given_the_folder_loads_the_folder_each_caller_passes() -> None:
    """`loadRoutes(app, dir)` in another file (imported by name) and `mountAll(server, folder)`
    (an arrow, reached as a member of its module) load the folders their callers pass
    (`__dirname + '/routes'` from the caller's file, `'./src/admin'` from the working
    directory); once one caller passes a folder the scan cannot read, the loader is an
    `UNRESOLVED_ROUTE` at each call reaching it, never a guess."""
    router = (
        "const express = require('express');\nconst r = express.Router();\n"
        "r.get('/P', (q, s) => s.end());\nmodule.exports = r;\n"
    )
    app = (
        "const express = require('express');\nconst { loadRoutes } = require('./lib/load');\n"
        "const loader = require('./lib/dirs');\nconst app = express();\n"
        "loadRoutes(app, __dirname + '/routes');\nloader.mountAll(app, './src/admin');\n"
    )
    files = {
        "src/app.js": app,
        "src/lib/load.js": "const fs = require('fs');\nconst path = require('path');\n"
        "function loadRoutes(app, dir) {\n"
        "  fs.readdirSync(dir).forEach((f) => app.use('/api', require(path.join(dir, f))));\n"
        "}\nmodule.exports = { loadRoutes };\n",
        "src/lib/dirs.js": "const requireAll = require('require-all');\n"
        "const mountAll = (server, folder) => requireAll({ dirname: folder, "
        "resolve: (m) => server.use(m) });\nmodule.exports = { mountAll };\n",
        "src/routes/a.js": router.replace("/P", "/a"),
        "src/admin/b.js": router.replace("/P", "/b"),
        "src/other/c.js": router.replace("/P", "/c"),
    }
    found = document(files)
    listed = {r["name"]: bool(r["attrs"].get("prefixUnresolved")) for r in found["resources"]}
    assert listed == {"GET /api/a": False, "GET /b": False, "GET /c": True}
    files["src/app.js"] = app + "loadRoutes(app, process.env.MORE);\n"
    found = document(files)
    listed = {r["name"]: bool(r["attrs"].get("prefixUnresolved")) for r in found["resources"]}
    assert listed == {"GET /a": True, "GET /b": False, "GET /c": True}
    gaps = [
        sorted(f"{p['path']}:{p['line']}" for p in f["locations"])
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
    ]
    assert gaps == [["src/app.js:5", "src/app.js:7", "src/lib/load.js:4"]]


@pytest.mark.parametrize(
    ("mount", "prefixes"),
    [
        ("`/${file.split('.')[0]}`", {"/Users", "/teams"}),
        ("'/' + file.replace('.route.js', '')", {"/Users", "/teams.js"}),
        ("`/v1/${file.slice(0, -3)}`", {"/v1/Users.route", "/v1/teams"}),
        ("'/' + path.basename(file, '.js').toLowerCase()", {"/users.route", "/teams"}),
        ("`/${path.parse(file).name}`", {"/Users.route", "/teams"}),
        ("'/' + file.replace(/\\.(route\\.)?js$/, '')", {"/Users", "/teams"}),
    ],
)
def test_a_mount_path_spelled_from_the_entry_name_is_read_per_module(
    mount: str, prefixes: set[str]
) -> None:
    """`app.use(`/${file.split('.')[0]}`, require(...))`: each module under the path its own
    name gives, by the string operations JavaScript applies (`replace` with a string: its
    first occurrence only)."""
    router = (
        "const express = require('express');\nconst r = express.Router();\n"
        "r.get('/', (q, s) => s.end());\nmodule.exports = r;\n"
    )
    index = (
        "const express = require('express');\nconst fs = require('fs');\n"
        "const path = require('path');\nconst app = express();\n"
        "fs.readdirSync(__dirname).filter((file) => file !== 'index.js').forEach((file) => {\n"
        f"  app.use({mount}, require(path.join(__dirname, file)));\n}});\nmodule.exports = app;\n"
    )
    files = {"routes/index.js": index, "routes/Users.route.js": router, "routes/teams.js": router}
    found = document(files)
    assert {r["name"] for r in found["resources"]} == {f"GET {p}" for p in prefixes}
    assert not any(r["attrs"].get("prefixUnresolved") for r in found["resources"])
    assert found["findings"] == []


def test_a_listing_held_in_a_name_or_looped_with_for_of_is_walked() -> None:
    """`let routes = fs.readdirSync(__dirname); for (let route of routes) { if (…) {…} }`:
    the wrapping `if` filters, the mount path comes from the name; `for (const f of
    fs.readdirSync(dir)) { if (…) continue; … }`: the early `continue` filters."""
    router = (
        "const express = require('express');\nconst r = express.Router();\n"
        "r.get('/P', (q, s) => s.end());\nmodule.exports = r;\n"
    )
    index = (
        "const express = require('express');\nconst fs = require('fs');\n"
        "const router = express.Router();\nlet routes = fs.readdirSync(__dirname);\n"
        "for (let route of routes) {\n  if (route.includes('.js') && route !== 'index.js') {\n"
        "    router.use('/' + route.replace('.js', ''), require('./' + route));\n  }\n}\n"
        "module.exports = router;\n"
    )
    app = (
        "const express = require('express');\nconst fs = require('fs');\n"
        "const path = require('path');\nconst app = express();\n"
        "app.use('/api', require('./routes'));\n"
        "for (const f of fs.readdirSync(path.join(__dirname, 'hooks'))) {\n"
        "  if (f.startsWith('_')) continue;\n  app.use(require(`./hooks/${f}`));\n}\n"
    )
    files = {
        "app.js": app,
        "routes/index.js": index,
        "routes/users.js": router.replace("/P", "/"),
        "routes/teams.js": router.replace("/P", "/all"),
        "hooks/ping.js": router.replace("/P", "/ping"),
        "hooks/_off.js": router.replace("/P", "/off"),
    }
    found = document(files)
    listed = {r["name"]: bool(r["attrs"].get("prefixUnresolved")) for r in found["resources"]}
    assert listed == {
        "GET /api/users": False,
        "GET /api/teams/all": False,
        "GET /ping": False,
        "GET /off": True,
    }
