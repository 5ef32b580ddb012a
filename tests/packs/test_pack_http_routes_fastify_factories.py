"""pack-http-routes: a Fastify plugin that is the VALUE a project function returns, registered
where the function is called: `server.register(require('./x')(opts), { prefix })`, `const
plugin = makePlugin(db); app.register(plugin, { prefix })`, `export default (deps) => async
(app) => {...}`, `fp(makePlugin(opts))`, a factory returning `fp(async (f) => ...)`, one factory
registered under two prefixes, TypeScript. The returned function is followed only where the value
is consumed as a plugin (a `register` call); a factory whose plugin the runtime chooses is a
finding at the call site, and middleware factories given to `use()` read as before. hapi: a
factory returning a plugin object (`{ name, register }`) registered under two prefixes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import finding_places, names, prefix_unresolved, scanned_both_ways  # noqa: E402

CJS: dict[str, str] = {
    "server/main.js": (
        "const Fastify = require('fastify');\n"
        "const srv = Fastify({ logger: true });\n"
        "const pool = { size: 4 };\n"
        "srv.register(require('../plugins/orders')(pool), { prefix: '/orders' });\n"
        "const makeStock = require('../plugins/stock');\n"
        "const stock = makeStock(pool);\n"
        "srv.register(stock, { prefix: '/v1/stock' });\n"
        "srv.register(stock, { prefix: '/v2/stock' });\n"
        "srv.register(require('../plugins/pick')(pool), { prefix: '/pick' });\n"
        "srv.register(require('../plugins/named').build({}), { prefix: '/named' });\n"
        "srv.register(require('../plugins/either')(pool), { prefix: '/either' });\n"
        "srv.listen({ port: 3000 });\n"
    ),
    # an arrow that returns an async plugin function
    "plugins/orders.js": (
        "module.exports = (db) => async (scope, opts) => {\n"
        "  scope.get('/open', async () => db);\n"
        "  scope.post('/', async (req) => req.body);\n"
        "};\n"
    ),
    # a function declaration returning a named inner function
    "plugins/stock.js": (
        "function stockPlugin(db) {\n"
        "  function routes(f, _opts, done) {\n"
        "    f.get('/levels', (req, reply) => reply.send(db));\n"
        "    f.route({ method: 'PUT', url: '/levels/:sku', handler: (r, p) => p.send() });\n"
        "    done();\n"
        "  }\n"
        "  return routes;\n"
        "}\n"
        "module.exports = stockPlugin;\n"
    ),
    # which plugin is returned is decided at run time
    "plugins/pick.js": (
        "module.exports = function (db) {\n"
        "  if (db.size > 2) {\n"
        "    return async (a) => { a.get('/big', async () => 1); };\n"
        "  }\n"
        "  return async (b) => { b.get('/small', async () => 2); };\n"
        "};\n"
    ),
    "plugins/either.js": (
        "module.exports = function (db) {\n"
        "  if (db.size) {\n"
        "    return async function (x) { x.get('/yes', async () => 1); };\n"
        "  } else {\n"
        "    return async function (y) { y.get('/no', async () => 0); };\n"
        "  }\n"
        "};\n"
    ),
    "plugins/named.js": (
        "exports.build = function (conf) {\n"
        "  return async function (inst) {\n"
        "    inst.delete('/:id', async () => conf);\n"
        "  };\n"
        "};\n"
    ),
}

ESM: dict[str, str] = {
    "src/app.mjs": (
        "import fastify from 'fastify';\n"
        "import fp from 'fastify-plugin';\n"
        "import usersFactory from './users.mjs';\n"
        "import { sharedRoutes } from './shared.mjs';\n"
        "import wrapped from './wrapped.mjs';\n"
        "const app = fastify();\n"
        "const deps = { repo: 'pg' };\n"
        "app.register(usersFactory(deps), { prefix: '/users' });\n"
        "app.register(async (api) => {\n"
        "  api.register(fp(sharedRoutes(deps)));\n"
        "  api.register(wrapped(deps), { prefix: '/w' });\n"
        "}, { prefix: '/api' });\n"
        "export default app;\n"
    ),
    "src/users.mjs": (
        "export default (deps) => async (app) => {\n"
        "  app.get('/', async () => deps.repo);\n"
        "  app.get('/:uid', async () => ({}));\n"
        "};\n"
    ),
    "src/shared.mjs": (
        "export function sharedRoutes(deps) {\n"
        "  return async (server) => {\n"
        "    server.get('/ping', async () => 'pong');\n"
        "  };\n"
        "}\n"
    ),
    # a factory that returns an fp-wrapped plugin: its routes on the registering instance
    "src/wrapped.mjs": (
        "import fastifyPlugin from 'fastify-plugin';\n"
        "const wrap = (deps) =>\n"
        "  fastifyPlugin(async (f) => {\n"
        "    f.patch('/items/:n', async () => deps);\n"
        "  });\n"
        "export default wrap;\n"
    ),
}

TS: dict[str, str] = {
    "api/index.ts": (
        "import Fastify, { FastifyInstance } from 'fastify';\n"
        "import { makeBilling } from './billing';\n"
        "import { audit } from './audit';\n"
        "const server: FastifyInstance = Fastify();\n"
        "const billing = makeBilling({ currency: 'EUR' });\n"
        "server.register(billing, { prefix: '/billing' });\n"
        "server.register(billing, { prefix: '/legacy/billing' });\n"
        "server.register(audit({ table: 'log' }));\n"
    ),
    "api/audit.ts": (
        "import fp from 'fastify-plugin';\n"
        "import type { FastifyInstance, FastifyPluginAsync } from 'fastify';\n"
        "export function audit(db: { table: string }): FastifyPluginAsync {\n"
        "  return fp(async (f: FastifyInstance): Promise<void> => {\n"
        "    f.get<{ Params: { id: string } }>('/audit/:id', async () => db.table);\n"
        "  });\n"
        "}\n"
    ),
    "api/billing.ts": (
        "import type { FastifyInstance, FastifyPluginAsync } from 'fastify';\n"
        "interface Conf { currency: string }\n"
        "export const makeBilling = (conf: Conf): FastifyPluginAsync => {\n"
        "  const plugin: FastifyPluginAsync = async (f: FastifyInstance) => {\n"
        "    f.get('/invoices', async () => conf.currency);\n"
        "  };\n"
        "  return plugin;\n"
        "};\n"
    ),
}

# hapi: a factory returning a plugin object, its `register` run under each register's prefix
HAPI: dict[str, str] = {
    "boot/server.js": (
        "const Hapi = require('@hapi/hapi');\n"
        "const { kennel } = require('../plugins/kennel');\n"
        "const web = Hapi.server({ port: 0 });\n"
        "const start = async () => {\n"
        "  await web.register(kennel({ breed: 'any' }), { routes: { prefix: '/dogs' } });\n"
        "  await web.register(require('../plugins/kennel').kennel({}), {\n"
        "    routes: { prefix: '/v0/dogs' },\n"
        "  });\n"
        "};\n"
        "start();\n"
    ),
    "plugins/kennel.js": (
        "exports.kennel = function (opts) {\n"
        "  return {\n"
        "    name: 'kennel',\n"
        "    register: async function (srv) {\n"
        "      srv.route({ method: 'GET', path: '/{id}', handler: () => opts });\n"
        "    },\n"
        "  };\n"
        "};\n"
    ),
}

# a wrapper returning a plugin that calls the one it is given: that one is still registered
WRAPPER: dict[str, str] = {
    "srv/index.js": (
        "const app = require('fastify')();\n"
        "const withAudit = require('./audit');\n"
        "const teams = require('./teams');\n"
        "app.register(withAudit(teams), { prefix: '/teams' });\n"
    ),
    "srv/audit.js": (
        "module.exports = (inner) => async (scope, opts) => {\n"
        "  scope.addHook('onResponse', async () => {});\n"
        "  await inner(scope, opts);\n"
        "};\n"
    ),
    "srv/teams.js": "module.exports = async (t) => {\n  t.get('/mine', async () => []);\n};\n",
}

# Express middleware factories: each returns a function, given to use(), read as on main
MIDDLEWARE: dict[str, str] = {
    "web/app.js": (
        "const express = require('express');\n"
        "const limiter = require('./limit');\n"
        "const web = express();\n"
        "web.use(limiter({ max: 5 }));\n"
        "web.use('/api', require('./stamp')('x'));\n"
        "web.get('/home', (req, res) => res.end());\n"
    ),
    "web/limit.js": ("module.exports = (opts) => (req, res, next) => { next(); };\n"),
    "web/stamp.js": (
        "module.exports = function (tag) {\n"
        "  return function stamp(req, res, next) { res.set('x-tag', tag); next(); };\n"
        "};\n"
    ),
}


def test_a_plugin_returned_by_a_required_function_is_registered_where_it_is_called() -> None:
    listed = names(CJS)
    assert {"GET /orders/open", "POST /orders"} <= listed
    assert {"DELETE /named/{id}"} <= listed
    assert not {"GET /open", "POST /"} & listed


def test_one_plugin_value_registered_under_two_prefixes_lists_both() -> None:
    listed = names(CJS)
    assert {"GET /v1/stock/levels", "GET /v2/stock/levels"} <= listed
    assert {"PUT /v1/stock/levels/{sku}", "PUT /v2/stock/levels/{sku}"} <= listed
    assert "GET /levels" not in listed


def test_a_factory_choosing_its_plugin_at_run_time_is_a_finding_at_the_call() -> None:
    listed = names(CJS)
    assert not {"GET /pick/big", "GET /pick/small", "GET /big", "GET /small"} & listed
    assert not {"GET /either/yes", "GET /either/no", "GET /yes", "GET /no"} & listed
    unresolved = finding_places(CJS).get("UNRESOLVED_ROUTER", [])
    assert {"server/main.js:9", "server/main.js:11"} <= set(unresolved)


def test_esm_factories_and_fastify_plugin_wrapped_factories_are_registered() -> None:
    listed = names(ESM)
    assert {"GET /users", "GET /users/{uid}"} <= listed
    assert "GET /api/ping" in listed  # fp(): on the parent, under its prefix
    # fp() returned: on the registering instance, the register's prefix ignored (as Fastify does)
    assert "PATCH /api/items/{n}" in listed
    assert "PATCH /api/w/items/{n}" not in listed
    assert not prefix_unresolved(ESM)


def test_a_typescript_factory_returning_a_typed_plugin_is_registered_twice() -> None:
    listed = names(TS)
    assert {"GET /billing/invoices", "GET /legacy/billing/invoices"} <= listed
    assert "GET /audit/{id}" in listed
    assert not prefix_unresolved(TS)


def test_a_hapi_plugin_object_a_factory_returns_is_registered_under_each_prefix() -> None:
    listed = names(HAPI)
    assert {"GET /dogs/{id}", "GET /v0/dogs/{id}"} <= listed
    assert not prefix_unresolved(HAPI)


def test_a_wrapper_s_argument_is_still_registered_beside_the_function_it_returns() -> None:
    assert names(WRAPPER) == {"GET /teams/mine"}
    assert not prefix_unresolved(WRAPPER)


def test_middleware_factories_given_to_use_stay_as_they_were() -> None:
    assert names(MIDDLEWARE) == {"GET /home"}
    # as before: a function value given to use() is no router the scan shows
    assert finding_places(MIDDLEWARE) == {"UNRESOLVED_ROUTER": ["web/app.js:4", "web/app.js:5"]}


@pytest.mark.parametrize("files", [CJS, ESM, TS, HAPI], ids=["cjs", "esm", "ts", "hapi"])
def test_pre_filtered_equals_parse_all(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    wanted = ("/orders/open", "/users/{uid}", "/billing/invoices", "/v0/dogs/{id}")
    assert any(p in documents[1] for p in wanted)
