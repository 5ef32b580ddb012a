"""pack-http-routes: frameworks as data (`plugins/packs/routes/frameworks.py`). Koa is read
through its record alone (the readers, the linker, the pre-filter and the auth rule read the
records); docs/detectors.md's recipe "Adding a framework" names record fields that exist."""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plugins"))

from packs.routes import extract, route_document, seeds  # noqa: E402
from packs.routes.auth import GUARDS, NOT_GUARDS  # noqa: E402
from packs.routes.frameworks import READ, UNREAD, Framework  # noqa: E402
from routes_harness import document, placed, scanned_both_ways  # noqa: E402

# A Koa service of our own: an app, a root router with a nested router mounted under a path, a
# router with its own prefix option, one whose prefix is set by `prefix()`, koa-router's `del`
# and its named routes (a name, then the path).
KOA_SERVICE: dict[str, str] = {
    "svc/index.js": (
        "const Koa = require('koa');\n"
        "const Router = require('@koa/router');\n"
        "const accounts = require('./accounts');\n"
        "const app = new Koa();\n"
        "const root = new Router();\n"
        "root.get('/health', (ctx) => { ctx.body = 'ok'; });\n"
        "root.use('/api', accounts.routes(), accounts.allowedMethods());\n"
        "app.use(root.routes()).use(root.allowedMethods());\n"
        "app.listen(8080);\n"
    ),
    "svc/accounts.ts": (
        "import Router from 'koa-router';\n"
        "const accounts = new Router({ prefix: '/accounts' });\n"
        "accounts.get('/:id', readAccount);\n"
        "accounts.del('/:id', closeAccount);\n"
        "accounts.post('account-open', '/', openAccount);\n"
        "const audit = new Router();\n"
        "audit.prefix('/audit');\n"
        "audit.put('/level', setLevel);\n"
        "accounts.use(audit.routes());\n"
        "function readAccount(ctx) {}\n"
        "function closeAccount(ctx) {}\n"
        "function openAccount(ctx) {}\n"
        "function setLevel(ctx) {}\n"
        "export default accounts;\n"
    ),
}


def test_koa_routes_are_read_through_its_record() -> None:
    assert placed(KOA_SERVICE) == {
        "GET /health": "svc/index.js:6 koa",
        "GET /api/accounts/{id}": "svc/accounts.ts:3 koa",
        "DELETE /api/accounts/{id}": "svc/accounts.ts:4 koa",
        "POST /api/accounts": "svc/accounts.ts:5 koa",
        "PUT /api/accounts/audit/level": "svc/accounts.ts:8 koa",
    }


def test_a_koa_router_imported_by_name_is_a_router() -> None:
    files = {
        "web/app.mjs": (
            "import Koa from 'koa';\n"
            "import { Router } from '@koa/router';\n"
            "const app = new Koa();\n"
            "const router = new Router({ prefix: '/shop' });\n"
            "router.patch('/basket/:line', editLine);\n"
            "app.use(router.routes());\n"
            "function editLine(ctx) {}\n"
        ),
    }
    assert placed(files) == {"PATCH /shop/basket/{line}": "web/app.mjs:5 koa"}


def test_a_prefix_set_on_a_router_made_in_another_file_is_applied_or_said() -> None:
    files = {
        "api/orders.js": (
            "const Router = require('koa-router');\n"
            "const orders = new Router();\n"
            "orders.get('/:id', (ctx) => {});\n"
            "module.exports = orders;\n"
        ),
        "api/index.js": (
            "const Koa = require('koa');\n"
            "const orders = require('./orders');\n"
            "const helpers = require('./helpers');\n"
            "const app = new Koa();\n"
            "orders.prefix('/orders');\n"
            "helpers.prefix('/nothing');\n"
            "app.use(orders.routes());\n"
        ),
        "api/helpers.js": "module.exports = { log: () => {} };\n",
    }
    assert placed(files) == {"GET /orders/{id}": "api/orders.js:3 koa"}
    found = document(files)["findings"]
    assert [(f["code"], f["locations"][0]["line"]) for f in found] == [("UNRESOLVED_ROUTER", 6)]


