"""pack-http-routes: hapi, read through its record and the reader code it shares with Fastify:
`server.route({ method, path, handler })` and lists of them, `method: '*'` and method lists,
`{name*}`/`{id?}` parameters (named as hapi's route table names them), `options.auth`/`config.auth` as auth evidence (`false` and
`mode: 'try'` let anyone through; none given, the default strategy decides, not read), and
plugins registered with `routes.prefix` (a list, `{ plugin, routes }`, a plugin object's
`register`, `exports.plugin`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs.routes.frameworks import UNREAD  # noqa: E402
from packs.routes.paths import hapi_path  # noqa: E402
from routes_harness import document, placed, scanned_both_ways  # noqa: E402

EVERY = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")
# A hapi service of our own: routes on the server (one list of two), a plugin registered by
# `{ plugin, routes: { prefix } }` in a list beside a bare plugin, one registered with the
# prefix in the options, plugins exported as `exports.plugin`, as the module, as `{ plugin }`.
SERVICE: dict[str, str] = {
    "api/server.js": (
        "'use strict';\n"
        "const Hapi = require('@hapi/hapi');\n"
        "const people = require('./plugins/people');\n"
        "const start = async () => {\n"
        "  const server = Hapi.server({ port: 3000 });\n"
        "  server.route({ method: 'GET', path: '/', handler: () => 'ok', options: { auth: false } });\n"
        "  server.route([\n"
        "    { method: ['PUT', 'PATCH'], path: '/files/{name*}',\n"
        "      options: { auth: 'session', handler: save } },\n"
        "    { method: '*', path: '/old/{id?}', handler: old },\n"
        "  ]);\n"
        "  await server.register([\n"
        "    { plugin: people, routes: { prefix: '/people' } },\n"
        "    require('./plugins/status'),\n"
        "  ]);\n"
        "  await server.register(require('./plugins/ops'), { routes: { prefix: '/ops' } });\n"
        "  await server.start();\n"
        "};\n"
        "function save() {}\n"
        "function old() {}\n"
        "start();\n"
    ),
    "api/plugins/people.js": (
        "exports.plugin = {\n"
        "  name: 'people',\n"
        "  register: async (server, options) => {\n"
        "    server.route({ method: 'GET', path: '/{id}', handler: one,\n"
        "                   options: { auth: { strategy: 'jwt' } } });\n"
        "    server.route({ method: 'POST', path: '/', handler: one,\n"
        "                   options: { auth: { mode: 'try', strategy: 'jwt' } } });\n"
        "  },\n"
        "};\n"
        "function one() {}\n"
    ),
    "api/plugins/status.js": (
        "module.exports = {\n"
        "  name: 'status',\n"
        "  async register(server) {\n"
        "    server.route({ method: 'GET', path: '/status', handler: () => 'up' });\n"
        "  },\n"
        "};\n"
    ),
    "api/plugins/ops.js": (
        "const plugin = {\n"
        "  name: 'ops',\n"
        "  register: async function (srv) {\n"
        "    srv.route({ method: 'DELETE', path: '/cache', handler: () => null,\n"
        "                config: { auth: false } });\n"
        "  },\n"
        "};\n"
        "module.exports = { plugin };\n"
    ),
}


def test_hapi_routes_lists_and_plugins_under_their_prefixes() -> None:
    assert placed(SERVICE) == {
        "GET /": "api/server.js:6 hapi",
        "PUT /files/{name*}": "api/server.js:8 hapi",
        "PATCH /files/{name*}": "api/server.js:8 hapi",
        **{f"{m} /old/{{id?}}": "api/server.js:10 hapi" for m in EVERY},
        "GET /people/{id}": "api/plugins/people.js:4 hapi",
        "POST /people": "api/plugins/people.js:6 hapi",
        "GET /status": "api/plugins/status.js:4 hapi",
        "DELETE /ops/cache": "api/plugins/ops.js:4 hapi",
    }
    assert document(SERVICE)["findings"] == []


def test_route_auth_options_are_the_evidence() -> None:
    auth = {s["resource"].partition(":")[2]: s["value"] for s in document(SERVICE)["signals"]}
    assert auth["GET /"] == "none"  # auth: false
    assert auth["PUT /files/{name*}"] == "required"  # a strategy
    assert auth["GET /people/{id}"] == "required"  # { strategy }
    assert auth["POST /people"] == "none"  # mode 'try' lets anyone through
    assert auth["DELETE /ops/cache"] == "none"  # config.auth: false
    assert auth["GET /status"] == "unknown"  # the server's default strategy is not read
    assert auth["GET /old/{id?}"] == "unknown"


@pytest.mark.parametrize(
    ("spelled", "named"),
    [("/files/{path*}", "/files/{path*}"), ("/u/{id?}", "/u/{id?}"), ("/{a*2}/x", "/{a*2}/x"),
     ("/people/", "/people"), ("/", "/")],
)  # fmt: skip
def test_hapi_parameters_are_named_as_hapi_s_route_table_names_them(
    spelled: str, named: str
) -> None:
    assert hapi_path(spelled) == named


def test_a_computed_method_or_prefix_is_a_finding() -> None:
    files = {
        "api/server.js": (
            "const Hapi = require('@hapi/hapi');\n"
            "const server = new Hapi.Server();\n"
            "server.route({ method: process.env.M, path: '/x', handler: () => 1 });\n"
            "server.register({ plugin: require('./p'), routes: { prefix: process.env.P } });\n"
        ),
        "api/p.js": (
            "exports.plugin = { name: 'p', register(server) {\n"
            "  server.route({ method: 'GET', path: '/y', handler: () => 2 });\n"
            "} };\n"
        ),
    }
    found = document(files)
    assert [(r["name"], r["attrs"].get("prefixUnresolved")) for r in found["resources"]] == [
        ("GET /y", True)
    ]
    assert sorted(f["code"] for f in found["findings"]) == ["UNRESOLVED_PREFIX", "UNRESOLVED_ROUTE"]


def test_hapi_is_no_longer_an_unread_framework() -> None:
    assert "Hapi" not in {u.name for u in UNREAD}


def test_a_hapi_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"api/lib/util.js": "module.exports = (a) => a * 2;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**SERVICE, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]
    assert '"DELETE /ops/cache"' in documents[1]


# Route tables: an array of route options kept in a module of its own (no hapi word in it), a
# path read from a third module's constant, registered by a plugin's `server.route(name.member)`
# under the plugin's prefix; an in-file table; and a table the reader cannot see (a call's
# result), which must end as a finding at the registering call, not as silence.
ROUTE_TABLES: dict[str, str] = {
    "svc/catalog/entries.js": (
        "const Paths = require('./paths');\n"
        "module.exports.entries = [\n"
        "  { method: 'GET', path: '/ping', handler: () => 'pong' },\n"
        "  { method: ['PUT', 'PATCH'], path: Paths.one.item, options: { auth: false, handler: h } },\n"
        "];\n"
        "function h() {}\n"
    ),
    "svc/catalog/paths.js": "exports.one = { item: '/items/{id}' };\n",
    "svc/inventory.js": (
        "const Catalog = require('./catalog/entries');\n"
        "const local = [{ method: 'DELETE', path: '/items/{id}', handler() {} }];\n"
        "exports.plugin = {\n"
        "  name: 'inventory',\n"
        "  register(srv) {\n"
        "    srv.route(Catalog.entries);\n"
        "    srv.route(local);\n"
        "    srv.route(buildMore(srv));\n"
        "  },\n"
        "};\n"
    ),
    "svc/main.js": (
        "const Hapi = require('@hapi/hapi');\n"
        "const start = async () => {\n"
        "  const server = Hapi.server({ port: 0 });\n"
        "  await server.register({ plugin: require('./inventory'), routes: { prefix: '/v2' } });\n"
        "};\n"
    ),
}


def test_a_route_table_held_by_another_module_is_read_where_each_entry_is_written() -> None:
    assert placed(ROUTE_TABLES) == {
        "GET /v2/ping": "svc/catalog/entries.js:3 hapi",
        "PUT /v2/items/{id}": "svc/catalog/entries.js:4 hapi",
        "PATCH /v2/items/{id}": "svc/catalog/entries.js:4 hapi",
        "DELETE /v2/items/{id}": "svc/inventory.js:2 hapi",
    }


def test_a_route_table_not_seen_is_a_finding_at_the_registering_call() -> None:
    findings = [f for f in document(ROUTE_TABLES)["findings"] if f["code"] == "UNRESOLVED_ROUTE"]
    assert [[(p["path"], p["line"]) for p in f["locations"]] for f in findings] == [
        [("svc/inventory.js", 8), ("svc/main.js", 4)]
    ]
    assert findings[0]["detail"] == (
        "the route table `buildMore(...)` given here is computed out of sight: its routes are not "
        "listed"
    )


def test_a_route_table_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _parsed = scanned_both_ways(tmp_path, ROUTE_TABLES, monkeypatch)
    assert documents[1] == documents[0]
    assert '"PATCH /v2/items/{id}"' in documents[1]


def test_a_documentation_plugin_s_routes_are_listed_or_a_finding_at_its_register_call() -> None:
    files = {
        "hx/index.js": (
            "const Hapi = require('@hapi/hapi');\n"
            "const Docs = require('hapi-swagger');\n"
            "const go = async () => {\n"
            "  const server = new Hapi.Server({ port: 0 });\n"
            "  await server.register([require('@hapi/inert'), { plugin: Docs, options: {} }]);\n"
            "  server.route({ method: 'GET', path: '/h', handler: () => 1 });\n"
            "};\n"
        ),
    }
    found = document(files)
    # no `package.json` declares its version: the routes every version serves are listed at
    # the register call, those of some versions only (its UI's files) are the finding there
    assert {str(r["name"]): r["location"]["line"] for r in found["resources"]} == {
        "GET /h": 6,
        "GET /swagger.json": 5,
        "GET /documentation": 5,
        "GET /swaggerui/extend.js": 5,
    }
    [finding] = found["findings"]
    assert finding["code"] == "UNRESOLVED_ROUTE"
    assert finding["detail"].startswith("`hapi-swagger` is configured here: it serves")
    assert "`GET /swaggerui/{path*}`" in finding["detail"]
    assert finding["locations"] == [{"path": "hx/index.js", "line": 5}]


def test_a_table_or_a_library_s_routes_in_a_plugin_nothing_registers_are_findings() -> None:
    # plugins registered by a composer from their names (glue's manifest), so no scanned call
    # passes them a server: a table from a module the scan cannot resolve, and hapi-swagger
    files = {
        "lib/plugins/api.js": (
            "const Endpoints = require('routes');\n"
            "const register = function (server) {\n"
            "  server.route(Endpoints.list);\n"
            "};\n"
            "exports.plugin = { name: 'api', register };\n"
        ),
        "lib/plugins/docs.js": (
            "const Swagger = require('hapi-swagger');\n"
            "exports.plugin = {\n"
            "  name: 'docs',\n"
            "  async register(server) { await server.register({ plugin: Swagger }); },\n"
            "};\n"
        ),
    }
    found = document(files)
    # hapi-swagger's routes every version serves: listed, the prefix of the plugin not known
    assert {str(r["name"]) for r in found["resources"]} == {
        "GET /documentation", "GET /swagger.json", "GET /swaggerui/extend.js",
    }  # fmt: skip
    assert all(r["attrs"]["prefixUnresolved"] for r in found["resources"])
    unresolved = [f for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE"]
    assert [(f["locations"][0]["path"], f["locations"][0]["line"]) for f in unresolved] == [
        ("lib/plugins/api.js", 3),
        ("lib/plugins/docs.js", 4),
    ]


def test_a_composed_manifest_whose_plugin_is_not_scanned_is_a_finding_at_the_compose() -> None:
    files = {
        "boot.js": (
            "const Glue = require('@hapi/glue');\n"
            "const Settings = require('./settings');\n"
            "const start = async () => {\n"
            "  const server = await Glue.compose(Settings.get('/'), { relativeTo: __dirname });\n"
            "  await server.start();\n"
            "};\n"
        ),
        "settings.js": (
            "const Store = require('confidence').Store;\n"
            "module.exports = new Store({ register: { plugins: [{ plugin: './api/people' }] } });\n"
        ),
    }
    missing, created = document(files)["findings"]
    assert missing["code"] == "UNRESOLVED_ROUTE"
    assert "lists ('./api/people') is not a module the scanned files show" in missing["detail"]
    assert missing["locations"] == [{"path": "boot.js", "line": 4}]
    # no route at all: the composed app is named where it is made, too
    assert created["code"] == "UNREAD_FRAMEWORK"
    assert created["locations"] == [{"path": "boot.js", "line": 4}]


def test_route_options_without_a_leading_slash_on_an_unreached_plugin_are_listed_flagged() -> None:
    # a folder of route modules a loader requires at runtime (no scanned call passes them a
    # server): each is route options, written relative to a prefix that ends in `/`
    files = {
        "svc/routes/tickets/open.js": (
            "module.exports = async function (server, settings) {\n"
            "  server.route({ method: 'POST', path: 'tickets/{id}/open', handler });\n"
            "};\n"
        ),
        "svc/routes/health.js": (
            "module.exports = (server) => server.route([{ method: 'GET', path: 'health', handler: ok }]);\n"
        ),
    }
    doc = document(files)
    found = {r["name"]: r for r in doc["resources"]}
    assert set(found) == {"POST /tickets/{id}/open", "GET /health"}
    assert all(r["attrs"]["prefixUnresolved"] for r in found.values())
    assert {f["code"] for f in doc["findings"]} == {"UNRESOLVED_PREFIX"}
