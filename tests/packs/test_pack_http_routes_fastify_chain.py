"""pack-http-routes: calls that return the instance they are called on, so a chain of calls
goes on on it (`Framework.chained`): Fastify's `withTypeProvider<T>()`, `register`, `addHook`,
`decorate*`, `set*Handler`, `addSchema`, `set*Compiler`, `addContentTypeParser` and its route
methods; Express's `use`, `set`, `enable`, `disable`, `engine`, `param`; Koa's `use`;
koa-router's `use`, `prefix`, `param` and route methods. TypeScript's type arguments, `as`,
`!` and `satisfies` on a link change nothing; a link no record knows leaves the route an
`UNRESOLVED_ROUTE` where it is written, never silence. The fixture is our own; its truth is
Fastify 5.1's `onRoute` hook over the same plugins (the automatic HEAD routes left out, as the
pack lists none)."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, fixture_files, scanned_both_ways

FIXTURE = "fastify-chained"
SERVED = {
    "DELETE /gadgets/{gadgetId}",
    "GET /healthz",
    "GET /v2/widgets/{widgetId}",
    "POST /v2/widgets",
    "PUT /scoped/{slot}",
}


def _files() -> dict[str, str]:
    return fixture_files(FIXTURE, "*.ts")


def test_routes_at_the_end_of_instance_returning_chains_are_listed_as_fastify_serves() -> None:
    found = document(_files())
    assert {r["name"] for r in found["resources"]} == SERVED
    assert {r["attrs"]["framework"] for r in found["resources"]} == {"fastify"}
    assert all("prefixUnresolved" not in r["attrs"] for r in found["resources"])


def test_a_chain_link_no_record_knows_is_a_finding_at_the_route() -> None:
    found = document(_files())
    [unknown] = found["findings"]
    assert unknown["code"] == "UNRESOLVED_ROUTE"
    assert unknown["locations"] == [{"path": "src/plugins/gadgets.ts", "line": 9}]
    assert "`.mysteryMethod()`" in unknown["detail"]


def test_a_pre_filtered_scan_of_chains_equals_parsing_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, _files(), monkeypatch)
    assert documents[0] == documents[1]
    assert '"DELETE /gadgets/{gadgetId}"' in documents[1]


def test_express_and_koa_chains_continue_on_the_app_or_router() -> None:
    files = {
        "web.js": (
            "const express = require('express')\n"
            "const server = express()\n"
            "const v1 = express.Router()\n"
            "v1.param('id', (q, s, n) => n()).use((q, s, n) => n())"
            ".get('/orders/:id', (q, s) => s.end())\n"
            "server.set('view engine', 'pug').enable('trust proxy').disable('etag')"
            ".engine('pug', () => null).post('/hooks', (q, s) => s.end())\n"
            "server.use('/v1', v1)\n"
        ),
        "k.js": (
            "const Koa = require('koa')\n"
            "const Router = require('@koa/router')\n"
            "const web = new Koa()\n"
            "const items = new Router()\n"
            "items.prefix('/shop').param('id', async (id, ctx, next) => next())"
            ".get('/items/:id', async () => {}).del('/items/:id', async () => {})\n"
            "web.use(async (ctx, next) => next()).use(items.routes())\n"
        ),
    }
    found = document(files)
    assert {r["name"] for r in found["resources"]} == {
        "GET /v1/orders/{id}",
        "POST /hooks",
        "GET /shop/items/{id}",
        "DELETE /shop/items/{id}",
    }
    assert found["findings"] == []


def test_typescript_wrappers_on_a_link_keep_the_chain() -> None:
    """Also the app made by Fastify's named export (`import { fastify }`), as by its default."""
    files = {
        "api.ts": (
            "import { fastify as build, FastifyInstance } from 'fastify'\n"
            "const root = (build() satisfies FastifyInstance).withTypeProvider<Z>()\n"
            "const again = (root.register(async () => {}) as FastifyInstance)!"
            ".decorateRequest('who', null)\n"
            "again.setValidatorCompiler(() => () => true).get('/ping', async () => 'pong')\n"
        ),
    }
    found = document(files)
    assert [r["name"] for r in found["resources"]] == ["GET /ping"]
    assert found["findings"] == []


def test_route_options_after_an_unknown_link_are_a_finding_at_the_call() -> None:
    files = {
        "srv.js": (
            "const fastify = require('fastify')\n"
            "const srv = fastify()\n"
            "srv.addSchema({ $id: 'a' }).route({ method: 'GET', url: '/known', handler: h })\n"
            "srv.versioned('v9').route({ method: 'GET', url: '/lost', handler: h })\n"
            "function h() {}\n"
        ),
    }
    found = document(files)
    assert [r["name"] for r in found["resources"]] == ["GET /known"]
    [lost] = found["findings"]
    assert (lost["code"], lost["locations"]) == (
        "UNRESOLVED_ROUTE",
        [{"path": "srv.js", "line": 4}],
    )