def test_a_computed_prefix_is_a_finding_not_silence() -> None:
    files = {
        "api/index.js": (
            "const Koa = require('koa');\n"
            "const Router = require('@koa/router');\n"
            "const app = new Koa();\n"
            "const router = new Router();\n"
            "router.prefix(process.env.API_BASE);\n"
            "router.get('/ping', (ctx) => {});\n"
            "app.use(router.routes());\n"
        ),
    }
    found = document(files)
    assert [r["attrs"].get("prefixUnresolved") for r in found["resources"]] == [True]
    assert [f["code"] for f in found["findings"]] == ["UNRESOLVED_PREFIX"]


def test_koa_is_no_longer_an_unread_framework() -> None:
    found = document(KOA_SERVICE)
    assert not [f for f in found["findings"] if f["code"] == "UNREAD_FRAMEWORK"]
    assert "Koa" not in {u.name for u in UNREAD}


def test_a_koa_app_with_no_route_read_is_named_where_it_is_made() -> None:
    files = {"web/server.js": "const Koa = require('koa');\nconst app = new Koa();\n"}
    details = [
        (f["detail"], f["locations"][0]["line"])
        for f in document(files)["findings"]
        if f["code"] == "UNREAD_FRAMEWORK"
    ]
    assert [line for detail, line in details if "a Koa application is created" in detail] == [2]


def test_koa_jwt_guards_and_koa_itself_does_not() -> None:
    files = {
        "api/app.js": (
            "const Koa = require('koa');\n"
            "const Router = require('@koa/router');\n"
            "const jwt = require('koa-jwt');\n"
            "const app = new Koa();\n"
            "const router = new Router();\n"
            "router.get('/open', (ctx) => {});\n"
            "router.get('/closed', jwt({ secret: 's' }), (ctx) => {});\n"
            "app.use(router.routes());\n"
        ),
    }
    linked = route_document([(path, extract(path, source)) for path, source in files.items()])
    auth = {s["resource"].partition(":")[2]: s["value"] for s in linked.signals}
    assert auth == {"GET /open": "none", "GET /closed": "required"}
    assert GUARDS["koa-jwt"] == frozenset({"*"}) and "koa" in NOT_GUARDS


def test_a_koa_scan_with_the_pre_filter_is_the_scan_of_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, parsed = scanned_both_ways(
        tmp_path, {**KOA_SERVICE, "svc/util.js": "module.exports = (a) => a + 1;\n"}, monkeypatch
    )
    assert documents[1] == documents[0]
    assert parsed == [3, 2]  # svc/util.js holds no seed of any record
    assert '"GET /api/accounts/{id}"' in documents[1]


def test_the_pre_filter_admits_a_koa_file_by_its_record() -> None:
    # only koa-router's own calls: `del` and `prefix` on an imported router
    assert seeds.admits("r.js", b"const r = require('./base');\nr.del('/x', h);\n")
    assert seeds.admits("r.js", b"const r = require('./base');\nr.prefix('/x');\n")
    assert seeds.admits("r.js", b"const Router = require('koa-router');\n")
    assert not seeds.admits("r.js", b"const total = delta + prefix;\n")


# -- the recipe in docs/detectors.md is held to the code --------------------------------------

RECIPE = re.compile(r"^### Adding a framework\n(.*?)(?=^##)", re.MULTILINE | re.DOTALL)


def test_the_recipe_names_record_fields_that_exist() -> None:
    text = (ROOT / "docs" / "detectors.md").read_text(encoding="utf-8")
    recipe = RECIPE.search(text)
    assert recipe is not None, "docs/detectors.md has no '### Adding a framework' section"
    named = set(re.findall(r"`(\w+)=`", recipe.group(1)))
    fields = {f.name for f in dataclasses.fields(Framework)}
    assert named and named <= fields, named - fields
    # every field of a record is explained there, so a new one cannot go undocumented
    assert fields <= named, fields - named
    assert "Koa" in {f.name for f in READ}
