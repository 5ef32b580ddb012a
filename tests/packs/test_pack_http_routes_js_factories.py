"""pack-http-routes: an Express router that is the VALUE a project function returns, mounted
where the function is called: `app.use('/p', require('./routes/x')(deps))` (the module's export
called where it is required, arguments or none), `const make = require('./x'); app.use('/p',
make(db))`, `import make from './x'`, a named export, a function given a new router that
registers on it and returns it, one factory mounted under two prefixes. The routes are listed
under the prefix of every call; a factory whose return the runtime chooses (`if (x) return a;
return b`) stays a finding at the call site."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from routes_harness import finding_places, names, prefix_unresolved, scanned_both_ways  # noqa: E402

SHOP: dict[str, str] = {
    "srv/boot.js": (
        "const express = require('express');\n"
        "const auth = require('passport');\n"
        "const site = express();\n"
        "const store = { kind: 'mem' };\n"
        "site.use('/shop', require('../routes/shop')());\n"
        "site.use('/account', (require('../routes/account'))(auth, store));\n"
        "site.use('/eu/tax', require('../routes/tax')('eu'));\n"
        "site.use('/us/tax', require('../routes/tax')('us'));\n"
        "site.use('/hooks', require('../routes/attach')(express.Router(), store));\n"
        "const chooser = require('../routes/flip');\n"
        "site.use('/flip', chooser());\n"
        "site.use('/reports', require('../routes/reports').monthly(store));\n"
        "site.use('/health', require('../routes/health')());\n"
        "site.use('/either', require('../routes/either')());\n"
        "site.listen(3000);\n"
    ),
    # a test the run time decides picks the router returned
    "routes/either.js": (
        "const express = require('express');\n"
        "const stable = express.Router();\n"
        "const beta = express.Router();\n"
        "stable.get('/feed', (req, res) => res.end());\n"
        "beta.get('/feed2', (req, res) => res.end());\n"
        "module.exports = () => (process.env.BETA ? beta : stable);\n"
    ),
    # a named export of the module, called on the `require` itself
    "routes/reports.js": (
        "const { Router } = require('express');\n"
        "exports.monthly = (db) => {\n"
        "  const m = Router();\n"
        "  m.get('/sum', (req, res) => res.json(db));\n"
        "  return m;\n"
        "};\n"
    ),
    # the router's registrations chained on its creation, the chain returned
    "routes/health.js": (
        "const express = require('express');\n"
        "module.exports = () =>\n"
        "  express.Router().get('/live', (req, res) => res.end()).head('/ready', (q, s) => s.end());\n"
    ),
    # a router made at module level, registered on and returned by the exported function
    "routes/shop.js": (
        "var cart = require('express').Router();\n"
        "module.exports = function () {\n"
        "  cart.get('/basket', function (req, res) { res.end(); });\n"
        "  cart.post('/checkout', (req, res) => res.end());\n"
        "  return cart;\n"
        "};\n"
    ),
    # a router made inside an arrow given the app's dependencies
    "routes/account.js": (
        "const { Router } = require('express');\n"
        "const build = (strategy, db) => {\n"
        "  const acct = Router();\n"
        "  acct.get('/profile', (req, res) => res.json(db));\n"
        "  acct.put('/password', strategy.authenticate('local'), (req, res) => res.end());\n"
        "  return acct;\n"
        "};\n"
        "module.exports = build;\n"
    ),
    "routes/tax.js": (
        "const express = require('express');\n"
        "module.exports = function taxes(region) {\n"
        "  const r = express.Router();\n"
        "  r.get('/rates', (req, res) => res.send(region));\n"
        "  return r;\n"
        "};\n"
    ),
    # given a router, registers on it and gives it back
    "routes/attach.js": (
        "module.exports = function (into, db) {\n"
        "  into.delete('/purge', (req, res) => res.end());\n"
        "  return into;\n"
        "};\n"
    ),
    # which router it returns is decided at run time: no prefix can be told
    "routes/flip.js": (
        "const { Router } = require('express');\n"
        "const left = Router();\n"
        "const right = Router();\n"
        "left.get('/west', (req, res) => res.end());\n"
        "right.get('/east', (req, res) => res.end());\n"
        "module.exports = function () {\n"
        "  if (process.env.FLIP) {\n"
        "    return left;\n"
        "  }\n"
        "  return right;\n"
        "};\n"
    ),
}

PANEL: dict[str, str] = {
    "web/index.mjs": (
        "import express from 'express';\n"
        "import makeAdmin from './admin.mjs';\n"
        "import { buildPanel as panelOf } from './panel.mjs';\n"
        "const web = express();\n"
        "web.use('/admin', makeAdmin());\n"
        "const panel = panelOf({ level: 2 });\n"
        "web.use('/panel', panel);\n"
        "web.use('/panel-old', panel);\n"
    ),
    "web/admin.mjs": (
        "import { Router } from 'express';\n"
        "export default () => {\n"
        "  const a = Router();\n"
        "  a.get('/users', (req, res) => res.end());\n"
        "  return a;\n"
        "};\n"
    ),
    "web/panel.mjs": (
        "import express from 'express';\n"
        "export function buildPanel(opts) {\n"
        "  const p = express.Router();\n"
        "  p.patch('/widgets/:id', (req, res) => res.end());\n"
        "  return p;\n"
        "}\n"
    ),
}


def test_a_router_returned_by_a_required_module_s_function_is_mounted_where_it_is_called() -> None:
    listed = names(SHOP)
    assert {"GET /shop/basket", "POST /shop/checkout"} <= listed
    assert {"GET /account/profile", "PUT /account/password"} <= listed
    assert not {"GET /basket", "GET /profile"} & listed
    assert not [n for n in prefix_unresolved(SHOP) if "basket" in n or "profile" in n]


def test_one_factory_required_and_called_twice_lists_its_routes_under_both_prefixes() -> None:
    listed = names(SHOP)
    assert {"GET /eu/tax/rates", "GET /us/tax/rates"} <= listed
    assert "GET /rates" not in listed


def test_a_function_given_a_new_router_returns_it_with_what_it_registers() -> None:
    listed = names(SHOP)
    assert "DELETE /hooks/purge" in listed
    assert "DELETE /purge" not in listed


def test_a_named_export_called_on_the_require_and_a_returned_chain_are_mounted() -> None:
    listed = names(SHOP)
    assert {"GET /reports/sum", "GET /health/live", "HEAD /health/ready"} <= listed
    assert not {"GET /sum", "GET /live"} & listed


def test_a_factory_returning_one_of_two_routers_at_run_time_is_a_finding_at_each_call() -> None:
    listed = names(SHOP)
    assert not {"GET /flip/west", "GET /flip/east"} & listed
    assert not {"GET /either/feed", "GET /either/feed2"} & listed
    unresolved = finding_places(SHOP).get("UNRESOLVED_ROUTER", [])
    assert "srv/boot.js:11" in unresolved
    assert "srv/boot.js:14" in unresolved


def test_esm_default_and_named_factories_are_mounted_under_every_prefix() -> None:
    listed = names(PANEL)
    assert {"GET /admin/users", "PATCH /panel/widgets/{id}", "PATCH /panel-old/widgets/{id}"} <= (
        listed
    )
    assert not prefix_unresolved(PANEL)


KOA: dict[str, str] = {
    "src/server.js": (
        "const Koa = require('koa');\n"
        "const KoaRouter = require('@koa/router');\n"
        "const server = new Koa();\n"
        "const v1 = new KoaRouter({ prefix: '/v1' });\n"
        "v1.use('/pets', require('./pets')({ table: 'pets' }).routes());\n"
        "server.use(v1.routes());\n"
    ),
    "src/pets.js": (
        "const KoaRouter = require('@koa/router');\n"
        "module.exports = function (conf) {\n"
        "  const pets = new KoaRouter();\n"
        "  pets.get('/list', (ctx) => {});\n"
        "  return pets;\n"
        "};\n"
    ),
}


def test_a_koa_router_returned_by_a_required_function_is_mounted_where_it_is_called() -> None:
    assert "GET /v1/pets/list" in names(KOA)
    assert not prefix_unresolved(KOA)


@pytest.mark.parametrize(
    "made",
    [
        "export const makeRouter = () => new Router<State, Ctx & Auth>();\n",
        "export function makeRouter() {\n  return new Router({ prefix: '' });\n}\n",
    ],
    ids=["arrow-typed-new", "function-new"],
)
def test_a_router_a_project_function_makes_with_new_is_the_caller_s_router(made: str) -> None:
    files = {
        "src/lib/routers.ts": "import Router from '@koa/router';\n" + made,
        "src/api/pets.ts": (
            "import { makeRouter } from '../lib/routers';\n"
            "const pets = makeRouter();\n"
            "pets.get('/list', (ctx) => {});\n"
            "export default pets;\n"
        ),
        "src/api/index.ts": (
            "import Koa from 'koa';\n"
            "import pets from './pets';\n"
            "const app = new Koa();\n"
            "app.use(pets.routes());\n"
            "export const handler = app.callback();\n"
        ),
    }
    assert names(files) == {"GET /list"}


@pytest.mark.parametrize("files", [SHOP, PANEL, KOA], ids=["require-called", "esm", "koa"])
def test_pre_filtered_equals_parse_all(
    files: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert any(path in documents[1] for path in ("/us/tax/rates", "/admin/users", "/v1/pets"))
