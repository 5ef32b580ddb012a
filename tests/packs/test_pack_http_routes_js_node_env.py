"""pack-http-routes: JavaScript routes and mounts written under a direct test of the
environment (`if (process.env.NODE_ENV === 'development')`, `!==`, `==`, a flag bound to the
comparison, a ternary, `flag && app.get(...)`). `NODE_ENV` is unset or `production` where no
sample environment file sets it (what a deployment sets): a branch neither runs is a finding,
not routes (`UNRESOLVED_ROUTE` naming the test and both defaults); a branch one of them runs
is listed; a test the scan cannot read keeps its routes listed. A Fastify `register` or an
Express `use` under such a test mounts nothing then, and says so where it is written. A test
joining reads of `NODE_ENV` is read in each of its defaults whole, and a configuration
library's read (a convict schema's default) is a test like any other."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import document, finding_places, names

FASTIFY: dict[str, str] = {
    "api/src/plugins/sandbox.ts": (
        "import { FastifyInstance } from 'fastify';\n"
        "\n"
        "export default async function sandbox(server: FastifyInstance): Promise<void> {\n"
        "  server.get('/sandbox/offers', async () => []);\n"
        "}\n"
    ),
    "api/src/plugins/routes.ts": (
        "import { FastifyInstance } from 'fastify';\n"
        "import sandbox from './sandbox';\n"
        "\n"
        "export default async function routes(server: FastifyInstance): Promise<void> {\n"
        "  server.get('/ping', async () => 'pong');\n"
        "  if (process.env.NODE_ENV === 'development') {\n"
        "    server.register(sandbox, { prefix: '/dev' });\n"
        "    server.post('/dev/digest', async () => ({}));\n"
        "  }\n"
        "  if (process.env.NODE_ENV !== 'production') {\n"
        "    server.get('/debug/config', async () => ({}));\n"
        "  }\n"
        "}\n"
    ),
    "api/src/main.ts": (
        "import Fastify from 'fastify';\n"
        "import routes from './plugins/routes';\n"
        "\n"
        "const server = Fastify();\n"
        "server.register(routes, { prefix: '/v2' });\n"
        "server.listen({ port: 4000 });\n"
    ),
}

EXPRESS: dict[str, str] = {
    "web/server.js": (
        "const express = require('express');\n"
        "const admin = require('./admin');\n"
        "\n"
        "const app = express();\n"
        "const inDevelopment = process.env.NODE_ENV == 'development';\n"
        "const shipped = 'production' === process.env.NODE_ENV;\n"
        "app.get('/health', (req, res) => res.send('ok'));\n"
        "if (inDevelopment) app.use('/admin', admin);\n"
        "inDevelopment && app.get('/fixtures', (req, res) => res.json([]));\n"
        "shipped ? app.get('*', (req, res) => res.sendFile('index.html'))\n"
        "  : app.get('/dev-index', (req, res) => res.send('dev'));\n"
        "if (process.env.NODE_ENV === 'test') {\n"
        "  app.post('/reset', (req, res) => res.end());\n"
        "} else {\n"
        "  app.get('/version', (req, res) => res.send('1'));\n"
        "}\n"
        "if (settings.mode() === 'development') app.get('/unknown-mode', (req, res) => res.end());\n"
        "app.listen(3000);\n"
    ),
    "web/admin.js": (
        "const { Router } = require('express');\n"
        "const admin = Router();\n"
        "admin.get('/users', (req, res) => res.json([]));\n"
        "module.exports = admin;\n"
    ),
}


def test_fastify_routes_and_plugins_registered_only_in_development_are_findings() -> None:
    assert names(FASTIFY) == {"GET /v2/ping", "GET /v2/debug/config"}
    assert sorted(finding_places(FASTIFY)["UNRESOLVED_ROUTE"]) == [
        "api/src/plugins/routes.ts:7",
        "api/src/plugins/routes.ts:8",
    ]


def test_the_finding_names_the_test_and_both_defaults() -> None:
    details = [
        str(f["detail"]) for f in document(FASTIFY)["findings"] if f["code"] == "UNRESOLVED_ROUTE"
    ]
    assert len(details) == 2
    for detail in details:
        assert "if (process.env.NODE_ENV === 'development')" in detail, detail
        assert "NODE_ENV unset" in detail and "NODE_ENV=production" in detail, detail
    assert any("router is mounted" in d for d in details), details


def test_express_flags_ternaries_and_short_circuits_on_node_env() -> None:
    assert names(EXPRESS) == {
        "GET /health",
        "GET /*",
        "GET /dev-index",
        "GET /version",
        "GET /unknown-mode",
    }
    assert sorted(finding_places(EXPRESS)["UNRESOLVED_ROUTE"]) == [
        "web/server.js:13",
        "web/server.js:8",
        "web/server.js:9",
    ]


def test_a_sample_environment_file_that_sets_node_env_decides_instead() -> None:
    files = {
        **EXPRESS,
        "web/server.js": "require('dotenv').config();\n" + EXPRESS["web/server.js"],
        "web/.env.example": "NODE_ENV=development\n",
    }
    assert names(files) == {
        "GET /health",
        "GET /admin/users",
        "GET /fixtures",
        "GET /dev-index",
        "GET /version",
        "GET /unknown-mode",
    }
    assert sorted(finding_places(files)["UNRESOLVED_ROUTE"]) == [
        "web/server.js:11",
        "web/server.js:14",
    ]


def test_koa_and_hapi_routes_under_a_development_test_are_findings() -> None:
    files = {
        "koa/app.js": (
            "const Koa = require('koa');\n"
            "const Router = require('@koa/router');\n"
            "const app = new Koa();\n"
            "const router = new Router();\n"
            "router.get('/items', (ctx) => {});\n"
            "if (process.env.NODE_ENV === 'development') router.get('/seed', (ctx) => {});\n"
            "app.use(router.routes());\n"
            "app.listen(3000);\n"
        ),
        "hapi/server.js": (
            "const Hapi = require('@hapi/hapi');\n"
            "const server = Hapi.server({ port: 3001 });\n"
            "server.route({ method: 'GET', path: '/orders', handler: () => [] });\n"
            "if (process.env.NODE_ENV === 'development') {\n"
            "  server.route({ method: 'GET', path: '/orders/seed', handler: () => [] });\n"
            "}\n"
            "server.start();\n"
        ),
    }
    assert names(files) == {"GET /items", "GET /orders"}
    assert sorted(finding_places(files)["UNRESOLVED_ROUTE"]) == [
        "hapi/server.js:5",
        "koa/app.js:6",
    ]


# Tests joining two reads of `NODE_ENV` are read in each of its defaults whole: `!isLive && x`
# holds where it is unset, its `else` where it is `production`; a join no default runs is off.
JOINED: dict[str, str] = {
    "web/app.js": (
        "const express = require('express');\n"
        "const app = express();\n"
        "const isLive = process.env.NODE_ENV === 'production';\n"
        "if (!isLive && !process.env.DEMO) {\n"
        "  app.get('/playground', (req, res) => res.end());\n"
        "} else {\n"
        "  app.get('/assets/{file}', (req, res) => res.end());\n"
        "}\n"
        "if (isLive && process.env.NODE_ENV !== 'production') {\n"
        "  app.get('/never', (req, res) => res.end());\n"
        "}\n"
        "if (isLive || process.env.NODE_ENV === 'test') {\n"
        "  app.get('/in-production', (req, res) => res.end());\n"
        "}\n"
    ),
}


def test_a_joined_test_is_read_in_each_default_of_node_env_whole() -> None:
    assert names(JOINED) == {"GET /playground", "GET /assets/{file}", "GET /in-production"}
    assert finding_places(JOINED)["UNRESOLVED_ROUTE"] == ["web/app.js:10"]


# A configuration library's schema read in a test: convict's `default`, a flag bound to a
# comparison with `NODE_ENV` (each default of it in turn), or with a variable no file sets.
CONVICT: dict[str, str] = {
    "package.json": '{"type": "module", "dependencies": {"@hapi/hapi": "21", "convict": "6"}}\n',
    "src/config.js": (
        "import convict from 'convict'\n"
        "const isLive = process.env.NODE_ENV === 'production'\n"
        "export const config = convict({\n"
        "  isLive: { doc: 'live', format: Boolean, default: isLive },\n"
        "  isDemo: { doc: 'demo', format: Boolean, default: process.env.DEMO === 'on' },\n"
        "})\n"
    ),
    "src/server.js": (
        "import Hapi from '@hapi/hapi'\n"
        "import { config } from './config.js'\n"
        "import { devTools, assets } from './plugins.js'\n"
        "const server = Hapi.server({})\n"
        "if (!config.get('isLive') && !config.get('isDemo')) {\n"
        "  await server.register(devTools)\n"
        "} else {\n"
        "  await server.register(assets)\n"
        "}\n"
        "if (config.get('isDemo')) {\n"
        "  server.route({ method: 'POST', path: '/demo/reset', handler: () => 1 })\n"
        "}\n"
    ),
    "src/plugins.js": (
        "export const devTools = { name: 'dev', register: (server) => {\n"
        "  server.route({ method: 'GET', path: '/dev/mail', handler: () => 1 })\n"
        "} }\n"
        "export const assets = { name: 'assets', register: (server) => {\n"
        "  server.route({ method: 'GET', path: '/favicon.ico', handler: () => 1 })\n"
        "} }\n"
    ),
}


def test_a_test_reading_a_convict_schema_is_decided_by_its_defaults() -> None:
    assert names(CONVICT) == {"GET /dev/mail", "GET /favicon.ico"}
    assert finding_places(CONVICT)["UNRESOLVED_ROUTE"] == ["src/server.js:11"]
