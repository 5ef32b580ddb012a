"""pack-http-routes: hapi apps composed by glue's manifest in each of its versions, and hapi 16's
plugin shapes (fix round 43, class "hapi: plugins composed by a manifest").

- glue 3/4 (hapi 16): `registrations: [{ plugin, options }]`, `plugin` a module path or
  `{ register: path-or-plugin, options }` (the plugin's own options), the entry's `options` the
  register options (`routes.prefix`); glue 5+ (hapi 17+): `register: { plugins, options }`,
  `register.options.routes.prefix` for every plugin whose entry names no prefix of its own;
- `Glue.compose.bind(Glue, manifest, options)`: the composer bound, exported and called later;
- hapi 16 plugins: `exports.register = function (server, options, next)` with its
  `attributes`, registered in code as `{ register: plugin, options }` or a list of them under
  the register options' `routes.prefix`;
- `server.dependency(deps, after)`: hapi runs `after(server)` with the plugin's server, so the
  routes `after` adds are under the plugin's prefix;
- parameters named as hapi serves them (`{rest*}`, `{parts*2}`, `{lang?}`), a plugin's `/`
  under a prefix is the prefix alone.

Every fixture here is our own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, placed, scanned_both_ways

# glue 4 on hapi 16: a composer bound to a confidence store's manifest, exported by one module
# and called by another; plugins of hapi 16's shape, one adding its routes in a dependency
# callback, one in a folder, one exporting `{ register }` with the attributes on the function
LEDGER: dict[str, str] = {
    "svc/boot.js": (
        "'use strict';\n"
        "const Glue = require('glue');\n"
        "const Recipe = require('./recipe');\n"
        "const how = { relativeTo: __dirname, preRegister: (server, next) => next() };\n"
        "module.exports = Glue.compose.bind(Glue, Recipe.get('/'), how);\n"
    ),
    "svc/run.js": (
        "const Compose = require('./boot');\n"
        "Compose((err, server) => { if (err) { throw err; } server.start(() => {}); });\n"
    ),
    "svc/recipe.js": (
        "const Confidence = require('confidence');\n"
        "const criteria = { env: process.env.NODE_ENV };\n"
        "const tree = {\n"
        "  connections: [{ port: 9000, labels: ['web'] }],\n"
        "  registrations: [\n"
        "    { plugin: 'inert' },\n"
        "    { plugin: { register: 'crumb', options: { restful: true } } },\n"
        "    { plugin: './lib/ledger', options: { routes: { prefix: '/books' } } },\n"
        "    { plugin: { register: './lib/reports', options: { depth: 2 } },\n"
        "      options: { routes: { prefix: { $filter: 'env', test: '/t', $default: '/reports' } } } },\n"
        "    { plugin: './lib/pages' },\n"
        "  ],\n"
        "};\n"
        "const store = new Confidence.Store(tree);\n"
        "exports.get = (key) => store.get(key, criteria);\n"
    ),
    "svc/lib/ledger.js": (
        "const internals = {};\n"
        "internals.wire = function (server, next) {\n"
        "  server.route({ method: 'GET', path: '/', handler: list });\n"
        "  server.route({ method: 'GET', path: '/entries/{entry}', handler: list });\n"
        "  next();\n"
        "};\n"
        "exports.register = function (server, options, next) {\n"
        "  server.dependency(['crumb'], internals.wire);\n"
        "  next();\n"
        "};\n"
        "exports.register.attributes = { name: 'ledger' };\n"
        "function list() {}\n"
    ),
    "svc/lib/reports/index.js": (
        "module.exports.register = (server, options, next) => {\n"
        "  server.route({ method: 'POST', path: '/run/{parts*2}', handler: run });\n"
        "  next();\n"
        "};\n"
        "module.exports.register.attributes = { name: 'reports' };\n"
        "function run() {}\n"
    ),
    "svc/lib/pages.js": (
        "function register(server, options, next) {\n"
        "  server.route([\n"
        "    { method: 'GET', path: '/files/{rest*}', handler: { directory: { path: 'x' } } },\n"
        "    { method: 'GET', path: '/about/{lang?}', handler: about },\n"
        "  ]);\n"
        "  next();\n"
        "}\n"
        "register.attributes = { name: 'pages' };\n"
        "function about() {}\n"
        "module.exports = { register };\n"
    ),
}


def test_a_glue_4_manifest_of_registrations_is_composed_with_its_prefixes() -> None:
    doc = document(LEDGER)
    assert placed(LEDGER) == {
        "GET /books": "svc/lib/ledger.js:3 hapi",
        "GET /books/entries/{entry}": "svc/lib/ledger.js:4 hapi",
        "POST /reports/run/{parts*2}": "svc/lib/reports/index.js:2 hapi",
        "GET /files/{rest*}": "svc/lib/pages.js:3 hapi",
        "GET /about/{lang?}": "svc/lib/pages.js:4 hapi",
    }
    assert all("prefixUnresolved" not in r["attrs"] for r in doc["resources"])
    reports = {r["name"]: r for r in doc["resources"]}["POST /reports/run/{parts*2}"]
    assert reports["attrs"]["configDefault"] == "the $default of a confidence $filter on 'env'"
    assert doc["findings"] == []


def test_a_glue_4_plugin_not_scanned_is_a_finding_at_the_bound_compose() -> None:
    files = {
        **LEDGER,
        "svc/recipe.js": LEDGER["svc/recipe.js"].replace("'./lib/pages'", "'./lib/gone'"),
    }
    doc = document(files)
    [missing] = [f for f in doc["findings"] if f["code"] == "UNRESOLVED_ROUTE"]
    assert "('./lib/gone') is not a module the scanned files show" in missing["detail"]
    assert missing["locations"] == [{"path": "svc/boot.js", "line": 5}]
    # the plugin no manifest entry reaches: listed, prefix unknown, a finding at its function
    [unreached] = [f for f in doc["findings"] if f["code"] == "UNRESOLVED_PREFIX"]
    assert unreached["locations"][0] == {"path": "svc/lib/pages.js", "line": 1}
    assert {r["name"] for r in doc["resources"] if r["attrs"].get("prefixUnresolved")} == {
        "GET /files/{rest*}",
        "GET /about/{lang?}",
    }


# hapi 16 in code: a list of plugins under the register options' prefix, one as `{ register,
# options }` (its options read by the plugin), one the module itself; a `{ register, routes }`
# item with its own prefix; a plugin adding routes in a dependency callback written inline
KIOSK: dict[str, str] = {
    "app/main.js": (
        "const Hapi = require('hapi');\n"
        "const server = new Hapi.Server();\n"
        "server.connection({ port: 1 });\n"
        "server.register([\n"
        "  { register: require('./api/tokens'), options: { area: '/keys' } },\n"
        "  require('./api/health'),\n"
        "], { routes: { prefix: '/v2' } }, (err) => {\n"
        "  server.register({ register: require('./api/desk'), routes: { prefix: '/desk' } }, () => {\n"
        "    server.start(() => {});\n"
        "  });\n"
        "});\n"
    ),
    "app/api/tokens.js": (
        "exports.register = (server, options, next) => {\n"
        "  server.route({ method: 'DELETE', path: options.area + '/{id}', handler: drop });\n"
        "  next();\n"
        "};\n"
        "exports.register.attributes = { name: 'tokens' };\n"
        "function drop() {}\n"
    ),
    "app/api/health.js": (
        "const register = function (server, options, next) {\n"
        "  server.route({ method: 'GET', path: '/', handler: (request, reply) => reply('ok') });\n"
        "  next();\n"
        "};\n"
        "register.attributes = { name: 'health' };\n"
        "exports.register = register;\n"
    ),
    "app/api/desk.js": (
        "exports.register = function (server, options, next) {\n"
        "  server.dependency('tokens', (srv, done) => {\n"
        "    srv.route({ method: ['PUT', 'PATCH'], path: '/seats/{seat}', handler: seat });\n"
        "    done();\n"
        "  });\n"
        "  next();\n"
        "};\n"
        "exports.register.attributes = { name: 'desk', dependencies: ['tokens'] };\n"
        "function seat() {}\n"
    ),
}


def test_hapi_16_registers_in_code_give_plugins_their_prefixes_and_options() -> None:
    doc = document(KIOSK)
    assert placed(KIOSK) == {
        "DELETE /v2/keys/{id}": "app/api/tokens.js:2 hapi",
        "GET /v2": "app/api/health.js:2 hapi",
        "PUT /desk/seats/{seat}": "app/api/desk.js:3 hapi",
        "PATCH /desk/seats/{seat}": "app/api/desk.js:3 hapi",
    }
    assert doc["findings"] == []


# glue 5+: `register.options.routes.prefix` applies to every entry without a prefix of its own
def test_a_glue_5_register_options_prefix_applies_to_entries_without_their_own() -> None:
    files = {
        "srv/index.js": (
            "const Glue = require('@hapi/glue');\n"
            "const manifest = {\n"
            "  server: { port: 0 },\n"
            "  register: {\n"
            "    plugins: [\n"
            "      { plugin: require('./notes'), routes: { prefix: '/n' } },\n"
            "      './tags',\n"
            "    ],\n"
            "    options: { routes: { prefix: '/api' } },\n"
            "  },\n"
            "};\n"
            "exports.start = async () => Glue.compose(manifest, { relativeTo: __dirname });\n"
        ),
        "srv/notes.js": (
            "exports.plugin = { name: 'notes', register: async (server) => {\n"
            "  server.route({ method: 'GET', path: '/all', handler: () => [] });\n"
            "} };\n"
        ),
        "srv/tags.js": (
            "exports.plugin = { name: 'tags', register: async (server) => {\n"
            "  server.route({ method: 'GET', path: '/tags/{tag*}', handler: () => [] });\n"
            "} };\n"
        ),
    }
    assert set(placed(files)) == {"GET /n/all", "GET /api/tags/{tag*}"}


# hapi 17+ in code: the register options' prefix for a `{ plugin }` item with none of its own
def test_a_register_list_s_prefix_applies_to_plugin_items_without_their_own() -> None:
    files = {
        "web/server.js": (
            "const Hapi = require('@hapi/hapi');\n"
            "const go = async () => {\n"
            "  const server = Hapi.server();\n"
            "  await server.register([\n"
            "    { plugin: require('./one'), options: { tag: 'x' } },\n"
            "    { plugin: require('./two'), routes: { prefix: '/own' } },\n"
            "  ], { routes: { prefix: '/shared' } });\n"
            "};\n"
        ),
        "web/one.js": (
            "exports.plugin = { name: 'one', register(server) {\n"
            "  server.route({ method: 'GET', path: '/one', handler: () => 1 });\n"
            "} };\n"
        ),
        "web/two.js": (
            "exports.plugin = { name: 'two', register(server) {\n"
            "  server.route({ method: 'GET', path: '/two', handler: () => 2 });\n"
            "} };\n"
        ),
    }
    assert set(placed(files)) == {"GET /shared/one", "GET /own/two"}


PETS = (
    "exports.register = function (server, options, next) {\n"
    "  server.route({ method: 'GET', path: '/pets', handler: h });\n"
    "  next();\n"
    "};\n"
    "exports.register.attributes = { name: 'pets' };\n"
)


@pytest.mark.parametrize(
    ("start", "code", "line"),
    [
        (  # a confidence `$filter` with no `$default`: which prefix, if any, is not decided
            "const Glue = require('glue');\n"
            "const Confidence = require('confidence');\n"
            "const s = new Confidence.Store({ registrations: [{ plugin: './pets',\n"
            "  options: { routes: { prefix: { $filter: 'env', production: '/p' } } } }] });\n"
            "Glue.compose(s.get('/', { env: process.env.NODE_ENV }), { relativeTo: __dirname });\n",
            "UNRESOLVED_PREFIX",
            5,
        ),
        (  # a manifest a configuration library builds from files the scan does not read
            "const Glue = require('glue');\n"
            "const Config = require('getconfig');\n"
            "Glue.compose(Config.manifest, { relativeTo: __dirname }, (err, server) => {});\n",
            "UNRESOLVED_ROUTE",
            3,
        ),
    ],
    ids=["filter-without-default", "getconfig"],
)
def test_a_manifest_value_not_decided_is_a_finding_at_the_compose(
    start: str, code: str, line: int
) -> None:
    doc = document({"start.js": start, "pets.js": PETS})
    [route] = doc["resources"]
    assert route["name"] == "GET /pets" and route["attrs"]["prefixUnresolved"] is True
    places = {(f["code"], p["path"], p["line"]) for f in doc["findings"] for p in f["locations"]}
    assert (code, "start.js", line) in places


def test_a_glue_2_manifest_s_plugins_object_is_a_finding_not_an_empty_manifest() -> None:
    files = {
        "start.js": (
            "const Glue = require('glue');\n"
            "const manifest = { connections: [{ port: 1 }], plugins: { './pets': { a: 1 } } };\n"
            "Glue.compose(manifest, { relativeTo: __dirname }, (err, server) => {});\n"
        ),
        "pets.js": PETS,
    }
    doc = document(files)
    places = {(f["code"], p["path"], p["line"]) for f in doc["findings"] for p in f["locations"]}
    assert ("UNRESOLVED_ROUTE", "start.js", 3) in places


# hapi 16's connections: `server.connection(options)` and `server.select(labels)` give the
# server again (its connections narrowed), held by a name or chained, in a plugin too
DOCKS: dict[str, str] = {
    "dock/main.js": (
        "const Hapi = require('hapi');\n"
        "const server = new Hapi.Server();\n"
        "const front = server.connection({ port: 1, labels: ['front'] });\n"
        "server.connection({ port: 2, labels: ['back'] });\n"
        "front.route({ method: 'GET', path: '/home', handler: h });\n"
        "server.select('back').route({ method: 'POST', path: '/jobs', handler: h });\n"
        "server.register({ register: require('./crane'), options: {} },\n"
        "  { select: 'back', routes: { prefix: '/crane' } }, () => {});\n"
        "function h() {}\n"
    ),
    "dock/crane.js": (
        "exports.register = function (plugin, options, next) {\n"
        "  const back = plugin.select('back');\n"
        "  back.route({ method: 'PUT', path: '/lift/{load}', handler: lift });\n"
        "  next();\n"
        "};\n"
        "exports.register.attributes = { name: 'crane' };\n"
        "function lift() {}\n"
    ),
    # a plugin nothing registers, its selection held by a name: listed, prefix unknown
    "dock/loose.js": (
        "exports.register = function (server, options, next) {\n"
        "  const side = server.select('side');\n"
        "  side.route({ method: 'GET', path: '/loose', handler: () => 1 });\n"
        "  next();\n"
        "};\n"
    ),
}


def test_hapi_16_connections_and_selections_are_the_server() -> None:
    doc = document(DOCKS)
    assert placed(DOCKS) == {
        "GET /home": "dock/main.js:5 hapi",
        "POST /jobs": "dock/main.js:6 hapi",
        "PUT /crane/lift/{load}": "dock/crane.js:3 hapi",
        "GET /loose": "dock/loose.js:3 hapi",
    }
    flagged = [r["name"] for r in doc["resources"] if r["attrs"].get("prefixUnresolved")]
    assert flagged == ["GET /loose"]
    assert [(f["code"], f["locations"][0]) for f in doc["findings"]] == [
        ("UNRESOLVED_PREFIX", {"path": "dock/loose.js", "line": 1})
    ]


FUNCTION_PLUGIN = (
    "const register = function (server, options, next) {\n"
    "  server.route({ method: 'GET', path: '/fn', handler: h });\n"
    "  next();\n"
    "};\n"
    "register.attributes = { name: 'fn' };\n"
    "module.exports = register;\n"
)


@pytest.mark.parametrize(
    ("start", "name"),
    [
        (
            "const Glue = require('glue');\n"
            "const manifest = { registrations: [\n"
            "  { plugin: './fn', options: { routes: { prefix: '/g' } } }] };\n"
            "Glue.compose(manifest, { relativeTo: __dirname }, () => {});\n",
            "GET /g/fn",
        ),
        (
            "const Hapi = require('hapi');\n"
            "const server = new Hapi.Server();\n"
            "server.register(require('./fn'), { routes: { prefix: '/c' } }, () => {});\n",
            "GET /c/fn",
        ),
    ],
    ids=["glue4", "in-code"],
)
def test_a_hapi_16_plugin_may_be_its_register_function(start: str, name: str) -> None:
    assert placed({"start.js": start, "fn.js": FUNCTION_PLUGIN}) == {name: "fn.js:2 hapi"}


@pytest.mark.parametrize(
    ("files", "routes"),
    [(LEDGER, 5), (KIOSK, 4), (DOCKS, 4)],
    ids=["glue4", "hapi16-in-code", "hapi16-connections"],
)
def test_hapi_glue_fixtures_scan_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], routes: int
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert len(json.loads(documents[0])["resources"]) == routes
