"""pack-http-routes: libraries a JavaScript app registers that serve routes of their own.
mercurius (GraphQL on Fastify) serves GET and POST at its `path` and an IDE's pages, fixed by
its options (`option_routes`): listed at the register call with `attrs.library` where the
options are literal, a finding naming it where one is computed. `@fastify/http-proxy` forwards
whatever its upstream serves under its prefix, and Connect RPC (`@connectrpc/connect-fastify`,
`-express`, `-node`) a route per method of service definitions: a finding at the call that
configures them, never silence."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from routes_harness import document, finding_places, located, names

GRAPHQL: dict[str, str] = {
    "gateway/src/server.ts": (
        "import Fastify from 'fastify';\n"
        "import mercurius from 'mercurius';\n"
        "import { schema, resolvers } from './schema';\n"
        "\n"
        "const server = Fastify();\n"
        "server.get('/ready', async () => 'ok');\n"
        "server.register(mercurius, {\n"
        "  schema,\n"
        "  resolvers,\n"
        "  path: '/query',\n"
        "  prefix: '/gql',\n"
        "  graphiql: true,\n"
        "});\n"
        "server.listen({ port: 8080 });\n"
    ),
    "gateway/src/schema.ts": "export const schema = 'type Query { up: Boolean }';\n"
    "export const resolvers = {};\n",
}


def test_mercurius_with_literal_options_serves_its_path_and_the_graphiql_pages() -> None:
    assert names(GRAPHQL) == {
        "GET /ready",
        "GET /gql/query",
        "POST /gql/query",
        "GET /gql/graphiql",
        "GET /gql/graphiql/main.js",
        "GET /gql/graphiql/sw.js",
        "GET /gql/graphiql/config.js",
    }
    resources = document(GRAPHQL)["resources"]
    assert {r["attrs"].get("library") for r in resources if r["name"] != "GET /ready"} == {
        "mercurius"
    }
    assert located(GRAPHQL)["POST /gql/query"] == "gateway/src/server.ts:7"


def test_mercurius_defaults_and_a_computed_ide_switch() -> None:
    files = dict(GRAPHQL)
    files["gateway/src/server.ts"] = (
        files["gateway/src/server.ts"]
        .replace("  path: '/query',\n  prefix: '/gql',\n", "")
        .replace("graphiql: true", "graphiql: process.env.SHOW_IDE === 'yes' ? true : false")
    )
    assert names(files) == {"GET /ready", "GET /graphql", "POST /graphql"}
    details = [str(f["detail"]) for f in document(files)["findings"]]
    assert len(details) == 1 and "`mercurius`" in details[0] and "IDE" in details[0], details
    assert finding_places(files) == {"UNRESOLVED_ROUTE": ["gateway/src/server.ts:7"]}


def test_mercurius_without_routes_serves_none() -> None:
    files = dict(GRAPHQL)
    files["gateway/src/server.ts"] = files["gateway/src/server.ts"].replace(
        "graphiql: true", "routes: false"
    )
    assert names(files) == {"GET /ready"}
    assert finding_places(files) == {}


def test_the_playground_ide_is_served_by_the_versions_before_8_only() -> None:
    files = dict(GRAPHQL)
    files["gateway/src/server.ts"] = files["gateway/src/server.ts"].replace(
        "graphiql: true", "graphiql: 'playground'"
    )

    def declared(spec: str) -> dict[str, str]:
        manifest = {"name": "gateway", "dependencies": {"fastify": "^3.0.0", "mercurius": spec}}
        return {**files, "gateway/package.json": json.dumps(manifest)}

    old = names(declared("^7.2.0"))
    assert {"GET /gql/playground", "GET /gql/playground/init.js"} <= old
    assert not {n for n in names(declared("^9.0.0")) if "playground" in n}
    undeclared = document(files)
    assert not {r["name"] for r in undeclared["resources"] if "playground" in str(r["name"])}
    (finding,) = undeclared["findings"]
    assert "some of the versions" in str(finding["detail"]), finding


def test_a_proxy_and_connect_rpc_are_findings_where_they_are_configured() -> None:
    files = {
        "edge/app.js": (
            "const fastify = require('fastify')();\n"
            "const proxy = require('@fastify/http-proxy');\n"
            "const { fastifyConnectPlugin } = require('@connectrpc/connect-fastify');\n"
            "const routes = require('./rpc');\n"
            "\n"
            "fastify.get('/', async () => 'edge');\n"
            "fastify.register(proxy, { upstream: 'http://images.internal', prefix: '/img' });\n"
            "fastify.register(fastifyConnectPlugin, { routes });\n"
            "fastify.listen({ port: 3000 });\n"
        ),
        "edge/rpc.js": "module.exports = (router) => router.service(Catalog, {});\n",
        "billing/server.js": (
            "const express = require('express');\n"
            "const { expressConnectMiddleware } = require('@connectrpc/connect-express');\n"
            "const app = express();\n"
            "app.get('/status', (req, res) => res.send('up'));\n"
            "app.use(expressConnectMiddleware({ routes: (r) => r.service(Billing, {}) }));\n"
            "app.listen(3001);\n"
        ),
        "worker/main.ts": (
            "import * as http from 'node:http';\n"
            "import { connectNodeAdapter } from '@connectrpc/connect-node';\n"
            "\n"
            "http.createServer(connectNodeAdapter({ routes: (r) => r.service(Jobs, {}) }))\n"
            "  .listen(3002);\n"
        ),
    }
    files["worker/client.ts"] = (
        "import { createConnectTransport } from '@connectrpc/connect-node';\n"
        "export const transport = createConnectTransport({ baseUrl: 'http://jobs' });\n"
    )  # a client's transport: no routes, no finding
    assert names(files) == {"GET /", "GET /status"}
    assert sorted(finding_places(files)["UNRESOLVED_ROUTE"]) == [
        "billing/server.js:5",
        "edge/app.js:7",
        "edge/app.js:8",
        "worker/main.ts:4",
    ]
    details = " ".join(str(f["detail"]) for f in document(files)["findings"])
    for library in (
        "@fastify/http-proxy",
        "@connectrpc/connect-fastify",
        "@connectrpc/connect-express",
        "@connectrpc/connect-node",
    ):
        assert library in details, library


_TRPC_API = (
    "import Fastify from 'fastify';\n"
    "import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';\n"
    "import { rootRouter } from './router';\n"
    "\n"
    "const api = Fastify();\n"
    "api.get('/ping', async () => 'pong');\n"
    "api.register(fastifyTRPCPlugin, {\n"
    "  prefix: '/rpc',\n"
    "  trpcOptions: { router: rootRouter },\n"
    "});\n"
    "api.listen({ port: 4000 });\n"
)


def test_the_trpc_fastify_plugin_serves_path_under_its_prefix_for_every_method() -> None:
    files = {
        "api/server.ts": _TRPC_API,
        "api/router.ts": "export const rootRouter = {};\n",
        "api/package.json": json.dumps(
            {"name": "api", "dependencies": {"fastify": "^5.0.0", "@trpc/server": "^11.0.0"}}
        ),
    }
    every = ("DELETE", "GET", "OPTIONS", "PATCH", "POST", "PUT", "TRACE")  # Fastify 5's `all`
    assert names(files) == {f"{m} /rpc/{{path}}" for m in every} | {"GET /ping"}
    assert located(files)["POST /rpc/{path}"] == "api/server.ts:7"
    resources = document(files)["resources"]
    assert {r["attrs"].get("library") for r in resources if r["name"] != "GET /ping"} == {
        "@trpc/server/adapters/fastify"
    }
    assert finding_places(files) == {}
    websocket = dict(files)
    websocket["api/server.ts"] = _TRPC_API.replace("'/rpc',", "'/rpc', useWSS: true,")
    assert "GET /rpc" in names(websocket)
    computed = dict(files)
    computed["api/server.ts"] = _TRPC_API.replace("'/rpc'", "process.env.RPC_PREFIX")
    assert names(computed) == {"GET /ping"}
    assert finding_places(computed) == {"UNRESOLVED_ROUTE": ["api/server.ts:7"]}


def test_trpc_express_is_a_finding_where_it_is_mounted() -> None:
    """bull-board, once named here too, lists its table (`test_..._library_tables.py`)."""
    files = {
        "web/index.js": (
            "const express = require('express');\n"
            "const trpcExpress = require('@trpc/server/adapters/express');\n"
            "const app = express();\n"
            "app.get('/alive', (req, res) => res.send('yes'));\n"
            "app.use('/rpc', trpcExpress.createExpressMiddleware({ router: {} }));\n"
            "app.listen(4001);\n"
        ),
    }
    assert names(files) == {"GET /alive"}
    assert finding_places(files) == {"UNRESOLVED_ROUTE": ["web/index.js:5"]}
    details = " ".join(str(f["detail"]) for f in document(files)["findings"])
    assert "@trpc/server/adapters/express" in details
