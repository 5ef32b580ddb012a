"""pack-http-routes: values taken from configuration whose source the scan shows, read by the
evaluator for every JavaScript framework (issue 36, Fastify and hapi rows): `process.env.X ||
'default'` (`??`, `x ? x : 'default'`), a configuration module's exported object (nested, or
returned by a factory), JSON-schema defaults (`env-schema`, fluent-json-schema, `@fastify/env`'s
decorated `fastify.config`), convict schemas, sample environment files (`.env.example`); the
options a plugin is registered or autoloaded with, read by the plugin (`opts.prefix + 'x'`);
hapi apps composed by `@hapi/glue` from a manifest (a literal, a module, a confidence store's
`$default` branch). A value that stays unknown is a finding at the registration, never silence.
Every fixture here is our own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from routes_harness import document, scanned_both_ways


def _routes(files: dict[str, str]) -> dict[str, dict[str, object]]:
    """Route name -> its attrs, with its place as `file:line`."""
    return {
        str(r["name"]): {**r["attrs"], "at": f"{r['location']['path']}:{r['location']['line']}"}
        for r in document(files)["resources"]
    }


# -- class 1: a value with a visible default ---------------------------------------------------


def test_env_fallbacks_are_read_as_their_default_and_marked_so_in_every_framework() -> None:
    files = {
        "web/main.js": (
            "const express = require('express');\n"
            "const reports = require('./reports');\n"
            "const app = express();\n"
            "app.use(process.env.REPORTS_BASE || '/reporting', reports);\n"
        ),
        "web/reports.js": (
            "const { Router } = require('express');\n"
            "const r = Router();\n"
            "r.get('/daily', (q, s) => s.end());\n"
            "module.exports = r;\n"
        ),
        "svc/index.ts": (
            "import Fastify from 'fastify';\n"
            "import jobs from './jobs';\n"
            "const base = process.env.JOBS_PREFIX ?? '/queue';\n"
            "const f = Fastify();\n"
            "f.register(jobs, { prefix: base });\n"
        ),
        "svc/jobs.ts": (
            "export default async function (instance) {\n"
            "  instance.post('/enqueue', async () => 1);\n"
            "}\n"
        ),
        "edge/server.js": (
            "const Hapi = require('@hapi/hapi');\n"
            "const env = process.env;\n"
            "const boot = async () => {\n"
            "  const server = Hapi.server();\n"
            "  server.route({ method: 'GET', path: (env.PING ? env.PING : '/ping'), handler: h });\n"
            "};\n"
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /reporting/daily", "POST /queue/enqueue", "GET /ping"}
    assert found["GET /reporting/daily"]["configDefault"] == "process.env.REPORTS_BASE"
    assert found["POST /queue/enqueue"]["configDefault"] == "process.env.JOBS_PREFIX"
    assert found["GET /ping"]["configDefault"] == "env.PING"
    assert all("prefixUnresolved" not in attrs for attrs in found.values())


def test_a_configuration_module_s_object_and_a_factory_s_result_give_prefixes() -> None:
    files = {
        "conf/values.js": (
            "const shared = { http: { mount: '/portal', versions: { current: '/v4' } } };\n"
            "function load() {\n"
            "  const built = { api: shared.http.versions.current, admin: shared.http.mount };\n"
            "  return built;\n"
            "}\n"
            "module.exports = { shared, load };\n"
        ),
        "app.js": (
            "const Koa = require('koa');\n"
            "const Router = require('@koa/router');\n"
            "const { shared, load } = require('./conf/values');\n"
            "const settings = load();\n"
            "const api = new Router({ prefix: settings.api });\n"
            "api.get('/things', list);\n"
            "const admin = new Router({ prefix: shared.http.mount });\n"
            "admin.del('/things/:id', remove);\n"
            "const app = new Koa();\n"
            "app.use(api.routes()).use(admin.routes());\n"
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /v4/things", "DELETE /portal/things/{id}"}
    assert all("configDefault" not in a and "prefixUnresolved" not in a for a in found.values())


# -- class 1: schema-built configuration -------------------------------------------------------


def test_env_schema_json_defaults_and_fluent_schemas_give_their_defaults() -> None:
    files = {
        "src/settings.js": (
            "const envSchema = require('env-schema');\n"
            "const S = require('fluent-json-schema');\n"
            "const plain = envSchema({\n"
            "  schema: { type: 'object', properties: { MOUNT: { type: 'string', default: '/tools' } } },\n"
            "});\n"
            "const fluent = envSchema({\n"
            "  dotenv: true,\n"
            "  schema: S.object().prop('LEVEL', S.string().default('info'))\n"
            "    .prop('ZONE', S.string().required().default('/eu')),\n"
            "});\n"
            "module.exports = { mount: plain.MOUNT, zone: fluent.ZONE };\n"
        ),
        "src/server.js": (
            "const fastify = require('fastify')();\n"
            "const cfg = require('./settings');\n"
            "fastify.register(require('./tools'), { prefix: cfg.mount + cfg.zone });\n"
        ),
        "src/tools.js": (
            "module.exports = async function (fastify) {\n"
            "  fastify.get('/hammer', async () => 'ok');\n"
            "};\n"
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /tools/eu/hammer"}
    assert found["GET /tools/eu/hammer"]["configDefault"] == "process.env.MOUNT; process.env.ZONE"


def test_fastify_env_decorates_the_instance_with_its_schema_s_defaults() -> None:
    files = {
        "app.js": (
            "import Fastify from 'fastify';\n"
            "import Env from '@fastify/env';\n"
            "import shop from './shop.js';\n"
            "const app = Fastify();\n"
            "await app.register(Env, { confKey: 'opts', schema: {\n"
            "  type: 'object', properties: { SHOP_AT: { type: 'string', default: '/store' } },\n"
            "} });\n"
            "app.register(shop);\n"
        ),
        "shop.js": (
            "export default async function shop(fastify) {\n"
            "  fastify.get(`${fastify.opts.SHOP_AT}/cart`, async () => []);\n"
            "}\n"
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /store/cart"}
    assert found["GET /store/cart"]["at"] == "shop.js:2"
    assert found["GET /store/cart"]["configDefault"] == "process.env.SHOP_AT"


def test_convict_schemas_are_read_through_get_with_a_dotted_key() -> None:
    files = {
        "config.js": (
            "const convict = require('convict');\n"
            "const conf = convict({\n"
            "  web: {\n"
            "    root: { doc: 'where the API is served', format: String, default: '/gw',\n"
            "            env: 'GW_ROOT' },\n"
            "  },\n"
            "});\n"
            "module.exports = conf;\n"
        ),
        "main.js": (
            "const express = require('express');\n"
            "const conf = require('./config');\n"
            "const app = express();\n"
            "const api = express.Router();\n"
            "api.patch('/limits', update);\n"
            "app.use(conf.get('web.root'), api);\n"
        ),
    }
    found = _routes(files)
    assert set(found) == {"PATCH /gw/limits"}
    assert found["PATCH /gw/limits"]["configDefault"] == "process.env.GW_ROOT"


def test_a_sample_env_file_documents_a_variable_with_no_default_in_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        ".env.example": "# copy to .env\nexport PUBLIC_ROOT='/pub'\nSECRET=changeme # not used\n",
        "server/index.js": (
            "const express = require('express');\n"
            "const app = express();\n"
            "const files = express.Router();\n"
            "files.get('/list', (q, s) => s.end());\n"
            "app.use(process.env.PUBLIC_ROOT, files);\n"
        ),
    }
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]  # the pre-filter parses the env file when asked
    [route] = json.loads(documents[0])["resources"]
    assert route["name"] == "GET /pub/list"
    assert route["attrs"]["configDefault"] == "process.env.PUBLIC_ROOT as .env.example sets it"


def test_a_default_written_in_code_wins_over_a_sample_env_file() -> None:
    files = {
        "env.example": "BASE=/from-sample\n",
        "index.js": (
            "const express = require('express');\n"
            "const app = express();\n"
            "app.get((process.env.BASE || '/from-code') + '/x', (q, s) => s.end());\n"
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /from-code/x"}


# -- class 1: options a plugin is given ---------------------------------------------------------


def test_a_plugin_reads_the_prefix_it_is_registered_or_autoloaded_with() -> None:
    files = {
        "boot.js": (
            "const fastify = require('fastify')();\n"
            "const core = require('./core');\n"
            "const settings = { prefix: '/edge/' };\n"
            "fastify.register(core, settings);\n"
        ),
        "core.js": (
            "const fp = require('fastify-plugin');\n"
            "const path = require('path');\n"
            "const loader = require('@fastify/autoload');\n"
            "async function core(app, given) {\n"
            "  app.register(require('@fastify/cors')).register(loader, {\n"
            "    dir: path.join(__dirname, 'parts'),\n"
            "    options: given,\n"
            "    dirNameRoutePrefix: false,\n"
            "  });\n"
            "}\n"
            "module.exports = fp(core);\n"
        ),
        "parts/orders/index.js": (
            "const fp = require('fastify-plugin');\n"
            "module.exports = fp(async function (srv, opts) {\n"
            "  srv.route({ method: 'GET', url: opts.prefix + 'orders', handler: all });\n"
            "});\n"
        ),
        "parts/ping.js": (
            "module.exports = async (srv, opts) => {\n"
            "  srv.get(`${opts.prefix}/ping`, async () => 'pong');\n"
            "};\n"
        ),
    }
    found = _routes(files)
    # `/edge/` loses its last slash, a subfolder adds `/`; an encapsulated plugin is also
    # served under the prefix the loader registers it with (Fastify applies it)
    assert set(found) == {"GET /edge/orders", "GET /edge/edge/ping", "OPTIONS /*"}
    assert found["GET /edge/orders"]["at"] == "parts/orders/index.js:3"


# -- class 2: @hapi/glue manifests -------------------------------------------------------------

GLUED: dict[str, str] = {
    "srv/start.js": (
        "const Glue = require('@hapi/glue');\n"
        "const Path = require('path');\n"
        "const recipe = require('./recipe');\n"
        "exports.deploy = async () => {\n"
        "  const server = await Glue.compose(recipe.get('/'), {\n"
        "    relativeTo: Path.join(__dirname, 'plugins'),\n"
        "  });\n"
        "  server.route({ method: 'GET', path: '/health', handler: () => 'ok' });\n"
        "  return server;\n"
        "};\n"
    ),
    "srv/recipe.js": (
        "const Confidence = require('@hapi/confidence');\n"
        "const Docs = require('hapi-swagger');\n"
        "const doc = {\n"
        "  $meta: 'the server',\n"
        "  server: { port: { $filter: 'env', production: 80, $default: 8000 } },\n"
        "  register: {\n"
        "    plugins: [\n"
        "      './inventory',\n"
        "      { plugin: './billing', routes: { prefix: { $filter: 'env', $default: '/pay' } } },\n"
        "      { plugin: require('./plugins/audit'), routes: { prefix: '/audit' },\n"
        "        options: { base: '/trail' } },\n"
        "      { plugin: Docs, options: { documentationPath: '/docs' } },\n"
        "      'hapi-auth-cookie',\n"
        "    ],\n"
        "  },\n"
        "};\n"
        "module.exports = new Confidence.Store(doc);\n"
    ),
    "srv/plugins/inventory.js": (
        "exports.plugin = {\n"
        "  name: 'inventory',\n"
        "  register(server) {\n"
        "    server.route([{ method: 'GET', path: '/stock', handler: s },\n"
        "                  { method: 'PUT', path: '/stock/{sku}', handler: p }]);\n"
        "  },\n"
        "};\n"
    ),
    "srv/plugins/billing/index.js": (
        "const register = async (server) => {\n"
        "  server.route({ method: 'POST', path: '/invoices', handler: i });\n"
        "};\n"
        "module.exports = { name: 'billing', register };\n"
    ),
    "srv/plugins/audit.js": (
        "module.exports = {\n"
        "  plugin: {\n"
        "    name: 'audit',\n"
        "    register: (server, options) => {\n"
        "      server.route({ method: 'GET', path: options.base + '/{id}', handler: a });\n"
        "    },\n"
        "  },\n"
        "};\n"
    ),
}


def test_a_glue_manifest_registers_its_plugins_with_their_prefixes() -> None:
    doc = document(GLUED)
    found = {str(r["name"]): r for r in doc["resources"]}
    assert set(found) == {
        "GET /health",
        "GET /stock",
        "PUT /stock/{sku}",
        "POST /pay/invoices",
        "GET /audit/trail/{id}",
        # hapi-swagger's own, as every version serves them (`option_routes`): at its entry
        "GET /docs",
        "GET /swagger.json",
        "GET /swaggerui/extend.js",
    }
    assert found["GET /docs"]["attrs"]["library"] == "hapi-swagger"
    assert (
        found["POST /pay/invoices"]["attrs"]["configDefault"]
        == "the $default of a confidence $filter on 'env'"
    )
    assert found["GET /stock"]["location"] == {"path": "srv/plugins/inventory.js", "line": 4}
    assert all("prefixUnresolved" not in r["attrs"] for r in found.values())
    [swagger] = doc["findings"]
    assert swagger["code"] == "UNRESOLVED_ROUTE" and "`hapi-swagger`" in swagger["detail"]
    assert swagger["locations"] == [{"path": "srv/start.js", "line": 5}]


def test_a_glue_manifest_literal_in_the_composing_file_and_a_register_in_code() -> None:
    files = {
        "index.js": (
            "import Glue from '@hapi/glue';\n"
            "import Hapi from '@hapi/hapi';\n"
            "const manifest = { server: {}, register: { plugins: [\n"
            "  { plugin: './teams', routes: { prefix: '/v1' } },\n"
            "] } };\n"
            "const server = await Glue.compose(manifest, { relativeTo: __dirname });\n"
            "await server.register({ plugin: (await import('./teams.js')).default,\n"
            "  routes: { prefix: '/v0' } });\n"
        ),
        "teams.js": (
            "export default { name: 'teams', register: async (server) => {\n"
            "  server.route({ method: 'DELETE', path: '/teams/{id}', handler: d });\n"
            "} };\n"
        ),
    }
    found = _routes(files)
    assert "DELETE /v1/teams/{id}" in found
    assert found["DELETE /v1/teams/{id}"]["at"] == "teams.js:2"


# a manifest module with no framework word, read through its own `get(key)`
GETTER: dict[str, str] = {
    "main.js": (
        "const Glue = require('glue');\n"
        "const Setup = require('./setup');\n"
        "async function run() {\n"
        "  const how = { relativeTo: __dirname };\n"
        "  const server = await Glue.compose(Setup.get('/'), how);\n"
        "}\n"
    ),
    "setup.js": (
        "const { Store } = require('confidence');\n"
        "const when = { env: process.env.NODE_ENV };\n"
        "const tree = new Store({ register: { plugins: [\n"
        "  { plugin: './features/notes', routes: { prefix: '/n' } },\n"
        "] } });\n"
        "exports.get = (key) => tree.get(key, when);\n"
    ),
    "features/notes.js": (
        "exports.register = (server) => {\n"
        "  server.route({ method: 'POST', path: '/notes', handler: add });\n"
        "};\n"
        "exports.name = 'notes';\n"
    ),
}


def test_a_manifest_module_s_own_getter_and_compose_options_held_by_a_name() -> None:
    files = GETTER
    doc = document(files)
    assert [r["name"] for r in doc["resources"]] == ["POST /n/notes"]
    assert doc["findings"] == []


# -- class 3: a value that stays unknown is a finding at the registration ---------------------


def test_unknown_configuration_and_manifests_are_findings_at_the_registration() -> None:
    files = {
        "a.js": (
            "const fastify = require('fastify')();\n"
            "fastify.register(require('./b'), { prefix: process.env.ONLY_AT_RUNTIME });\n"
        ),
        "b.js": "module.exports = async (fastify) => { fastify.get('/b', async () => 1); };\n",
        "c.js": (
            "const Glue = require('@hapi/glue');\n"
            "const build = (list) => ({ register: { plugins: list.map((p) => `./${p}`) } });\n"
            "Glue.compose(build(['x']), { relativeTo: __dirname });\n"
        ),
    }
    doc = document(files)
    [route] = doc["resources"]
    assert route["name"] == "GET /b" and route["attrs"]["prefixUnresolved"] is True
    places = {
        (f["code"], f["locations"][0]["path"], f["locations"][0]["line"]) for f in doc["findings"]
    }
    assert ("UNRESOLVED_PREFIX", "a.js", 2) in places
    assert ("UNRESOLVED_ROUTE", "c.js", 3) in places


@pytest.mark.parametrize(("files", "routes"), [(GLUED, 8), (GETTER, 1)], ids=["glued", "getter"])
def test_configuration_fixtures_scan_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], routes: int
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert len(json.loads(documents[0])["resources"]) == routes


def test_a_manifest_without_plugins_registers_none_and_says_nothing() -> None:
    files = {
        "run.js": (
            "const Glue = require('@hapi/glue');\n"
            "const server = await Glue.compose({ server: { port: 4000 } });\n"
            "server.route({ method: 'GET', path: '/alive', handler: () => 'yes' });\n"
        )
    }
    doc = document(files)
    assert [r["name"] for r in doc["resources"]] == ["GET /alive"]
    assert doc["findings"] == []


def test_hapi_register_in_code_gives_the_plugin_its_options_as_a_manifest_entry_does() -> None:
    files = {
        "serve.js": (
            "const Hapi = require('@hapi/hapi');\n"
            "const conf = { mounts: { reports: process.env.REPORTS || '/r' } };\n"
            "const go = async () => {\n"
            "  const server = Hapi.server();\n"
            "  await server.register({ plugin: require('./reports'), routes: { prefix: '/x' },\n"
            "    options: { at: conf.mounts.reports } });\n"
            "};\n"
        ),
        "reports.js": (
            "exports.plugin = { name: 'reports', register: async (server, options) => {\n"
            "  server.route({ method: 'GET', path: `${options.at}/weekly`, handler: w });\n"
            "} };\n"
        ),
    }
    found = _routes(files)
    assert set(found) == {"GET /x/r/weekly"}
    assert found["GET /x/r/weekly"]["at"] == "reports.js:2"
    assert found["GET /x/r/weekly"]["configDefault"] == "process.env.REPORTS"
