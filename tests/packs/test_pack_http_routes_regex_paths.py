"""pack-http-routes: a regular expression given as a route's path or a mount path.

Express 4 and 5 route a `RegExp` path as the expression (`app.get(/^\\/x/i, h)`,
`app.route(re)`, `router.all(new RegExp('...'))`, `app.use(/^\\/v\\d+/, router)`); koa-router
routes one only where no prefix is before it (under a prefix it joins the prefix to the
expression's text); Fastify 3+ and hapi reject one. Before, each was an `UNRESOLVED_ROUTE`
saying the path was "a computed value", and the route was lost: now a route named with the
expression's source (`GET /^\\/health$`, flags in `attrs.pathRegex`), or a finding whose detail
says which framework does not route it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402

EXPRESS_SITE: dict[str, str] = {
    "web/server.js": (
        "const express = require('express');\n"
        "const passport = require('passport');\n"
        "const versioned = require('./versioned');\n"
        "const web = express();\n"
        "web.get(/^\\/health$/i, (req, res) => res.end());\n"
        "web.get(/^\\/feed\\.(?:json|xml)$/, (req, res) => res.end());\n"
        "web.post(/^\\/admin\\//, passport.authenticate('jwt'), (req, res) => res.end());\n"
        "const files = express.Router();\n"
        "files.route(/\\.(css|js)$/).get((req, res) => res.end());\n"
        "web.use('/static', files);\n"
        "web.use(/^\\/v\\d+/, versioned);\n"
        "web.listen(3000);\n"
    ),
    "web/versioned.js": (
        "const { Router } = require('express');\n"
        "const EXPORT_RE = new RegExp('^/export/', 'g');\n"
        "const v = Router();\n"
        "v.get('/items/:id', (req, res) => res.end());\n"
        "v.all(new RegExp('^/raw/[a-z/]+'), (req, res) => res.end());\n"
        "v.put(EXPORT_RE, (req, res) => res.end());\n"
        "module.exports = v;\n"
    ),
}


def _routes(found: Any) -> dict[str, Any]:
    resources = found["resources"]
    assert isinstance(resources, list)
    return {str(r["name"]): r for r in resources}


def test_express_regex_paths_and_mounts_are_routes_named_by_their_source() -> None:
    found = document(EXPRESS_SITE)
    routes = _routes(found)
    regexes = {name: r["attrs"].get("pathRegex") for name, r in routes.items()}
    assert regexes == {
        "GET /^\\/health$": "/^\\/health$/i",
        "GET /^\\/feed\\.(?:json|xml)$": "/^\\/feed\\.(?:json|xml)$/",
        "POST /^\\/admin\\/": "/^\\/admin\\//",
        "GET /static/\\.(css|js)$": "/\\.(css|js)$/",
        "GET /^\\/v\\d+/items/{id}": "/^\\/v\\d+/",
        "ALL /^\\/v\\d+/^\\/raw\\/[a-z/]+": "/^\\/v\\d+/; /^\\/raw\\/[a-z/]+/",
        "PUT /^\\/v\\d+/^\\/export\\/": "/^\\/v\\d+/; /^\\/export\\//g",
    }
    places = {name: (r["location"]["path"], r["location"]["line"]) for name, r in routes.items()}
    assert places["GET /^\\/health$"] == ("web/server.js", 5)
    assert places["ALL /^\\/v\\d+/^\\/raw\\/[a-z/]+"] == ("web/versioned.js", 5)
    auth = {s["resource"]: s["value"] for s in found["signals"]}
    assert auth["route:POST /^\\/admin\\/"] == "required"
    assert auth["route:GET /^\\/health$"] == "none"
    assert not [f for f in found["findings"] if f["code"].startswith("UNRESOLVED_")]


WRAPPED_SITE: dict[str, str] = {
    "ops/wire.js": (
        "exports.expose = (server, where, ...stack) => { server.patch(where, ...stack); };\n"
    ),
    "ops/boot.js": (
        "const makeApp = require('express');\n"
        "const { expose } = require('./wire');\n"
        "const ops = makeApp();\n"
        "expose(ops, /^\\/jobs\\/\\d+$/, (req, res) => res.end());\n"
        "expose(ops, RegExp('^/queues/[^/]+$', 'u'), (req, res) => res.end());\n"
        "ops.listen(9000);\n"
    ),
}


def test_a_regex_passed_to_a_wrapper_of_the_project_is_the_path_it_registers() -> None:
    found = document(WRAPPED_SITE)
    routes = _routes(found)
    assert {
        name: (r["attrs"]["pathRegex"], r["location"]["line"]) for name, r in routes.items()
    } == {
        "PATCH /^\\/jobs\\/\\d+$": ("/^\\/jobs\\/\\d+$/", 4),
        "PATCH /^\\/queues\\/[^/]+$": ("/^\\/queues\\/[^/]+$/u", 5),
    }
    assert not found["findings"]


KOA_SITE: dict[str, str] = {
    "svc/pages.ts": (
        "import Router from '@koa/router';\n"
        "export const pages = new Router();\n"
        "pages.get(/^\\/p\\/\\d+$/, async (ctx) => {});\n"
        "pages.get('/about', async (ctx) => {});\n"
    ),
    "svc/reports.js": (
        "const KoaRouter = require('koa-router');\n"
        "const reports = new KoaRouter({ prefix: '/reports' });\n"
        "reports.get(/\\.csv$/, (ctx) => {});\n"
        "reports.get('/list', (ctx) => {});\n"
        "const outer = new KoaRouter();\n"
        "const inner = new KoaRouter();\n"
        "inner.del(RegExp('^/old'), (ctx) => {});\n"
        "outer.use('/nested', inner.routes());\n"
        "module.exports = { reports, outer };\n"
    ),
    "svc/main.js": (
        "const Koa = require('koa');\n"
        "const { pages } = require('./pages');\n"
        "const { reports, outer } = require('./reports');\n"
        "const site = new Koa();\n"
        "site.use(pages.routes()).use(reports.routes()).use(outer.routes());\n"
        "site.listen(80);\n"
    ),
}


def test_koa_router_regex_paths_are_routes_without_a_prefix_else_findings() -> None:
    found = document(KOA_SITE)
    routes = _routes(found)
    assert set(routes) == {"GET /^\\/p\\/\\d+$", "GET /about", "GET /reports/list"}
    assert routes["GET /^\\/p\\/\\d+$"]["attrs"]["pathRegex"] == "/^\\/p\\/\\d+$/"
    assert "pathRegex" not in routes["GET /about"]["attrs"]
    details = {
        (f["locations"][0]["path"], f["locations"][0]["line"]): f["detail"]
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
    }
    assert details == {
        ("svc/reports.js", 3): (
            "the path of this route is a regular expression (`/\\.csv$/`) under the prefix "
            "`/reports`, which koa-router does not route as the expression (it joins the "
            "prefix to the expression's text): it is not listed"
        ),
        ("svc/reports.js", 7): (
            "the path of this route is a regular expression (`/^\\/old/`) under the prefix "
            "`/nested`, which koa-router does not route as the expression (it joins the "
            "prefix to the expression's text): it is not listed"
        ),
    }


REJECTING_SITE: dict[str, str] = {
    "api/app.js": (
        "const fastify = require('fastify')();\n"
        "fastify.get(/^\\/ping/, async () => 'pong');\n"
        "fastify.get('/ok', async () => 'ok');\n"
        "fastify.listen({ port: 3000 });\n"
    ),
    "hapi/server.js": (
        "const Hapi = require('@hapi/hapi');\n"
        "const server = Hapi.server({ port: 4000 });\n"
        "server.route({ method: 'GET', path: /^\\/legacy/, handler: () => 'x' });\n"
        "server.route({ method: 'GET', path: '/fine', handler: () => 'y' });\n"
    ),
}


def test_a_koa_router_regex_mount_path_is_a_prefix_finding_its_routes_listed_without() -> None:
    found = document({
        "gw/index.js": (
            "const Koa = require('koa');\n"
            "const Router = require('@koa/router');\n"
            "const gateway = new Router();\n"
            "const leaf = new Router();\n"
            "leaf.post('/submit', (ctx) => {});\n"
            "gateway.use(/^\\/tenant-\\w+/, leaf.routes());\n"
            "new Koa().use(gateway.routes()).listen(8080);\n"
        ),
    })  # fmt: skip
    routes = _routes(found)
    assert set(routes) == {"POST /submit"}
    assert routes["POST /submit"]["attrs"]["prefixUnresolved"] is True
    assert [(f["code"], f["detail"]) for f in found["findings"]] == [
        (
            "UNRESOLVED_PREFIX",
            "the prefix of this mount is a regular expression (`/^\\/tenant-\\w+/`), which "
            "koa-router does not take as a mount path",
        )
    ]


def test_fastify_and_hapi_regex_paths_are_findings_saying_they_are_not_routed() -> None:
    found = document(REJECTING_SITE)
    assert set(_routes(found)) == {"GET /ok", "GET /fine"}
    details = {
        (f["locations"][0]["path"], f["locations"][0]["line"]): f["detail"]
        for f in found["findings"]
        if f["code"] == "UNRESOLVED_ROUTE"
    }
    assert details == {
        ("api/app.js", 2): (
            "the path of this route is a regular expression (`/^\\/ping/`), which Fastify "
            "does not route: it is not listed"
        ),
        ("hapi/server.js", 3): (
            "the path of this route is a regular expression (`/^\\/legacy/`), which Hapi "
            "does not route: it is not listed"
        ),
    }


def test_regex_paths_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"web/util.js": "module.exports = (s) => /x/.test(s);\n"}
    files = {**EXPRESS_SITE, **WRAPPED_SITE, **KOA_SITE, **REJECTING_SITE, **extra}
    documents, parsed = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]  # the helper no router reaches is left unparsed
