"""pack-http-routes: a prefix read through an environment helper of the project's, given
constants (`setting('API_BASE', '/api')`): the helper's default, what the application is given
when the variable is unset — a function returning `process.env[name] ?? otherwise`, or its
`otherwise` early when the variable is unset, or forwarding to such a function — in Express
mounts and Koa router options alike (the route says `attrs.configDefault`); a helper the reader
cannot follow leaves the prefix flagged; a guard factory given constants is still judged by its
definition."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import document, scanned_both_ways  # noqa: E402

HELPERS = (
    "function fromEnvironment(name, otherwise) {\n"
    "  const found = process.env[name];\n"
    "  if (found == null) return otherwise;\n"
    "  return found.trim();\n"
    "}\n"
    "const setting = (name, otherwise) => fromEnvironment(name, otherwise);\n"
    "module.exports = { setting };\n"
)
SHOP: dict[str, str] = {
    "lib/config/env.js": HELPERS,
    "lib/guards.js": (
        "exports.requireRole = (role) => (req, res, next) =>\n"
        "  req.user && req.user.roles.includes(role) ? next() : res.status(403).end();\n"
    ),
    "lib/server.js": (
        "const express = require('express');\n"
        "const Router = require('@koa/router');\n"
        "const { setting } = require('./config/env');\n"
        "const { requireRole } = require('./guards');\n"
        "const orders = express.Router();\n"
        "orders.get('/open', (req, res) => res.end());\n"
        "orders.delete('/:id', requireRole('clerk'), (req, res) => res.end());\n"
        "const web = express();\n"
        "web.use(setting('ORDERS_BASE', '/shop'), orders);\n"
        "web.listen(3000);\n"
        "const feeds = new Router({ prefix: setting('FEEDS_BASE', '/feeds') });\n"
        "feeds.get('/latest', (ctx) => { ctx.body = []; });\n"
        "const Koa = require('koa');\n"
        "const news = new Koa();\n"
        "news.use(feeds.routes());\n"
        "news.listen(3001);\n"
    ),
}


def test_an_environment_helper_s_default_is_the_mount_prefix() -> None:
    found = document(SHOP)
    routes = {str(r["name"]): r["attrs"] for r in found["resources"]}
    assert sorted(routes) == ["DELETE /shop/{id}", "GET /feeds/latest", "GET /shop/open"]
    assert not any(a.get("prefixUnresolved") for a in routes.values())
    assert routes["GET /shop/open"].get("configDefault")
    assert found["findings"] == []


def test_a_guard_factory_given_constants_is_judged_by_its_definition() -> None:
    auth = {str(s["resource"]): s["value"] for s in document(SHOP)["signals"]}
    assert auth["route:DELETE /shop/{id}"] == "required"  # `requireRole('clerk')` answers 403
    assert auth["route:GET /shop/open"] == "none"


@pytest.mark.parametrize(
    "helper",
    [
        "const setting = (name) => lookup(name).value;\nmodule.exports = { setting };\n",
        "function setting(name, otherwise) {\n  if (process.argv.length) return otherwise;\n"
        "  return process.env[name];\n}\nmodule.exports = { setting };\n",
    ],
)
def test_a_helper_not_followed_leaves_the_prefix_flagged(helper: str) -> None:
    found = document({**SHOP, "lib/config/env.js": helper})
    flagged = {str(r["name"]) for r in found["resources"] if r["attrs"].get("prefixUnresolved")}
    assert {"GET /open", "GET /latest"} <= flagged
    assert "UNRESOLVED_PREFIX" in {f["code"] for f in found["findings"]}


def test_env_helpers_scanned_with_the_pre_filter_are_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    extra = {"lib/util.js": "exports.triple = (n) => n * 3;\n"}
    documents, parsed = scanned_both_ways(tmp_path, {**SHOP, **extra}, monkeypatch)
    assert documents[1] == documents[0]
    assert parsed[1] < parsed[0]  # util.js is not parsed
    assert '"GET /shop/open"' in documents[1]
