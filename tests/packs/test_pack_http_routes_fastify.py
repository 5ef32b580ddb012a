"""pack-http-routes: Fastify, read through its record (`frameworks.READ`) and the reader code
for its constructs: `route({ method, url })`, route options whose hooks guard (`preHandler`,
`onRequest`), `register(plugin, { prefix })` running a plugin (a function, in this file or
another) on a child under that prefix, nested, `fastify-plugin` sharing its parent, and
`addHook('onRequest', guard)`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs.routes import seeds  # noqa: E402
from packs.routes.frameworks import UNREAD  # noqa: E402
from routes_harness import document, placed, scanned_both_ways  # noqa: E402

# A Fastify service of our own: shorthand routes with and without options, a plugin in another
# file under a prefix, an inline plugin registering a plugin of another file (prefixes nest), a
# `fastify-plugin` plugin (no encapsulation: its routes are its parent's), `route()` with a
# method list, a hook guarding one plugin, and a route whose method is computed.
SERVICE: dict[str, str] = {
    "srv/server.js": (
        "const Fastify = require('fastify');\n"
        "const fp = require('fastify-plugin');\n"
        "const accounts = require('./routes/accounts');\n"
        "const guard = require('./guard');\n"
        "const app = Fastify({ logger: true });\n"
        "app.get('/health', async () => ({ ok: true }));\n"
        "app.register(accounts, { prefix: '/accounts' });\n"
        "app.register(fp(require('./metrics')));\n"
        "app.register(async (v2, opts) => {\n"
        "  v2.route({ method: ['GET', 'POST'], url: '/items/:id', preHandler: [guard.check],\n"
        "             handler: items });\n"
        "  v2.register(require('./routes/admin'), { prefix: '/admin' });\n"
        "}, { prefix: '/v2' });\n"
        "const verb = process.env.VERB;\n"
        "app.route({ method: verb, url: '/dynamic', handler: items });\n"
        "function items(request, reply) {}\n"
        "app.listen({ port: 3000 });\n"
    ),
    "srv/routes/accounts.js": (
        "module.exports = async function (fastify, opts) {\n"
        "  fastify.get('/', { schema: { querystring: {} } }, list);\n"
        "  fastify.delete('/:id', { preHandler: [require('../guard').check] }, close);\n"
        "  fastify.post('/', { handler: open, onRequest: async (req) => {} });\n"
        "};\n"
        "function list() {}\n"
        "function close() {}\n"
        "function open() {}\n"
    ),
    "srv/routes/admin.ts": (
        "import { FastifyInstance } from 'fastify';\n"
        "export default async function admin(app: FastifyInstance) {\n"
        "  app.addHook('onRequest', async (req, reply) => { await req.jwtVerify(); });\n"
        "  app.put('/settings', async () => ({}));\n"
        "}\n"
    ),
    "srv/metrics.js": "module.exports = async (f) => { f.get('/metrics', async () => ''); };\n",
    "srv/guard.js": (
        "exports.check = async (req, reply) => {\n"
        "  if (!req.headers.authorization) reply.code(401).send();\n"
        "};\n"
    ),
}


def test_fastify_routes_plugins_and_prefixes_are_read() -> None:
    assert placed(SERVICE) == {
        "GET /health": "srv/server.js:6 fastify",
        "GET /accounts": "srv/routes/accounts.js:2 fastify",
        "DELETE /accounts/{id}": "srv/routes/accounts.js:3 fastify",
        "POST /accounts": "srv/routes/accounts.js:4 fastify",
        "GET /metrics": "srv/metrics.js:1 fastify",
        "GET /v2/items/{id}": "srv/server.js:10 fastify",
        "POST /v2/items/{id}": "srv/server.js:10 fastify",
        "PUT /v2/admin/settings": "srv/routes/admin.ts:4 fastify",
    }


def test_a_computed_method_is_a_finding_not_silence() -> None:
    found = [(f["code"], f["locations"][0]["line"]) for f in document(SERVICE)["findings"]]
    assert found == [("UNRESOLVED_ROUTE", 15)]


def test_hooks_in_route_options_and_add_hook_are_auth_evidence() -> None:
    auth = {s["resource"].partition(":")[2]: s["value"] for s in document(SERVICE)["signals"]}
    assert auth == {
        "GET /health": "none",
        "GET /accounts": "none",  # a schema option guards nothing
        "DELETE /accounts/{id}": "required",  # preHandler: a check answering 401
        "POST /accounts": "none",  # an onRequest hook that turns nobody away
        "GET /metrics": "none",
        "GET /v2/items/{id}": "required",
        "POST /v2/items/{id}": "required",
        "PUT /v2/admin/settings": "required",  # addHook('onRequest', ... jwtVerify())
    }


def test_a_plugin_nothing_registers_is_listed_with_its_prefix_unknown() -> None:
    files = {
        "srv/server.js": "const app = require('fastify')();\napp.listen({ port: 80 });\n",
        "srv/routes/orphan.js": SERVICE["srv/routes/accounts.js"],
    }
    found = document(files)
    assert {r["attrs"].get("prefixUnresolved") for r in found["resources"]} == {True}
    assert [f["code"] for f in found["findings"]] == ["UNRESOLVED_PREFIX"]


def test_a_computed_prefix_is_a_finding() -> None:
    files = {
        "app.mjs": (
            "import fastify from 'fastify';\n"
            "import users from './users.mjs';\n"
            "const app = fastify();\n"
            "app.register(users, { prefix: process.env.BASE });\n"
        ),
        "users.mjs": "export default async function users(f) { f.get('/me', async () => 1); }\n",
    }
    found = document(files)
    assert [r["name"] for r in found["resources"]] == ["GET /me"]
    assert [r["attrs"].get("prefixUnresolved") for r in found["resources"]] == [True]
    assert [f["code"] for f in found["findings"]] == ["UNRESOLVED_PREFIX"]


def test_register_outside_a_fastify_file_is_not_read_as_a_plugin() -> None:
    files = {"sw.js": "navigator.serviceWorker.register('/sw.js', { scope: '/' });\n"}
    assert document(files) == {"resources": [], "findings": [], "signals": []}


def test_fastify_is_no_longer_an_unread_framework() -> None:
    assert "Fastify" not in {u.name for u in UNREAD}
    assert not [f for f in document(SERVICE)["findings"] if f["code"] == "UNREAD_FRAMEWORK"]


def test_the_pre_filter_admits_fastify_calls_on_a_parameter() -> None:
    assert seeds.admits("p.js", b"module.exports = async (app) => { app.route({ url: '/' }); };\n")
    assert seeds.admits("p.js", b"module.exports = async (app) => { app.register(x); };\n")


def test_a_fastify_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"srv/util.js": "module.exports = (a) => a + 1;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**SERVICE, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]  # srv/util.js holds nothing any reader looks for
    assert '"PUT /v2/admin/settings"' in documents[1]


# A plugin no scanned call registers (a loader library reads it from its folder) whose routes'
# paths are computed from its options: each route is a finding where it is written, not dropped.
COMPUTED_PATHS_IN_AN_UNREGISTERED_PLUGIN: dict[str, str] = {
    "api/handlers/widgets.js": (
        "const fp = require('fastify-plugin');\n"
        "async function widgets(app, opts) {\n"
        "  app.route({ method: 'GET', url: opts.base + 'widgets', handler: list });\n"
        "  app.post(`${opts.base}widgets`, create);\n"
        "  app.get(opts.healthPath, { logLevel: 'warn' }, list);\n"
        "}\n"
        "function list() {}\n"
        "function create() {}\n"
        "module.exports = fp(widgets);\n"
    ),
    "api/server.js": "const app = require('fastify')();\napp.listen({ port: 0 });\n",
}


def test_a_computed_path_in_a_plugin_nothing_registers_is_a_finding_where_it_is_written() -> None:
    found = document(COMPUTED_PATHS_IN_AN_UNREGISTERED_PLUGIN)
    unresolved = [f for f in found["findings"] if f["code"] == "UNRESOLVED_ROUTE"]
    assert [(f["locations"][0]["path"], f["locations"][0]["line"]) for f in unresolved] == [
        ("api/handlers/widgets.js", 3),
        ("api/handlers/widgets.js", 4),
        ("api/handlers/widgets.js", 5),
    ]
    assert found["resources"] == []


# Plugin libraries that serve routes of their own: the CORS plugin's preflight route, always
# served on the router registering it (bound under another name), and a documentation UI whose
# routes hang on its options, inside a prefixed plugin: those every version serves listed at
# its register call, those that depend on a version no `package.json` declares a finding there
# (`test_pack_http_routes_option_routes.py` has the versions and options).
GENERATED_ROUTES: dict[str, str] = {
    "web/boot.js": (
        "const Fastify = require('fastify');\n"
        "const crossOrigin = require('@fastify/cors');\n"
        "const web = Fastify();\n"
        "web.register(crossOrigin, { origin: false });\n"
        "web.register(async (scope) => {\n"
        "  scope.register(require('@fastify/swagger-ui'), { routePrefix: '/docs' });\n"
        "  scope.get('/x', async () => 1);\n"
        "}, { prefix: '/v3' });\n"
    ),
}


def test_a_plugin_library_s_own_routes_are_listed_or_named_at_its_register_call() -> None:
    assert placed(GENERATED_ROUTES) == {
        "OPTIONS /*": "web/boot.js:4 fastify",
        "GET /v3/x": "web/boot.js:7 fastify",
        **{
            f"GET /v3/docs{tail}": "web/boot.js:6 fastify"
            for tail in ("", "/json", "/yaml", "/static/*")
        },
    }
    [finding] = document(GENERATED_ROUTES)["findings"]
    assert finding["code"] == "UNRESOLVED_ROUTE"
    assert "`@fastify/swagger-ui` is configured here" in finding["detail"]
    assert "`GET /docs/uiConfig`" in finding["detail"]
    assert {"path": "web/boot.js", "line": 6} in finding["locations"]


# `@fastify/autoload`: every script of a folder registered as a plugin, by the loader's rules
# (a folder with an `index` registers it and its subfolders only, `_name` folders are route
# parameters, an `autoPrefix` export replaces the folder's path, type declarations are no
# plugins), under the loader's `options.prefix`; from an app, and from a fastify-cli style
# plugin nothing scanned registers (its prefix then not known).
AUTOLOADED: dict[str, str] = {
    "srv/main.js": (
        "const path = require('path');\n"
        "const Loader = require('@fastify/autoload');\n"
        "const app = require('fastify')();\n"
        "app.register(Loader, { dir: path.join(__dirname, 'plugins') });\n"
        "app.register(Loader, { dir: path.join(__dirname, 'endpoints'), options: { prefix: '/api' } });\n"
    ),
    "srv/plugins/db.js": (
        "const fp = require('fastify-plugin');\n"
        "module.exports = fp(async (f) => { f.decorate('db', 1); });\n"
    ),
    "srv/endpoints/health.js": (
        "module.exports = async (f) => { f.get('/health', async () => 'ok'); };\n"
    ),
    "srv/endpoints/orders/index.js": (
        "module.exports = async function (f) { f.get('/', list); f.post('/', add); };\n"
        "function list() {}\n"
        "function add() {}\n"
    ),
    "srv/endpoints/orders/_orderId/items.js": (
        "module.exports = async function (f) { f.get('/items', async () => []); };\n"
    ),
    "srv/endpoints/orders/helper.js": (
        "module.exports = async function (f) { f.get('/never', async () => []); };\n"
    ),
    "srv/endpoints/admin.mjs": (
        "export const autoPrefix = '/_ops';\n"
        "export default async function (f) { f.delete('/cache', async () => 1); }\n"
    ),
    "srv/endpoints/types.d.ts": "export type Shape = number;\n",
}
AUTOLOADED_ROUTES = {
    "DELETE /api/_ops/cache": "srv/endpoints/admin.mjs:2 fastify",
    "GET /api/health": "srv/endpoints/health.js:1 fastify",
    "GET /api/orders/{orderId}/items": "srv/endpoints/orders/_orderId/items.js:1 fastify",
    "GET /api/orders": "srv/endpoints/orders/index.js:1 fastify",
    "POST /api/orders": "srv/endpoints/orders/index.js:1 fastify",
}


def test_autoload_registers_a_folder_s_plugins_under_their_folders_paths() -> None:
    assert placed(AUTOLOADED) == AUTOLOADED_ROUTES
    assert document(AUTOLOADED)["findings"] == []


def test_autoload_in_a_plugin_nothing_registers_lists_its_routes_with_the_prefix_unknown() -> None:
    main = AUTOLOADED["srv/main.js"].replace(
        "const app = require('fastify')();\n", "module.exports = async function (app, opts) {\n"
    )
    files = {**AUTOLOADED, "srv/main.js": main + "};\n"}
    found = document(files)
    assert placed(files) == AUTOLOADED_ROUTES
    assert {r["attrs"].get("prefixUnresolved") for r in found["resources"]} == {True}
    assert [f["code"] for f in found["findings"]] == ["UNRESOLVED_PREFIX"]


def test_an_autoload_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _parsed = scanned_both_ways(tmp_path, AUTOLOADED, monkeypatch)
    assert documents[1] == documents[0]
    assert '"GET /api/orders/{orderId}/items"' in documents[1]


def test_a_module_exporting_a_fastify_plugin_wrapped_plugin_is_followed_from_its_register() -> None:
    files = {
        "svc/index.js": (
            "const start = require('./lib/start');\n"
            "const app = require('fastify')();\n"
            "app.register(start);\n"
        ),
        "svc/lib/start.js": (
            "const wrap = require('fastify-plugin');\n"
            "async function start(instance) {\n"
            "  instance.get('/ready', async () => true);\n"
            "}\n"
            "module.exports = wrap(start);\n"
        ),
    }
    found = document(files)
    assert placed(files) == {"GET /ready": "svc/lib/start.js:3 fastify"}
    assert found["findings"] == []
    assert [r["attrs"].get("prefixUnresolved") for r in found["resources"]] == [None]
